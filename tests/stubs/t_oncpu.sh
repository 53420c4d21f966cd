#!/usr/bin/env bash
# t_oncpu: on-CPU time beside wall-clock (docs/timing.md, "On-CPU time").
# testdata/sleeper calls main.sleeper (time.Sleep), main.waiter (blocks on
# a channel another goroutine sends on) and main.burner (spins on the
# clock) 5 times each for 40 ms, and measures each one's summed time
# itself with time.Now() around the calls. Built with --time-all and in
# the default mode, for each Go release in GOVERS:
#  - each function's TOTAL (wall) is within 10 % of the program's own
#    figure in the same run, and at least 95 % of 5 x 40 ms (none can take
#    less); the burner at least 5 x 40 ms less what compensation takes out
#    of it, 1.25 x its ~300,000 timed clock calls (the time.* and
#    runtime.nanotime* functions' timed calls) x the calibrated probe, where
#    that is more than 5 % (its loop runs until its own clock says 40 ms,
#    so the probes' cost is in that 40 ms: 13 ms of 200 on the Intel
#    machine, probes 45 ns). The same run, not the original's:
#    on a loaded machine the kernel adds several ms to one run and not the
#    next (the original's own figures are printed beside);
#  - the sleeper's and the waiter's CPU (on-CPU) is under 5 % of their
#    TOTAL: they run a few microseconds around each park (the rest of the
#    40 ms their goroutine is parked, which the scheduler's hand-offs
#    record); without the hooks CPU equals TOTAL, 20 times the bound;
#  - the burner's CPU is at least 90 % of its TOTAL and at most it: its
#    goroutine only leaves the thread when sysmon preempts it (every
#    10 ms, back at once: nothing else is runnable). Time the kernel takes
#    the thread away is on-CPU for Go and here (the bound holds under load);
#  - JSON carries oncpu_ns, the table a CPU column, --sort oncpu puts the
#    burner first; every call is counted exactly and the output matches.
# gostat's side exactly, on a file made by mkstats (check_gostat below).
# With --call-graph too (the same checks on the paths' sums), and its
# flame-graph outputs: `gostat folded --value oncpu` gives the paths
# through main.burner at least 90 % of its wall time and those through
# main.sleeper under 5 % of its; `go tool pprof -sample_index=oncpu` reads
# the same for main.burner's cum (1 % apart at most: rounding).
. "$(dirname "$0")/../lib.sh"
require_tools
work_dir
GOVERS=${GOVERS:-"1.15 1.19 1.22 1.27"}
MKSTATS=${MKSTATS:-$ROOT/build/tests/mkstats}
N=5
MS=40

pprof_go() { HOME=$WORK/home go_env 1.22 "$(go_bin 1.22)" tool pprof "$@"; }

# check_flame TAG FILE JSON: folded --value oncpu and pprof's oncpu sample
# type against the table's wall times.
check_flame() {
    local tag=$1 f=$2 j=$3
    "$GOSTAT" folded --value oncpu "$f" >"$j.folded" 2>"$j.folded.err" || { fail "$tag: folded --value oncpu"; return; }
    "$GOSTAT" pprof -o "$j.pb.gz" "$f" >/dev/null 2>&1 || { fail "$tag: gostat pprof"; return; }
    mkdir -p "$WORK/home"
    pprof_go -sample_index=oncpu -unit=ns -top "$j.pb.gz" >"$j.top" 2>&1 || { fail "$tag: go tool pprof: $(head -c 300 "$j.top")"; return; }
    python3 - "$j" "$tag" <<'PY' || fail "$tag: on-CPU flame graph values (above)"
import json, re, sys
j, tag = sys.argv[1], sys.argv[2]
wall = {x["name"]: x["total_ns"] for x in json.load(open(j))["functions"] if x["calls"]}
under = {}
for line in open(j + ".folded"):
    stack, value = line.rsplit(" ", 1)
    for name in ("main.burner", "main.sleeper"):
        if name in stack.split(";"):
            under[name] = under.get(name, 0) + int(value)
cum = None
for line in open(j + ".top"):
    m = re.match(r"\s*\S+\s+\S+\s+\S+\s+([0-9.]+)ns\s+\S+\s+main\.burner$", line)
    if m:
        cum = float(m.group(1))
b, s = under.get("main.burner", 0), under.get("main.sleeper", 0)
print("  %s folded oncpu: under main.burner %.1f ms (wall %.1f), under main.sleeper %.3f ms (wall %.1f);"
      " pprof oncpu cum main.burner %s ms" % (tag, b / 1e6, wall["main.burner"] / 1e6, s / 1e6,
      wall["main.sleeper"] / 1e6, cum and round(cum / 1e6, 1)))
bad = []
if not 0.9 * wall["main.burner"] <= b <= wall["main.burner"] * 1.001:
    bad.append("folded: main.burner's paths' on-CPU not within 90-100 % of its wall")
if s > 0.05 * wall["main.sleeper"]:
    bad.append("folded: main.sleeper's paths' on-CPU above 5 % of its wall")
if cum is None or abs(cum - b) > 0.01 * b:
    bad.append("pprof: main.burner's oncpu cum %s, folded's %d" % (cum, b))
for x in bad:
    print("  " + x)
sys.exit(1 if bad else 0)
PY
}

