#!/usr/bin/env bash
# tests/unit/run.sh PROGRAM...: runs the C unit test programs (built by
# `make unit`), shows the output of each that failed, and ends with the line
# "N passed, N failed" (test cases over all programs). A program that dies
# without its summary line (a crash, a sanitizer report) counts as one
# failed case. Exit status 1 if anything failed.
#
# UBSan only reports by default; here a report stops the program, so it
# fails. UNIT_TIMEOUT: seconds allowed per program (default 60).
set -u
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
UNIT_TIMEOUT=${UNIT_TIMEOUT:-60}

passed=0
failed=0
for prog in "$@"; do
    out=$(timeout -k 5 "$UNIT_TIMEOUT" "$prog" 2>&1)
    rc=$?
    summary=$(printf '%s\n' "$out" | tail -n 1)
    if [[ $summary =~ ^[a-z_0-9]+:\ ([0-9]+)\ passed,\ ([0-9]+)\ failed$ ]]; then
        p=${BASH_REMATCH[1]} f=${BASH_REMATCH[2]}
        # a non-zero status with no failed case: no case ran
        [ "$rc" -ne 0 ] && [ "$f" -eq 0 ] && f=1
    else
        p=0 f=1
        summary="$(basename "$prog"): exit status $rc, no summary line"
    fi
    passed=$((passed + p))
    failed=$((failed + f))
    if [ "$f" -gt 0 ]; then
        printf '%s\n' "$out"
        [ "$summary" = "$(printf '%s\n' "$out" | tail -n 1)" ] || echo "$summary"
    else
        echo "$summary"
    fi
done
if [ $# -eq 0 ]; then
    echo "no unit test programs given"
    failed=1
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
