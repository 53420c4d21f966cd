#!/usr/bin/env bash
# t_security_names: the stats file's name.
#  - Another user who plants the 100 names the old stub tried (pid,
#    pid.1 .. pid.99, files and symlinks) no longer pushes the program into
#    memory-only mode: it takes pid.<16 random hex digits>, O_EXCL and
#    O_NOFOLLOW as before (no planted file or link target changes), and
#    `gostat PID` finds that file;
#  - an executable whose name holds terminal controls (ESC, BEL, raw C1
#    0x9B, UTF-8 C1 C2 9B, the right-to-left override U+202E) or bytes of
#    no well-formed UTF-8 (a surrogate, an overlong form) gets a file name
#    with '_' for each such byte, by gostat's own rule
#    (format/text_rule.h); non-ASCII letters stay.
. "$(dirname "$0")/../lib.sh"
require_tools

work_dir

instrumented_live
P=$WORK/live.instr

calls_of_work() {
    "$GOSTAT" --json "$1" | python3 -c 'import json,sys; print(sum(f["calls"] for f in json.load(sys.stdin)["functions"] if f["name"] == "main.work"))'
}

# 100 planted names, odd ones symlinks to a file that must stay unchanged.
D=$WORK/shared
mkdir -m 1777 "$D"
echo precious >"$WORK/target"
GOSTAT_DIR=$D bash -c '
    n=gostat.live.instr.$$
    echo planted >"$0/$n"
    for i in $(seq 99); do
        if [ $((i % 2)) = 1 ]; then ln -s "$1" "$0/$n.$i"; else echo planted >"$0/$n.$i"; fi
    done
    [ "$(id -u)" = 0 ] && chown -h 65534 "$0"/$n*
    echo $$ >"$0.pid"
    exec "$2" 100' "$D" "$WORK/target" "$P" >"$WORK/out" 2>"$WORK/err" || fail "run among planted names failed"
pid=$(cat "$D.pid")
[ -s "$WORK/err" ] && fail "stderr among 100 planted names (memory-only mode?): $(cat "$WORK/err")"
[ "$(cat "$WORK/target")" = precious ] || fail "a planted symlink was followed"
[ "$(cat "$D/gostat.live.instr.$pid.98")" = planted ] || fail "a planted file was changed"
taken=$(ls "$D" | grep -E "^gostat\.live\.instr\.$pid\.[0-9a-f]{16}\$")
[ "$(echo "$taken" | grep -c .)" = 1 ] || fail "no stats file with a random suffix among planted names: $(ls "$D" | tail -3)"
[ -n "$taken" ] && [ "$(calls_of_work "$D/$taken")" = 100 ] || fail "wrong count in $D/$taken"
# gostat PID finds it by the naming rule (the planted files are nobody's
# and not stats files).
GOSTAT_DIR=$D "$GOSTAT" --json "$pid" 2>"$WORK/err" | grep -q "\"pid\":$pid" ||
    fail "gostat $pid does not find the file with the random suffix: $(cat "$WORK/err")"

# Suffixes differ from run to run (random, not pid-derived).
GOSTAT_DIR=$D bash -c 'echo planted >"$0/gostat.live.instr.$$"; exec "$1" 1' "$D" "$P" >/dev/null
GOSTAT_DIR=$D bash -c 'echo planted >"$0/gostat.live.instr.$$"; exec "$1" 1' "$D" "$P" >/dev/null
[ "$(ls "$D" | grep -E '\.[0-9a-f]{16}$' | sed 's/.*\.//' | sort -u | wc -l)" = 3 ] || fail "random suffixes repeat: $(ls "$D" | grep -E '\.[0-9a-f]{16}$')"

# Terminal controls in the executable's name.
N=$WORK/names
mkdir "$N"
cp "$P" "$N/$(printf 'app\033]0;x\007')"
cp "$P" "$N/$(printf 'c1\302\233m\233k')"
cp "$P" "$N/$(printf 'caf\303\251')"
cp "$P" "$N/$(printf 'rlo\342\200\256x')"
cp "$P" "$N/$(printf 'sur\355\240\200x')"
cp "$P" "$N/$(printf 'ovl\340\200\257x')"
for exe in "$N"/*; do
    GOSTAT_DIR=$N "$exe" 3 >/dev/null 2>"$WORK/err" || fail "run of $(printf %q "$exe") failed: $(cat "$WORK/err")"
done
names=$(cd "$N" && ls -d gostat.* | sed 's/\.[0-9]*$//' | LC_ALL=C sort)
want=$(printf 'gostat.app_]0;x_\ngostat.c1__m_k\ngostat.caf\303\251\ngostat.rlo___x\ngostat.sur___x\ngostat.ovl___x\n' | LC_ALL=C sort)
[ "$names" = "$want" ] || fail "stats file names: $(printf %q "$names"), want $(printf %q "$want")"

[ $fails -eq 0 ]
