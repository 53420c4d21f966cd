#!/usr/bin/env bash
# t_trace_layout.sh: gr_trace_layout_of (rewriter/find/trace_layout.c) on
# testdata/traceargs built by Go 1.15 (stack ABI), 1.19, 1.21, 1.22 and the
# newest toolchain (register ABI): the captured words and each value's
# leaves must equal tests/rewriter/trace_layout/{stack-go1.15,regabi}.txt,
# worked out from cmd/compile/abi-internal.md (registers RAX RBX RCX RDI
# RSI R8.. and X0..; an error result's type word dereferenced through its
# itab; int8/int16/int32 sharing a stack slot at shifts 0, 2, 4 in 1.15).
# Stripped builds (no types): raw words, the argument area's on the stack
# ABI; on the register ABI the pieces FUNCDATA_ArgInfo lists (Go >= 1.18)
# in the integer registers, and RAX at the ret (stripped-*.txt). Driver:
# tests/trace/trace_layout_dump.c (build/tests/trace_layout_dump).
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
source tests/lib.sh
TMP=$(mktemp -d /tmp/t_trace_layout.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
FAILS=0
fail() { echo "FAIL: $*"; FAILS=$((FAILS + 1)); }
source tests/trace/drivers.sh trace_layout_dump
DUMP=$TREE/build/tests/trace_layout_dump
FUNCS=(main.add main.widths main.floats main.greet main.sum main.byteCount 'main.(*counter).Inc'
       main.divmod main.check main.lookup main.norm1 main.describe main.fact)
NEWEST=$(ls -d build/toolchains/usr/lib/go-1.* /usr/lib/go-1.* 2>/dev/null | sed 's/.*go-//' | sort -t. -k2 -n | tail -1)
for v in 1.15 1.19 1.21 1.22 "$NEWEST"; do
    expect=tests/rewriter/trace_layout/regabi.txt
    [ "$v" = 1.15 ] && expect=tests/rewriter/trace_layout/stack-go1.15.txt
    build_go "$v" testdata/traceargs "$TMP/ta-$v" || { fail "go$v build"; continue; }
    build_go "$v" testdata/traceargs "$TMP/ta-$v-s" '-ldflags=-s -w' || { fail "go$v stripped build"; continue; }
    "$DUMP" "$TMP/ta-$v" "${FUNCS[@]}" > "$TMP/out-$v.txt" || fail "go$v: dump failed"
    diff -u "$expect" "$TMP/out-$v.txt" > "$TMP/diff" || { fail "go$v layout differs:"; head -40 "$TMP/diff"; }
    sexpect=tests/rewriter/trace_layout/stripped-regabi.txt
    [ "$v" = 1.15 ] && sexpect=tests/rewriter/trace_layout/stripped-stack-go1.15.txt
    "$DUMP" "$TMP/ta-$v-s" main.add main.widths > "$TMP/s.txt" || fail "go$v stripped: dump failed"
    diff -u "$sexpect" "$TMP/s.txt" > "$TMP/diff" || { fail "go$v stripped layout differs:"; head -20 "$TMP/diff"; }
    # assembly: runtime.memmove is ABIInternal, IndexByteString's body ABI0 (".abi0" in .symtab)
    if [ "$v" != 1.15 ]; then
        "$DUMP" "$TMP/ta-$v" runtime.memmove internal/bytealg.IndexByteString | grep flags: > "$TMP/asm.txt"
        printf '  flags: regabi stripped results-raw rtypes:no\n  flags: stackabi stripped results-raw rtypes:no\n' |
            diff -u - "$TMP/asm.txt" || fail "go$v: assembly functions' ABIs"
    fi
done
# Blank parameters: Go 1.15 leaves them out of DWARF, so its typed layout
# would read b and d from _'s slots; the untyped argument area is shown
# instead (6 words: _, b, _'s two, d, the result). 1.17+ names them ~p0, ~p2.
mkdir -p "$TMP/blank"
cat > "$TMP/blank/main.go" <<'GO'
package main

//go:noinline
func blank(_ int, b int, _ string, d int) int { return b + d }

func main() { println(blank(1, 2, "x", 4)) }
GO
for v in 1.15 1.22; do
    build_go "$v" "$TMP/blank" "$TMP/blank-$v" || { fail "go$v blank build"; continue; }
    "$DUMP" "$TMP/blank-$v" main.blank > "$TMP/b.txt"
    if [ "$v" = 1.15 ]; then
        want=$'main.blank\n  entry: [rsp+8] [rsp+16] [rsp+24] [rsp+32] [rsp+40] [rsp+48]'
        [ "$(head -2 "$TMP/b.txt")" = "$want" ] && grep -q 'stackabi stripped' "$TMP/b.txt" ||
            fail "go1.15 blank parameters: $(cat "$TMP/b.txt")"
    else
        grep -q '^  arg ~p0 int: w0$' "$TMP/b.txt" && grep -q '^  arg d int: w4$' "$TMP/b.txt" ||
            fail "go$v blank parameters: $(cat "$TMP/b.txt")"
    fi
done
# Generic functions compiled for a shape take a dictionary DWARF does not
# list: first (Max: a in RBX, as its DWARF location says), or after a
# method's receiver (Get: b in RAX, k in RCX).
mkdir -p "$TMP/gen"
cat > "$TMP/gen/main.go" <<'GO'
package main

//go:noinline
func Max[T int | float64](a, b T) T {
	if a > b {
		return a
	}
	return b
}

type Box[T any] struct{ v T }

//go:noinline
func (b *Box[T]) Get(k int) T { return b.v }

func main() { println(Max(3, 9), Max(1.5, -2.0)); b := &Box[string]{"x"}; println(b.Get(1)) }
GO
# (Go 1.18-1.20 name both instances "main.Max[...]" in pclntab: Go 1.19 is in
# tests/stubs/t_trace_generics.sh, which traces them.)
for v in 1.21 1.22 "$NEWEST"; do
    build_go "$v" "$TMP/gen" "$TMP/gen-$v" || { fail "go$v generics build"; continue; }
    s=
    "$DUMP" "$TMP/gen-$v" "main.Max[go.shape.int$s]" "main.Max[go.shape.float64$s]" \
        "main.(*Box[go.shape.string$s]).Get" | grep -E 'entry|arg' > "$TMP/g.txt"
    printf '%s\n' '  entry: rbx rcx' '  arg a int: w0' '  arg b int: w1' '  entry: x0 x1' \
        '  arg a float64: w0' '  arg b float64: w1' '  entry: rax rcx' \
        "  arg b *main.Box[go.shape.string$s]: w0" '  arg k int: w1' | diff -u - "$TMP/g.txt" ||
        fail "go$v: generic functions' layouts"
done
# Values of more than 32 words are not captured (omitted), the others are.
mkdir -p "$TMP/big"
cat > "$TMP/big/main.go" <<'GO'
package main

//go:noinline
func big(n int, buf [4096]byte, s string) (int, [100]int) { return n + len(s) + int(buf[0]), [100]int{} }

func main() { var b [4096]byte; n, a := big(1, b, "x"); println(n, a[0]) }
GO
if build_go 1.22 "$TMP/big" "$TMP/big-1.22"; then
    "$DUMP" "$TMP/big-1.22" main.big > "$TMP/big.txt"
    printf '%s\n' main.big '  entry: rax rbx rcx bytes(w1,w2)' '  exit: rax' '  flags: regabi rtypes:no' \
        '  arg n int: w0' '  arg buf [4096]uint8: none' '  arg s string: w1/b0 w2' '  result ~r0 int: w0' \
        '  result ~r1 [100]int: none' | diff -u - "$TMP/big.txt" || fail "go1.22: big values"
else
    fail "go1.22 big build"
fi
[ "$FAILS" -eq 0 ] && echo "t_trace_layout: PASS" || { echo "t_trace_layout: $FAILS failures"; exit 1; }
