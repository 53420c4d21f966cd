#!/usr/bin/env bash
# t_trace_values_gdb.sh: the trace layouts and gostat's decoder against the
# real registers and stack of testdata/traceargs, built by Go 1.15, 1.19,
# 1.21, 1.22 and the newest toolchain. gdb (not our stubs) stops at each
# entry and return of 12 functions and reads exactly the words and byte
# copies gr_trace_layout_of names (tests/trace/gdb_capture.py);
# tests/trace/trace_values_render.c decodes them. Every call must read as
# main.go makes it, `main.add(a=3, b=6) = 9` ... (trace_layout/values.txt,
# pointers masked), and on the register ABI the JSON arrays must equal
# trace_layout/values-regabi.json (1.15 names its results ~r2... instead).
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
source tests/lib.sh
TMP=$(mktemp -d /tmp/t_trace_values_gdb.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
FAILS=0
fail() { echo "FAIL: $*"; FAILS=$((FAILS + 1)); }
command -v gdb >/dev/null || { echo "FAIL: gdb missing"; exit 1; }
source tests/trace/drivers.sh trace_layout_dump trace_values_render
DUMP=$TREE/build/tests/trace_layout_dump
RENDER=$TREE/build/tests/trace_values_render
FUNCS=(main.add main.widths main.floats main.greet main.sum main.byteCount 'main.(*counter).Inc'
       main.divmod main.check main.lookup main.norm1 main.describe)
NEWEST=$(ls -d build/toolchains/usr/lib/go-1.* /usr/lib/go-1.* 2>/dev/null | sed 's/.*go-//' | sort -t. -k2 -n | tail -1)
for v in 1.15 1.19 1.21 1.22 "$NEWEST"; do
    bin=$TMP/ta-$v
    build_go "$v" testdata/traceargs "$bin" || { fail "go$v build"; continue; }
    "$DUMP" "$bin" "${FUNCS[@]}" > "$TMP/layouts" || { fail "go$v: layouts"; continue; }
    "$(go_bin "$v")" tool nm "$bin" > "$TMP/syms"
    TRACE_SYMS=$TMP/syms TRACE_LAYOUTS=$TMP/layouts TRACE_CAPTURES=$TMP/captures GODEBUG=asyncpreemptoff=1 \
        timeout 300 gdb -nx -batch -x tests/trace/gdb_capture.py "$bin" > "$TMP/gdb.log" 2>&1 ||
        { fail "go$v: gdb"; tail -5 "$TMP/gdb.log"; continue; }
    "$RENDER" "$bin" "$TMP/captures" | sed 's/0x[0-9a-f]*/0x?/g' > "$TMP/out"
    grep -v '^ ' "$TMP/out" | diff -u tests/rewriter/trace_layout/values.txt - > "$TMP/diff" ||
        { fail "go$v: values differ:"; head -30 "$TMP/diff"; }
    if [ "$v" != 1.15 ]; then
        grep '^ ' "$TMP/out" | diff -u tests/rewriter/trace_layout/values-regabi.json - > "$TMP/diff" ||
            { fail "go$v: JSON differs:"; head -30 "$TMP/diff"; }
    fi
done
# Stripped (Go >= 1.18, register ABI): the pieces FUNCDATA_ArgInfo lists,
# raw and masked to their size, as Go's tracebacks print them; gdb finds
# the functions by the unstripped build's symbols (the same code).
for v in 1.19 1.22 "$NEWEST"; do
    bin=$TMP/ta-$v
    build_go "$v" testdata/traceargs "$bin-s" '-ldflags=-s -w' || { fail "go$v stripped build"; continue; }
    "$DUMP" "$bin-s" main.add main.widths > "$TMP/layouts"
    "$(go_bin "$v")" tool nm "$bin" > "$TMP/syms"
    TRACE_SYMS=$TMP/syms TRACE_LAYOUTS=$TMP/layouts TRACE_CAPTURES=$TMP/captures GODEBUG=asyncpreemptoff=1 \
        timeout 300 gdb -nx -batch -x tests/trace/gdb_capture.py "$bin-s" > "$TMP/gdb.log" 2>&1 ||
        { fail "go$v stripped: gdb"; continue; }
    "$RENDER" "$bin-s" "$TMP/captures" | grep -v '^ ' > "$TMP/out"
    printf '%s\n' 'main.add(0x3, 0x6) = 0x9' 'main.add(0xfffffffffffffff9, 0x2) = 0xfffffffffffffffb' \
        'main.widths(0xfe, 0xfed4, 0xfffeee90, 0xfffffffed5fa0e00, 0xc8, 0xea60, 0xee6b2800, 0x8000000000000005) = 0x7fffffffc4650e8f' |
        diff -u - "$TMP/out" || fail "go$v stripped: values differ"
done
[ "$FAILS" -eq 0 ] && echo "t_trace_values_gdb: PASS" || { echo "t_trace_values_gdb: $FAILS failures"; exit 1; }
