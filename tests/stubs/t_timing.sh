#!/usr/bin/env bash
# t_timing: per-function latency. testdata/timing, built with every Go
# version, runs instrumented with --time-all (every call timed) and reports through
# gostat --json durations that agree with what the program measured itself
# with time.Now, inside each function and around each call (gostat's
# window lies between: check_timing's bracket, 2 % for the clocks; for the
# roots of many timed calls, with those calls' probe costs put back, which
# gostat leaves out and the program's clock sees): a 10 ms
# sleep (also: no call under 10 ms), a busy loop, fib(25) whose root call includes all its
# children, 1000 goroutines sleeping across threads, panics recovered
# mid-call, recursion deep enough to move the stack (every level timed:
# timing stacks grow), a jump-table switch and
# runtime.Goexit; crypto/sha256's assembly runs correctly. Calls that cannot be timed are counted as drops, never
# mis-timed. Built in the default mode it counts exactly, times every call
# of the functions called at most 16 times (--first's default: timed_calls
# == calls, not estimated) and samples main.fib (estimated, more than its
# first 16 calls timed, total = mean x calls), with no too_deep drops
# (check_default). The same program built with --count-only counts exactly and
# reports no timing; built with --sample 8 it counts exactly, times about 1
# call in 8 at random intervals, and its mean of main.work lies between the
# means of the program's own fastest and slowest calls, as many as gostat
# timed (2 % tolerance each way, check_sampled).
# Environment: GOVERS="1.22" restricts the Go versions.

. "$(dirname "$0")/../lib.sh"
require_tools

work_dir
DIR=$ROOT/testdata/timing

