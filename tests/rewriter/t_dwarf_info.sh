#!/usr/bin/env bash
# t_dwarf_info.sh: checks rewriter/find/dwarf_info.c against Go binaries built by
# every installed Go toolchain (/usr/lib/go-1.*): exact declaration lines,
# file names and "inlined elsewhere" flags of known functions, "no dwarf" for
# a binary linked with -w, and no crash on truncated or corrupted binaries.
# Its driver is tests/dwarf/dwarfdump_funcs.c (build/tests/dwarfdump_funcs).
# Exit 0: pass. Otherwise prints each failure and exits 1.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1

TMP=$(mktemp -d /tmp/t_dwarf_info.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
FAILS=0
fail() { echo "FAIL: $*"; FAILS=$((FAILS + 1)); }

# Built by `make tools` like gorewrite (sanitized under `make asan`).
DD=$PWD/build/tests/dwarfdump_funcs
if [ ! -x "$DD" ]; then
    echo "FAIL: $DD missing (make tools builds it)"
    exit 1
fi

# The test program. Each function's expected line is found by grepping for
# its `func` line, so editing the sources cannot desynchronise the checks.
SRC=$TMP/src
mkdir -p "$SRC"
cat > "$SRC/go.mod" <<'EOF'
module dwtest

go 1.19
EOF
cat > "$SRC/main.go" <<'EOF'
package main

import (
	"fmt"
	"os"
)

// noinl is a frameless leaf that is never inlined.
//
//go:noinline
func noinl(a, b int) int {
	return a*b + 7
}

// main calls things, so it has a stack-check prologue on its func line.
func main() {
	sink = small
	t := &T{v: len(os.Args)}
	fmt.Println(noinl(2, len(os.Args)), small(len(os.Args)), sink(5), t.Method(6))
}
EOF
cat > "$SRC/util.go" <<'EOF'
package main

var sink func(int) int

// small is inlined into main and, taken as a func value, also kept out of line.
func small(x int) int {
	return x + 1
}
EOF
cat > "$SRC/types.go" <<'EOF'
package main

type T struct{ v int }

//go:noinline
func (t *T) Method(d int) int {
	return t.v + d
}
EOF
SRC_DIR=$(cd "$SRC" && pwd -P)

line_of() { grep -n "^$2" "$SRC/$1" | head -n 1 | cut -d: -f1; }
NOINL_LINE=$(line_of main.go 'func noinl(')
MAIN_LINE=$(line_of main.go 'func main(')
SMALL_LINE=$(line_of util.go 'func small(')
METHOD_LINE=$(line_of types.go 'func (t \*T) Method(')

go_env() {
    env GOTOOLCHAIN=local GOFLAGS=-mod=mod GOPROXY=off GOCACHE="$TMP/gocache" \
        GOPATH="$TMP/gopath" GOMODCACHE="$TMP/gopath/mod" "$@"
}

# expect_func GO BIN OUT SYMBOL LINE FILE INLINED
expect_func() {
    local go=$1 bin=$2 out=$3 sym=$4 line=$5 file=$6 inl=$7 addr got
    addr=$(go_env "$go" tool nm "$bin" | awk -v s="$sym" '$2 == "T" && $3 == s { print $1 }')
    if [ -z "$addr" ]; then
        fail "$bin: go tool nm has no text symbol $sym"
        return
    fi
    got=$(grep -m1 "^0x$addr " "$out")
    local want="0x$addr $line $inl $SRC_DIR/$file"
    [ "$got" = "$want" ] || fail "$bin: $sym: got '$got', want '$want'"
}

# Sorted by low_pc and unique, as dwarf_info.h promises.
expect_sorted_unique() {
    local out=$1 prev=-1 addr n
    while read -r addr _; do
        n=$((addr))
        if [ "$n" -le "$prev" ]; then
            fail "$out: low_pc $addr not above the previous one"
            return
        fi
        prev=$n
    done < "$out"
}

# expect_no_crash FILE: exit 0, or 1 with a message; never a signal.
expect_no_crash() {
    local f=$1 rc
    "$DD" "$f" > "$TMP/crash.out" 2> "$TMP/crash.err"
    rc=$?
    if [ "$rc" -eq 1 ]; then
        [ -s "$TMP/crash.err" ] || fail "$f: exit 1 without a message"
    elif [ "$rc" -ne 0 ]; then
        fail "$f: exit status $rc: $(head -c 300 "$TMP/crash.err")"
    fi
}

# Overwrites a few spots of the uncompressed .debug_info and .debug_line.
corrupt_copies() {
    local bin=$1 plain=$TMP/plain name off size spot i
    objcopy --decompress-debug-sections "$bin" "$plain" || { fail "objcopy $bin"; return; }
    for name in .debug_info .debug_line .debug_abbrev; do
        off='' size=''
        read -r off size < <(readelf -S -W "$plain" | sed 's/\[ */[/' |
            awk -v n="$name" '$2 == n { print $5, $6 }')
        [ -n "$off" ] || { fail "$bin: no $name"; continue; }
        off=$((16#$off)) size=$((16#$size))
        for i in 1 2 3 5 8 13; do
            spot=$((off + size * i / 16))
            cp "$plain" "$TMP/bad"
            printf '\377\377\377\377\377\377\377\377' |
                dd of="$TMP/bad" bs=1 seek="$spot" conv=notrunc status=none
            expect_no_crash "$TMP/bad"
        done
    done
}

check_toolchain() {
    local go=$1 ver=$2 minor bin=$TMP/prog-$2 out=$TMP/out-$2
    minor=${ver#1.}
    if ! (cd "$SRC" && go_env "$go" build -o "$bin" .) > "$TMP/build.log" 2>&1; then
        fail "go $ver build: $(tail -n 5 "$TMP/build.log")"
        return
    fi
    if ! "$DD" "$bin" > "$out" 2> "$TMP/dd.err"; then
        fail "go $ver: dwarfdump_funcs: $(cat "$TMP/dd.err")"
        return
    fi
    # Before Go 1.21 subprograms carry no DW_AT_decl_line: the reader falls
    # back to the line of the first instruction, which for these frameless
    # leaves is the body line just below `func`; main's prologue sits on it.
    local leaf=1
    [ "$minor" -ge 21 ] && leaf=0
    expect_func "$go" "$bin" "$out" main.noinl $((NOINL_LINE + leaf)) main.go 0
    expect_func "$go" "$bin" "$out" main.small $((SMALL_LINE + leaf)) util.go 1
    expect_func "$go" "$bin" "$out" 'main.(*T).Method' $((METHOD_LINE + leaf)) types.go 0
    expect_func "$go" "$bin" "$out" main.main "$MAIN_LINE" main.go 0
    expect_sorted_unique "$out"

    (cd "$SRC" && go_env "$go" build -ldflags=-w -o "$bin-w" .) > "$TMP/build.log" 2>&1 ||
        fail "go $ver build -ldflags=-w: $(tail -n 5 "$TMP/build.log")"
    [ "$("$DD" "$bin-w" 2>&1)" = "no dwarf" ] || fail "go $ver -ldflags=-w: expected 'no dwarf'"

    local size
    size=$(stat -c %s "$bin")
    head -c $((size / 2)) "$bin" > "$TMP/truncated"
    expect_no_crash "$TMP/truncated"
    head -c $((size - 100)) "$bin" > "$TMP/truncated"
    expect_no_crash "$TMP/truncated"
    corrupt_copies "$bin"
}

FOUND=0
for go in /usr/lib/go-1.*/bin/go; do
    [ -x "$go" ] || continue
    ver=$(basename "$(dirname "$(dirname "$go")")")
    ver=${ver#go-}
    FOUND=$((FOUND + 1))
    check_toolchain "$go" "$ver"
done
[ "$FOUND" -gt 0 ] || fail "no Go toolchain under /usr/lib/go-1.*"

"$DD" /nonexistent/binary > /dev/null 2>&1
[ $? -eq 1 ] || fail "a missing file should exit 1"

if [ "$FAILS" -ne 0 ]; then
    echo "t_dwarf_info: $FAILS failure(s)"
    exit 1
fi
echo "t_dwarf_info: ok ($FOUND Go toolchains)"