# gostat alone, on a file made by mkstats (2 GHz: a tick is 0.5 ns):
# main.wait 2 calls, 4,000,000 ticks (2 ms) of which 2,000 on-CPU (1 us);
# main.spin 3 calls, 3,000,000 ticks (1.5 ms), 2,900,000 on-CPU (1.45 ms).
# The same file without on-CPU time shows no CPU column and no oncpu_ns.
check_gostat() {
    local m=$WORK/gostat.made.4194305 n=$WORK/gostat.none.4194305 spec
    spec=(--pid 4194305 --rows 2 --spread --timing --tsc 1000:0:2001000:1000000 --func main.wait:0x10:2 --func main.spin:0x20:3
          --time 0:1:4000000:2000000:2000000:16=2 --time 1:1:3000000:1000000:1000000:15=3)
    "$MKSTATS" "$m" "${spec[@]}" --oncpu 0:1:2000 --oncpu 1:1:2900000 || { fail "mkstats --oncpu"; return; }
    "$MKSTATS" "$n" "${spec[@]}" || { fail "mkstats"; return; }
    local t
    t=$("$GOSTAT" --sort oncpu "$m" | awk '$1 ~ /^main\./ || $1 == "FUNCTION" { print $1, $3, $4 }' | tr '\n' '|')
    [ "$t" = "FUNCTION TOTAL CPU|main.spin 1.50ms 1.45ms|main.wait 2.00ms 1.00us|" ] ||
        fail "gostat --sort oncpu: $t"
    t=$("$GOSTAT" --sort time "$m" | awk '$1 ~ /^main\./ { print $1 }' | tr '\n' ' ')
    [ "$t" = "main.wait main.spin " ] || fail "gostat --sort time: $t"
    "$GOSTAT" "$n" | grep -Eq '^FUNCTION +CALLS +TOTAL +SELF ' || fail "no on-CPU time: a CPU column anyway"
    "$GOSTAT" --json "$m" >"$WORK/made.json" && "$GOSTAT" --json "$n" >"$WORK/none.json" || fail "gostat --json"
    python3 - "$WORK/made.json" "$WORK/none.json" <<'PY' || fail "JSON oncpu_ns (above)"
import json, sys
made = {f["name"]: f for f in json.load(open(sys.argv[1]))["functions"]}
none = {f["name"]: f for f in json.load(open(sys.argv[2]))["functions"]}
got = (made["main.wait"].get("oncpu_ns"), made["main.spin"].get("oncpu_ns"))
ok = got == (1000, 1450000) and all("oncpu_ns" not in f for f in none.values())
print("  JSON oncpu_ns", got, "want (1000, 1450000); without: none" if ok else "")
sys.exit(0 if ok else 1)
PY
    "$GOSTAT" pprof -o "$WORK/made.pb.gz" "$m" >/dev/null 2>&1 || { fail "gostat pprof"; return; }
    mkdir -p "$WORK/home"
    t=$(pprof_go -sample_index=oncpu -unit=ns -top "$WORK/made.pb.gz" 2>&1 | awk '$NF == "main.spin" { print $1 }')
    [ "$t" = 1450000ns ] || fail "pprof -sample_index=oncpu: main.spin flat '$t', want 1450000ns"
}
check_gostat

