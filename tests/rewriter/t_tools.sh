#!/usr/bin/env bash
# t_tools: the output stays a normal Go binary for the usual tools. On an
# instrumented program (Go 1.22, with symbols and DWARF):
#  - `go tool nm` lists exactly the same symbols as for the original;
#  - `go tool objdump` disassembles a patched function (the jmp is there);
#  - gdb stops at a breakpoint on a counted function, with a backtrace
#    into main.main, source file and line;
#  - a CPU profile written by the instrumented program is read by
#    `go tool pprof` against the instrumented binary, and names main.fib;
#  - readelf shows PT_PHDR first and the PT_LOADs in address order.
. "$(dirname "$0")/../lib.sh"
require_tools

V=1.22
GO=$(go_bin "$V")
work_dir

build_go "$V" "$ROOT/testdata/profiled" "$WORK/prog" || exit 1
instrument "$WORK/prog" "$WORK/prog.instr" || exit 1
export GOSTAT_DIR=$WORK/stats GOSTAT_QUIET=1
mkdir -p "$GOSTAT_DIR"

# nm: same symbols, same addresses.
go_env "$V" "$GO" tool nm "$WORK/prog" >"$WORK/nm.orig" || fail "go tool nm on the original"
go_env "$V" "$GO" tool nm "$WORK/prog.instr" >"$WORK/nm.instr" || fail "go tool nm on the output"
cmp -s "$WORK/nm.orig" "$WORK/nm.instr" || fail "go tool nm lists different symbols: $(diff "$WORK/nm.orig" "$WORK/nm.instr" | head -5)"
[ "$(wc -l <"$WORK/nm.instr")" -gt 1000 ] || fail "go tool nm listed too few symbols"

# objdump: the patched entry of main.fib is a jmp followed by int3.
go_env "$V" "$GO" tool objdump -s '^main.fib$' "$WORK/prog.instr" >"$WORK/objdump" || fail "go tool objdump"
sed -n 2p "$WORK/objdump" | grep -q 'JMP' || fail "objdump: main.fib does not start with JMP: $(sed -n 2p "$WORK/objdump")"
sed -n 3p "$WORK/objdump" | grep -q 'INT \$0x3' || fail "objdump: no int3 after the jmp: $(sed -n 3p "$WORK/objdump")"

# gdb: breakpoint, backtrace, source line.
gdb -nx -batch -ex 'set auto-load safe-path /nonexistent' -ex 'handle SIGURG nostop noprint pass' \
    -ex 'break main.fib' -ex "run $WORK/gdb.prof" -ex 'bt 2' -ex 'kill' \
    "$WORK/prog.instr" >"$WORK/gdb" 2>&1
grep -q 'Breakpoint 1, main.fib (n=35' "$WORK/gdb" || fail "gdb did not stop in main.fib(35): $(grep -i -m3 'break\|error' "$WORK/gdb")"
grep -q '#1 .* in main.main () at .*testdata/profiled/main.go:[0-9]' "$WORK/gdb" || fail "gdb backtrace lacks main.main with its source line"

# pprof: the instrumented program's own CPU profile, read with its binary.
# Built --count-only: with every call of fib timed, nearly all its time is
# in the trampolines' TSC reads, which the profiler books to
# runtime._ExternalCode (README, known limits), and a run may then have no
# sample inside fib itself.
"$GOREWRITE" --count-only "$WORK/prog" "$WORK/prog.count" >/dev/null || fail "gorewrite --count-only failed"
out=$("$WORK/prog.count" "$WORK/cpu.prof") || fail "the profiled program failed"
[ "$out" = 9227465 ] || fail "fib(35) printed '$out'"
go_env "$V" "$GO" tool pprof -top "$WORK/prog.count" "$WORK/cpu.prof" >"$WORK/pprof" 2>&1 || fail "go tool pprof: $(tail -3 "$WORK/pprof")"
grep -q ' main\.fib$' "$WORK/pprof" || fail "pprof -top does not name main.fib: $(head -12 "$WORK/pprof")"

# readelf: program headers in the order loaders expect.
types=$(readelf -lW "$WORK/prog.instr" | awk '/^  [A-Z]/ && $1 != "Type" {print $1}' | tr '\n' ' ')
case $types in PHDR*) ;; *) fail "PT_PHDR is not first: $types" ;; esac
readelf -lW "$WORK/prog.instr" | awk '$1 == "LOAD" {print $3}' >"$WORK/loads"
sort -c "$WORK/loads" 2>/dev/null || fail "PT_LOAD segments are not in address order: $(tr '\n' ' ' <"$WORK/loads")"
readelf -SW "$WORK/prog.instr" | grep -q '\.gorewrite\.text' || fail "no .gorewrite.text section"

[ $fails -eq 0 ] && echo "ok   nm, objdump, gdb, pprof and readelf read the instrumented binary"
[ $fails -eq 0 ]