check_timing() {
    py_check "$@" <<'PY'
self = json.load(open(sys.argv[2]))
funcs = {}
for f in stats["functions"]:
    if f["name"].startswith("main."):
        funcs[f["name"]] = f

def f(name):
    return funcs["main." + name]

def bracket(what, got, inner, outer, tol=0.02, slack=0):
    # gostat times a call from its entry to its return: inside the caller's
    # time.Now pair (outer) and around the callee's own (inner), whatever
    # the load does to either. 2 % for the two clocks (gostat's calibrated
    # TSC, Go's monotonic clock), 1 ns for rounding; slack for what an
    # estimate put back into got may be off by.
    if not ((1 - tol) * inner - 1 - slack <= got <= (1 + tol) * outer + 1 + slack):
        bad.append("%s: %.0f ns, outside the program's own %.0f (inside the call) .. %.0f ns (around it) +-%d%% +-%.0f ns"
                   % (what, got, inner, outer, tol * 100, slack))

def timed(name, n):
    got = f(name)["timed_calls"]
    if got != n:
        bad.append("main.%s: %s timed calls, want %d" % (name, got, n))

if stats.get("timing") is not True:
    bad.append("timing is not on")
for name in ["sleep10ms", "spin", "work", "fibRoot", "fib", "nap", "guard", "classify", "afterGoexit", "main"]:
    timed(name, f(name)["calls"])
# time.Sleep never returns early: every call >= 10 ms (0.1 % for the TSC's
# calibration). Not "within 10 % of 10 ms": a loaded machine wakes the
# sleeper late (16.6 ms seen at load 21 on 2 cores); the upper side is held
# by the program's own mean, which sees the same late wake-ups.
if f("sleep10ms")["min_ns"] < 0.999 * 10e6:
    bad.append("main.sleep10ms: fastest call %s ns, shorter than its 10 ms sleep" % f("sleep10ms")["min_ns"])
# Not "within 10 % of the program's own" (around the call) any more: at
# load 20 the caller was descheduled between its time.Now and fibRoot's
# entry (25.9 ms timed by gostat, 31.7 ms by the caller); the bracket holds
# under any load and is tighter on a quiet machine.
bracket("main.sleep10ms mean", f("sleep10ms")["mean_ns"], self["inner_sleep10ms_ns"] / 20, self["sleep10ms_mean_ns"])
bracket("main.spin mean", f("spin")["mean_ns"], self["inner_spin_ns"] / 50, self["spin_mean_ns"])
bracket("main.work mean", f("work")["mean_ns"], sum(self["inner_work_each_ns"]) / 4000, self["work_mean_ns"])
# gostat leaves out the probes run inside a call (docs/timing.md,
# "Compensation"); the program's own clock sees them: each of fib's timed
# calls inside fibRoot (and deep's inside deepRoot) is put back at the
# start-up calibration's cost, and fibRoot's own share inside its interval.
# That cost is one calibration per process, give or take a quarter of it
# (fib's 242,785 timed calls x the probe; on the Intel machine fibRoot
# lands 0-5 ms from the program's own over 8 runs, 4 ms of slack, and
# 3-4 % above it in CI: tests/stubs/t_compensation.sh measures the estimate).
probe = stats["probe_cost_ns"]
def with_probes(ns, timed_inside):
    return ns + timed_inside * probe["timed"] + probe["timed_inside"]
slack = 0.25 * f("fib")["timed_calls"] * probe["timed"]
bracket("main.fibRoot", with_probes(f("fibRoot")["total_ns"], f("fib")["timed_calls"]),
        self["inner_fibroot_ns"], self["fibroot_ns"], slack=slack)
# the root call of fib(25) is fib's longest and holds all its children:
# 90-100 % of fibRoot's, each side give or take the same quarter
if not (0.9 * f("fibRoot")["max_ns"] - slack <= f("fib")["max_ns"] <= f("fibRoot")["max_ns"] + slack):
    bad.append("main.fib max %s outside 90-100%% of main.fibRoot %s +-%.0f ns" % (f("fib")["max_ns"], f("fibRoot")["max_ns"], slack))
bracket("main.nap mean (1000 goroutines)", f("nap")["mean_ns"], self["inner_nap_ns"] / 1000, self["nap_mean_ns"])
if f("nap")["min_ns"] < 2e6:
    bad.append("main.nap min %s < its 2 ms sleep" % f("nap")["min_ns"])
# every odd call panics and is recovered in guard: only the even ones return
timed("mayPanic", 1000)
# deep(20000) moves the stack many times; deepRoot's calls span it
timed("deepRoot", 3)
bracket("main.deepRoot mean", with_probes(f("deepRoot")["mean_ns"], f("deep")["timed_calls"] / 3),
        self["inner_deeproot_ns"] / 3, self["deeproot_mean_ns"],
        slack=0.25 * f("deep")["timed_calls"] / 3 * probe["timed"])
timed("deep", f("deep")["calls"])   # 20,000 deep: the timing stack grows
# runtime.Goexit unwinds exitNow and goexitWorker: never timed, never mis-timed
timed("exitNow", 0)
timed("goexitWorker", 0)
drops = stats["drops"]
if drops["unwound"] < 1000 + 200:
    bad.append("drops: %d unwound, want at least 1200 (panics and Goexit)" % drops["unwound"])
if drops["too_deep"] != 0 or drops["unmatched"] != 0:
    bad.append("drops: too_deep %d unmatched %d, want 0" % (drops["too_deep"], drops["unmatched"]))
for name, g in funcs.items():
    if g["timed"] and g["time_estimated"]:
        bad.append("%s: time estimated with every call timed" % name)
for name, g in funcs.items():
    if g["timed_calls"] is None:
        continue
    if g["timed_calls"] > g["calls"]:
        bad.append("%s: more timed calls than calls" % name)
    if g["timed_calls"] > 0:
        q = [g["min_ns"], g["p50_ns"], g["p90_ns"], g["p99_ns"], g["max_ns"]]
        if q != sorted(q) or abs(g["mean_ns"] * g["timed_calls"] - g["total_ns"]) > g["timed_calls"] + 1:
            bad.append("%s: inconsistent min/p50/p90/p99/max %s or mean %s" % (name, q, g["mean_ns"]))
PY
}

