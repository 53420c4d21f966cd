#!/usr/bin/env bash
# t_poke: values the instrumented program reads back from its stats file
# are never trusted. testdata/poked runs its calls on four threads, prints
# "ready" and waits; meanwhile tests/tools/pokestats (another process, as
# any process of the user could) writes hostile values (0xffffffc0, huge,
# negative, one past the end) into one table of the file: with --call-graph
# (a path table small enough that most calls go to the arc table) the path
# table, the arc table, the arc index, the path filter and main.victim's
# timing records; in the default mode the timing records and the goroutine
# sites; with --trace the rings' heads and the sites. Then the program does
# it all again. Each run must exit 0 with the original's output and no
# signal, and every count of the expect file must be exact (main.victim's
# only where its record was not the one poked); gostat folded, pprof, trace
# and goroutines of the poked file end without a signal. Go 1.15 and the
# newest Go (POKE_GO to choose others).
. "$(dirname "$0")/../lib.sh"
require_tools
work_dir
SRC=$ROOT/testdata/poked
POKE=$ROOT/build/tests/pokestats
[ -x "$POKE" ] || { echo "FAIL: $POKE missing: run 'make tools'"; exit 1; }
grep -v '^main\.victim ' "$SRC/expect" >"$WORK/expect.novictim"

# poke_run NAME BIN TABLE [FUNCTION]: runs BIN, pokes TABLE while it waits,
# then checks status, output and counts.
poke_run() {
    local name=$1 bin=$2 table=$3 func=${4-} d=$WORK/run.$RANDOM$RANDOM
    mkdir -p "$d/sd"
    mkfifo "$d/in"
    exec 3<>"$d/in"
    GOSTAT_DIR=$d/sd timeout -k 5 120 "$bin" <"$d/in" >"$d/out" 2>"$d/err" &
    local pid=$! i
    for i in $(seq 600); do
        grep -q '^ready$' "$d/out" 2>/dev/null && break
        sleep 0.05
    done
    if ! grep -q '^ready$' "$d/out"; then
        fail "$name: the program never got ready: $(head -3 "$d/err")"
        exec 3>&-
        wait $pid
        return
    fi
    "$POKE" "$d"/sd/gostat.* $table $func >"$d/poke" 2>&1 ||
        fail "$name: pokestats: $(cat "$d/poke")"
    echo >&3
    exec 3>&-
    wait $pid
    local rc=$?
    [ $rc -eq 0 ] || fail "$name: exited $rc after '$(cat "$d/poke")': $(head -3 "$d/err")"
    [ -s "$d/err" ] && fail "$name: stderr: $(head -3 "$d/err")"
    cmp -s "$d/out" "$WORK/want.out" || fail "$name: output differs: $(diff "$WORK/want.out" "$d/out" | head -5)"
    local expect=$SRC/expect
    [ "$table" = timing ] && expect=$WORK/expect.novictim
    local f
    f=$(stats_file_for "$d/sd") && gostat_json "$f" "$d/c.json" &&
        { check_counts "$d/c.json" "$expect" || fail "$name: counts differ (above)"; }
    # gostat reads the poked tables as well: an answer or a refusal, no signal
    local cmd
    for cmd in folded "pprof -o -" trace goroutines; do
        "$GOSTAT" $cmd "${f:-none}" >"$d/gs.out" 2>"$d/gs.err"
        [ $? -lt 128 ] || fail "$name: gostat $cmd died: $(head -3 "$d/gs.err")"
    done
    rm -rf "$d"
}

for v in ${POKE_GO:-1.15 1.27}; do
    build_go "$v" "$SRC" "$WORK/p$v" || { fail "go$v: build"; continue; }
    echo | "$WORK/p$v" >"$WORK/want.out" || fail "go$v: the original failed"
    "$GOREWRITE" --call-graph --max-paths 64 "$WORK/p$v" "$WORK/cg$v" >/dev/null 2>&1 ||
        fail "go$v: gorewrite --call-graph"
    "$GOREWRITE" "$WORK/p$v" "$WORK/def$v" >/dev/null 2>&1 || fail "go$v: gorewrite"
    "$GOREWRITE" --trace 'main\.r[0-9]$' "$WORK/p$v" "$WORK/tr$v" >/dev/null 2>&1 ||
        fail "go$v: gorewrite --trace"
    for t in paths arcs index filter "timing main.victim"; do
        poke_run "go$v call-graph $t" "$WORK/cg$v" $t
    done
    for t in "timing main.victim" sites; do
        poke_run "go$v default $t" "$WORK/def$v" $t
    done
    for t in trace sites; do
        poke_run "go$v trace $t" "$WORK/tr$v" $t
    done
    rm -f "$WORK/want.out"
done
[ $fails -eq 0 ] && echo "ok   poked paths, arcs, arc index, filter, timing records, sites and trace rings: no signal, counts exact"
[ $fails -eq 0 ]
