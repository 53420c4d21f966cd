#!/usr/bin/env bash
# t_reject: inputs gorewrite must refuse. Each rejection must exit 2, print
# exactly one line on stderr that names the file and gives the reason (the
# phrase listed per case; a vague "cannot instrument" fails), nothing on
# stdout, and create no output
# file and no temporary file next to it. Usage errors exit 1 (the usage text
# may take several lines) and create nothing either. Writing over
# the input itself must fail and leave the input unchanged.

. "$(dirname "$0")/../lib.sh"
require_tools

work_dir
IN=$WORK/in
mkdir -p "$IN"
fails=0
n=0

# expect_reject WANT_STATUS DESCRIPTION REASON ARGS...: runs bin/gorewrite
# ARGS in an empty output directory ($OUTDIR, which ARGS refer to) and
# checks the status, one stderr line (any number of lines for usage errors,
# status 1) matching REASON (an extended regular expression: the path it
# names and the reason), empty stdout, and that $OUTDIR stays empty.
expect_reject() {
    local want=$1 what=$2 phrase=$3
    shift 3
    local rc ok=1 lines
    "$GOREWRITE" "$@" >"$WORK/stdout" 2>"$WORK/stderr"
    rc=$?
    lines=$(wc -l <"$WORK/stderr")
    if [ $rc -ne "$want" ]; then
        echo "  exit status $rc, want $want"
        ok=0
    fi
    if [ "$want" -eq 1 ]; then
        # usage errors may print the usage text, but must print something
        if [ -z "$(tr -d ' \n' <"$WORK/stderr")" ]; then
            echo "  nothing on stderr for a usage error"
            ok=0
        fi
    elif [ "$lines" -ne 1 ] || [ -z "$(tr -d ' \n' <"$WORK/stderr")" ]; then
        echo "  stderr has $lines lines, want exactly one non-empty line:"
        head -5 "$WORK/stderr" | sed 's/^/    | /'
        ok=0
    fi
    if ! grep -qE -- "$phrase" "$WORK/stderr"; then
        echo "  stderr lacks the reason '$phrase':"
        head -5 "$WORK/stderr" | sed 's/^/    | /'
        ok=0
    fi
    if [ -s "$WORK/stdout" ]; then
        echo "  stdout is not empty:"
        head -5 "$WORK/stdout" | sed 's/^/    | /'
        ok=0
    fi
    if [ -n "$(ls -A "$OUTDIR" 2>/dev/null)" ]; then
        echo "  files left in the output directory: $(ls -A "$OUTDIR" | tr '\n' ' ')"
        ok=0
    fi
    n=$((n + 1))
    if [ $ok -eq 1 ]; then
        echo "ok   $what: exit $rc: $(head -n 1 "$WORK/stderr" | head -c 200)"
    else
        echo "FAIL $what (gorewrite $*)"
        fails=$((fails + 1))
    fi
}

# new_outdir: a fresh, empty output directory in $OUTDIR.
new_outdir() {
    OUTDIR=$WORK/out.$n
    rm -rf "$OUTDIR"
    mkdir -p "$OUTDIR"
}

# Inputs ---------------------------------------------------------------
# A Go program (the recursion test program, Go 1.22).
GOPROG=$WORK/goprog
build_go 1.22 "$ROOT/testdata/recursion" "$GOPROG" || { echo "FAIL: cannot build the Go test program"; exit 1; }
size=$(stat -c %s "$GOPROG")

printf 'this is not an ELF file\njust text\n' >"$IN/text"
: >"$IN/empty"
head -c 1000 "$GOPROG" >"$IN/trunc1000"
head -c $((size / 2)) "$GOPROG" >"$IN/trunchalf"
head -c $((size - 4096)) "$GOPROG" >"$IN/trunc4k"
cp /bin/true "$IN/true"

# A 32-bit i386 ELF executable: a complete one crafted byte by byte (ELF
# header, one PT_LOAD program header, code: exit(0) via int 0x80).
python3 - "$IN/elf32" <<'PY'
import struct, sys
base = 0x08048000
code = bytes([0x31, 0xdb, 0xb8, 0x01, 0, 0, 0, 0xcd, 0x80])  # xor ebx,ebx; mov eax,1; int 0x80
ehsize, phsize = 52, 32
entry = base + ehsize + phsize
eh = b"\x7fELF" + bytes([1, 1, 1, 0]) + bytes(8)          # ELFCLASS32, LSB, version 1, SYSV
eh += struct.pack("<HHIIIIIHHHHHH", 2, 3, 1, entry, ehsize, 0, 0,  # ET_EXEC, EM_386
                  ehsize, phsize, 1, 40, 0, 0)
