#!/usr/bin/env bash
# make bench: cost per counted and per timed call, original vs instrumented
# (--count-only, --count-only --keep-call-sites (direct calls through the
# entry's jmp), the default mode (first 16 calls of each function timed (--first N),
# then sampled ever more rarely), --time-all (every call timed), --call-graph
# (every call timed, with call paths, self time and arcs: the difference is
# what paths cost), --sample 16
# and --sample 1000000 (after each function's first call practically none
# timed: the cost of a call that is not timed)), in one run.
# Workloads: loop (step, with a stack check, calling leaf, without one: two
# counted calls per turn), fib (recursion) and leaf (a loop calling only the
# leaf, whose first instructions run from its trampoline; counted, never
# timed); spawn (goroutines created and ended: goroutine sites' cost, the
# default mode against --max-goroutine-sites 0).
#  1. valgrind --tool=callgrind: instructions executed (repeatable on a noisy
#     machine); extra instructions / counted calls = instructions per call.
#  2. hyperfine: wall time, runs interleaved, medians; the difference over
#     counted calls = ns per call.
# Results go to stdout and build/bench/results.md; docs/benchmarks/history.md
# records each run, BENCHMARKS.md the current figures.
set -euo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-/usr/lib/go-1.22/bin/go}
OUT=build/bench
mkdir -p "$OUT" "$OUT/stats"
export GOTOOLCHAIN=local GOPROXY=off GOCACHE="$PWD/build/gocache/bench" GOSTAT_DIR="$PWD/$OUT/stats"
(cd testdata/bench && GO111MODULE=off "$GO" build -o "../../$OUT/bench" main.go)
bin/gorewrite --count-only "$OUT/bench" "$OUT/bench.count" >/dev/null
bin/gorewrite --count-only --keep-call-sites "$OUT/bench" "$OUT/bench.viaentry" >/dev/null
bin/gorewrite "$OUT/bench" "$OUT/bench.default" >/dev/null
bin/gorewrite --time-all "$OUT/bench" "$OUT/bench.timed" >/dev/null
bin/gorewrite --call-graph "$OUT/bench" "$OUT/bench.graph" >/dev/null
bin/gorewrite --sample 16 "$OUT/bench" "$OUT/bench.sampled" >/dev/null
bin/gorewrite --max-goroutine-sites 0 "$OUT/bench" "$OUT/bench.nosites" >/dev/null
bin/gorewrite --sample 1000000 "$OUT/bench" "$OUT/bench.unsampled" >/dev/null
bin/gorewrite --time-all --trace '^main\.args4$' --trace-buffer 1M "$OUT/bench" "$OUT/bench.traced" >/dev/null
bin/gorewrite --time-all --trace '^main\.args4$' --trace-slower-than 1s "$OUT/bench" "$OUT/bench.tracedslow" >/dev/null
cc -O2 -o "$OUT/rdtsc_cost" scripts/rdtsc_cost.c

LOOP_N=20000000
FIB_N=32
CG_LOOP_N=2000000
CG_FIB_N=25
SPAWN_N=1000000
CG_SPAWN_N=20000

callgrind_insns() {
    # Go's preemption signals trip a callgrind assertion; timing is unaffected.
    GODEBUG=asyncpreemptoff=1 valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null |
        sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}

