#!/usr/bin/env bash
# t_security_trace_rings: gostat trace reads rings whose heads another
# process of the user wrote, and files that shrink under it. A traced run
# of testdata/poked (which waits on stdin once it is ready) leaves its
# rings in the stats file; each ring's head set to the largest sequence
# number (tests/tools/pokestats trace-top) must not keep gostat trace,
# --json or --follow reading: each ends within 10 s, exit 0, the events
# lost counted. Then gostat trace --follow on the live program while its
# file is cut to one page: gostat ends with an error message within 10 s,
# never by a signal. Go 1.15 (the stack ABI) and the newest Go
# (TRACE_RINGS_GO to choose others).
. "$(dirname "$0")/../lib.sh"
require_tools
work_dir
SRC=$ROOT/testdata/poked
POKE=$ROOT/build/tests/pokestats
[ -x "$POKE" ] || { echo "FAIL: $POKE missing: run 'make tools'"; exit 1; }

# ended NAME STATUS: STATUS is gostat's and must be a normal end, not a
# timeout (124) or a signal (>= 128).
ended() {
    [ "$2" -eq 124 ] && { fail "$1: still reading after 10 s"; return 1; }
    [ "$2" -ge 128 ] && { fail "$1: died of signal $(($2 - 128))"; return 1; }
    return 0
}

# top_heads V BIN: a finished traced run, every ring's head at the top.
top_heads() {
    local v=$1 bin=$2 d=$WORK/top$1 rc
    mkdir -p "$d"
    echo | GOSTAT_DIR=$d "$bin" >/dev/null 2>"$d/err" || { fail "go$v: traced run failed: $(head -3 "$d/err")"; return; }
    local f
    f=$(stats_file_for "$d") || { fail "go$v: no stats file"; return; }
    "$GOSTAT" trace "$f" >"$d/before" 2>&1
    [ -s "$d/before" ] || { fail "go$v: no events before the poke"; return; }
    "$POKE" "$f" trace-top >"$d/poke" 2>&1 || { fail "go$v: pokestats: $(cat "$d/poke")"; return; }
    local how
    for how in "" --json --follow; do
        timeout -k 5 10 "$GOSTAT" trace $how "$f" >"$d/out" 2>"$d/gs.err"
        rc=$?
        ended "go$v trace $how" $rc || return   # one reader stuck says enough
        [ $rc -eq 0 ] || fail "go$v trace $how: exit $rc: $(head -3 "$d/gs.err")"
        grep -q 'events lost' "$d/gs.err" || fail "go$v trace $how: the lost events not reported"
    done
}

# shrinks V BIN: gostat trace --follow on the live program, its file cut.
shrinks() {
    local v=$1 bin=$2 d=$WORK/shrink$1 i rc
    mkdir -p "$d/sd"
    mkfifo "$d/in"
    exec 3<>"$d/in"
    GOSTAT_DIR=$d/sd timeout -k 5 120 "$bin" <"$d/in" >"$d/out" 2>"$d/err" &
    local pid=$!
    for i in $(seq 600); do
        grep -q '^ready$' "$d/out" 2>/dev/null && break
        sleep 0.05
    done
    local f
    f=$(ls "$d"/sd/gostat.* 2>/dev/null | head -1)
    if [ -z "$f" ] || ! grep -q '^ready$' "$d/out"; then
        fail "go$v: the program never got ready: $(head -3 "$d/err")"
    else
        timeout -k 5 10 "$GOSTAT" trace --follow "$f" >"$d/gs.out" 2>"$d/gs.err" &
        local gs=$!
        sleep 0.5
        truncate -s 4096 "$f"
        wait $gs
        rc=$?
        if ended "go$v follow, file cut" $rc; then
            [ $rc -ne 0 ] && [ -s "$d/gs.err" ] ||
                fail "go$v follow, file cut: exit $rc without an error message"
        fi
    fi
    kill $pid 2>/dev/null
    exec 3>&-
    wait $pid 2>/dev/null
}

for v in ${TRACE_RINGS_GO:-1.15 ${GO_VERSIONS_NEWER##* }}; do
    build_go "$v" "$SRC" "$WORK/p$v" || { fail "go$v: build"; continue; }
    "$GOREWRITE" --trace 'main\.r[0-9]$' --trace-buffer 8K "$WORK/p$v" "$WORK/tr$v" >/dev/null 2>&1 ||
        { fail "go$v: gorewrite --trace"; continue; }
    top_heads "$v" "$WORK/tr$v"
    shrinks "$v" "$WORK/tr$v"
done
[ $fails -eq 0 ] && echo "ok   rings with hostile heads and files cut short: gostat trace ends, no signal"
[ $fails -eq 0 ]