ph = struct.pack("<IIIIIIII", 1, 0, base, base, ehsize + phsize + len(code),
                 ehsize + phsize + len(code), 5, 0x1000)         # PT_LOAD R+X
open(sys.argv[1], "wb").write(eh + ph + code)
PY
chmod +x "$IN/elf32"
# ... and one built by gcc -m32 (no libc needed, so no multilib either).
printf 'void _start(void) { for (;;) ; }\n' >"$WORK/t32.c"
if ! gcc -m32 -nostdlib -static -o "$IN/elf32gcc" "$WORK/t32.c"; then
    echo "FAIL: gcc -m32 could not build the 32-bit test program"
    exit 1
fi

# relabel IN OUT VERSION: the Go 1.22 or 1.24 program IN with its
# build-info version rewritten to VERSION (padded or cut to the same length).
relabel() {
    python3 - "$@" <<'PY'
import sys
data = bytearray(open(sys.argv[1], "rb").read())
at = data.index(b"\xff Go buildinf:") + 32
n = data[at]
old = bytes(data[at + 1:at + 1 + n])
assert old.startswith((b"go1.22.", b"go1.24.")), old
new = sys.argv[3].encode().ljust(n, b"0")[:n]
data[at + 1:at + 1 + n] = new
open(sys.argv[2], "wb").write(data)
PY
}
# A table row that disagrees with the binary: the Go 1.22 program labelled
# go1.17.99, whose row says g.racectx 0x140 where the program's DWARF and
# type descriptors say 0x130. And a release older than any supported.
relabel "$GOPROG" "$IN/go117" go1.17.99
relabel "$GOPROG" "$IN/go114" go1.14.99
# Go 1.23's row has every offset of 1.24's but the signal fields: a Go 1.24
# program relabelled go1.23.99 has g.sig 0xe0 by the release's row, 0xe4
# by the program's DWARF and type descriptors.
GO124PROG=$WORK/go124prog
build_go 1.24 "$ROOT/testdata/recursion" "$GO124PROG" || { echo "FAIL: cannot build the Go 1.24 test program"; exit 1; }
relabel "$GO124PROG" "$IN/go123" go1.23.99
chmod +x "$IN/go114" "$IN/go123"
chmod +x "$IN/go117"

# A Go program for another architecture (ELF64, but arm64).
GOARM64=$IN/goarm64
if ! (cd "$ROOT/testdata/recursion" && go_env 1.22 env GOARCH=arm64 "$(go_bin 1.22)" build -o "$GOARM64" .) >"$WORK/arm64.log" 2>&1; then
    echo "FAIL: cannot build the arm64 Go program:"
    cat "$WORK/arm64.log"
    exit 1
fi

# Rejections (exit 2) --------------------------------------------------
new_outdir; expect_reject 2 "text file" "$IN/text: not an ELF file" "$IN/text" "$OUTDIR/o"
new_outdir; expect_reject 2 "empty file" "$IN/empty: not an ELF file \(empty\)" "$IN/empty" "$OUTDIR/o"
new_outdir; expect_reject 2 "32-bit ELF (crafted)" "$IN/elf32: not a 64-bit ELF file" "$IN/elf32" "$OUTDIR/o"
new_outdir; expect_reject 2 "32-bit ELF (gcc -m32)" "$IN/elf32gcc: not a 64-bit ELF file" "$IN/elf32gcc" "$OUTDIR/o"
new_outdir; expect_reject 2 "Go binary truncated to 1000 bytes" "$IN/trunc1000: section headers missing or outside the file \(truncated\?\)" "$IN/trunc1000" "$OUTDIR/o"
new_outdir; expect_reject 2 "Go binary truncated to half ($((size / 2)) of $size bytes)" "$IN/trunchalf: (segment|section) [0-9]+ lies outside the file \(truncated\?\)" "$IN/trunchalf" "$OUTDIR/o"
new_outdir; expect_reject 2 "Go binary missing its last 4096 bytes" "$IN/trunc4k: (segment|section) [0-9]+ lies outside the file \(truncated\?\)" "$IN/trunc4k" "$OUTDIR/o"
new_outdir; expect_reject 2 "non-Go x86-64 ELF (/bin/true)" "$IN/true: not a Go program" "$IN/true" "$OUTDIR/o"
new_outdir; expect_reject 2 "Go binary for arm64" "$GOARM64: not an x86-64 ELF file \(machine 183\)" "$GOARM64" "$OUTDIR/o"
new_outdir; expect_reject 2 "Go release whose table row disagrees with the binary" "$IN/go117: .*g.racectx is 0x140 by the table row but 0x130 by the " "$IN/go117" "$OUTDIR/o"
n=$((n + 1))
if grep -q 'g.racectx is 0x140 by the table row but 0x130 by the ' "$WORK/stderr"; then
    echo "ok   the disagreement names both values"
