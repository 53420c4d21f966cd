#!/usr/bin/env bash
# t_merge_race: the merge at exit under contention, kills, a moved merged
# file and a hostile second user (docs/stats-format.md "At exit").
#  - RACE_RUNS runs of testdata/mergecli 16 at a time, about one in ten
#    killed (SIGKILL) in its sleep, the merged file renamed away half-way:
#    the merged file and the renamed one hold exactly the runs that exited
#    normally (processes and calls);
#  - the same with kills at any moment (merges included): every merged
#    file holds whole runs (calls exactly 150/2/1 per process), at least
#    the normal runs and at most the normal and killed ones, and no run is
#    counted twice by gostat merge --dir (merged processes + own files left
#    <= runs);
#  - a merger whose removal of its own file fails (as if killed just after
#    placing its counts) is counted once by gostat merge --dir;
#  - user nobody in a shared directory (mode 1777): names it creates beside
#    the merged file (M.tmp, M.tmp-*, .M.tmp-*) do not stop a merge; a
#    merged file it plants and keeps locked is refused at once (the exit
#    is no more than 100 ms slower than a run without merging), the
#    process keeps its own file and says why.
# RACE_RUNS: runs of each race (default 800, to keep make check short).
. "$(dirname "$0")/../lib.sh"
require_tools

RUNS=${RACE_RUNS:-800}
WORK=$(mktemp_dir)
S=$(mktemp -d /dev/shm/gostat-race.XXXXXX)
trap 'kill -9 $(jobs -p) 2>/dev/null; rm -rf "$WORK" "$S"' EXIT
chmod 755 "$S"

