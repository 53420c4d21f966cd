#!/usr/bin/env bash
# t_merge: the stats file at exit (docs/stats-format.md "At exit").
#  - without GOSTAT_MERGE a process's file shrinks when it exits: apparent
#    size (stat %s) and real size (du) both fall, the counts stay;
#  - with GOSTAT_MERGE, 2,000 runs of testdata/mergecli (4 at a time) leave
#    one file in the directory, merged from 2,000 processes, whose counts
#    and timed calls are exactly 2,000 times one run's;
#  - runs killed with SIGKILL mid-way (in their sleep) lose only their own
#    counts: the merged file holds exactly the completed runs; os.Exit's
#    status is kept;
#  - a merged file that is not this program's is left alone: the process
#    keeps its own file, which says why;
#  - gostat clean --older-than keeps young files, removes the killed runs'
#    files, keeps the merged one;
#  - every Go release at hand merges and shrinks (fewer runs);
#  - --call-graph: the callers of main.step merge exactly.
# MERGE_RUNS: runs of the big merge (default 2000).
. "$(dirname "$0")/../lib.sh"
require_tools

RUNS=${MERGE_RUNS:-2000}
WORK=$(mktemp_dir)
S=$(mktemp -d /dev/shm/gostat-merge.XXXXXX)
trap 'kill -9 $(jobs -p) 2>/dev/null; rm -rf "$WORK" "$S"' EXIT