else
    echo "FAIL the disagreement does not name both values: $(cat "$WORK/stderr")"
    fails=$((fails + 1))
fi
new_outdir; expect_reject 2 "Go release whose signal fields disagree with the binary" "$IN/go123: .*g.sig is 0xe0 by the table row but 0xe4 by the DWARF; refused" "$IN/go123" "$OUTDIR/o"
new_outdir; expect_reject 2 "Go release older than 1.15" "$IN/go114: .*go1.14.99" "$IN/go114" "$OUTDIR/o"
new_outdir; expect_reject 2 "missing input" "$IN/does-not-exist: cannot open: No such file or directory" "$IN/does-not-exist" "$OUTDIR/o"
new_outdir; expect_reject 2 "directory as input" "$IN: not a regular file" "$IN" "$OUTDIR/o"
new_outdir; expect_reject 2 "output directory does not exist" "$OUTDIR/missing/o: cannot create a temporary file beside it" "$GOPROG" "$OUTDIR/missing/o"
# sysfs takes no new files, whoever asks (root included)
new_outdir; expect_reject 2 "output directory not writable" "^gorewrite: /sys/o: cannot create a temporary file beside it: Permission denied$" "$GOPROG" /sys/o
# An output path that is not a regular file is refused, never replaced
# (renaming over a device such as /dev/null as root would replace it).
mkfifo "$WORK/fifo"
ln -s "$WORK/fifo" "$WORK/fifo-link"
new_outdir; expect_reject 2 "output is a FIFO" "$WORK/fifo: exists and is not a regular file" "$GOPROG" "$WORK/fifo"
new_outdir; expect_reject 2 "output is a symlink to a FIFO" "$WORK/fifo-link: exists and is not a regular file" "$GOPROG" "$WORK/fifo-link"
new_outdir; expect_reject 2 "output is a directory" "$OUTDIR: exists and is not a regular file" "$GOPROG" "$OUTDIR"
[ -p "$WORK/fifo" ] && [ -L "$WORK/fifo-link" ] || fail "the FIFO or its link was replaced"
# --layout-report FILE that cannot be written: the output is removed again.
new_outdir; expect_reject 2 "layout report not writable" "$WORK/missing/layout: cannot write the layout report" --layout-report "$WORK/missing/layout" "$GOPROG" "$OUTDIR/o"
new_outdir; expect_reject 2 "layout report is the output" "$OUTDIR/o: the layout report would overwrite the output" --layout-report "$OUTDIR/o" "$GOPROG" "$OUTDIR/o"

# Usage errors (exit 1) ------------------------------------------------
new_outdir; expect_reject 1 "no arguments" "usage: gorewrite"
new_outdir; expect_reject 1 "one argument" "usage: gorewrite" "$GOPROG"
new_outdir; expect_reject 1 "three arguments" "unexpected argument $OUTDIR/p" "$GOPROG" "$OUTDIR/o" "$OUTDIR/p"

