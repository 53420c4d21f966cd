#!/usr/bin/env bash
# tests/run.sh [FILTER...]: runs every tests/t_*.sh (sorted by name) from the
# repository root, each under a time limit, and prints
#   PASS name (Ns)      or      FAIL name (Ns) followed by the test's output
# and finally the line "N passed, N failed". Exit status 1 if any failed (or
# if no test matched the filters).
#
# FILTER: a substring of the test name (e.g. "stdlib" or "t_reject"); with
# several filters a test runs if it matches any of them.
# TEST_TIMEOUT: seconds allowed per test script (default 1500).
# Logs are kept in build/test-logs/<name>.log.

set -u

ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT" || exit 1
TEST_TIMEOUT=${TEST_TIMEOUT:-1500}
LOGDIR=$ROOT/build/test-logs
mkdir -p "$LOGDIR"

tests=()
for t in $(cd tests && ls t_*.sh 2>/dev/null | LC_ALL=C sort); do
    name=${t%.sh}
    if [ $# -gt 0 ]; then
        match=0
        for f in "$@"; do
            case $name in *"$f"*) match=1 ;; esac
        done
        [ $match -eq 1 ] || continue
    fi
    tests+=("$name")
done

passed=0
failed=0
failed_names=()
if [ ${#tests[@]} -eq 0 ]; then
    echo "no tests match: $*"
fi
for name in ${tests[@]+"${tests[@]}"}; do
    log=$LOGDIR/$name.log
    start=$(date +%s)
    timeout -k 10 "$TEST_TIMEOUT" bash "tests/$name.sh" >"$log" 2>&1
    rc=$?
    secs=$(($(date +%s) - start))
    if [ $rc -eq 0 ]; then
        echo "PASS $name (${secs}s)"
        passed=$((passed + 1))
    else
        if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
            echo "FAIL $name (${secs}s): timed out after ${TEST_TIMEOUT}s"
        else
            echo "FAIL $name (${secs}s): exit status $rc"
        fi
        sed 's/^/    /' "$log"
        failed=$((failed + 1))
        failed_names+=("$name")
    fi
done

if [ $failed -gt 0 ]; then
    echo "failed: ${failed_names[*]}"
fi
echo "$passed passed, $failed failed"
if [ $failed -gt 0 ] || [ ${#tests[@]} -eq 0 ]; then
    exit 1
fi
exit 0
