#!/usr/bin/env bash
# t_deep_timing: recursion 100,000 deep is timed. testdata/stack calls
# deep(100000) on the main goroutine and again on a new one (2 x 100,001
# calls, returning through every level, the stack copied many times as it
# grows), and deep(2000) in 20 goroutines that then park in main.parked
# while main's collections shrink their stacks (each shrink a copy to a
# new place: the marker the returns compare with must follow, stubs/timing.S
# gs_stack_moved). Built with --time-all, every call of main.deep and
# main.parked must be timed (timed_calls == calls == 240022 and 20); in
# the default mode main.deep is sampled
# (more than its first 16 calls timed, estimated). In both modes: exact
# counts, no too_deep, unmatched or no_slot drops, and the same output as
# the original. Go 1.15 (stack ABI, g from TLS), 1.22 and 1.27 (DEEP_GOVERS
# overrides).
. "$(dirname "$0")/../lib.sh"
require_tools
work_dir

for v in ${DEEP_GOVERS:-1.15 1.22 1.27}; do
    orig=$ROOT/build/testbin/go$v/exe/stack
    if ! build_go "$v" "$ROOT/testdata/stack" "$orig"; then
        fail "go$v: build failed"
        continue
    fi
    for mode in time-all default; do
        id="go$v $mode"
        flags=()
        [ $mode = time-all ] && flags=(--time-all)
        instr=$WORK/stack.$v.$mode
        "$GOREWRITE" ${flags[@]+"${flags[@]}"} "$orig" "$instr" >/dev/null || { fail "$id: gorewrite failed"; continue; }
        run_compare "$orig" "$instr" || { fail "$id: the instrumented program behaves differently"; continue; }
        json=$WORK/$v.$mode.json
        gostat_json "$(stats_file_for "$RC_STATDIR")" "$json" || { fail "$id: gostat --json failed"; continue; }
        if python3 - "$json" "$mode" <<'PY'; then echo "ok   $id"; else fail "$id: deep recursion not timed (above)"; fi
import json, sys
d = json.load(open(sys.argv[1]))
mode = sys.argv[2]
funcs = {g["name"]: g for g in d["functions"]}
f, p = funcs["main.deep"], funcs["main.parked"]
bad = []
if f["calls"] != 240022 or p["calls"] != 20:
    bad.append("main.deep, main.parked: %d and %d calls, want 240022 and 20" % (f["calls"], p["calls"]))
if mode == "time-all":
    for g in (f, p):
        if g["timed_calls"] != g["calls"] or g["time_estimated"]:
            bad.append("%s: %s of %d calls timed, want every one" % (g["name"], g["timed_calls"], g["calls"]))
elif not (16 < f["timed_calls"] < f["calls"]) or not f["time_estimated"]:
    bad.append("main.deep: %s of %d calls timed (estimated %s), want sampled" % (f["timed_calls"], f["calls"], f["time_estimated"]))
# the two root calls span all their levels: the longest is the root
if f["max_ns"] is None or f["max_ns"] < f["p99_ns"]:
    bad.append("main.deep: max %s below p99 %s" % (f["max_ns"], f["p99_ns"]))
dr = d["drops"]
if dr["too_deep"] or dr["unmatched"] or dr["no_slot"] or dr["no_space"]:
    bad.append("drops %r: want no too_deep, unmatched, no_slot or no_space" % dr)
for b in bad:
    print("  " + b)
sys.exit(1 if bad else 0)
PY
    done
done
[ $fails -eq 0 ]
