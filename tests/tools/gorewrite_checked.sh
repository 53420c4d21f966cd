#!/usr/bin/env bash
# tests/tools/gorewrite_checked.sh: what the tests run as $GOREWRITE
# (tests/lib.sh). Runs the real gorewrite ($GOREWRITE_REAL, default
# bin/gorewrite) with the same arguments plus --layout-report, so its exit
# status, stdout and stderr are gorewrite's own; when it wrote an output,
# LIEF re-reads it (build/tests/lief_check) against INPUT and the report.
# A failed check prints the difference on stderr and exits 70.
#
#   gorewrite_checked.sh ARGS...       gorewrite ARGS, then the check
#   gorewrite_checked.sh --check REPORT  the check alone, for a report
#                                      written by gorewrite run otherwise
#                                      (tests/rewriter/t_valgrind.sh runs it under
#                                      valgrind)
#
# GOREWRITE_REPORT_COPY=FILE: a copy of the checked report goes to FILE
# (for tests that read what was patched where).
# Each check appends one line to $LIEF_CHECK_LOG when that is set
# (tests/run.sh sets it per test and counts them): "ok OUTPUT" or
# "FAIL OUTPUT: difference".
# (tests that run `gorewrite` by name put a symlink to this file first in PATH)
ROOT=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../.." && pwd)
REAL=${GOREWRITE_REAL:-$ROOT/bin/gorewrite}
CHECKER=${LIEF_CHECK:-$ROOT/build/tests/lief_check}
EXIT_CHECK_FAILED=70  # EX_SOFTWARE: unlike any status of gorewrite or gostat

# log LINE: one line for tests/run.sh's count (short: appended atomically).
log() {
    [ -n "${LIEF_CHECK_LOG:-}" ] && printf '%s\n' "$1" >>"$LIEF_CHECK_LOG"
    return 0
}

# check REPORT: LIEF re-reads the output REPORT describes. LIEF 0.9's C
# API leaks a little per parse (not ours): LeakSanitizer, under
# `make asan`, is told to ignore libLIEF.
check() {
    local out rc
    out=$(LSAN_OPTIONS=suppressions=$ROOT/tests/tools/lief_check.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS} \
        "$CHECKER" "$1" 2>&1)
    rc=$?
    if [ $rc -eq 0 ]; then
        log "ok ${out#lief_check: }"
        return 0
    fi
    out=$(printf '%s' "$out" | tr '\n' ' ' | head -c 1000)
    log "FAIL $out"
    echo "gorewrite_checked: LIEF's reading of the output differs from gorewrite's report: $out" >&2
    return $EXIT_CHECK_FAILED
}

if [ "${1:-}" = --check ] && [ $# -eq 2 ]; then
    check "$2"
    exit
fi

dir=$(mktemp -d "${TMPDIR:-/tmp}/gorewrite-checked.XXXXXX") || exit 2
trap 'rm -rf "$dir"' EXIT
"$REAL" --layout-report "$dir/layout" "$@"
rc=$?
# Refusals write no report; a report is written only once the output is
# complete. Success without one is --help, --version or --print-layout
# (which write no output), or a bug.
if [ $rc -eq 0 ] && [ -s "$dir/layout" ]; then
    check "$dir/layout" || exit
    if [ -n "${GOREWRITE_REPORT_COPY:-}" ]; then
        cp "$dir/layout" "$GOREWRITE_REPORT_COPY" || exit 2
    fi
elif [ $rc -eq 0 ]; then
    case " $* " in *" -h "* | *" --help "* | *" --version "* | *" --print-layout "*) exit 0 ;; esac
    log "FAIL no layout report: gorewrite $*"
    echo "gorewrite_checked: gorewrite $* exited 0 but wrote no layout report" >&2
    exit $EXIT_CHECK_FAILED
fi
exit $rc
