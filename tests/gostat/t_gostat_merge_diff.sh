#!/usr/bin/env bash
# t_gostat_merge_diff: docs/ci.md's flow (merge, then diff) on a real
# program in the default (sampled) mode judges what a diff of the stats
# files judges. testdata/mergediff has ten functions with two modes of
# duration and a few dozen timed calls each (too few to judge), and one
# steady function, main.checksum, that its argument "slow" makes 2x slower.
#   - four identical runs, each merged: every pair's diff exits 0 under
#     --fail-on-regression with no change, and lists what the diff of the
#     two stats files lists;
#   - the slow run, merged: main.checksum alone grew, exit 3 naming it;
#   - two shards merged (and that merge merged again with a third run):
#     per function, timed_calls is the sum of the inputs' real timed calls
#     (gostat --json's), time_estimated is set where an input's is, and
#     oncpu_ns and total_ns are the sums of the inputs'.
cd "$(dirname "$0")/../.."
. tests/lib.sh
require_tools
. tests/assert.sh
work_dir

build_go 1.22 testdata/mergediff "$WORK/mergediff" || exit 1
instrument "$WORK/mergediff" "$WORK/mergediff.instr" || exit 1
run_compare "$WORK/mergediff" "$WORK/mergediff.instr" || fail "mergediff: instrumented run differs"

# run NAME ARGS...: one process of the instrumented program with its own
# GOSTAT_DIR $WORK/NAME, merged into $WORK/NAME.json.
run() {
    local name=$1
    shift
    mkdir -p "$WORK/$name"
    GOSTAT_DIR=$WORK/$name "$WORK/mergediff.instr" "$@" >"$WORK/$name.out" ||
        fail "$name: exited $?"
    "$GOSTAT" merge --dir "$WORK/$name" -o "$WORK/$name.json" >/dev/null 2>"$WORK/$name.err" ||
        fail "$name: gostat merge: $(cat "$WORK/$name.err")"
}

# changed A B: the exit status of diff --fail-on-regression A B, then the
# names of the functions it lists, one line.
changed() {
    "$GOSTAT" diff --fail-on-regression --json "$1" "$2" >"$WORK/diff.json" 2>/dev/null
    echo "$? $(python3 -c 'import json, sys; print([f["name"] for f in json.load(open(sys.argv[1]))["functions"]])' "$WORK/diff.json")"
}

for i in 1 2 3 4; do
    run "r$i"
done
for pair in "1 2" "1 3" "1 4" "2 3" "2 4" "3 4"; do
    set -- $pair
    got=$(changed "$WORK/r$1.json" "$WORK/r$2.json")
    expect "runs $1 and $2, merged: no change" "0 []" "$got"
    expect "runs $1 and $2: merged as stats files" \
        "$(changed "$(stats_file_for "$WORK/r$1")" "$(stats_file_for "$WORK/r$2")")" "$got"
done

run slow slow
expect "slow run: same output" "$(cat "$WORK/r1.out")" "$(cat "$WORK/slow.out")"
expect "2x slower, merged: checksum alone" "3 ['main.checksum']" "$(changed "$WORK/r1.json" "$WORK/slow.json")"
expect "2x slower: merged as stats files" \
    "$(changed "$(stats_file_for "$WORK/r1")" "$(stats_file_for "$WORK/slow")")" \
    "$(changed "$WORK/r1.json" "$WORK/slow.json")"
"$GOSTAT" diff --fail-on-regression "$WORK/r1.json" "$WORK/slow.json" >/dev/null 2>"$WORK/slow.diff"
expect "2x slower: stderr names checksum" "gostat: diff: regression: main.checksum calls 80000 -> 80000 (1.00x)" \
    "$(sed 's/, time .*//' "$WORK/slow.diff")"

# Two shards in one directory, merged; then merged again with a third run.
mkdir -p "$WORK/shards"
for i in 1 2; do
    GOSTAT_DIR=$WORK/shards "$WORK/mergediff.instr" >/dev/null || fail "shard $i: exited $?"
done
"$GOSTAT" merge --dir "$WORK/shards" -o "$WORK/shards.json" >/dev/null || fail "merge of the shards"
"$GOSTAT" merge "$WORK/shards.json" "$WORK/r1.json" -o "$WORK/again.json" >/dev/null || fail "merge again"
inputs=()
for f in "$WORK"/shards/gostat.*; do
    "$GOSTAT" --json "$f" >"$f.json" || fail "gostat --json $f"
    inputs+=("$f.json")
done
"$GOSTAT" --json "$(stats_file_for "$WORK/r1")" >"$WORK/r1.stats.json" || fail "gostat --json r1"

# sums MERGED INPUTS...: per timed function of MERGED, whether timed_calls,
# time_estimated, total_ns and oncpu_ns are its inputs' (functions of its
# name: sums, any for the flag; durations within 1e-6, each gostat run
# reading its own clock); prints the functions that differ, then whether
# over 100 were compared, over 10 estimated, all timed ones with on-CPU time.
sums() {
    python3 - "$@" <<'PY'
import json, sys
merged = {f["name"]: f for f in json.load(open(sys.argv[1]))["functions"]}
ins = [f for p in sys.argv[2:] for f in json.load(open(p))["functions"]]
bad, n, est, oncpu = [], 0, 0, 0
for name, m in merged.items():
    if not m["timed"] or not m["timed_calls"]:
        continue
    fs = [f for f in ins if f["name"] == name and f["timed"]]
    n += 1
    est += m["time_estimated"]
    oncpu += m.get("oncpu_ns") is not None
    ok = m["timed_calls"] == sum(f["timed_calls"] for f in fs)
    ok &= m["time_estimated"] == any(f["time_estimated"] for f in fs)
    for key in ("total_ns", "oncpu_ns"):
        want = sum(f[key] or 0 for f in fs)
        ok &= abs(m[key] - want) <= 1e-6 * want + len(fs)
    if not ok:
        bad.append(name)
print(bad[:5], n > 100, est > 10, oncpu == n)
PY
}
expect "shards: timed_calls, time_estimated, total_ns, oncpu_ns summed" "[] True True True" \
    "$(sums "$WORK/shards.json" "${inputs[@]}")"
expect "merged again: the same" "[] True True True" \
    "$(sums "$WORK/again.json" "${inputs[@]}" "$WORK/r1.stats.json")"
finish t_gostat_merge_diff
