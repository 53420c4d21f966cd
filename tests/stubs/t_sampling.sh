#!/usr/bin/env bash
# t_sampling: the default mode's sampled timing is unbiased. testdata/
# sampling runs two steady functions 300,000 and 100,000 times (sampled:
# each function's first 16 calls in the process, then ever more rarely) and
# two rare ones 16 and 8 times (every call timed). Built in the default
# mode and with --time-all (Go 1.22), both must count every call exactly;
# the rare functions must have every call timed and not be estimated; the
# steady ones must be sampled (more than 16 but under 1 % of the calls
# timed, time_estimated) with mean, p50 and p90 within 10 % of
# --time-all's and p99 within one bucket (below; p90 too where the sample's
# p90 is clamped to its largest call in most runs, or where --time-all's
# own runs of it span over 1.25x, on a bucket edge: the comments at the
# check), and total = mean x calls. Each mode runs 5 times,
# interleaved: counts and which calls are timed are checked in every run;
# each statistic is compared as its median over the 5 runs, since one run's
# p99 rests on a few dozen sampled calls and a single interrupt or lost
# CPU among them moves it by a bucket (seen under load: p99 1030 vs 443 ns
# in one run, with the mean 7 % apart), where the estimator itself is not
# wrong.
# p99 is held to one log2 bucket (a factor of 2), not 10 %: the rounds put
# each mean mid-bucket, but the 99 % rank then falls where it falls, and for
# main.short it lies on the bucket's upper edge (--time-all: p50 1336,
# p90 1693, p99 1773 ns = the edge, ~0.7 % of calls above it). A sampled
# estimate of that 0.7 % (late samples stand for up to 0.8 % of the calls
# each) crosses 1 % in about half the runs, and p99 then moves to the next
# bucket (2.4-3.4 us): the resolution of a log2 percentile, not a bias.
# The steady functions last 1.3 and 5 us (600 / 2400 pilot rounds): at
# 0.3 us (the earlier 200 rounds) the mean itself read up to 13 % high in
# some runs (a sampled call's branch into the timing code is cold).
# Percentiles come from log2 buckets (interpolated inside the bucket that
# holds the rank), so a duration at a bucket's edge can move a percentile
# by up to a factor of 2 for a few calls on either side: a first --time-all
# run measures the steady functions' cost per round, and the compared runs
# use round counts that put each one in the middle of a bucket (1.45 x
# 2^k ticks, ~30 % from either edge), where the comparison measures the
# estimator, not the bucket edge.
# testdata/coldsample (at the end): the same agreement for a ~36 ns function
# whose sampled calls find the caches and branch predictors cold.
# SAMPLING_PARTS (default "steady firstn cold") picks the parts to run.
. "$(dirname "$0")/../lib.sh"
require_tools
work_dir
V=1.22
PARTS=" ${SAMPLING_PARTS:-steady firstn cold} "
want() { [[ $PARTS == *" $1 "* ]]; }

# instrument PROG: builds testdata/PROG and instruments it in the default
# mode and with --time-all ($WORK/PROG.default, $WORK/PROG.time-all).
instrument() {
    local prog=$1 mode flags
    build_go "$V" "$ROOT/testdata/$prog" "$ROOT/build/testbin/go$V/exe/$prog" ||
        { echo "$prog: go$V build failed"; return 1; }
    for mode in default time-all; do
        flags=()
        [ $mode = time-all ] && flags=(--time-all)
        "$GOREWRITE" ${flags[@]+"${flags[@]}"} "$ROOT/build/testbin/go$V/exe/$prog" \
            "$WORK/$prog.$mode" >/dev/null || { echo "$prog $mode: gorewrite failed"; return 1; }
    done
}

# Durations are wall time: on a loaded machine a call that loses its CPU
# lasts milliseconds, and how many of those a sample holds moves its mean
# by more than the 10 % this test asks. The timed runs therefore run at a
# real-time priority (SCHED_FIFO 1, above every ordinary process) when the
# test may set it (root or CAP_SYS_NICE); otherwise at normal priority,
# where a busy machine can fail it.
RUNS=5
PRIO=()
if chrt -f 1 true 2>/dev/null; then
    PRIO=(chrt -f 1)
else
    echo "note: cannot use SCHED_FIFO here; durations share the CPU with the load"
fi

