#!/usr/bin/env bash
# t_security_term: no terminal control reaches the terminal. A stats file
# whose function names hold ESC, BEL, a raw C1 byte (0x9B, CSI to an 8-bit
# terminal) and UTF-8 C1 (C2 9B), written by a program whose path holds the
# same and U+202E (right-to-left override: it shows the text after it
# reversed), is shown by the table, the listing, coverage, diff and --json,
# and named in error messages: every output must be well-formed UTF-8 with
# no C0 (but newline and tab), DEL, C1 or bidirectional formatting
# character, and the names must still be recognisable ('?' per control).
. "$(dirname "$0")/../lib.sh"
require_tools

work_dir

instrumented_live
BAD=$(printf 'x\302\233\2331m\033]0;t\007\342\200\256')
D=$WORK/stats
mkdir -p "$D/$BAD"
cp "$WORK/live.instr" "$D/$BAD/app"
GOSTAT_DIR=$D "$D/$BAD/app" 10 >/dev/null || fail "instrumented program failed"
F=$(ls "$D"/gostat.app.*)

# Same-length names with controls: main.work -> m\x9b\xc2\x9bn\x1b]\x07k
# (calls 10), main.rare -> \xc2\x9b[2Jrar\x07 (never called).
python3 - "$F" <<'EOF' || fail "could not patch names"
import sys
p = sys.argv[1]
b = bytearray(open(p, 'rb').read())
for old, new in ((b'main.work\0', b'm\x9b\xc2\x9bn\x1b]\x07k\0'), (b'main.rare\0', b'\xc2\x9b[2Jrar\x07\0')):
    assert len(old) == len(new)
    i = b.find(old)
    assert i > 0, old
    b[i:i + len(old)] = new
open(p, 'wb').write(bytes(b))
EOF

# clean OUTPUT_FILE WHAT: fails unless the output is free of controls.
clean() {
    python3 - "$1" <<'EOF' || fail "$2: control characters in the output: $(od -c "$1" | head -5)"
import sys
data = open(sys.argv[1], 'rb').read()
text = data.decode('utf-8')          # raw 0x9B is not UTF-8: UnicodeDecodeError
bidi = {0x061c, 0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069}
bad = [c for c in text if (ord(c) < 0x20 and c not in '\n\t') or 0x7f <= ord(c) <= 0x9f or ord(c) in bidi]
sys.exit(1 if bad else 0)
EOF
}

"$GOSTAT" "$F" >"$WORK/table" 2>&1 || fail "gostat FILE failed: $(cat "$WORK/table")"
clean "$WORK/table" "table"
grep -q 'm??n?]?k' "$WORK/table" || fail "table: patched name not shown as m??n?]?k"
grep -q "exe $D/x??1m?\]0;t??/app" "$WORK/table" || fail "table: exe path not shown with '?': $(grep exe "$WORK/table")"

GOSTAT_DIR=$D "$GOSTAT" >"$WORK/listing" 2>&1 || fail "gostat listing failed"
clean "$WORK/listing" "listing"
grep -q 'x??1m?\]0;t??/app' "$WORK/listing" || fail "listing: exe not shown with '?'"

"$GOSTAT" coverage "$F" >"$WORK/coverage" 2>&1 || fail "gostat coverage failed: $(cat "$WORK/coverage")"
clean "$WORK/coverage" "coverage"
grep -q '?\[2Jrar?' "$WORK/coverage" || fail "coverage: never-called name not shown as ?[2Jrar?"

# --json escapes C1 (\u009b) and shows broken UTF-8 as \ufffd.
"$GOSTAT" --json "$F" >"$WORK/json" 2>&1 || fail "gostat --json failed"
clean "$WORK/json" "--json"
grep -q 'm\\ufffd\\u009bn\\u001b]\\u0007k' "$WORK/json" || fail "--json: name not escaped: $(grep -o '"m[^"]*k"' "$WORK/json" | head -2)"

# diff: the same file against a JSON baseline with fewer calls (1 -> 10:
# within a count's spread, so --sigma 0 lists it).
"$GOSTAT" --json "$F" | python3 -c '
import json, sys
j = json.load(sys.stdin)
for f in j["functions"]:
    if f["calls"] == 10: f["calls"] = 1
json.dump(j, sys.stdout)' >"$WORK/base.json" || fail "gostat --json failed"
"$GOSTAT" diff --sigma 0 "$WORK/base.json" "$F" >"$WORK/diff" 2>&1
clean "$WORK/diff" "diff"
grep -q 'm??n?]?k' "$WORK/diff" || fail "diff: patched name not listed: $(cat "$WORK/diff")"
"$GOSTAT" diff --sigma 0 --fail-on-regression "$WORK/base.json" "$F" >/dev/null 2>"$WORK/diff.err"
clean "$WORK/diff.err" "diff regression line"

# Error messages: a missing file and a corrupt one, both under the bad path.
"$GOSTAT" "$D/$BAD/missing" >"$WORK/err1" 2>&1 && fail "gostat on a missing file succeeded"
clean "$WORK/err1" "error for a missing file"
grep -q 'x??1m?\]0;t??/missing: cannot open' "$WORK/err1" || fail "missing-file error: $(cat "$WORK/err1")"
head -c 100 "$F" >"$D/$BAD/short"
"$GOSTAT" "$D/$BAD/short" >"$WORK/err2" 2>&1 && fail "gostat on a truncated file succeeded"
clean "$WORK/err2" "error for a truncated file"
"$GOSTAT" pprof "$F" -o "$D/$BAD/nodir/p.pb.gz" >"$WORK/err3" 2>&1 && fail "pprof into a missing directory succeeded"
clean "$WORK/err3" "error for an -o path"

[ $fails -eq 0 ]
