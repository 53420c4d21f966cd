#!/usr/bin/env bash
# t_procend: a stats file remembers when its process ended
# (docs/stats-format.md "At exit"). testdata/procend starts five
# goroutines from one go statement that block forever, sleeps 300 ms and
# exits with os.Exit(3), main.main still open. After it has exited:
# `gostat goroutines` shows that site with 5 goroutines still running at
# the end, the oldest aged at least 300 ms (they were created before the
# sleep began) and less than 300 ms + 2 s (the slack a loaded machine
# may add between the sleep's end and the exit); the file says when the
# process ended (JSON ended_ns, between its start + 300 ms and now; the
# table's "ended" line); main.main has its 1 call timed to the exit (at
# least 300 ms, closed_at_exit 1). On Go 1.15 (stack ABI: g from TLS at
# the exit), 1.22 and the newest release, in the default mode; on 1.22
# with --call-graph too; and in a merged file of two runs (GOSTAT_MERGE):
# 10 goroutines running at their processes' ends, main.main 2 calls
# closed at exit, the latest end kept.
cd "$(dirname "$0")/../.."
. tests/lib.sh
require_tools
work_dir
SLEEP_NS=300000000
SLACK_NS=2000000000

# run BIN TAG [merge]: runs BIN to its end with its stats in $WORK/sd.TAG.
run() {
    local bin=$1 tag=$2 merge=${3:-}
    mkdir -p "$WORK/sd.$tag"
    GOSTAT_DIR=$WORK/sd.$tag GOSTAT_MERGE=$merge timeout -k 5 "$RUN_TIMEOUT" "$bin" >"$WORK/$tag.out" 2>&1
    local rc=$?
    [ $rc -eq 3 ] || fail "$tag: exit status $rc, want 3: $(tail -2 "$WORK/$tag.out")"
}

# check TAG PROCESSES: the file in $WORK/sd.TAG against what PROCESSES
# runs of the program left.
check() {
    local tag=$1 procs=$2 f
    f=$(stats_file_for "$WORK/sd.$tag") || { fail "$tag: no single stats file"; return; }
    "$GOSTAT" goroutines --json "$f" >"$WORK/$tag.g.json" 2>"$WORK/$tag.err" || fail "$tag: gostat goroutines --json"
    "$GOSTAT" goroutines "$f" >"$WORK/$tag.g.txt" 2>>"$WORK/$tag.err" || fail "$tag: gostat goroutines"
    "$GOSTAT" --json "$f" >"$WORK/$tag.json" 2>>"$WORK/$tag.err" || fail "$tag: gostat --json"
    local r
    r=$(python3 - "$WORK/$tag" "$procs" "$SLEEP_NS" "$SLACK_NS" "$(date +%s%N)" <<'PY'
import json, sys
tag, procs, sleep, slack, now = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
g = json.load(open(tag + ".g.json"))
d = json.load(open(tag + ".json"))
table = open(tag + ".g.txt").read()
bad = []
end = g.get("ended_ns")
if end is None or end != d.get("ended_ns"):
    bad.append("ended_ns %s (goroutines) and %s (table JSON)" % (end, d.get("ended_ns")))
elif not d["start_time_ns"] + sleep <= end <= now:
    bad.append("ended_ns %d: not between the start + 300 ms (%d) and now (%d)" % (end, d["start_time_ns"] + sleep, now))
sites = [s for s in g["goroutines"] if s["creator"] == "main.spawn" and s["start"] == "main.blocker"]
if len(sites) != 1:
    bad.append("%d sites main.spawn -> main.blocker" % len(sites))
else:
    s = sites[0]
    want = 5 * procs
    if (s["created"], s["exited"], s["live"], s.get("running_at_exit")) != (want, 0, want, want):
        bad.append("created/exited/live/running_at_exit %s/%s/%s/%s, want %d/0/%d/%d" %
                   (s["created"], s["exited"], s["live"], s.get("running_at_exit"), want, want, want))
    if not sleep <= s["oldest_live_ns"] < sleep + slack:
        bad.append("oldest at exit %d ns, want [%d, %d)" % (s["oldest_live_ns"], sleep, sleep + slack))
if "AT EXIT" not in table.splitlines()[0] or "\nended " not in table:
    bad.append("table without AT EXIT or ended: %r" % table[:200])
m = [f for f in d["functions"] if f["name"] == "main.main"]
if len(m) != 1:
    bad.append("%d main.main" % len(m))
else:
    f = m[0]
    if (f["calls"], f["timed_calls"], f.get("closed_at_exit")) != (procs, procs, procs):
        bad.append("main.main calls/timed/closed_at_exit %s/%s/%s, want %d each" %
                   (f["calls"], f["timed_calls"], f.get("closed_at_exit"), procs))
    if f["total_ns"] is None or not procs * sleep <= f["total_ns"] < procs * (sleep + slack):
        bad.append("main.main total %s ns, want [%d, %d)" % (f["total_ns"], procs * sleep, procs * (sleep + slack)))
if d["drops"].get("closed_at_exit", 0) < procs:
    bad.append("drops closed_at_exit %s < %d" % (d["drops"].get("closed_at_exit"), procs))
if d.get("processes", 0) != (procs if procs > 1 else 0):
    bad.append("processes %s" % d.get("processes"))
print("; ".join(bad) if bad else "ok: oldest at exit %.1f ms, main.main %.1f ms, ended %.1f ms after the start" % (
    sites[0]["oldest_live_ns"] / 1e6, m[0]["total_ns"] / 1e6 / procs, (end - d["start_time_ns"]) / 1e6))
sys.exit(1 if bad else 0)
PY
) || fail "$tag: $r"
    echo "$tag: $r"
}

for v in 1.15 1.22 1.27; do
    bin=$WORK/p$v
    build_go "$v" testdata/procend "$bin" || { fail "go$v: build"; continue; }
    instrument "$bin" "$bin.instr" || { fail "go$v: gorewrite"; continue; }
    run "$bin.instr" "$v"
    check "$v" 1
done

if [ -x "$WORK/p1.22" ]; then
    "$GOREWRITE" --call-graph "$WORK/p1.22" "$WORK/p1.22.cg" >/dev/null 2>&1 || fail "--call-graph: gorewrite"
    run "$WORK/p1.22.cg" cg
    check cg 1
    run "$WORK/p1.22.instr" merged 1
    run "$WORK/p1.22.instr" merged 1
    check merged 2
fi
[ $fails -eq 0 ]
