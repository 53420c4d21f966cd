#!/usr/bin/env bash
# t_lief_check: the independent reader of gorewrite's outputs
# (tests/tools/lief_check.c, LIEF 0.9) accepts a correct output and
# catches a wrong one. A Go program is rewritten with --layout-report;
# copies of the output are then broken in one place each (a program
# header, a section header, a symbol, the entry point, a byte outside the
# patches, a patch, a call site aimed at another trampoline) and so is the
# report; each must fail with a message
# naming that place. Then the wrapper the tests run as $GOREWRITE
# (tests/tools/gorewrite_checked.sh): a wrong output fails the run (exit
# 70) and is logged, refusals and --help pass through unchanged.
. "$(dirname "$0")/../lib.sh"
require_tools

work_dir
build_go 1.22 "$ROOT/testdata/recursion" "$WORK/prog" || exit 1
"$GOREWRITE_REAL" --layout-report "$WORK/layout" "$WORK/prog" "$WORK/good" >/dev/null ||
    { echo "FAIL: gorewrite --layout-report"; exit 1; }

# The report: its records and counts are those of the file readelf sees.
grep -qx 'gorewrite-layout 3' "$WORK/layout" || fail "report: no magic line"
[ "$(grep -c '^phdr ' "$WORK/layout")" = "$(readelf -hW "$WORK/good" | awk '/Number of program headers/ {print $5}')" ] ||
    fail "report: phdr lines differ from readelf's count"
grep -q "^entry 0x$(readelf -hW "$WORK/prog" | awk '/Entry point/ {print substr($4, 3)}') 0x$(readelf -hW "$WORK/good" | awk '/Entry point/ {print substr($4, 3)}')\$" "$WORK/layout" ||
    fail "report: entry line $(grep '^entry' "$WORK/layout") is not readelf's"
grep -q '^section .gorewrite.text 0x1 0x6 ' "$WORK/layout" || fail "report: no .gorewrite.text line"
[ "$(grep '^symtab ' "$WORK/layout")" = "symtab $(readelf -sW "$WORK/prog" | awk '/Symbol table .\.symtab./ {print $5}')" ] ||
    fail "report: $(grep '^symtab ' "$WORK/layout") is not .symtab's size"
[ "$(grep -c '^patch \|^call_site ' "$WORK/layout")" = "$(sed -n 's/^patches //p' "$WORK/layout")" ] ||
    fail "report: patch and call_site lines differ from their count"
[ "$(grep -c '^call_site ' "$WORK/layout")" -gt 100 ] ||
    fail "report: $(grep -c '^call_site ' "$WORK/layout") call sites, want direct calls retargeted"

# expect_ok OUTPUT [REPORT]: lief_check passes.
expect_ok() {
    local out rc
    out=$("$LIEF_CHECK" "${2:-$WORK/layout}" "$WORK/prog" "$1" 2>&1)
    rc=$?
    if [ $rc -eq 0 ]; then echo "ok   $(basename "$1"): $out"; else fail "$(basename "$1"): exit $rc: $out"; fi
}

# expect_differ WHAT WANT_STATUS PATTERN OUTPUT [REPORT]: lief_check fails
# with that status and a message matching PATTERN.
expect_differ() {
    local what=$1 want=$2 pat=$3 out rc
    out=$("$LIEF_CHECK" "${5:-$WORK/layout}" "$WORK/prog" "$4" 2>&1)
    rc=$?
    if [ $rc -eq "$want" ] && grep -qE -- "$pat" <<<"$out"; then
        echo "ok   $what: $out"
    else
        fail "$what: exit $rc (want $want), message \"$out\" does not match \"$pat\""
    fi
}

expect_ok "$WORK/good"

