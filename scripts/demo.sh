#!/usr/bin/env bash
# scripts/demo.sh (make demo): build the recursion test program with Go 1.22,
# instrument it, run it, and show gostat's tables of its calls and times.
set -u

ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/tests/lib.sh"
cd "$ROOT" || exit 1

for t in bin/gorewrite bin/gostat; do
    [ -x "$t" ] || { echo "demo: $t is missing; run 'make all'" >&2; exit 1; }
done

DEMO=build/demo
mkdir -p "$DEMO"
STATDIR=$(mktemp -d "${TMPDIR:-/tmp}/gostat-demo.XXXXXX")
trap 'rm -rf "$STATDIR"' EXIT

# show CMD...: print the command like a shell transcript, then run it.
show() {
    echo "\$ $*"
    "$@"
}

echo "# Build a small Go program (testdata/recursion: fib(25), isEven/isOdd, ack) with Go 1.22."
echo "\$ (cd testdata/recursion && GO111MODULE=off $(go_bin 1.22) build -o $ROOT/$DEMO/fib .)"
build_go 1.22 testdata/recursion "$DEMO/fib" || exit 1
echo
echo "# Instrument it: every Go function with a stack check now counts and times its calls."
show bin/gorewrite "$DEMO/fib" "$DEMO/fib.instr" || exit 1
echo
echo "# Run the instrumented copy; it behaves exactly like the original."
echo "\$ GOSTAT_DIR=$STATDIR $DEMO/fib.instr 25"
GOSTAT_DIR=$STATDIR "$DEMO/fib.instr" 25
rc=$?
[ $rc -eq 0 ] || { echo "demo: $DEMO/fib.instr exited $rc" >&2; exit 1; }
echo
stats=$(stats_file_for "$STATDIR") || exit 1
echo "# It left its statistics in $stats."
echo "\$ ls $STATDIR"
ls "$STATDIR"
echo
echo "# The 15 most-called functions (fib(25) makes 242785 calls of main.fib):"
show bin/gostat "$stats" --top 15
echo
echo "# Where the time went (inclusive: a call's time contains its callees'):"
show bin/gostat "$stats" --sort time --top 8
echo
echo "# The same numbers for other tools: a pprof profile, read by Go's own pprof:"
show bin/gostat pprof -o "$DEMO/fib.pb.gz" "$stats" || exit 1
go_env 1.22 "$(go_bin 1.22)" tool pprof -top -nodecount=5 "$DEMO/fib.pb.gz" 2>/dev/null | sed 's/^/    /'
echo "# While a program runs: gostat top PID (live view), gostat serve (Prometheus /metrics);"
echo "# in CI: gostat merge / diff / coverage (docs/ci.md). gostat --help lists every command."
