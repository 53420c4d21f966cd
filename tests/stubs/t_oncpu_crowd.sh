#!/usr/bin/env bash
# t_oncpu_crowd: on-CPU time when goroutines wait in the run queue
# (docs/timing.md, "On-CPU time"). testdata/crowd runs 8 goroutines that
# each call main.spin once with the same CPU-bound work, at GOMAXPROCS=2:
# sysmon preempts each every 10 ms (asynchronously, or at a stack check),
# and it waits in the run queue for its next turn, so main.spin's wall
# time is about 4 times its CPU time. Instrumented in the default mode and
# with --time-all, for each Go release in GOVERS, run under a wrapper that
# reads the child's CPU time (getrusage, user + system, all threads):
#  - main.spin's wall (TOTAL) is at least twice its on-CPU: the run queue
#    was really waited in (else this test could not fail);
#  - every function's on-CPU is at most the process's CPU time plus the
#    kernel's run-queue delay of its threads (the program reads it from
#    /proc/self/task/*/schedstat at its end): time the kernel takes a thread
#    away is on-CPU here, as in Go's own view, and this machine is shared;
#    plus the steal time of all CPUs while it ran (/proc/stat: a virtual
#    CPU the hypervisor takes away is in neither figure).
#    Tolerance 1 % + 2 ms: the TSC's rate is calibrated against
#    CLOCK_MONOTONIC over 10 ms at start-up, and the kernel's figures are
#    read a few ms before the process ends. A preemption counted as on-CPU
#    gives main.spin the 8 goroutines' summed wall time, about 4 times the
#    bound. Left out: the scheduler's idle functions (findRunnable, stopm,
#    notesleep, ...), which sleep in a futex on g0 and read as on-CPU, as
#    system calls do; `gostat --sort oncpu` leaves them out too unless
#    --runtime is given, which is checked here;
#  - main.spin's on-CPU is at least 90 % of the process's CPU: it is all
#    the work there is (start-up, the scheduler and the stats file take a
#    few ms);
#  - each goroutine's call is counted (8 calls) and the output matches the
#    original's; gorewrite warns of no refusal.
# gostat's side of a refusal on a file made by mkstats (check_unavailable);
# on-CPU self times under path overflow (check_overflow).
. "$(dirname "$0")/../lib.sh"
require_tools
work_dir
GOVERS=${GOVERS:-"$GO_VERSIONS $GO_VERSIONS_NEWER"}
MKSTATS=${MKSTATS:-$ROOT/build/tests/mkstats}
N=8
ROUNDS=60
IDLE='^runtime\.(findRunnable|findrunnable|stopm|mPark|stoplockedm|gcstopm|notesleep|notetsleep|notetsleep_internal|futexsleep|netpoll|usleep|usleep_no_g)$'

# timed RUNDIR STATDIR CMD...: run_one with GOMAXPROCS=2; the child's CPU
# time and the machine's steal time while it ran, in ns, into RUNDIR/cpu.
timed() {
    local o=$1 sd=$2
    shift 2
    mkdir -p "$o" "$sd"
    GOMAXPROCS=2 GOSTAT_DIR=$sd timeout -k 10 "$RUN_TIMEOUT" python3 -c '
import os, subprocess, sys
def steal():                 # taken by the hypervisor, all CPUs: ns
    return int(open("/proc/stat").readline().split()[8]) * 1e9 / os.sysconf("SC_CLK_TCK")
s0 = steal()
p = subprocess.Popen(sys.argv[2:])
_, status, ru = os.wait4(p.pid, 0)
open(sys.argv[1], "w").write("%d %d\n" % (round((ru.ru_utime + ru.ru_stime) * 1e9), steal() - s0))
sys.exit(os.waitstatus_to_exitcode(status))' "$o/cpu" "$@" </dev/null >"$o/out" 2>"$o/err"
    echo $? >"$o/rc"
}

# A file of a program whose hand-offs gorewrite could not all hook
# (GS_HDR_ONCPU_OFF, made by mkstats): gostat says on-CPU time is
# unavailable, shows no CPU column and JSON no oncpu_ns.
check_unavailable() {
    local m=$WORK/gostat.off.4194305 t
    "$MKSTATS" "$m" --pid 4194305 --timing --oncpu-off --tsc 1000:0:2001000:1000000 --func main.spin:0x10:2 \
        --time 0:0:4000000:2000000:2000000:16=2 || { fail "mkstats --oncpu-off"; return; }
    t=$("$GOSTAT" "$m" 2>&1)
    echo "$t" | grep -q '^on-CPU time: unavailable' || fail "--oncpu-off: gostat does not say on-CPU time is unavailable: $t"
    echo "$t" | grep -Eq '^FUNCTION +CALLS +TOTAL +SELF ' || fail "--oncpu-off: a CPU column anyway: $t"
    "$GOSTAT" --json "$m" | python3 -c '
import json, sys
d = json.load(sys.stdin)
sys.exit(0 if d.get("oncpu_unavailable") is True and all("oncpu_ns" not in f for f in d["functions"]) else 1)' ||
        fail "--oncpu-off: JSON without oncpu_unavailable, or with oncpu_ns"
}
check_unavailable

