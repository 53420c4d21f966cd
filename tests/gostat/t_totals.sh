#!/bin/bash
# t_totals: one definition of total across outputs. One --call-graph stats
# file of testdata/recursion (fib(30): 2,692,537 calls of main.fib, 30 levels
# deep), read by every output:
#  - go tool pprof -raw's sum of the time samples, callgrind's summary: and
#    totals: lines (and callgrind_annotate's program total) and the sum of
#    gostat folded's self lines are the same number of ns, exactly;
#  - the same with --max-paths 64, where paths overflow: pprof's comment
#    says where their time went (the '(path overflow)' sample), folded has
#    a '(path overflow)' line, and the three totals still agree exactly;
#  - the table's CUM (JSON cum_ns) of main.fib equals go tool pprof's cum,
#    is at most main.main's inclusive time (plus 1 ns of rounding per
#    path) and at most the run's wall time, while main.fib's TOTAL, which
#    counts each level again, exceeds both (exact relations: fib runs on
#    one goroutine inside main.main);
#  - --sort cum orders by cum_ns, largest first; the table's CUM column is
#    there for --call-graph files and its note says what it is.
cd "$(dirname "$0")/../.."
. tests/assert.sh
require_tools

GO=1.22
N=30
mkdir -p "$dir/home"
build_go $GO testdata/recursion "$dir/prog" || fail "build recursion"
pprof_go() { HOME=$dir/home go_env $GO "$(go_bin $GO)" tool pprof "$@"; }

# pin_clock FILE DIR: a copy of the stats file FILE in DIR without its
# boot_id, so that every reader converts ticks with the start-up
# calibration: the same ns in each (on the writer's boot, each read would
# measure the TSC rate anew, a few parts in 10^7 apart).
pin_clock() {
    mkdir -p "$2"
    python3 - "$1" "$2/$(basename "$1")" <<'PY'
import sys
data = bytearray(open(sys.argv[1], "rb").read())
boot = open("/proc/sys/kernel/random/boot_id", "rb").read().strip()
at = data.find(boot, 0, 4096)
if at < 0:
    sys.exit(1)
data[at:at + len(boot)] = bytes(len(boot))
open(sys.argv[2], "wb").write(data)
PY
}

# run NAME GOREWRITE_ARGS...: instruments and runs; $dir/NAME/{stats file,
# wall_ns, prog.json, self.folded, prog.callgrind, prog.pb.gz}.
run() {
    local name=$1 d=$dir/$1
    shift
    mkdir -p "$d/stats"
    "$GOREWRITE" "$@" "$dir/prog" "$d/prog.i" >/dev/null || { fail "$name: gorewrite $*"; return 1; }
    local t0 t1
    t0=$(date +%s%N)
    run_one "$d/run" "$d/stats" "$d/prog.i" $N
    t1=$(date +%s%N)
    echo $((t1 - t0)) >"$d/wall_ns"
    expect "$name: exit status" 0 "$(cat "$d/run/rc")"
    stats=$(stats_file_for "$d/stats") || return 1
    pin_clock "$stats" "$d/pinned" || { fail "$name: no boot_id in $stats"; return 1; }
    stats=$d/pinned/$(basename "$stats")
    gostat_json "$stats" "$d/prog.json" || { fail "$name: gostat --json"; return 1; }
    "$GOSTAT" folded -o "$d/self.folded" "$stats" || fail "$name: gostat folded"
    "$GOSTAT" callgrind -o "$d/prog.callgrind" "$stats" || fail "$name: gostat callgrind"
    "$GOSTAT" pprof -o "$d/prog.pb.gz" "$stats" >/dev/null || fail "$name: gostat pprof"
    pprof_go -raw "$d/prog.pb.gz" >"$d/raw" 2>&1 || fail "$name: pprof -raw: $(tail -3 "$d/raw")"
    callgrind_annotate "$d/prog.callgrind" >"$d/annotate" 2>&1 ||
        fail "$name: callgrind_annotate: $(tail -3 "$d/annotate")"
}

# totals NAME: pprof's, callgrind's and folded's time totals, one per line
# "what ns".
totals() {
    local d=$dir/$1
    python3 - "$d/raw" "$d/prog.callgrind" "$d/annotate" "$d/self.folded" <<'PY'
import re, sys
raw, cg, annotate, folded = (open(p).read() for p in sys.argv[1:])
types = re.search(r"^Samples:\n(.*)$", raw, re.M).group(1).split()
col = types.index("time/nanoseconds")
body = raw.split("Samples:\n", 1)[1].split("\n", 1)[1].split("Locations", 1)[0]
print("pprof", sum(int(m.group(1).split()[col]) for m in re.finditer(r"^\s+([\d ]+):", body, re.M)))
print("callgrind-summary", re.search(r"^summary: \d+ (\d+)$", cg, re.M).group(1))
print("callgrind-totals", re.search(r"^totals: \d+ (\d+)$", cg, re.M).group(1))
m = re.search(r"^([\d,]+) \([^)]*\)\s+([\d,]+) \([^)]*\)\s+PROGRAM TOTALS", annotate, re.M) or \
    re.search(r"^([\d,]+)\s+([\d,]+)\s+PROGRAM TOTALS", annotate, re.M)
print("callgrind_annotate", m.group(2).replace(",", "") if m else "none")
print("folded", sum(int(l.rsplit(" ", 1)[1]) for l in folded.splitlines()))
PY
}

