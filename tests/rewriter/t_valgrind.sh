#!/usr/bin/env bash
# t_valgrind: valgrind memcheck on gorewrite over real Go programs (Go 1.19
# with DWARF, a Go 1.22 PIE, a stripped Go 1.24 program) and over two
# rejected inputs: no invalid read or write, no use of uninitialised
# memory, no leak. Each output is re-read by LIEF like every other
# (tests/tools/gorewrite_checked.sh --check), from gorewrite's report.
# Under `make asan` bin/gorewrite carries ASan, which valgrind cannot run,
# so an unsanitized build is made in build/plain.
. "$(dirname "$0")/../lib.sh"
require_tools

work_dir
GR=$GOREWRITE_REAL
if nm "$GR" 2>/dev/null | grep -q __asan_init; then
    make -s -C "$ROOT" BUILD=build/plain SANITIZE= build/plain/gorewrite >"$WORK/make.log" 2>&1 ||
        { echo "FAIL: cannot build an unsanitized gorewrite:"; cat "$WORK/make.log"; exit 1; }
    GR=$ROOT/build/plain/gorewrite
fi

build_go 1.19 "$ROOT/testdata/recursion" "$WORK/rec119" || exit 1
build_go 1.22 "$ROOT/testdata/callers" "$WORK/callers122pie" -buildmode=pie || exit 1
build_go 1.24 "$ROOT/testdata/iface" "$WORK/iface124s" -ldflags=-s || exit 1
head -c 300000 "$WORK/rec119" >"$WORK/truncated"

# vg WANT_STATUS INPUT: gorewrite INPUT under memcheck must exit WANT_STATUS
# (99 is valgrind's own: an error was found).
vg() {
    local want=$1 in=$2 rc
    rm -f "$WORK/out" "$WORK/layout"
    valgrind -q --error-exitcode=99 --leak-check=full --show-leak-kinds=definite,indirect \
        --errors-for-leak-kinds=definite,indirect \
        "$GR" --layout-report "$WORK/layout" "$in" "$WORK/out" >/dev/null 2>"$WORK/vg.log"
    rc=$?
    if [ $rc -eq 0 ] && ! "$GOREWRITE" --check "$WORK/layout"; then
        fail "$(basename "$in"): LIEF's reading of the output differs from the report"
    elif [ $rc -eq "$want" ]; then
        echo "ok   $(basename "$in"): clean, exit $rc"
    else
        fail "$(basename "$in"): exit $rc, want $want"
        head -60 "$WORK/vg.log"
    fi
}
vg 0 "$WORK/rec119"
vg 0 "$WORK/callers122pie"
vg 0 "$WORK/iface124s"
vg 2 "$WORK/truncated"
vg 2 /bin/true
[ $fails -eq 0 ]