check_sampled() {
    py_check "$@" <<'PY'
self = json.load(open(sys.argv[2]))
funcs = {f["name"]: f for f in stats["functions"] if f["name"].startswith("main.")}
if stats.get("sample_every") != 8 or stats.get("timing") is not True:
    bad.append("sample_every %r timing %r, want 8 and true" % (stats.get("sample_every"), stats.get("timing")))
fib = funcs["main.fib"]
if abs(fib["timed_calls"] - fib["calls"] / 8) > 0.2 * fib["calls"] / 8:
    bad.append("main.fib: %d of %d calls timed, want about 1 in 8" % (fib["timed_calls"], fib["calls"]))
# work: 4000 steady calls, about 500 timed. On a shared machine a few calls
# are preempted for milliseconds, and whether the sample holds them moves
# its mean by tens of percent (seen here at load 7 on 2 cores), so the mean
# is only held to the estimate rule; the fastest call, which such noise
# cannot lower, must be within 10 % of the program's own fastest.
w = funcs["main.work"]
if abs(w["timed_calls"] - 500) > 100:
    bad.append("main.work: %d of 4000 calls timed, want about 500" % w["timed_calls"])
elif not (0.97 * self["work_min_ns"] <= w["min_ns"] <= 1.10 * self["work_min_ns"]):
    bad.append("main.work: fastest timed call %s ns, the program's fastest %s ns" % (w["min_ns"], self["work_min_ns"]))
elif abs(w["total_ns"] - w["mean_ns"] * w["calls"]) > w["calls"]:
    bad.append("main.work: total %s is not the estimate mean x calls" % w["total_ns"])
else:
    # The sampled mean against the program's own measurement. The program
    # timed every call from inside (time.Now as work's body starts and
    # ends) and from outside (around the call); gostat's window lies
    # between, and its mean is that of the n calls it drew, so it cannot be
    # below the mean of the n fastest inner times nor above that of the n
    # slowest outer ones, whatever the load does. Tolerance: 2 % each way
    # for the two clocks (gostat's calibrated TSC, Go's monotonic clock),
    # 1 ns for rounding.
    inner, outer = sorted(self["inner_work_each_ns"]), sorted(self["work_each_ns"])
    n = w["timed_calls"]
    lo, hi = sum(inner[:n]) / n, sum(outer[-n:]) / n
    if len(inner) != 4000 or len(outer) != 4000 or not (0.98 * lo - 1 <= w["mean_ns"] <= 1.02 * hi + 1):
        bad.append("main.work: sampled mean %s ns of %d calls, outside 0.98 x %.0f (the program's %d fastest, inside) .. 1.02 x %.0f (its %d slowest, around)"
                   % (w["mean_ns"], n, lo, n, hi, n))
PY
}

check_default() {
    py_check "$@" <<'PY'
funcs = {f["name"]: f for f in stats["functions"] if f["name"].startswith("main.")}
every = {f["name"]: f for f in json.load(open(sys.argv[2]))["functions"] if f["name"].startswith("main.")}
if stats.get("timing_mode") != "default" or stats.get("timing") is not True:
    bad.append("timing_mode %r timing %r, want default and true" % (stats.get("timing_mode"), stats.get("timing")))
for name, g in funcs.items():
    if not g["timed"]:
        continue
    # at most 16 calls (--first): timed as with --time-all (every call that
    # returns; those that Goexit or panic out cannot be)
    if g["calls"] <= 16 and (g["timed_calls"] != every[name]["timed_calls"] or g["time_estimated"]):
        bad.append("%s: %s of %d calls timed, estimated %s; want %s as with --time-all" % (name, g["timed_calls"], g["calls"], g["time_estimated"], every[name]["timed_calls"]))
fib = funcs["main.fib"]
if not (16 < fib["timed_calls"] < fib["calls"] / 10) or fib["time_estimated"] is not True:
    bad.append("main.fib: %s of %d calls timed (estimated %s), want 17 .. calls/10, estimated" % (fib["timed_calls"], fib["calls"], fib["time_estimated"]))
elif abs(fib["total_ns"] - fib["mean_ns"] * fib["calls"]) > fib["calls"]:
    bad.append("main.fib: total %s is not the estimate mean x calls" % fib["total_ns"])
# every call of deep (20,000 deep, 3 times: 60,003) counted, none too deep
if stats["drops"]["too_deep"] != 0 or stats["drops"]["unmatched"] != 0:
    bad.append("drops %r: too_deep and unmatched must be 0" % stats["drops"])
PY
}

check_count_only() {
    py_check "$@" <<'PY'
if stats.get("timing") is not False:
    bad.append("timing is %r, want false" % stats.get("timing"))
for f in stats["functions"]:
    if f["timed_calls"] is not None or f["timed"] or f.get("untimed_reason") != "--count-only":
        bad.append("%s: timed_calls %r timed %r reason %r" % (f["name"], f["timed_calls"], f["timed"], f.get("untimed_reason")))
        break
PY
}

