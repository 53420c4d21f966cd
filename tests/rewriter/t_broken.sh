#!/usr/bin/env bash
# t_broken: gorewrite on broken binaries generated from a real Go program:
# truncated at ~200 offsets, every kind of corrupt ELF header, section
# header and program header (huge, past the end, overlapping, wrapping),
# a pclntab with wrong counts, offsets and order (tests/broken/mutate.py),
# and an already instrumented binary. Each must exit 2 with exactly one
# line on stderr, nothing on stdout, no output or temporary file, and the
# input byte-for-byte unchanged. Under `make asan` the same inputs also
# prove there is no out-of-bounds read on the way to the error.
. "$(dirname "$0")/../lib.sh"
require_tools

work_dir
OUTDIR=$WORK/out
mkdir -p "$OUTDIR" "$WORK/mut"
n=0

# expect_refused FILE WHAT [PHRASE]: the rules above; PHRASE, when given,
# must appear in the message.
expect_refused() {
    local f=$1 what=$2 phrase=${3:-} before rc bad=
    before=$(sha256sum <"$f")
    "$GOREWRITE" "$f" "$OUTDIR/o" >"$WORK/stdout" 2>"$WORK/stderr"
    rc=$?
    n=$((n + 1))
    [ $rc -eq 2 ] || bad="exit status $rc, want 2"
    [ "$(wc -l <"$WORK/stderr")" -eq 1 ] || bad="$bad; $(wc -l <"$WORK/stderr") stderr lines, want 1"
    [ -s "$WORK/stdout" ] && bad="$bad; stdout not empty"
    [ -n "$(ls -A "$OUTDIR")" ] && bad="$bad; left in the output directory: $(ls -A "$OUTDIR" | tr '\n' ' ')"
    [ "$(sha256sum <"$f")" = "$before" ] || bad="$bad; the input changed"
    [ -n "$phrase" ] && ! grep -qF -- "$phrase" "$WORK/stderr" && bad="$bad; message lacks '$phrase'"
    if [ -n "$bad" ]; then
        fail "$what: $bad"
        head -5 "$WORK/stderr" | sed 's/^/    | /'
        rm -rf "${OUTDIR:?}"/* "$OUTDIR"/.[!.]* 2>/dev/null
    fi
}

PROG=$WORK/prog
build_go 1.22 "$ROOT/testdata/recursion" "$PROG" || { echo "FAIL: cannot build the test program"; exit 1; }
size=$(stat -c %s "$PROG")

# The unbroken program is accepted (so refusals are about the damage).
if ! instrument "$PROG" "$WORK/prog.instr"; then
    fail "the unbroken program is refused"
fi

# Structural corruption.
python3 "$ROOT/tests/broken/mutate.py" "$PROG" "$WORK/mut" >"$WORK/cases" || { echo "FAIL: mutate.py"; exit 1; }
while IFS=$'\t' read -r name desc; do
    expect_refused "$WORK/mut/$name" "$desc"
    rm -f "$WORK/mut/$name"
done <"$WORK/cases"
echo "structural: $(wc -l <"$WORK/cases") variants"

# Truncation: every header boundary near the start, then 190 offsets spread
# over the whole file, and one byte short.
T=$WORK/trunc
offsets="1 4 16 17 18 20 24 52 63 64 65 120 400 401 464 1000 4095 4096"
for i in $(seq 1 190); do offsets="$offsets $((size * i / 191))"; done
offsets="$offsets $((size - 1))"
nt=0
for off in $offsets; do
    head -c "$off" "$PROG" >"$T"
    expect_refused "$T" "truncated to $off of $size bytes" "$T: "
    nt=$((nt + 1))
done
echo "truncation: $nt offsets"

# Already instrumented: refused with a clear message.
expect_refused "$WORK/prog.instr" "already instrumented" "already instrumented by gorewrite"

echo "$((n - fails)) of $n broken inputs refused cleanly"
[ $fails -eq 0 ]
