#!/usr/bin/env bash
# t_gostat_width: the table fits the terminal ($COLUMNS here; a terminal's
# own width otherwise): at 80 and 200 columns every line fits, FUNCTION and
# FILE:LINE (the unbounded columns) are cut in the middle with "…", the name
# keeping the room first; the summary line is wrapped between its items;
# --wide, --json and output with no width known (a pipe, no $COLUMNS) keep
# everything whole. Exact rows, by the rule in gostat/render/table.c.
# gostat diff fits its lines likewise: its first column is cut, never
# below 16 characters; when its 8 number columns leave less (they take 75
# of 80), BASE TIME and NEW TIME go, then BASE CALLS and NEW CALLS (a note
# says so), and its summary is wrapped. gostat coverage fits its PACKAGE
# column and never-called lines.
cd "$(dirname "$0")/../.."
. tests/assert.sh
require_tools

N='github.com/example/very/long/module/path/internal/subsystem/pkg.(*SomeVeryLongTypeName).MethodWithAVeryLongName.func1'
F='/home/user/go/pkg/mod/github.com/example/very/long/module/path@v1.2.3/internal/subsystem/pkg/file_with_long_name.go'
U='main.Größenverhältnisse_für_Überlänge_der_Funktionsnamen_in_Spalten_die_nicht_passen'
EXE=/opt/long-installation-directory/for-a-cli/bin/tool-long-name
stats=$dir/gostat.tool.7
"$MKSTATS" "$stats" --pid 7 --exe "$EXE" --func "$N:0x10:12345:$F:1234" \
    --func 'main.main:0x20:1:/m.go:3' --func "$U:0x30:2:/u.go:9" || fail mkstats

# fits COLS: every line of $out at most COLS characters (not bytes).
fits() {
    python3 -c '
import sys
cols = int(sys.argv[1])
print(max(len(l) for l in sys.stdin.read().splitlines()) <= cols)' "$1" <<<"$out"
}

# 80 columns: CALLS is 5 wide, so FUNCTION and FILE:LINE share
# 80 - (2 + 5 + 2) = 71: FILE:LINE gets a third (23), FUNCTION the rest
# (48); a name keeps its first 24 and last 23 characters, a location its
# first (23 - 1) / 4 = 5 and last 17.
out=$(COLUMNS=80 "$GOSTAT" "$stats" 2>"$dir/err")
expect "80: exit, stderr" "0 " "$? $(cat "$dir/err")"
expect "80: every line fits" True "$(fits 80)"
expect "80: summary wrapped between items" \
    "pid 7  exited  exe $EXE|  calls 12348  functions 3" "$(sed -n 1,2p <<<"$out" | paste -sd'|')"
expect "80: long name and path cut in the middle" \
    "github.com/example/very/…WithAVeryLongName.func1  12345  /home…long_name.go:1234" "$(sed -n 4p <<<"$out")"
expect "80: non-ASCII name cut by characters" \
    "main.Größenverhältnisse_…palten_die_nicht_passen      2  /u.go:9" "$(sed -n 5p <<<"$out")"
expect "80: short rows padded, not cut" \
    "main.main                                             1  /m.go:3" "$(sed -n 6p <<<"$out")"

# 200 columns: 191 to share; the name (117) fits whole, FILE:LINE gets the
# other 74 (its first 18 and last 55 characters).
out=$(COLUMNS=200 "$GOSTAT" "$stats")
expect "200: every line fits" True "$(fits 200)"
expect "200: summary on one line" "pid 7  exited  exe $EXE  calls 12348  functions 3" "$(sed -n 1p <<<"$out")"
expect "200: name whole, path cut" \
    "$N  12345  /home/user/go/pkg/….2.3/internal/subsystem/pkg/file_with_long_name.go:1234" \
    "$(sed -n 3p <<<"$out")"

# --wide, or no width known: whole names and paths, wherever they go.
out=$(COLUMNS=80 "$GOSTAT" --wide "$stats")
expect "--wide: whole" "$N  12345  $F:1234" "$(sed -n 3p <<<"$out")"
out=$(env -u COLUMNS "$GOSTAT" "$stats" | cat)
expect "pipe without COLUMNS: whole" "$N  12345  $F:1234" "$(sed -n 3p <<<"$out")"
expect "no cut mark without a width" 0 "$(grep -c '…' <<<"$out")"
expect "--json: never cut" "$N $F" \
    "$(COLUMNS=80 "$GOSTAT" --json "$stats" | python3 -c '
import json, sys
f = json.load(sys.stdin)["functions"][0]
print(f["name"], f["file"])')"

# ---------------------------------------------------------------- diff
EXACT="--sigma 0 --min-timed 0 --min-time 0 --min-delta 0 --threshold 2"
"$MKSTATS" "$dir/base" --pid 8 --func "$N:0x10:100" --func 'main.main:0x30:1' || fail mkstats
"$MKSTATS" "$dir/new" --pid 9 --func "$N:0x10:400" --func 'main.main:0x30:1' || fail mkstats
diff_row() { COLUMNS=$1 "$GOSTAT" diff $EXACT "${@:2}" "$dir/base" "$dir/new" | sed -n 2p; }
# 80: the numbers take 75, so BASE TIME and NEW TIME (2 + 9, 2 + 8) go;
# the name gets 80 - 54 = 26: 13 + … + 12.
expect "diff 80: times left out, name cut to fit" \
    "github.com/ex…ngName.func1         100        400  4.00x     -         -  grew" "$(diff_row 80)"