# marginal_rows WORKLOAD N BASE MODE...: a row per build (MODE "" is the
# original): instructions at N and 2N, per unit of the difference, and
# that over BASE's (printed from BASE's row on).
marginal_rows() {
    local w=$1 n=$2 base=$3 mode a b
    local -A per
    shift 3
    for mode in "$@"; do
        rm -f "$GOSTAT_DIR"/*
        a=$(callgrind_insns "$OUT/bench${mode:+.$mode}" "$w" "$n")
        rm -f "$GOSTAT_DIR"/*
        b=$(callgrind_insns "$OUT/bench${mode:+.$mode}" "$w" $((2 * n)))
        per[${mode:-original}]=$(python3 -c "print(f'{($b-$a)/$n:.1f}')")
        echo "| ${mode:-original} | $a | $b | ${per[${mode:-original}]} | $( [ -n "$mode" ] && [ -n "${per[$base]:-}" ] && python3 -c "print(f'{${per[${mode:-original}]}-${per[$base]}:+.1f}')" ) |"
    done
}

counted_calls() { # stats dir -> total calls of main.step, main.leaf (no stack check) and main.fib
    bin/gostat --json "$(ls -t "$GOSTAT_DIR"/gostat.bench.* | head -1)" |
        python3 -c 'import json,sys; d=json.load(sys.stdin); print(sum(f["calls"] for f in d["functions"] if f["name"] in ("main.step","main.leaf","main.fib")))'
}

{
echo "## make bench ($(date -u +%Y-%m-%d), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'))"
echo
echo "Go: $("$GO" version | cut -d' ' -f3); gorewrite: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
echo
echo "### Instructions (valgrind --tool=callgrind)"
echo
echo "| workload | mode | original | instrumented | calls | extra instructions per call |"
echo "| --- | --- | ---: | ---: | ---: | ---: |"
# The second size of each workload: "unsampled, marginal" is the difference
# between the two runs, over the difference in calls.
declare -A LARGER=([$CG_LOOP_N]=$((2 * CG_LOOP_N)) [$CG_FIB_N]=$((CG_FIB_N + 1)))
for w in "loop $CG_LOOP_N" "fib $CG_FIB_N" "leaf $CG_LOOP_N"; do
    set -- $w
    o=$(callgrind_insns "$OUT/bench" "$1" "$2")
    for mode in count viaentry default timed graph sampled unsampled; do
        rm -f "$GOSTAT_DIR"/*
        i=$(callgrind_insns "$OUT/bench.$mode" "$1" "$2")
        c=$(counted_calls)
        echo "| $1 $2 | $mode | $o | $i | $c | $(python3 -c "print(f'{($i-$o)/$c:.2f}')") |"
    done
    n2=${LARGER[$2]}
    o2=$(callgrind_insns "$OUT/bench" "$1" "$n2")
    rm -f "$GOSTAT_DIR"/*
    i2=$(callgrind_insns "$OUT/bench.unsampled" "$1" "$n2")
    c2=$(counted_calls)
    echo "| $1 $2 -> $n2 | unsampled, marginal | +$((o2 - o)) | +$((i2 - i)) | +$((c2 - c)) | $(python3 -c "print(f'{(($i2-$o2)-($i-$o))/($c2-$c):.2f}')") |"
done
echo
echo "### Tracing (valgrind --tool=callgrind): a call of main.args4(a, b, c, d int) int"
echo
echo "| mode | instructions, $CG_LOOP_N calls | instructions, $((2 * CG_LOOP_N)) calls | per call | over --time-all |"
echo "| --- | ---: | ---: | ---: | ---: |"
marginal_rows args4 "$CG_LOOP_N" timed "" timed traced tracedslow
echo
echo "traced = --time-all --trace '^main\\.args4$' (every call an event); tracedslow = the same with"
echo "--trace-slower-than 1s (the arguments taken, no call kept). Marginal: the second run's extra calls only."
echo
echo "Modes: count = --count-only; viaentry = --count-only --keep-call-sites (direct calls take the entry's jmp, as before"
echo "call sites were retargeted); default = the default mode; timed = --time-all; graph = --call-graph"
echo "(--time-all with call paths, self time and arcs); sampled = --sample 16;"
echo "unsampled = --sample 1000000 (each function's first call timed, then practically none: the cost of a call that is not timed);"
echo "unsampled, marginal = what the larger run (second size) added over the smaller one, per call it added: one more call"
echo "that is not timed, without start-up and each function's first (timed) call."
echo
echo "### Wall time (original, count-only, count-only via the entry, default, --time-all, --call-graph and sampled (1 in 16) runs interleaved, 15 each, medians)"
echo
echo "| workload | mode | original median | instrumented median | ratio | calls | ns per call |"
echo "| --- | --- | ---: | ---: | ---: | ---: | ---: |"
for w in "loop $LOOP_N" "fib $FIB_N" "leaf $LOOP_N"; do
    set -- $w
    rm -f "$GOSTAT_DIR"/*
    "$OUT/bench.count" "$1" "$2" >/dev/null
    c=$(counted_calls)
    python3 scripts/interleave.py 15 "$c" "$1 $2" "$OUT/bench" count="$OUT/bench.count" \
        viaentry="$OUT/bench.viaentry" default="$OUT/bench.default" timed="$OUT/bench.timed" graph="$OUT/bench.graph" \
        sampled="$OUT/bench.sampled" -- "$1" "$2"
    rm -f "$GOSTAT_DIR"/*
done
echo
echo "fib recurses directly: --call-graph collapses its 242785 calls (fib(25)) into the paths main;fib"
echo "and main;fib;fib (docs/timing.md), which fit its thread's table."
echo
echo "### Goroutines: creating and ending one (spawn N: N goroutines of \`go func() { wg.Done() }()\`, at most 64 alive)"
echo
echo "| build | instructions, $CG_SPAWN_N goroutines | instructions, $((2 * CG_SPAWN_N)) | per goroutine | over nosites |"
echo "| --- | ---: | ---: | ---: | ---: |"
# one P: without a second one to hand goroutines to, the count repeats
GOMAXPROCS=1 marginal_rows spawn "$CG_SPAWN_N" nosites "" nosites default
echo
echo "nosites = --max-goroutine-sites 0 (newproc1 and goexit1 hooked as without sites); default keeps sites."
echo "Wall time, interleaved, 15 each, medians (ns per goroutine over the original):"
echo
echo "| workload | mode | original median | instrumented median | ratio | goroutines | ns per goroutine |"
echo "| --- | --- | ---: | ---: | ---: | ---: | ---: |"
python3 scripts/interleave.py 15 "$SPAWN_N" "spawn $SPAWN_N" "$OUT/bench" nosites="$OUT/bench.nosites" \
    default="$OUT/bench.default" -- spawn "$SPAWN_N"
rm -f "$GOSTAT_DIR"/*
echo
echo "One rdtsc costs $("$OUT/rdtsc_cost") ns here (median of 5 x 10^7 reads); a timed call reads it twice."
} | tee "$OUT/results.md"
bash scripts/bench_rewrite.sh