# A bad pattern for any option that takes a REGEX (those --help lists) is a
# usage error of one line, found before INPUT is read: exit 1 even when
# INPUT is missing too.
regex_opts=$("$GOREWRITE_REAL" --help | grep -oE -- '--[a-z-]+ REGEX' | cut -d' ' -f1 | sort -u | tr '\n' ' ')
[ "$regex_opts" = "--exclude --only --trace " ] || fail "--help lists the REGEX options '$regex_opts'"
for opt in $regex_opts; do
    for input in "$GOPROG" "$IN/does-not-exist"; do
        new_outdir
        expect_reject 1 "bad $opt pattern, INPUT $(basename "$input")" \
            "^gorewrite: $opt: bad regular expression '\(': Unmatched \( or \\\\\($" "$opt" '(' "$input" "$OUTDIR/o"
        [ "$(wc -l <"$WORK/stderr")" -eq 1 ] || fail "bad $opt pattern: $(wc -l <"$WORK/stderr") lines on stderr, want 1"
    done
done
new_outdir; expect_reject 1 "bad --trace pattern among good ones" "^gorewrite: --trace: bad regular expression 'a\[': " \
    --trace '^main\.' --trace 'a[' "$GOPROG" "$OUTDIR/o"

# Output path equal to the input: status 1 or 2, input unchanged, no
# temporary files beside it.
SAME=$WORK/same
mkdir -p "$SAME"
cp "$GOPROG" "$SAME/prog"
cp "$GOPROG" "$WORK/prog.copy"
for form in "$SAME/prog" "$SAME/./prog"; do
    "$GOREWRITE" "$SAME/prog" "$form" >"$WORK/stdout" 2>"$WORK/stderr"
    rc=$?
    n=$((n + 1))
    ok=1
    if [ $rc -ne 1 ] && [ $rc -ne 2 ]; then
        echo "  exit status $rc, want 1 or 2"
        ok=0
    fi
    if [ "$(wc -l <"$WORK/stderr")" -ne 1 ]; then
        echo "  stderr has $(wc -l <"$WORK/stderr") lines, want 1"
        ok=0
    fi
    if ! grep -qF -- "$form: output is the input file" "$WORK/stderr"; then
        echo "  stderr lacks '$form: output is the input file'"
        ok=0
    fi
    if ! cmp -s "$SAME/prog" "$WORK/prog.copy"; then
        echo "  the input was modified"
        ok=0
    fi
    if [ "$(ls -A "$SAME")" != prog ]; then
        echo "  files left beside the input: $(ls -A "$SAME" | tr '\n' ' ')"
        ok=0
    fi
    if [ $ok -eq 1 ]; then
        echo "ok   output = input ($form): exit $rc: $(head -c 200 "$WORK/stderr")"
    else
        echo "FAIL output = input ($form)"
        fails=$((fails + 1))
    fi
    cp "$WORK/prog.copy" "$SAME/prog"
done

# Output path is a symlink to the input: the input must stay unchanged.
ln -s "$SAME/prog" "$SAME/link"
"$GOREWRITE" "$SAME/prog" "$SAME/link" >/dev/null 2>"$WORK/stderr"
rc=$?
n=$((n + 1))
if ! cmp -s "$SAME/prog" "$WORK/prog.copy"; then
    echo "FAIL output is a symlink to the input: the input was modified"
    fails=$((fails + 1))
elif [ $rc -ne 2 ] || ! grep -qF -- "$SAME/link: output is the input file" "$WORK/stderr"; then
    echo "FAIL output is a symlink to the input: exit $rc (want 2), stderr: $(head -c 200 "$WORK/stderr")"
    fails=$((fails + 1))
else
    echo "ok   output is a symlink to the input: exit 2, input unchanged: $(head -c 200 "$WORK/stderr")"
fi

# Sanity: the same Go program is accepted (so the rejections above are
# about the inputs) and the input is never modified.
new_outdir
n=$((n + 1))
if instrument "$GOPROG" "$OUTDIR/ok" && cmp -s "$GOPROG" "$WORK/prog.copy" &&
    [ "$(ls -A "$OUTDIR")" = ok ]; then
    echo "ok   the untruncated Go program is accepted, input unchanged, only the output created"
else
    echo "FAIL the untruncated Go program: not accepted cleanly (output dir: $(ls -A "$OUTDIR" | tr '\n' ' '))"
    fails=$((fails + 1))
fi

echo "$((n - fails)) of $n checks passed"
[ $fails -eq 0 ]