# No call-graph line's on-CPU self time above its self time (a
# descheduled callee's off-CPU time is its caller's too; a callee whose
# path overflowed has no line, and its on-CPU must not stay in its
# caller's), so folded's and pprof's on-CPU totals stay under their time:
# on a crafted file (mkstats --chain 2: main.a 2 us, 1 us its own, all
# on-CPU, calls main.b, 1 us, none on-CPU, as a callee whose on-CPU is in
# no line leaves it) main.a's line reads 1 us of on-CPU, not 2; and under
# real path overflow (testdata/recursion's fib, --call-graph --max-paths
# 64). A line is whole ns, each of its nodes (one per call site) rounded
# on its own: 1 ns + 1 ppm of tolerance.
oncpu_above_self() {
    python3 - "$1" "$2" "$3" <<'PY'
import sys
def lines(p):
    return dict((l.rsplit(" ", 1)[0], int(l.rsplit(" ", 1)[1])) for l in open(p))
oncpu, self = lines(sys.argv[1]), lines(sys.argv[2])
over = [(k, v, self.get(k, 0)) for k, v in oncpu.items() if v > self.get(k, 0) * (1 + 1e-6) + 1]
print("  %s: %d lines, on-CPU %d ns, self %d ns, %d lines with on-CPU above self"
      % (sys.argv[3], len(oncpu), sum(oncpu.values()), sum(self.values()), len(over)))
for k, v, w in over[:5]:
    print("  %s: on-CPU %d, self %d" % (k, v, w))
sys.exit(1 if over or not oncpu else 0)
PY
}
check_overflow() {
    local c=$WORK/gostat.chain.4194305
    "$MKSTATS" "$c" --pid 4194305 --timing --tsc 1000:0:2000:1000000 --rows 2 --chain 2 \
        --chain-oncpu 0:2 --func main.a:0x1000:1 --func main.b:0x1100:1 || { fail "mkstats --chain-oncpu"; return; }
    "$GOSTAT" folded --value oncpu "$c" >"$c.oncpu" && "$GOSTAT" folded "$c" >"$c.self" ||
        { fail "chain: gostat folded"; return; }
    oncpu_above_self "$c.oncpu" "$c.self" chain || fail "chain: on-CPU self above self (above)"
    grep -q 'main\.a 1000$' "$c.oncpu" || fail "chain: main.a's on-CPU self not 1000 ns: $(cat "$c.oncpu")"

    local v=${GO_VERSIONS_NEWER##* } d=$WORK/overflow f
    build_go "$v" "$ROOT/testdata/recursion" "$ROOT/build/testbin/go$v/exe/recursion" || { fail "overflow: build"; return; }
    "$GOREWRITE" --call-graph --max-paths 64 "$ROOT/build/testbin/go$v/exe/recursion" "$d" >/dev/null ||
        { fail "overflow: gorewrite"; return; }
    mkdir -p "$d.st"
    run_one "$d.run" "$d.st" "$d" 25
    f=$(stats_file_for "$d.st") || { fail "overflow: no stats file"; return; }
    "$GOSTAT" folded --value oncpu "$f" >"$d.oncpu" 2>"$d.err" && "$GOSTAT" folded "$f" >"$d.self" 2>>"$d.err" ||
        { fail "overflow: gostat folded"; return; }
    grep -q "did not fit in the path tables" "$d.err" || fail "overflow: no path overflowed"
    oncpu_above_self "$d.oncpu" "$d.self" overflow || fail "overflow: on-CPU self above self (above)"
}
check_overflow

orig_out=
for v in $GOVERS; do
    orig=$ROOT/build/testbin/go$v/exe/crowd
    build_go "$v" "$ROOT/testdata/crowd" "$orig" || { fail "go$v: build failed"; continue; }
    if [ -z "$orig_out" ]; then
        o=$WORK/orig
        timed "$o" "$o.st" "$orig" $N $ROUNDS
        [ "$(cat "$o/rc")" = 0 ] || { fail "go$v: the original exited $(cat "$o/rc")"; continue; }
        orig_out=$o/out
    fi
    for mode in default all; do
        flags=()
        [ $mode = all ] && flags=(--time-all)
        exe=$WORK/go$v.$mode
        "$GOREWRITE" ${flags[@]+"${flags[@]}"} "$orig" "$exe" >"$exe.log" 2>&1 ||
            { fail "go$v $mode: gorewrite failed: $(head -c 300 "$exe.log")"; continue; }
        grep -q "on-CPU time off" "$exe.log" && fail "go$v $mode: $(grep "on-CPU time off" "$exe.log")"
        r=$WORK/go$v.$mode.run
        timed "$r" "$r.st" "$exe" $N $ROUNDS
        [ "$(cat "$r/rc")" = 0 ] || { fail "go$v $mode: exited $(cat "$r/rc"): $(head -c 300 "$r/err")"; continue; }
        cmp -s "$orig_out" "$r/out" || fail "go$v $mode: output differs from the original's"
        f=$(stats_file_for "$r.st") || { fail "go$v $mode: no stats file"; continue; }
        gostat_json "$f" "$r.json" || { fail "go$v $mode: gostat --json"; continue; }
        python3 - "$r" "go$v $mode" $N "$IDLE" <<'PY' || fail "go$v $mode: on-CPU against the process's CPU (above)"
import json, re, sys
r, tag, n, idle = sys.argv[1], sys.argv[2], int(sys.argv[3]), re.compile(sys.argv[4])
cpu, steal = map(int, open(r + "/cpu").read().split())
own = dict((l.split()[0], int(l.split()[1])) for l in open(r + "/err") if l.split()[0].endswith("_ns"))
bound = (cpu + own["delay_ns"] + steal) * 1.01 + 2e6
funcs = json.load(open(r + ".json"))["functions"]
spin = [x for x in funcs if x["name"] == "main.spin"]
bad = []
if len(spin) != 1 or spin[0]["calls"] != n or spin[0].get("oncpu_ns") is None:
    bad.append("main.spin: %s, want %d calls with oncpu_ns" % (spin, n))
else:
    s = spin[0]
    print("  %s: process CPU %.3f s, kernel run-queue delay %.3f s, steal %.3f s (bound %.3f s); main.spin wall %.3f s,"
          " on-CPU %.3f s (%.1f %% of the CPU)" % (tag, cpu / 1e9, own["delay_ns"] / 1e9, steal / 1e9, bound / 1e9,
          s["total_ns"] / 1e9, s["oncpu_ns"] / 1e9, 100.0 * s["oncpu_ns"] / cpu))
    if s["total_ns"] < 2 * s["oncpu_ns"]:
        bad.append("main.spin: wall %d ns under twice its on-CPU %d: its wait in the run queue counted"
                   " as on-CPU, or no wait"
                   % (s["total_ns"], s["oncpu_ns"]))
    if s["oncpu_ns"] < 0.9 * cpu:
        bad.append("main.spin: on-CPU %d ns under 90 %% of the process's CPU %d" % (s["oncpu_ns"], cpu))
over = [x for x in funcs if (x.get("oncpu_ns") or 0) > bound and not idle.match(x["name"])]
for x in over[:10]:
    bad.append("%s: on-CPU %.3f s above the process's CPU + delay + steal %.3f s" % (x["name"], x["oncpu_ns"] / 1e9, bound / 1e9))
for x in bad:
    print("  " + x)
sys.exit(1 if bad else 0)
PY
        # --sort oncpu: the idle functions only with --runtime
        "$GOSTAT" --sort oncpu --wide "$f" >"$r.tab" 2>&1 || fail "go$v $mode: gostat --sort oncpu"
        "$GOSTAT" --sort oncpu --runtime --wide "$f" >"$r.rt" 2>&1 || fail "go$v $mode: gostat --sort oncpu --runtime"
        awk '{ print $1 }' "$r.tab" | grep -Eq "$IDLE" &&
            fail "go$v $mode: --sort oncpu lists $(awk '{ print $1 }' "$r.tab" | grep -E "$IDLE" | tr '\n' ' ')"
        awk '{ print $1 }' "$r.rt" | grep -Eq "$IDLE" ||
            fail "go$v $mode: --sort oncpu --runtime lists no idle function of the scheduler"
        grep -q "idle functions left out" "$r.tab" || fail "go$v $mode: --sort oncpu does not say what it left out"
    done
done
[ $fails -eq 0 ]