# corrupt KIND OUT: a copy of the good output broken in one place; prints
# what it changed (an address or index the message must name).
corrupt() {
    python3 - "$WORK/good" "$2" "$1" <<'PY'
import struct, sys
src, dst, kind = sys.argv[1:]
b = bytearray(open(src, "rb").read())
u = lambda fmt, off: struct.unpack_from(fmt, b, off)
entry, phoff, shoff = u("<QQQ", 24)
phentsize, phnum, shentsize, shnum, shstrndx = u("<HHHHH", 54)
shdrs = [u("<IIQQQQIIQQ", shoff + i * shentsize) for i in range(shnum)]
strtab = shdrs[shstrndx]
name = lambda sh: b[strtab[4] + sh[0]:b.index(b"\0", strtab[4] + sh[0])].decode()
by_name = {name(sh): (i, sh) for i, sh in enumerate(shdrs)}
if kind == "phdr":          # an input PT_LOAD's p_vaddr, one page up
    for i in range(phnum):
        off = phoff + i * phentsize
        if u("<I", off)[0] == 1:
            struct.pack_into("<Q", b, off + 16, u("<Q", off + 16)[0] + 0x1000)
            print(i); break
elif kind == "phdr_flags":  # the new code segment made writable
    for i in range(phnum):
        off = phoff + i * phentsize
        if u("<IIQQ", off)[0] == 1 and u("<IIQQ", off)[3] == by_name[".gorewrite.text"][1][3]:
            struct.pack_into("<I", b, off + 4, 7)
            print(i); break
elif kind == "shdr":        # .rodata's sh_addr
    i, sh = by_name[".rodata"]
    struct.pack_into("<Q", b, shoff + i * shentsize + 16, sh[3] + 8)
    print(i)
elif kind == "newshdr":     # .gorewrite.text's sh_size
    i, sh = by_name[".gorewrite.text"]
    struct.pack_into("<Q", b, shoff + i * shentsize + 32, sh[5] - 16)
    print(i)
elif kind == "symbol":      # the value of .symtab's entry 100
    i, sh = by_name[".symtab"]
    struct.pack_into("<Q", b, sh[4] + 100 * 24 + 8, u("<Q", sh[4] + 100 * 24 + 8)[0] + 1)
    print(100)
elif kind == "entry":
    struct.pack_into("<Q", b, 24, entry + 1)
    print("0x%x" % (entry + 1))
elif kind == "rodata":      # one byte of .rodata (never patched)
    i, sh = by_name[".rodata"]
    b[sh[4] + 100] ^= 0xff
    print("0x%x" % (sh[4] + 100))
elif kind == "filler":      # the int3 filler after a patch's jmp
    patches = [l.split() for l in open(sys.argv[1].rsplit("/", 1)[0] + "/layout") if l.startswith("patch ")]
    text = by_name[".text"][1]
    for _, addr, n in patches:
        if int(n) > 5:
            off = int(addr, 16) - text[3] + text[4]
            b[off + 5] = 0x90
            print(addr); break
elif kind in ("call_site", "call_opcode"):  # a call aimed at another callee's trampoline; a call made a jmp
    sites = [int(l.split()[1], 16) for l in open(sys.argv[1].rsplit("/", 1)[0] + "/layout") if l.startswith("call_site ")]
    text = by_name[".text"][1]
    off = lambda a: a - text[3] + text[4]
    dest = lambda a: a + 5 + u("<i", off(a) + 1)[0]
    a = next(x for x in sites if b[off(x)] == 0xe8)
    if kind == "call_opcode":
        b[off(a)] = 0xe9
    else:
        other = next(dest(x) for x in sites if dest(x) != dest(a))
        struct.pack_into("<i", b, off(a) + 1, other - (a + 5))
    print("0x%x" % a)
open(dst, "wb").write(b)
PY
}

for kind in phdr phdr_flags shdr newshdr symbol entry rodata filler call_site call_opcode; do
    where=$(corrupt "$kind" "$WORK/bad.$kind") || { fail "cannot corrupt $kind"; continue; }
    case $kind in
        phdr) expect_differ "an input PT_LOAD moved" 1 "program header $where is type 0x1 .*the report says" "$WORK/bad.$kind" ;;
        phdr_flags) expect_differ "new segment writable" 1 "program header $where is type 0x1 flags 0x7 .*the report says 0x1 0x5" "$WORK/bad.$kind" ;;
        shdr) expect_differ ".rodata's address" 1 "section $where is .rodata .*INPUT's is .rodata" "$WORK/bad.$kind" ;;
        newshdr) expect_differ ".gorewrite.text's size" 1 "new section .gorewrite.text .*the report says" "$WORK/bad.$kind" ;;
        symbol) expect_differ "a symbol's value" 1 "symbol $where is .*INPUT's is" "$WORK/bad.$kind" ;;
        entry) expect_differ "entry point" 1 "entry point $where, the report says" "$WORK/bad.$kind" ;;
        rodata) expect_differ "a byte of .rodata" 1 "byte at file offset $where differs from INPUT's outside any reported patch" "$WORK/bad.$kind" ;;
        filler) expect_differ "a patch's filler" 1 "patch at $where: byte 5 is 0x90, want int3 filler" "$WORK/bad.$kind" ;;
        call_site) expect_differ "a call site aimed at another trampoline" 1 "call site at $where leads to 0x[0-9a-f]+, its callee's entry jmp to" "$WORK/bad.$kind" ;;
        call_opcode) expect_differ "a call site turned into a jmp" 1 "call site at $where: 5 bytes e8 -> e9" "$WORK/bad.$kind" ;;
    esac
done

# A report that does not match the (correct) output.
sed 's/^section .gorewrite.data \(0x[0-9a-f]*\) \(0x[0-9a-f]*\) \(0x[0-9a-f]*\)/section .gorewrite.data \1 \2 0x1000/' \
    "$WORK/layout" >"$WORK/layout.addr"
