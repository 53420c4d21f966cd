# tests/assert.sh: the assertion style of the gostat tests, on top of
# lib.sh (its fail/$fails, $GOSTAT). Source it from a test run at the
# repository root; it gives a private GOSTAT_DIR in $dir (removed on exit),
# the stats-file generator $MKSTATS, and:
#   expect NAME WANT GOT       fail NAME unless WANT equals GOT (shows both)
#   finish TEST_NAME           print PASS when nothing failed; exit status
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
MKSTATS=${MKSTATS:-$ROOT/build/tests/mkstats}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
export GOSTAT_DIR=$dir

expect() {
    if [ "$2" != "$3" ]; then
        fail "$1"
        printf -- '--- expected\n%s\n--- got\n%s\n' "$2" "$3"
    fi
}

finish() {
    [ $fails -eq 0 ] && echo "PASS: $1"
    exit $((fails > 0))
}