# run MODE NAME [args]: runs the MODE build of $prog (its stdout must be
# the original's); gostat --json into $WORK/NAME.json.
run() {
    local mode=$1 name=$2 o
    shift 2
    o=$WORK/run.$name
    mkdir -p "$o/stat"
    run_one "$o/orig" "$o/stat.orig" "$ROOT/build/testbin/go$V/exe/$prog" "$@"
    run_one "$o/instr" "$o/stat" ${PRIO[@]+"${PRIO[@]}"} "$WORK/$prog.$mode" "$@"
    if ! cmp -s "$o/orig/out" "$o/instr/out" || [ "$(cat "$o/instr/rc")" != 0 ]; then
        echo "$mode: output differs from the original's or failed: $(head -c 300 "$o/instr/err")"
        return 1
    fi
    gostat_json "$(stats_file_for "$o/stat")" "$WORK/$name.json"
}

if want steady; then
prog=sampling
instrument $prog || { fail "$prog"; exit 1; }
# Three pilot runs, their median means: one run disturbed by the machine
# (seen with a compile-heavy test beside it) moved the fit enough to put
# main.short near a bucket edge, where its p90 then read 13 % apart.
for p in 1 2 3; do
    run time-all pilot$p 600 2400 || fail "pilot run $p"
done
rounds=$(python3 - "$WORK"/pilot[123].json <<'PY'
import json, math, statistics, sys
ds = [json.load(open(p)) for p in sys.argv[1:]]
def ticks(name):
    return statistics.median(next(g["mean_ns"] for g in d["functions"] if g["name"] == name)
                             * d["tsc_hz"] / 1e9 for d in ds)
# ticks per call = a + b * rounds, from the two steady functions' means
# (exact with --time-all; the percentiles are bucket interpolations)
t1, t2 = ticks("main.short"), ticks("main.long")
b = (t2 - t1) / 1800
a = t1 - 600 * b
def rounds(ticks):
    k = round(math.log2(ticks / 1.45))
    return max(1, round((1.45 * 2 ** k - a) / b))
print(rounds(t1), rounds(t2))
PY
) || fail "calibration"
echo "rounds (short long): $rounds"
for i in $(seq $RUNS); do
    run default default$i $rounds || fail "default run $i"
    run time-all all$i $rounds || fail "time-all run $i"
done
python3 - "$WORK" $RUNS <<'PY' || fail "default mode against --time-all (above)"
import json, statistics, sys
work, runs = sys.argv[1], int(sys.argv[2])
def load(name):
    return {f["name"]: f for f in json.load(open("%s/%s.json" % (work, name)))["functions"]}
ds = [load("default%d" % i) for i in range(1, runs + 1)]
As = [load("all%d" % i) for i in range(1, runs + 1)]
bad = []
calls = {"main.short": 300000, "main.long": 100000, "main.rare1": 16, "main.rare2": 8}
for i, (d, a) in enumerate(zip(ds, As), 1):
    for name, n in calls.items():
        for mode, f in (("default", d), ("time-all", a)):
            if f[name]["calls"] != n:
                bad.append("run %d %s %s: %d calls, want %d" % (i, mode, name, f[name]["calls"], n))
    for name in ("main.rare1", "main.rare2"):
        for mode, f in (("default", d), ("time-all", a)):
            g = f[name]
            if g["timed_calls"] != g["calls"] or g["time_estimated"]:
                bad.append("run %d %s %s: %s of %d calls timed, estimated %s: want every call"
                           % (i, mode, name, g["timed_calls"], g["calls"], g["time_estimated"]))
    for name in ("main.short", "main.long"):
        g, e = d[name], a[name]
        if not (16 < g["timed_calls"] < g["calls"] / 100) or g["time_estimated"] is not True:
            bad.append("run %d %s: %s of %d calls timed (estimated %s), want 17 .. calls/100, estimated"
                       % (i, name, g["timed_calls"], g["calls"], g["time_estimated"]))
        if e["timed_calls"] != e["calls"] or e["time_estimated"]:
            bad.append("run %d --time-all %s: %s of %d timed" % (i, name, e["timed_calls"], e["calls"]))
        if abs(g["total_ns"] - g["mean_ns"] * g["calls"]) > g["calls"]:
            bad.append("run %d %s: total %s is not mean x calls" % (i, name, g["total_ns"]))
keys = ("mean_ns", "p50_ns", "p90_ns", "p99_ns")
for name in ("main.short", "main.long"):
    for k in keys:
        gd = [d[name][k] for d in ds]
        ga = [a[name][k] for a in As]
        md, ma = statistics.median(gd), statistics.median(ga)
        print("  %s %s: default %s (runs %s), --time-all %s (runs %s)" % (name, k, md, gd, ma, ga))
        # clamped: a percentile interpolated in the bucket that holds the
        # largest timed call is clamped to it; a sample of a few hundred
        # calls often has none of the ~1 % above that bucket, whose top
        # --time-all's interpolation then reaches and the sample's cannot
        clamped = sum(d[name][k] >= 0.999 * d[name]["max_ns"] for d in ds) >= 3
        # on an edge: --time-all's own runs of it span over 1.25x (every
        # call timed, so the percentile is on a bucket edge, not the
        # sample astray: p90 2566-3587 ns over one test's runs)
        edge = max(ga) > 1.25 * min(ga)
        if k == "p99_ns" or (k == "p90_ns" and (clamped or edge)):
            if not (ma / 2 <= md <= 2 * ma):
                bad.append("%s %s: median default %s, --time-all %s: more than one bucket apart" % (name, k, md, ma))
        elif abs(md - ma) > 0.10 * ma:
            bad.append("%s %s: median default %s, --time-all %s: more than 10 %% apart" % (name, k, md, ma))