# calls FILE FUNC -> its calls; timed FILE FUNC -> its timed calls
calls() {
    "$GOSTAT" --json "$1" | python3 -c 'import json,sys; print(sum(f["calls"] for f in json.load(sys.stdin)["functions"] if f["name"] == sys.argv[1]))' "$2"
}
timed() {
    "$GOSTAT" --json "$1" | python3 -c 'import json,sys; print(sum(f.get("timed_calls", 0) for f in json.load(sys.stdin)["functions"] if f["name"] == sys.argv[1]))' "$2"
}
processes() {
    "$GOSTAT" --json "$1" | python3 -c 'import json,sys; print(json.load(sys.stdin).get("processes", 0))'
}
only_file() { # DIR -> the one file in it, or fails
    local f=("$1"/*)
    [ ${#f[@]} -eq 1 ] && [ -f "${f[0]}" ] || { fail "$1 holds ${#f[@]} files: $(ls "$1" | head -5)"; return 1; }
    echo "${f[0]}"
}
# expect_counts FILE N: main.step, main.half, main.main called N runs' worth
expect_counts() {
    local got
    for fc in main.step:150 main.half:2 main.main:1; do
        got=$(calls "$1" "${fc%%:*}")
        [ "$got" = $(("${fc##*:}" * $2)) ] || fail "$1: ${fc%%:*} $got calls, expected ${fc##*:} x $2"
    done
}

# run_many DIR N: N runs with GOSTAT_MERGE, 4 at a time
run_many() {
    seq "$2" | xargs -P4 -n25 env GOSTAT_MERGE=1 GOSTAT_DIR="$1" sh -c 'for i; do "$0" || exit 1; done' "$P" ||
        fail "a run failed"
}

check_release() { # VERSION RUNS
    local v=$1 runs=$2 d
    build_go "$v" "$ROOT/testdata/mergecli" "$WORK/mergecli$v" || { fail "go$v build"; return; }
    # --first 1000: each run's 150 calls of main.step all timed, so the merged
    # timed calls are exact
    "$GOREWRITE" --first 1000 "$WORK/mergecli$v" "$WORK/mergecli$v.instr" >/dev/null ||
        { fail "go$v instrument"; return; }
    P=$WORK/mergecli$v.instr
    # shrink: the file while the run sleeps, then after it exits
    d=$S/shrink$v
    mkdir "$d"
    GOSTAT_DIR=$d "$P" sleep 2000 &
    local pid=$! f="$d/gostat.mergecli$v.instr.$!" n=0
    until [ "$(calls "$f" main.half 2>/dev/null)" = 1 ] || [ $n -ge 300 ]; do sleep 0.1; n=$((n + 1)); done
    local size0 disk0 size1 disk1
    size0=$(stat -c %s "$f") disk0=$(du -k "$f" | cut -f1)
    wait $pid || fail "go$v: sleeping run's status"
    size1=$(stat -c %s "$f") disk1=$(du -k "$f" | cut -f1)
    echo "go$v: running $size0 bytes, $disk0 KiB; exited $size1 bytes, $disk1 KiB"
    [ "$size1" -lt "$size0" ] && [ "$disk1" -lt "$disk0" ] || fail "go$v: the file did not shrink at exit"
    expect_counts "$f" 1
    # merge
    d=$S/merge$v
    mkdir "$d"
    run_many "$d" "$runs"
    f=$(only_file "$d") || return
    [ "$(processes "$f")" = "$runs" ] || fail "go$v: merged from $(processes "$f") processes, expected $runs"
    expect_counts "$f" "$runs"
    [ "$(timed "$f" main.step)" = $((150 * runs)) ] || fail "go$v: main.step timed $(timed "$f" main.step) calls"
    echo "go$v: $runs runs merged into $(basename "$f"): $(stat -c %s "$f") bytes, $(du -k "$f" | cut -f1) KiB"
}

# Every release: shrink and a small merge; Go 1.22: the big one.
for v in 1.15 1.19 1.27; do
    check_release "$v" 40
done
check_release 1.22 "$RUNS"
P=$WORK/mergecli1.22.instr
M=$(only_file "$S/merge1.22")

# --call-graph: paths and arcs merge by key; callers' calls exact.
"$GOREWRITE" --call-graph "$WORK/mergecli1.22" "$WORK/mergecli.cg" >/dev/null 2>&1 || fail "gorewrite --call-graph"
mkdir "$S/cg"
P=$WORK/mergecli.cg run_many "$S/cg" 40
f=$(only_file "$S/cg") && "$GOSTAT" --json "$f" | python3 -c '
import json, sys
d = json.load(sys.stdin)
step = [f for f in d["functions"] if f["name"] == "main.step"][0]
callers = {c["name"]: c["calls"] for c in step.get("callers", [])}
sys.exit(not (step["calls"] == step["timed_calls"] == 6000 and callers == {"main.half": 6000}))
' || fail "--call-graph merge: main.step's calls, timed calls or callers are not 40 runs' worth"

# Killed runs: 20 sleep, the others run past them, then the sleepers get SIGKILL.
K=$S/kill
mkdir "$K"
sleepers=()
for i in $(seq 20); do
    GOSTAT_MERGE=1 GOSTAT_DIR=$K "$P" sleep 60000 &
    sleepers+=($!)
done
for pid in "${sleepers[@]}"; do   # each is in its sleep: its first half counted
    n=0
    until [ "$(calls "$K/gostat.mergecli1.22.instr.$pid" main.half 2>/dev/null)" = 1 ] || [ $n -ge 300 ]; do
        sleep 0.1
        n=$((n + 1))
    done
done
run_many "$K" 100
GOSTAT_MERGE=1 GOSTAT_DIR=$K "$P" exit
[ $? -eq 3 ] || fail "os.Exit(3) with GOSTAT_MERGE: status changed"
{ kill -9 "${sleepers[@]}"; wait "${sleepers[@]}"; } 2>/dev/null
run_many "$K" 50
f=$(ls "$K" | grep merged)
[ "$(processes "$K/$f")" = 151 ] || fail "after kills: merged from $(processes "$K/$f") processes, expected 151"
expect_counts "$K/$f" 151
[ "$(ls "$K" | grep -vc merged)" = 20 ] || fail "the killed runs' own files: $(ls "$K" | grep -vc merged), expected 20"

# gostat clean: young files kept with --older-than, the dead ones removed, the merged file kept.
GOSTAT_DIR=$K "$GOSTAT" clean --older-than 1h >"$WORK/clean1" || fail "clean --older-than 1h status"
[ "$(ls "$K" | wc -l)" = 21 ] || fail "clean --older-than 1h removed files: $(cat "$WORK/clean1")"
grep -q "20 younger than --older-than, 1 merged" "$WORK/clean1" || fail "clean --older-than 1h said: $(cat "$WORK/clean1")"
GOSTAT_DIR=$K "$GOSTAT" clean --dry-run --older-than 1ms >"$WORK/clean2" || fail "clean --dry-run status"
[ "$(grep -c "^would remove .*(pid [0-9]* exited)" "$WORK/clean2")" = 20 ] && [ "$(ls "$K" | wc -l)" = 21 ] ||
    fail "clean --dry-run: $(cat "$WORK/clean2")"
GOSTAT_DIR=$K "$GOSTAT" clean --older-than 1ms >"$WORK/clean3" || fail "clean status"
[ "$(ls "$K")" = "$f" ] || fail "after clean: $(ls "$K")"
"$GOSTAT" clean --older-than 10 >/dev/null 2>&1 && fail "clean --older-than 10 (no unit) accepted"

# A merged file locked a while (by flock(1) for a second): the next merger
# waits for the lock and merges; a file named M.tmp is not its business
# (its temporary file has a name of its own) and stays.
echo stale >"$M.tmp"
flock "$M" sleep 1 &
locker=$!
sleep 0.2
GOSTAT_MERGE=1 GOSTAT_DIR=$S/merge1.22 "$P" || fail "run while the merged file is locked"
wait $locker
[ "$(cat "$M.tmp")" = stale ] && [ "$(processes "$M")" = $((RUNS + 1)) ] ||
    fail "after a lock and a stale M.tmp: $(ls "$S/merge1.22"), $(processes "$M") processes"
expect_counts "$M" $((RUNS + 1))
rm -f "$M.tmp"

# A merged file that is not this program's (a byte of its function table
# changed): left as it is; the process keeps its own file and says why.
cp "$M" "$WORK/before"
python3 - "$M" <<'EOF'
import struct, sys
with open(sys.argv[1], "r+b") as f:
    h = f.read(4096)
    functab = struct.unpack_from("<Q", h, 64)[0]
    f.seek(functab + 8)
    b = f.read(1)
    f.seek(functab + 8)
    f.write(bytes([b[0] ^ 1]))
EOF
cp "$M" "$WORK/corrupt"
GOSTAT_MERGE=1 GOSTAT_DIR=$S/merge1.22 "$P" || fail "run beside a foreign merged file"
cmp -s "$M" "$WORK/corrupt" || fail "a foreign merged file was changed"
own=$(ls "$S/merge1.22" | grep -v merged)
[ -n "$own" ] || fail "no own file kept beside a foreign merged file"
"$GOSTAT" "$S/merge1.22/$own" | head -1 | grep -q "not merged: merged file not this program's" ||
    fail "the kept file does not say why: $("$GOSTAT" "$S/merge1.22/$own" | head -1)"
[ -z "$own" ] || expect_counts "$S/merge1.22/$own" 1

[ $fails -eq 0 ]