for v in $GOVERS; do
    orig=$ROOT/build/testbin/go$v/exe/sleeper
    build_go "$v" "$ROOT/testdata/sleeper" "$orig" || { fail "go$v: build failed"; continue; }
    o=$WORK/go$v.orig
    run_one "$o" "$o.st" "$orig" $N $MS
    [ "$(cat "$o/rc")" = 0 ] || { fail "go$v: the original exited $(cat "$o/rc")"; continue; }
    for mode in all default graph; do
        flags=()
        [ $mode = all ] && flags=(--time-all)
        [ $mode = graph ] && flags=(--call-graph)
        exe=$WORK/go$v.$mode
        "$GOREWRITE" ${flags[@]+"${flags[@]}"} "$orig" "$exe" >/dev/null ||
            { fail "go$v $mode: gorewrite failed"; continue; }
        r=$WORK/go$v.$mode.run
        mkdir -p "$r.st"
        run_one "$r" "$r.st" "$exe" $N $MS
        [ "$(cat "$r/rc")" = 0 ] || { fail "go$v $mode: exited $(cat "$r/rc"): $(head -c 300 "$r/err")"; continue; }
        cmp -s "$o/out" "$r/out" || fail "go$v $mode: output differs from the original's"
        f=$(stats_file_for "$r.st") || { fail "go$v $mode: no stats file"; continue; }
        gostat_json "$f" "$r.json" || { fail "go$v $mode: gostat --json"; continue; }
        python3 - "$r/err" "$r.json" "go$v $mode" $N $MS "$o/err" <<'PY' || fail "go$v $mode: on-CPU and wall times (above)"
import json, sys
def figures(path):
    return dict((l.split()[0], int(l.split()[1])) for l in open(path))
own, orig = figures(sys.argv[1]), figures(sys.argv[6])
d = json.load(open(sys.argv[2]))
tag, n, least = sys.argv[3], int(sys.argv[4]), 0.95 * int(sys.argv[4]) * int(sys.argv[5]) * 1e6
f = {x["name"]: x for x in d["functions"]}
bad = []
clock_calls = sum(x["timed_calls"] or 0 for x in d["functions"]
                  if x["name"].startswith(("time.", "runtime.nanotime")))
probe = (d.get("probe_cost_ns") or {}).get("timed") or 0
burner_least = min(least, int(sys.argv[4]) * int(sys.argv[5]) * 1e6 - 1.25 * clock_calls * probe)
for name in ("sleeper", "waiter", "burner"):
    x = f.get("main." + name)
    if x is None or x["calls"] != n:
        bad.append("main.%s: %s calls, want %d" % (name, x and x["calls"], n))
        continue
    wall, cpu, ref = x["total_ns"], x.get("oncpu_ns"), own[name + "_ns"]
    print("  %s main.%s: wall %.1f ms (its own %.1f ms, the original's %.1f ms), on-CPU %s ms"
          % (tag, name, wall / 1e6, ref / 1e6, orig[name + "_ns"] / 1e6,
             cpu if cpu is None else round(cpu / 1e6, 3)))
    if cpu is None:
        bad.append("main.%s: no oncpu_ns" % name)
        continue
    floor = burner_least if name == "burner" else least
    if abs(wall - ref) > 0.10 * ref or wall < floor:
        bad.append("main.%s: wall %.1f ms, more than 10 %% from its own %.1f ms or under %.1f ms"
                   % (name, wall / 1e6, ref / 1e6, floor / 1e6))
    if name == "burner":
        if not 0.90 * wall <= cpu <= wall:
            bad.append("main.burner: on-CPU %.1f ms, not within 90-100 %% of its wall %.1f ms" % (cpu / 1e6, wall / 1e6))
    elif cpu > 0.05 * wall:
        bad.append("main.%s: on-CPU %.3f ms, above 5 %% of its wall %.1f ms" % (name, cpu / 1e6, wall / 1e6))
for x in bad:
    print("  " + x)
sys.exit(1 if bad else 0)
PY
        tab=$("$GOSTAT" --filter 'main\.(sleeper|waiter|burner)$' --sort oncpu "$f" 2>&1)
        echo "$tab" | grep -Eq '^FUNCTION +CALLS +TOTAL +CPU ' || fail "go$v $mode: no CPU column beside TOTAL: $tab"
        first=$(echo "$tab" | awk '/^FUNCTION/ { getline; print $1; exit }')
        [ "$first" = main.burner ] || fail "go$v $mode: --sort oncpu put $first first, not main.burner"
        [ $mode = graph ] && check_flame "go$v" "$f" "$r.json"
    done
done
[ $fails -eq 0 ]
