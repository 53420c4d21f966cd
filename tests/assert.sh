# tests/assert.sh: the assertion style of the gostat tests, on top of
# lib.sh (its fail/$fails, $GOSTAT). Source it from a test run at the
# repository root; it gives a private GOSTAT_DIR in $dir (removed on exit),
# the stats-file generator $MKSTATS, and:
#   expect NAME WANT GOT       fail NAME unless WANT equals GOT (shows both)
#   run_ok NAME ARGS...        run gostat ARGS into $out; fail NAME unless
#                              it exits 0 with nothing on stderr
#   row N                      line N of $out, words single-spaced
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

run_ok() {
    local name=$1
    shift
    out=$("$GOSTAT" "$@" 2>"$dir/stderr")
    local rc=$?
    [ $rc -eq 0 ] || fail "$name: exit $rc"
    [ -s "$dir/stderr" ] && fail "$name: stderr: $(cat "$dir/stderr")"
}

row() { sed -n "$1p" <<<"$out" | tr -s ' '; }

finish() {
    [ $fails -eq 0 ] && echo "PASS: $1"
    exit $((fails > 0))
}