json_sum() { # KEY FUNC FILE... -> the sum of FUNC's KEY over the files ("processes" when FUNC is -)
    local key=$1 fn=$2 total=0 n f
    shift 2
    for f; do
        n=$("$GOSTAT" --json "$f" | python3 -c '
import json, sys
key, fn = sys.argv[1], sys.argv[2]
d = json.load(sys.stdin)
print(d.get("processes", 0) if fn == "-" else sum(f[key] for f in d["functions"] if f["name"] == fn))' "$key" "$fn") || return 1
        total=$((total + n))
    done
    echo $total
}
merged_in() { ls "$1" | grep -v '^\.' | grep -E 'merged-|renamed-away' | sed "s|^|$1/|"; }
# whole_runs N FILE...: main.step, main.half, main.main called N runs' worth
whole_runs() {
    local n=$1 fc got
    shift
    for fc in main.step:150 main.half:2 main.main:1; do
        got=$(json_sum calls "${fc%%:*}" "$@")
        [ "$got" = $(("${fc##*:}" * n)) ] || fail "$*: ${fc%%:*} $got calls, expected ${fc##*:} x $n"
    done
}

build_go 1.22 "$ROOT/testdata/mergecli" "$WORK/mergecli" || exit 1
"$GOREWRITE" "$WORK/mergecli" "$WORK/mergecli.instr" >/dev/null || { fail "instrument"; exit 1; }
P=$WORK/mergecli.instr

# Killed in their sleep: exact.
D=$S/sleep
mkdir "$D"
out=$(python3 "$ROOT/tests/stubs/merge_race.py" "$P" "$D" "$RUNS" 16 sleep) || fail "race (sleep): $out"
echo "kills in the sleep: $out"
read -r _ normal _ killed _ renamed <<<"$out"
[ "$renamed" != - ] && [ -f "$D/renamed-away" ] || fail "nothing renamed away half-way"
[ "$killed" -gt 0 ] || fail "no run killed"
mapfile -t files < <(merged_in "$D")
[ ${#files[@]} = 2 ] || fail "merged files: ${files[*]}"
got=$(json_sum x - "${files[@]}")
[ "$got" = "$normal" ] || fail "merged from $got processes, $normal runs exited normally"
whole_runs "$normal" "${files[@]}"
ls -A "$D" | grep -q tmp && fail "temporary files left: $(ls -A "$D" | grep tmp)"

# Killed at any moment.
D=$S/any
mkdir "$D"
out=$(python3 "$ROOT/tests/stubs/merge_race.py" "$P" "$D" "$RUNS" 16 any) || fail "race (any): $out"
echo "kills at any moment: $out"
read -r _ normal _ killed _ renamed <<<"$out"
mapfile -t files < <(merged_in "$D")
procs=$(json_sum x - "${files[@]}")
whole_runs "$procs" "${files[@]}"
[ "$procs" -ge "$normal" ] && [ "$procs" -le $((normal + killed)) ] ||
    fail "merged from $procs processes: $normal runs exited normally, $killed killed"
m=$(ls "$D" | grep 'merged-')
"$GOSTAT" merge --dir "$D" -o "$WORK/dir.json" 2>/dev/null || fail "gostat merge --dir"
dir_runs=$(python3 -c 'import json,sys; print(sum(f["calls"] for f in json.load(open(sys.argv[1]))["functions"] if f["name"] == "main.main"))' "$WORK/dir.json")
away=$(json_sum x - "$D/renamed-away" 2>/dev/null || echo 0)
[ $((dir_runs + away)) -le "$RUNS" ] || fail "gostat merge --dir counts $dir_runs runs beside $away renamed away, of $RUNS"
echo "any: $m, $procs processes merged, $dir_runs runs in gostat merge --dir"

# A merger that cannot remove its own file after placing its counts.
D=$S/unlink
mkdir "$D"
GOSTAT_MERGE=1 GOSTAT_DIR=$D "$P" || fail "first run"
GOSTAT_MERGE=1 GOSTAT_DIR=$D strace -f -o /dev/null -e trace=unlink -e inject=unlink:error=EPERM "$P" ||
    fail "run with unlink failing"
[ "$(ls "$D" | wc -l)" = 2 ] || fail "unlink failing: $(ls -A "$D")"
"$GOSTAT" merge --dir "$D" -o "$WORK/unlink.json" 2>/dev/null || fail "gostat merge --dir (unlink)"
got=$(python3 -c 'import json,sys; print(sum(f["calls"] for f in json.load(open(sys.argv[1]))["functions"] if f["name"] == "main.main"))' "$WORK/unlink.json")
[ "$got" = 2 ] || fail "gostat merge --dir counts $got runs of 2 (a merged process's own file counted again)"

# A second user in a shared directory.
as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
exit_ms() { # the fastest of three runs, in ms, each cut at 2 s: env VAR=... "$P"
    local best=999999 t0 t1 i
    for i in 1 2 3; do
        t0=$(date +%s%N)
        timeout -s KILL 2 "$@" >/dev/null 2>&1
        t1=$(date +%s%N)
        [ $(((t1 - t0) / 1000000)) -lt $best ] && best=$(((t1 - t0) / 1000000))
    done
    echo $best
}
H=$S/shared
mkdir "$H" && chmod 1777 "$H"
GOSTAT_MERGE=1 GOSTAT_DIR=$H "$P" || fail "first run in the shared directory"
M=$(ls "$H")
as_nobody sh -c 'cd "$1" && for n in "$2.tmp" "$2.tmp-0" ".$2.tmp" ".$2.tmp-0000000000000000"; do : >"$n"; done' sh "$H" "$M" ||
    fail "nobody creating files"
for i in 1 2 3; do GOSTAT_MERGE=1 GOSTAT_DIR=$H "$P" || fail "run beside nobody's files"; done
[ "$(json_sum x - "$H/$M")" = 4 ] || fail "beside nobody's files: $(json_sum x - "$H/$M") processes merged, of 4"
[ "$(ls "$H" | grep -vc 'tmp')" = 1 ] || fail "beside nobody's files: $(ls -A "$H")"

H=$S/planted
mkdir "$H" && chmod 1777 "$H"
GOSTAT_MERGE=1 GOSTAT_DIR=$H "$P" || fail "a run to learn the merged file's name"
M=$(ls "$H")
rm "$H/$M"
as_nobody sh -c 'umask 0; : >"$1"; exec flock "$1" sleep 60' sh "$H/$M" &
holder=$!
for _ in $(seq 100); do [ -e "$H/$M" ] && break; sleep 0.05; done
sleep 0.2
base=$(exit_ms env GOSTAT_DIR="$WORK" "$P")
t=$(exit_ms env GOSTAT_MERGE=1 GOSTAT_DIR="$H" "$P")
echo "exit without merging: $base ms; beside nobody's locked merged file: $t ms"
[ "$t" -le $((base + 100)) ] || fail "nobody's locked merged file delayed the exit: $t ms, $base ms without merging"
[ "$(stat -c %U "$H/$M")" = nobody ] && [ ! -s "$H/$M" ] || fail "nobody's merged file changed"
own=$(ls "$H" | grep -v merged | head -1)
[ -n "$own" ] && "$GOSTAT" "$H/$own" | head -1 | grep -q "not merged: merged file not this program's" ||
    fail "the kept file does not say why: ${own:-none}"
[ -z "$own" ] || whole_runs 1 "$H/$own"
{ kill "$holder"; wait "$holder"; } 2>/dev/null

[ $fails -eq 0 ]
