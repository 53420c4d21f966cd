# tests/assert.sh: the assertion style of the gostat tests. Source it from a
# test run at the repository root; it gives a private GOSTAT_DIR in $dir
# (removed on exit), the binaries under test, and fail/expect/finish:
#   fail MESSAGE               count a failure and say why
#   expect NAME WANT GOT       fail NAME unless WANT equals GOT (shows both)
#   finish TEST_NAME           print PASS when nothing failed; exit status
set -u
GOSTAT=${GOSTAT_BIN:-bin/gostat}
MKSTATS=${MKSTATS_BIN:-build/tests/mkstats}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
export GOSTAT_DIR=$dir
failures=0

fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

expect() {
    if [ "$2" != "$3" ]; then
        fail "$1"
        printf -- '--- expected\n%s\n--- got\n%s\n' "$2" "$3"
    fi
}

finish() {
    [ $failures -eq 0 ] && echo "PASS: $1"
    exit $((failures > 0))
}