out=$(COLUMNS=80 "$GOSTAT" diff $EXACT "$dir/base" "$dir/new")
expect "diff 80: every line fits" True "$(fits 80)"
expect "diff 80: the note and the wrapped summary" "\
(BASE TIME and NEW TIME left out to fit the width; --wide or --json shows them)
1 of 2 functions changed by 2x or more (calls or time per call): 1 grew, 0
  shrank" "$(sed -n '3,$p' <<<"$out")"
# 120: 120 - 75 = 45 for the name: 22 + … + 22.
expect "diff 120: name cut to fit" \
    "github.com/example/ver…ithAVeryLongName.func1         100        400  4.00x          -         -     -         -  grew" \
    "$(diff_row 120)"
expect "diff 200: whole, fits" "$N         100        400  4.00x          -         -     -         -  grew" "$(diff_row 200)"
expect "diff --wide: whole" "$N         100        400  4.00x          -         -     -         -  grew" "$(diff_row 80 --wide)"
expect "diff --json: whole" "$N" "$(COLUMNS=80 "$GOSTAT" diff --json $EXACT "$dir/base" "$dir/new" |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["functions"][0]["name"])')"
# Timed: 1000 calls of 1 us, then 4000 of 2 us (0.5 ns per tick). At 80
# the times go (TIME is 5 wide now: 55 left), the name gets 25.
T="--rows 2 --spread --timing --tsc 1000:0:2001000:1000000"
"$MKSTATS" "$dir/tbase" --pid 8 $T --func "$N:0x10:1000" --func 'main.main:0x30:1' \
    --time 0:1:2000000:2000:2000:6=1000 >/dev/null || fail mkstats
"$MKSTATS" "$dir/tnew" --pid 9 $T --func "$N:0x10:4000" --func 'main.main:0x30:1' \
    --time 0:1:16000000:4000:4000:7=4000 >/dev/null || fail mkstats
out=$(COLUMNS=80 "$GOSTAT" diff $EXACT "$dir/tbase" "$dir/tnew")
expect "diff 80, timed: every line fits" True "$(fits 80)"
expect "diff 80, timed" "\
FUNCTION                   BASE CALLS  NEW CALLS  CALLS   TIME  PER CALL  CHANGE
github.com/e…ngName.func1        1000       4000  4.00x  8.00x     2.00x  grew" "$(sed -n 1,2p <<<"$out")"
# 60: 55 + 16 > 60, so the calls go too (2 + 10, 2 + 9); the name gets
# 60 - 32 = 28.
out=$(COLUMNS=60 "$GOSTAT" diff $EXACT "$dir/tbase" "$dir/tnew")
expect "diff 60, timed: every line fits" True "$(fits 60)"
expect "diff 60, timed" "\
FUNCTION                      CALLS   TIME  PER CALL  CHANGE
github.com/exa…ongName.func1  4.00x  8.00x     2.00x  grew
(BASE and NEW columns left out to fit the width; --wide or
  --json shows them)" "$(sed -n 1,4p <<<"$out")"
out=$(COLUMNS=200 "$GOSTAT" diff $EXACT "$dir/tbase" "$dir/tnew")
expect "diff 200, timed: every line fits" True "$(fits 200)"
expect "diff 200, timed: whole" \
    "$N        1000       4000  4.00x     1.00ms    8.00ms  8.00x     2.00x  grew" "$(sed -n 2p <<<"$out")"

# ---------------------------------------------------------------- coverage
"$MKSTATS" "$dir/cov" --pid 10 --func "$N:0x10:0:$F:1234" \
    --func 'github.com/example/very/long/module/path/internal/subsystem/pkg.Short:0x20:1:/s.go:1' \
    --func 'main.main:0x30:1:/m.go:3' || fail mkstats
# 80: PACKAGE gets 80 - 28 = 52 (26 + … + 25); a never-called line's
# location a third of 76 (25: 6 + … + 18), its name the other 51 (25 + … + 25).
out=$(COLUMNS=80 "$GOSTAT" coverage "$dir/cov")
expect "coverage 80: every line fits" True "$(fits 80)"
expect "coverage 80: package cut" \
    "github.com/example/very/lo…th/internal/subsystem/pkg       1          2    50.0%" "$(sed -n 2p <<<"$out")"
expect "coverage 80: never-called line cut" \
    "  github.com/example/very/l…odWithAVeryLongName.func1  /home/…_long_name.go:1234" "$(tail -n 1 <<<"$out")"
out=$(COLUMNS=200 "$GOSTAT" coverage "$dir/cov")
expect "coverage 200: every line fits" True "$(fits 200)"
expect "coverage 200: package whole" \
    "github.com/example/very/long/module/path/internal/subsystem/pkg       1          2    50.0%" "$(sed -n 2p <<<"$out")"
expect "coverage 200: name whole, path cut" \
    "  $N  /home/user/go/pkg/m…h@v1.2.3/internal/subsystem/pkg/file_with_long_name.go:1234" "$(tail -n 1 <<<"$out")"
expect "coverage --wide: whole" "  $N  $F:1234" "$(COLUMNS=80 "$GOSTAT" coverage --wide "$dir/cov" | tail -n 1)"

finish t_gostat_width