# no_code_in_padding ORIG REPORT: no patch that gorewrite reports (its
# --layout-report, through the test wrapper) starts on a byte that was int3
# padding in ORIG, and every call site starts on ORIG's call or jmp.
# Padding lies inside a function's range in Go's function table but outside
# its pc tables: an instruction of ours starting there (as the old jump
# islands did) makes the runtime throw "invalid runtime symbol table" when
# a signal (async preemption, profiling) lands on it.
no_code_in_padding() {
    python3 - "$1" "$2" <<'PY'
import struct, sys
orig, report = sys.argv[1:]
b = open(orig, "rb").read()
phoff, = struct.unpack_from("<Q", b, 32)
phentsize, phnum = struct.unpack_from("<HH", b, 54)
loads = []
for i in range(phnum):
    typ, flags, off, vaddr, _, filesz = struct.unpack_from("<IIQQQQ", b, phoff + i * phentsize)
    if typ == 1:
        loads.append((vaddr, off, filesz))
def at(addr):
    for vaddr, off, filesz in loads:
        if vaddr <= addr < vaddr + filesz:
            return b[off + addr - vaddr]
    return None
n = 0
for line in open(report):
    f = line.split()
    if f and f[0] in ("patch", "call_site"):
        n += 1
        addr = int(f[1], 16)
        byte = at(addr)
        if byte == 0xcc or (f[0] == "call_site" and byte not in (0xe8, 0xe9)):
            print("%s at 0x%x starts on byte %s of the original" % (f[0], addr, byte))
if n == 0:
    print("no patches in the report %s" % report)
PY
}

for v in ${GOVERS:-$GO_VERSIONS $GO_VERSIONS_NEWER}; do
    orig=$ROOT/build/testbin/go$v/exe/timing
    if ! build_go "$v" "$DIR" "$orig"; then
        fail "go$v: build failed"
        continue
    fi
    for mode in timed default sampled count-only; do
        id="go$v $mode"
        instr=$WORK/go$v/timing.$mode
        mkdir -p "$WORK/go$v"
        flags=()
        [ $mode = count-only ] && flags=(--count-only)
        [ $mode = timed ] && flags=(--time-all)
        [ $mode = sampled ] && flags=(--sample 8)
        if ! GOREWRITE_REPORT_COPY=$instr.layout "$GOREWRITE" ${flags[@]+"${flags[@]}"} "$orig" "$instr" >/dev/null; then
            fail "$id: bin/gorewrite failed"
            continue
        fi
        no_code_in_padding "$orig" "$instr.layout" | head -3 | grep . && fail "$id: code placed in padding"
        self=$WORK/go$v/self.$mode.json
        # cpu.avx2=off: crypto/sha256 takes its plain assembly path, which
        # has a stack check and uses R14 (g in Go code) as a scratch register
        if ! GODEBUG=cpu.avx2=off TIMING_OUT=$self run_compare "$orig" "$instr"; then
            fail "$id: the instrumented program behaves differently"
            continue
        fi
        stats=$(stats_file_for "$RC_STATDIR") || { fail "$id: no stats file"; continue; }
        json=$RC_WORK/stats.json
        gostat_json "$stats" "$json" || { fail "$id: gostat --json failed"; continue; }
        ok=1
        check_counts "$json" "$DIR/expect" "$v" || ok=0
        case $mode in
            timed) check_timing "$json" "$self" || ok=0; cp "$json" "$WORK/go$v/timed.json" ;;
            sampled) check_sampled "$json" "$self" || ok=0 ;;
            default) check_default "$json" "$WORK/go$v/timed.json" || ok=0 ;;
            count-only) check_count_only "$json" || ok=0 ;;
        esac
        if [ $ok -eq 1 ]; then
            echo "ok   $id"
        else
            # the JSON, and the stats file itself: its rows hold what the JSON
            # sums (each thread's next, gap and samples: docs/stats-format.md)
            cp "$json" "$ROOT/build/test-logs/t_timing.go$v.$mode.json" 2>/dev/null
            cp "$stats" "$ROOT/build/test-logs/t_timing.go$v.$mode.stats" 2>/dev/null
            fail "$id: wrong timing (above)"
        fi
    done
done
[ $fails -eq 0 ]