for b in bad:
    print("  " + b)
sys.exit(1 if bad else 0)
PY
fi

# testdata/firstn: the first N calls are the process's, not each
# thread's: four threads (each goroutine locked to one) call main.spread
# and main.shared. Default (N = 16): spread 16 times and shared 4 times
# each; shared (16 calls) has every call timed, spread (64) fewer than all
# (the first 16, then each thread's next call and a sample with gaps of
# 1..63: all 48 others timed only if every gap drawn were 1), estimated;
# with the first 16 counted per thread, all 64 would be (the mutant
# first-n-per-thread). --first 1000: spread 400 and shared 250 times
# each; shared (1,000 calls) exact, spread (1,600) more than 1,000 timed
# but not all, estimated.
fbin=$ROOT/build/testbin/go$V/exe/firstn
firstn_case() { # NAME FLAGS SPREAD SHARED
    local name=$1 flags=$2 f
    "$GOREWRITE" $flags "$fbin" "$WORK/firstn.$name" >/dev/null || { fail "firstn $name: gorewrite failed"; return; }
    rm -rf "$WORK/fn.$name" "$WORK/fn.$name.st"
    mkdir -p "$WORK/fn.$name.st"
    run_one "$WORK/fn.$name" "$WORK/fn.$name.st" "$WORK/firstn.$name" "$3" "$4"
    [ "$(cat "$WORK/fn.$name/rc")" = 0 ] || fail "firstn $name: exited $(cat "$WORK/fn.$name/rc")"
    f=$(stats_file_for "$WORK/fn.$name.st") && gostat_json "$f" "$WORK/fn.$name.json" &&
        python3 - "$WORK/fn.$name.json" "$3" "$4" "${flags#--first }" <<'PY' || fail "firstn $name: the first N calls per process"
import json, sys
f = {x["name"]: x for x in json.load(open(sys.argv[1]))["functions"]}
nspread, nshared = 4 * int(sys.argv[2]), 4 * int(sys.argv[3])
first = int(sys.argv[4]) if sys.argv[4] else 16
bad = []
s, p = f["main.shared"], f["main.spread"]
if (s["calls"], s["timed_calls"], s["time_estimated"]) != (nshared, nshared, False):
    bad.append("main.shared: %s calls, %s timed, estimated %s; want %d, %d, false"
               % (s["calls"], s["timed_calls"], s["time_estimated"], nshared, nshared))
if p["calls"] != nspread or not first < p["timed_calls"] < nspread or p["time_estimated"] is not True:
    bad.append("main.spread: %s calls, %s timed, estimated %s; want %d, %d..%d, true"
               % (p["calls"], p["timed_calls"], p["time_estimated"], nspread, first + 1, nspread - 1))
print("  firstn %s: spread %s of %s timed, shared %s of %s" % (sys.argv[4] or "default", p["timed_calls"],
      p["calls"], s["timed_calls"], s["calls"]))
for b in bad:
    print("  " + b)
sys.exit(1 if bad else 0)
PY
}
if ! want firstn; then
    :
elif build_go "$V" "$ROOT/testdata/firstn" "$fbin"; then
    firstn_case default "" 16 4
    firstn_case 1000 "--first 1000" 400 250
else
    fail "firstn: build failed"