expect_differ "report: wrong .gorewrite.data address" 1 "program header|new section" "$WORK/good" "$WORK/layout.addr"
grep -v '^patch \|^call_site ' "$WORK/layout" | sed 's/^patches .*/patches 0/' >"$WORK/layout.nopatch"
expect_differ "report: patches left out" 1 "differs from INPUT's outside any reported patch" "$WORK/good" "$WORK/layout.nopatch"
grep -v '^call_site ' "$WORK/layout" | sed "s/^patches .*/patches $(grep -c '^patch ' "$WORK/layout")/" >"$WORK/layout.nocalls"
expect_differ "report: call sites left out" 1 "differs from INPUT's outside any reported patch" "$WORK/good" "$WORK/layout.nocalls"
sed 's/^call_site /patch /' "$WORK/layout" >"$WORK/layout.callpatch"
expect_differ "report: call sites called entry patches" 1 "patch at 0x[0-9a-f]+ is not a jmp into .gorewrite.text \(bytes e8" "$WORK/good" "$WORK/layout.callpatch"
sed 's/^symtab \([0-9]*\)$/symtab 7/' "$WORK/layout" >"$WORK/layout.sym"
expect_differ "report: wrong symbol count" 1 "\.symtab has [0-9]+ symbols, INPUT's [0-9]+, the report says 7" "$WORK/good" "$WORK/layout.sym"
grep -v '^end$' "$WORK/layout" >"$WORK/layout.trunc"
expect_differ "report: truncated" 2 "layout report incomplete" "$WORK/good" "$WORK/layout.trunc"

# The wrapper: a gorewrite whose output is then broken fails the run.
cat >"$WORK/breaking-gorewrite" <<EOF
#!/usr/bin/env bash
"$GOREWRITE_REAL" "\$@" || exit
out=\${@: -1}
cp "$WORK/bad.symbol" "\$out"
EOF
chmod +x "$WORK/breaking-gorewrite"
LIEF_CHECK_LOG=$WORK/lief.log GOREWRITE_REAL=$WORK/breaking-gorewrite \
    "$GOREWRITE" "$WORK/prog" "$WORK/broken.out" >/dev/null 2>"$WORK/wrap.err"
rc=$?
[ $rc -eq 70 ] && grep -q "differs from gorewrite's report: .*symbol 100 is" "$WORK/wrap.err" &&
    grep -q '^FAIL .*symbol 100 is' "$WORK/lief.log" &&
    echo "ok   wrapper: a broken output fails with exit 70 and is logged" ||
    fail "wrapper with a broken output: exit $rc, stderr $(cat "$WORK/wrap.err"), log $(cat "$WORK/lief.log")"
rm -f "$WORK/lief.log"
LIEF_CHECK_LOG=$WORK/lief.log "$GOREWRITE" "$WORK/prog" "$WORK/fine.out" >"$WORK/wrap.out" 2>"$WORK/wrap.err"
rc=$?
[ $rc -eq 0 ] && [ ! -s "$WORK/wrap.err" ] && grep -q '^gorewrite: .* functions instrumented' "$WORK/wrap.out" &&
    [ "$(grep -c "^ok $WORK/fine.out: " "$WORK/lief.log")" = 1 ] &&
    echo "ok   wrapper: a good output passes, one log line" ||
    fail "wrapper with a good output: exit $rc, stderr $(cat "$WORK/wrap.err"), log $(cat "$WORK/lief.log")"

# Refusals and usage errors: gorewrite's own status, stdout and stderr.
printf 'not an ELF\n' >"$WORK/text"
for args in "$WORK/text $WORK/o1" "--sample 0 $WORK/prog $WORK/o2" "$WORK/prog" "--help" "--version"; do
    # shellcheck disable=SC2086
    "$GOREWRITE_REAL" $args >"$WORK/real.out" 2>"$WORK/real.err"
    want=$?
    # shellcheck disable=SC2086
    "$GOREWRITE" $args >"$WORK/wrap.out" 2>"$WORK/wrap.err"
    rc=$?
    if [ $rc -eq $want ] && cmp -s "$WORK/real.out" "$WORK/wrap.out" && cmp -s "$WORK/real.err" "$WORK/wrap.err"; then
        echo "ok   wrapper passes through: gorewrite ${args//$WORK\//}: exit $rc"
    else
        fail "wrapper changes gorewrite ${args//$WORK\//}: exit $rc (want $want); $(diff "$WORK/real.err" "$WORK/wrap.err" | head -5)"
    fi
done
[ ! -e "$WORK/o1" ] && [ ! -e "$WORK/o2" ] || fail "a refused run left an output"

# gorewrite's own side: the report never replaces the input.
cp "$WORK/prog" "$WORK/prog.copy"
"$GOREWRITE_REAL" --layout-report "$WORK/prog" "$WORK/prog" "$WORK/o3" >/dev/null 2>"$WORK/err"
rc=$?
[ $rc -eq 2 ] && cmp -s "$WORK/prog" "$WORK/prog.copy" && [ ! -e "$WORK/o3" ] &&
    grep -q "layout report would overwrite the input" "$WORK/err" &&
    echo "ok   --layout-report INPUT is refused, input unchanged, no output" ||
    fail "--layout-report INPUT: exit $rc, $(cat "$WORK/err")"

[ "$fails" -eq 0 ]