agree() {
    local name=$1 got
    got=$(totals "$name")
    [ "$(awk '{ print $2 }' <<<"$got" | sort -u | wc -l)" = 1 ] ||
        { fail "$name: pprof, callgrind and folded totals differ"; echo "$got"; }
    [ "$(awk '$1 == "pprof" { print $2 }' <<<"$got")" -gt 0 ] 2>/dev/null || fail "$name: no time at all: $got"
}

########## a file whose paths fit
run fit --call-graph || finish t_totals
d=$dir/fit
expect "fit: no path overflow" 0 "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["call_paths"]["path_overflow_calls"])' "$d/prog.json")"
agree fit

# main.fib: CUM against pprof's cum, main.main's total and the wall time.
pprof_go -top -sample_index=time -unit=ns -nodecount=100000 -nodefraction=0 "$d/prog.pb.gz" >"$d/top" 2>&1 ||
    fail "pprof -top: $(tail -3 "$d/top")"
python3 - "$d/prog.json" "$d/top" "$(cat "$d/wall_ns")" <<'PY' || fail "fit: main.fib's CUM"
import json, re, sys
j = json.load(open(sys.argv[1]))
f = {x["name"]: x for x in j["functions"]}
fib, main = f["main.fib"], f["main.main"]
wall = int(sys.argv[3])
top = {}
for line in open(sys.argv[2]):
    m = re.match(r"\s*(\d+)(?:ns)?\s+\S+\s+\S+\s+(\d+)(?:ns)?\s+\S+\s+(\S+)$", line)   # pprof writes a 0 without its unit
    if m:
        top[m.group(3)] = int(m.group(2))
nodes = j["call_paths"]["nodes"]
bad = []
if fib["calls"] != 2692537:
    bad.append(f"main.fib calls {fib['calls']}")
for name in ("main.fib", "main.main", "main.isEven", "main.ack"):
    if top.get(name) != f[name].get("cum_ns"):
        bad.append(f"{name}: cum_ns {f[name].get('cum_ns')}, pprof cum {top.get(name)}")
if not fib["cum_ns"] <= main["total_ns"] + nodes:
    bad.append(f"main.fib cum_ns {fib['cum_ns']} above main.main's total_ns {main['total_ns']}")
if not fib["cum_ns"] <= wall:
    bad.append(f"main.fib cum_ns {fib['cum_ns']} above the wall time {wall}")
if not (fib["total_ns"] > wall and fib["total_ns"] > main["total_ns"]):
    bad.append(f"main.fib total_ns {fib['total_ns']} not above the wall time {wall} and "
               f"main.main's {main['total_ns']}: the recursion is not counted again")
if not fib["self_ns"] <= fib["cum_ns"] + nodes:   # each node rounded
    bad.append(f"main.fib self_ns {fib['self_ns']} above its cum_ns {fib['cum_ns']}")
if bad:
    sys.exit("; ".join(bad))
PY

# The table: a CUM column, its note; --sort cum by cum_ns.
stats=$d/pinned/$(basename "$(stats_file_for "$d/stats")")
run_ok "table" "$stats" --filter '^main\.'
expect "table: the column names" "FUNCTION CALLS TOTAL CPU SELF CUM MEAN P50 P90 P99 MAX FILE:LINE" "$(row 2)"
grep -q '^CUM: inclusive time counted once per call stack' <<<"$out" || fail "table: no CUM note"
run_ok "--sort cum --json" "$stats" --sort cum --json
printf '%s\n' "$out" >"$d/sorted.json"
python3 - "$d/sorted.json" <<'PY' || fail "--sort cum: not by cum_ns"
import json, sys
cums = [f.get("cum_ns") or 0 for f in json.load(open(sys.argv[1]))["functions"]]   # null: flagged
if cums != sorted(cums, reverse=True) or cums[0] == 0:
    sys.exit(f"cum_ns in --sort cum order: {cums}")
PY

########## a file whose paths overflow
run small --call-graph --max-paths 64 || finish t_totals
d=$dir/small
overflow=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["call_paths"]["path_overflow_calls"])' "$d/prog.json")
[ "$overflow" -gt 0 ] 2>/dev/null || fail "small: no path overflow with --max-paths 64 ($overflow)"
agree small
grep -q '^(path overflow) [1-9]' "$d/self.folded" || fail "small: folded has no (path overflow) self time"
pprof_go -comments "$d/prog.pb.gz" >"$d/comments" 2>&1
grep -q "one sample '(path overflow)' with their calls and self time" "$d/comments" ||
    fail "small: pprof's comments do not say where the overflowed calls' time went: $(cat "$d/comments")"
grep -q "^desc: Note: .*also those beyond the call paths: the total equals" "$d/prog.callgrind" ||
    fail "small: callgrind's header does not say what its total holds"

finish t_totals