fi
# testdata/coldsample: sampled equals timed when the sampled path is cold.
# main.small (~36 ns, a leaf) runs 200,000 times, each call after 64 of 512
# distinct functions and 64 cache lines of a 16 MiB buffer, so that by a
# sampled call of it the timing stack, the counters, the record and the
# stub's branches are cold; under --time-all they are warm. Its sampled
# p50, p90 and mean (medians of 5 interleaved runs per mode) must be within
# 25 % of --time-all's, or above them by no more than what a sampled call's
# interval holds by nature (docs/timing.md "What is left"): its return
# mispredicts the branch to gs_sample_return and fetches that code cold. What
# cold misses cost is the machine's: 3-9 ns on the AMD machine (mean 34-41
# against 28-34 ns), 35-65 ns on the Intel one (79-105 against 35-45 ns), so
# the allowance is measured in the same runs: the sampled entry's own cold
# cost, the probe it measured above the start-up calibration's warm figure
# (JSON probe_cost_ns: sampled - timed; that entry takes several cold loads
# where the return takes one code fetch), and at least 12 ns. A sampled entry
# that reads the clock before its loads are done (no fence) both shrinks
# that allowance and puts the loads in the call: the mean then reads 21-29 ns
# above on the AMD machine and 180-200 ns above on the Intel one. A pilot
# under --time-all fits small's ticks per call to a + b x rounds and puts
# it in the middle of the histogram bucket nearest 36 ns (1.45 x 2^k
# ticks), as above.
if want cold; then
prog=coldsample
if instrument $prog; then
    for r in 16 80; do
        for p in 1 2; do
            run time-all cpilot$r.$p 50000 $r || fail "coldsample pilot $r.$p"
        done
    done
    crounds=$(python3 - "$WORK" <<'PY'
import json, math, statistics, sys
def ticks(r):
    ds = [json.load(open("%s/cpilot%d.%d.json" % (sys.argv[1], r, p))) for p in (1, 2)]
    return statistics.median(next(f["mean_ns"] for f in d["functions"] if f["name"] == "main.small")
                             * d["tsc_hz"] / 1e9 for d in ds), ds[0]["tsc_hz"]
(t1, hz), (t2, _) = ticks(16), ticks(80)
b = (t2 - t1) / 64
if b <= 0:
    sys.exit("main.small: %.0f ticks at 16 rounds, %.0f at 80: no fit" % (t1, t2))
a = t1 - 16 * b
target = 1.45 * 2 ** round(math.log2(36e-9 * hz / 1.45))
print(max(1, round((target - a) / b)))
PY
    ) || fail "coldsample calibration"
    echo "coldsample: small's rounds $crounds"
    for i in $(seq $RUNS); do
        run default cdefault$i 200000 $crounds || fail "coldsample default run $i"
        run time-all call$i 200000 $crounds || fail "coldsample time-all run $i"
    done
    python3 - "$WORK" $RUNS <<'PY' || fail "coldsample: sampled main.small against --time-all (above)"
import json, statistics, sys
work, runs = sys.argv[1], int(sys.argv[2])
def small(name):
    return next(f for f in json.load(open("%s/%s.json" % (work, name)))["functions"]
                if f["name"] == "main.small")
ds = [small("cdefault%d" % i) for i in range(1, runs + 1)]
As = [small("call%d" % i) for i in range(1, runs + 1)]
bad = []
for i, (d, a) in enumerate(zip(ds, As), 1):
    if d["calls"] != 200000 or a["calls"] != 200000 or a["timed_calls"] != 200000:
        bad.append("run %d: calls %d / %d, --time-all timed %d; want 200000"
                   % (i, d["calls"], a["calls"], a["timed_calls"]))
    if not (16 < d["timed_calls"] < 20000) or d["time_estimated"] is not True:
        bad.append("run %d default: %d timed (estimated %s), want a sample"
                   % (i, d["timed_calls"], d["time_estimated"]))
# the sampled probes, cold here, are measured and compensated as such: more
# than the start-up calibration's warm figure (gs_sample_return); what they
# measured above it is the allowance (above)
cold = []
for i in range(1, runs + 1):
    c = json.load(open("%s/cdefault%d.json" % (work, i)))["probe_cost_ns"]
    if not c or c["sampled"] is None or not c["sampled"] > c["timed"]:
        bad.append("run %d default: probe_cost_ns %s: want the sampled probes measured above the calibration" % (i, c))
        continue
    cold.append(c["sampled"] - c["timed"])
allow = max(12, statistics.median(cold)) if cold else 12
print("  probes: sampled above the calibration by %s ns (runs %s): the allowance %.1f ns"
      % (statistics.median(cold) if cold else None, [round(x, 1) for x in cold], allow))
for k in ("p50_ns", "p90_ns", "mean_ns"):
    gd, ga = [d[k] for d in ds], [a[k] for a in As]
    md, ma = statistics.median(gd), statistics.median(ga)
    print("  main.small %s: default %s (runs %s), --time-all %s (runs %s)" % (k, md, gd, ma, ga))
    if not (0.75 * ma <= md <= max(1.25 * ma, ma + allow)):
        bad.append("main.small %s: median default %s, --time-all %s: not within 25 %% below"
                   " or max(25 %%, %.1f ns) above" % (k, md, ma, allow))
for b in bad:
    print("  " + b)
sys.exit(1 if bad else 0)
PY
else
    fail "coldsample: build or gorewrite failed"
fi
fi
[ $fails -eq 0 ]
