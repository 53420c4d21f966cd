#!/usr/bin/env bash
# t_timing_mode: the timing mode is one type from gorewrite's command line
# to gostat's JSON. testdata/recursion (Go 1.22) is built in each mode; each
# run must count every call exactly, and gostat --json must name the mode
# the command line asked for ("mode", with the older "timing_mode" and
# "sample_every" beside it) and show what that mode does: no timing when
# counting only, some of fib's 242,785 calls timed when sampled, every call
# when timing all, call paths only with --call-graph.
. "$(dirname "$0")/../lib.sh"
require_tools
work_dir
V=1.22
prog=$ROOT/build/testbin/go$V/exe/recursion
build_go "$V" "$ROOT/testdata/recursion" "$prog" || { fail "recursion: go$V build failed"; exit 1; }

# mode NAME WANT_MODE WANT_TIMING_MODE WANT_SAMPLE_EVERY FIB_TIMED PATHS FLAGS...:
# FIB_TIMED is none, some (more than the first 16, fewer than all) or all.
mode() {
    local name=$1 want=$2 word=$3 every=$4 timed=$5 paths=$6
    shift 6
    "$GOREWRITE" "$@" "$prog" "$WORK/$name" >/dev/null 2>"$WORK/$name.err" ||
        { fail "$name: gorewrite $*: $(head -c 300 "$WORK/$name.err")"; return; }
    run_compare "$prog" "$WORK/$name" $(cat "$ROOT/testdata/recursion/args") || { fail "$name: run differs"; return; }
    local f
    f=$(stats_file_for "$RC_STATDIR") && gostat_json "$f" "$WORK/$name.json" || { fail "$name: no stats"; return; }
    check_counts "$WORK/$name.json" "$ROOT/testdata/recursion/expect" || fail "$name: counts"
    python3 - "$WORK/$name.json" "$want" "$word" "$every" "$timed" "$paths" <<'PY' || fail "$name ($*)"
import json, sys
j = json.load(open(sys.argv[1]))
want, word, every, timed, paths = sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5], sys.argv[6] == "paths"
fib = next(f for f in j["functions"] if f["name"] == "main.fib")
n = fib["timed_calls"] or 0
bad = []
if (j["mode"], j["timing_mode"], j["sample_every"]) != (want, word, every):
    bad.append("mode %r timing_mode %r sample_every %r, want %r %r %r"
               % (j["mode"], j["timing_mode"], j["sample_every"], want, word, every))
if j["timing"] != (timed != "none"):
    bad.append("timing %r" % j["timing"])
ok = {"none": not fib["timed"] and fib["timed_calls"] is None,
      "some": fib["timed"] and 16 < n < fib["calls"] and fib["time_estimated"],
      "all": fib["timed"] and n == fib["calls"] and not fib["time_estimated"]}[timed]
if not ok:
    bad.append("main.fib: timed %r, %r of %r calls timed, estimated %r; want %s"
               % (fib["timed"], fib["timed_calls"], fib["calls"], fib["time_estimated"], timed))
if every > 1 and not fib["calls"] / every / 4 < n < fib["calls"] / every * 4:
    bad.append("main.fib: %d of %d calls timed with --sample %d" % (n, fib["calls"], every))
if j["call_paths"]["recorded"] != paths:
    bad.append("call_paths recorded %r" % j["call_paths"]["recorded"])
for b in bad:
    print("  " + b)
sys.exit(1 if bad else 0)
PY
}

mode count     count-only count-only 1 none   - --count-only
mode default   sampled    default    0 some   -
mode sample8   sampled    sample     8 some   - --sample 8
mode sample1   time-all   time-all   1 all    - --sample 1
mode time-all  time-all   time-all   1 all    - --time-all
mode graph     call-graph time-all   1 all    paths --call-graph
mode graph0    time-all   time-all   1 all    - --call-graph --max-paths 0
[ $fails -eq 0 ]
