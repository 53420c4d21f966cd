#!/usr/bin/env bash
# t_abandoned: calls the scheduler leaves open are never counted as panic
# unwinds. testdata/abandoned recovers 250 panics, each leaving the same
# frames without returning, among some 800,000 scheduler switches
# (goroutines parking on channels, runtime.Gosched, 10,000 goroutines that
# end). Built with --time-all, in the default mode (with --first 1000, so
# that each panicking function's 250 calls are all timed, as they were
# under the default's first 1,000 before 2026-11-26) and with --call-graph,
# on every Go of the tests:
# - drops.unwound is exactly 250 x the timed frames a recovered panic
#   leaves: main.level1 and main.level2 (main.level3 has no return, so it
#   is untimed), runtime.gopanic, and from Go 1.22 on
#   runtime.(*_panic).nextDefer, which calls mcall(recovery) itself
#   (runtime/panic.go); each of them timed by gorewrite. Before the
#   scheduler's drops had a reason of their own, unwound held ~830,000;
# - drops.abandoned (left open on g0) is > 0, and under --time-all at
#   least every call of runtime.schedule but the last per thread;
# - the scheduler's functions that never return (runtime.schedule,
#   execute, park_m, gosched_m, goschedImpl, goexit0), and main.level1/2,
#   have no timed call: JSON times null and `-` in the table's TOTAL, in
#   every mode (--time-all showed 0ns); runtime.goexit1 is untimed;
# - the table's summary line shows both counts, equal to the JSON's;
# - under --time-all, the calls that got no duration account for every
#   drop: sum(calls - timed_calls) - unwound - abandoned is >= 0 and at
#   most the calls still open when the program exits (64).
# Environment: GOVERS="1.22" restricts the Go versions.

. "$(dirname "$0")/../lib.sh"
require_tools

work_dir
DIR=$ROOT/testdata/abandoned
PANICS=250

check_drops() {
    py_check "$@" <<'PY'
mode, goversion, table, panics = sys.argv[2], sys.argv[3], open(sys.argv[4]).read(), int(sys.argv[5])
funcs = {f["name"]: f for f in stats["functions"]}
drops = dict(stats["drops"])
drops.setdefault("abandoned", 0)    # (a gostat without the reason)
minor = int(goversion.split(".")[1])

# the frames a recovered panic leaves open on the goroutine's stack
frames = ["main.level1", "main.level2", "main.level3", "runtime.gopanic"]
if minor >= 22:
    frames.append("runtime.(*_panic).nextDefer")
left = [n for n in frames if n in funcs and funcs[n]["timed"]]
for n in ["main.level1", "main.level2", "runtime.gopanic"]:
    if n not in left:
        bad.append("%s is not timed: the test would not see its unwinding" % n)
if drops["unwound"] != panics * len(left):
    bad.append("unwound %d, want %d panics x %d timed frames %s" % (drops["unwound"], panics, len(left), left))
if drops["abandoned"] <= 0:
    bad.append("abandoned %r, want > 0" % drops.get("abandoned"))

rows = {}
for line in table.splitlines():
    w = line.split()
    if len(w) > 3 and (w[0].startswith("runtime.") or w[0].startswith("main.")):
        rows[w[0]] = w
m = [l for l in table.splitlines() if l.startswith("timing: ")]
want = "unwound by panic/Goexit %d, abandoned by the scheduler %d," % (drops["unwound"], drops["abandoned"])
if len(m) != 1 or want not in m[0]:
    bad.append("table summary %r lacks %r" % (m, want))

never = ["runtime.schedule", "runtime.execute", "runtime.park_m", "runtime.gosched_m",
         "runtime.goschedImpl", "runtime.goexit0", "main.level1", "main.level2"]
seen = 0
for n in never:
    f = funcs.get(n)
    if not f or not f["timed"] or f["calls"] == 0:
        continue
    seen += 1
    if f["timed_calls"] != 0 or f["total_ns"] is not None or f["mean_ns"] is not None:
        bad.append("%s: %d calls, timed_calls %r total_ns %r mean_ns %r; want 0, null, null"
                   % (n, f["calls"], f["timed_calls"], f["total_ns"], f["mean_ns"]))
    if n not in rows or rows[n][2] != "-":
        bad.append("%s: table TOTAL %r, want -" % (n, rows.get(n, ["", "", "(no row)"])[2]))
if seen < 4:
    bad.append("only %d of the never-returning functions are timed and called" % seen)
if "runtime.goexit1" in funcs and funcs["runtime.goexit1"]["timed"]:
    bad.append("runtime.goexit1 is timed: it never returns")

if mode == "timed":
    sched = funcs["runtime.schedule"]["calls"]
    if drops["abandoned"] < sched - 64:
        bad.append("abandoned %d < runtime.schedule's %d calls - 64" % (drops["abandoned"], sched))
    untimed = sum(f["calls"] - f["timed_calls"] for f in stats["functions"] if f["timed"])
    rest = untimed - drops["unwound"] - drops["abandoned"]
    if not 0 <= rest <= 64:
        bad.append("%d calls untimed, %d unwound, %d abandoned: %d left over, want 0..64 (open at exit)"
                   % (untimed, drops["unwound"], drops["abandoned"], rest))
PY
}

for v in ${GOVERS:-$GO_VERSIONS}; do
    orig=$ROOT/build/testbin/go$v/exe/abandoned
    if ! build_go "$v" "$DIR" "$orig"; then
        fail "go$v: build failed"
        continue
    fi
    for mode in timed default call-graph; do
        id="go$v $mode"
        instr=$WORK/go$v/abandoned.$mode
        mkdir -p "$WORK/go$v"
        flags=()
        [ $mode = timed ] && flags=(--time-all)
        [ $mode = call-graph ] && flags=(--call-graph)
        [ $mode = default ] && flags=(--first 1000)
        if ! "$GOREWRITE" ${flags[@]+"${flags[@]}"} "$orig" "$instr" >/dev/null; then
            fail "$id: bin/gorewrite failed"
            continue
        fi
        if ! run_compare "$orig" "$instr"; then
            fail "$id: the instrumented program behaves differently"
            continue
        fi
        stats=$(stats_file_for "$RC_STATDIR") || { fail "$id: no stats file"; continue; }
        json=$RC_WORK/stats.json
        gostat_json "$stats" "$json" || { fail "$id: gostat --json failed"; continue; }
        "$GOSTAT" "$stats" >"$RC_WORK/table.txt" 2>&1 || { fail "$id: gostat failed"; continue; }
        ok=1
        check_counts "$json" "$DIR/expect" "$v" || ok=0
        check_drops "$json" "$mode" "$v" "$RC_WORK/table.txt" "$PANICS" || ok=0
        if [ $ok -eq 1 ]; then
            echo "ok   $id: $(grep '^timing: ' "$RC_WORK/table.txt")"
        else
            cp "$json" "$ROOT/build/test-logs/t_abandoned.go$v.$mode.json" 2>/dev/null
            fail "$id: wrong drops (above)"
        fi
    done
done
[ $fails -eq 0 ]
