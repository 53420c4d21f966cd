#!/usr/bin/env bash
# t_callgraph_clients.sh: the real clients of gostat's call-graph outputs,
# fed gostat's output for testdata/cgclients (Go 1.22, instrumented with
# --call-graph), every expectation derived from the program's known calls
# (ARCS below, the same calls as testdata/cgclients/expect says):
#  - gostat --json: each main.* function's callers, exactly ARCS;
#    --callers/--callees: the arcs' calls and call shares;
#  - gostat folded --value calls: the paths under main.run and their calls,
#    exactly; --value self: the self times through main.run add up to its
#    total_ns (JSON) within rounding;
#  - speedscope (npm) in headless Chromium (scripts/speedscope_shot.sh) on
#    the folded calls through main.run: the sandwich table's total and self
#    of every main.* frame, exactly; the screenshot's flame graph rows:
#    main.run across the width, its callees at 120:120:20 of 261;
#  - go tool pprof -top: flat and cum calls of each main.* function exactly
#    (flat = its calls, cum = the calls in its subtree), in ns flat < cum
#    for main.run, flat = self_ns and cum = total_ns (JSON) within rounding;
#    -peek: main.busy's callers and callee with their cum calls; -traces:
#    main.busy's two paths with their calls; -svg (graphviz): the edges
#    between main.* functions with their weights, exactly;
#  - callgrind_annotate --tree=caller: every main.* function's caller lines
#    "< FILE:CALLER (Nx)" are exactly its arcs;
#  - gostat serve --once --openmetrics on the program kept alive: the
#    strict parser reads gostat_function_self_seconds_total of each main.*
#    function, equal to --json's self_ns (1 %);
#  - usage errors of --callers/--callees and folded; a file built without
#    --time-all without --call-graph: folded and --callers fail with the message, pprof says
#    flat equals cum.
cd "$(dirname "$0")/../.."
. tests/assert.sh
require_tools

GO=1.22
SHOT=scripts/speedscope_shot.sh
PROG=testdata/cgclients
# The program's calls: CALLER CALLEE CALLS (main.main.func1 is the
# goroutine that runs main.run, called by runtime.goexit's return address:
# a goroutine's first frame).
ARCS="runtime.goexit main.main.func1 1
main.main.func1 main.run 1
main.run main.alpha 30
main.run main.beta 20
main.run main.gamma 10
main.alpha main.busy 30
main.beta main.busy 40
main.alpha main.spin 30
main.beta main.spin 20
main.busy main.spin 70
main.gamma main.spin 10"
export ARCS

# derive KIND: expectations from ARCS (python3, one per line).
derive() {
    python3 - "$1" <<'PY'
import os, sys
arcs = [l.split() for l in os.environ["ARCS"].splitlines()]
arcs = [(a, b, int(n)) for a, b, n in arcs]
calls = {}
for a, b, n in arcs:
    calls[b] = calls.get(b, 0) + n
def per_call(f):   # calls in the subtree of one call of f, itself included
    return 1 + sum(n / calls[f] * per_call(b) for a, b, n in arcs if a == f)
def cum(f):
    return round(calls[f] * per_call(f))
def paths(f, prefix, n):   # (path from main.run, calls) of f's subtree
    yield prefix + [f], n
    for a, b, m in arcs:
        if a == f:
            yield from paths(b, prefix + [f], n * m // calls[f])
kind = sys.argv[1]
if kind == "callers":
    for f in sorted(calls):
        c = sorted((a, n) for a, b, n in arcs if b == f)
        print(f, " ".join(f"{a}={n}" for a, n in c))
elif kind == "calls":
    for f in sorted(calls):
        print(f, calls[f])
elif kind == "folded":
    for p, n in sorted(paths("main.run", [], 1)):
        print(";".join(p), n)
elif kind == "sandwich":   # the lines through main.run: func1 has no self there
    for f in sorted(calls):
        if f.startswith("main."):
            print(f, cum("main.run") if f == "main.main.func1" else cum(f),
                  0 if f == "main.main.func1" else calls[f])
elif kind == "top":   # func1 also calls the runtime (the channel send)
    for f in sorted(f for f in calls if f != "main.main.func1"):
        print(f, calls[f], cum(f))
elif kind == "edges":
    for a, b, n in sorted(arcs):
        if a.startswith("main."):
            print(a, b, round(n * per_call(b)))
elif kind == "tree":
    for f in sorted(calls):
        c = sorted((a, n) for a, b, n in arcs if b == f and a.startswith("main."))
        print(f, " ".join(f"{a}={n}" for a, n in c))
PY
}

mkdir -p "$dir/stats" "$dir/plain" "$dir/home"
build_go $GO $PROG "$dir/prog" || fail "build cgclients"
"$GOREWRITE" --call-graph "$dir/prog" "$dir/prog.i" >/dev/null || fail "gorewrite --call-graph"
run_one "$dir/run" "$dir/stats" "$dir/prog.i"
expect "cgclients exit status" 0 "$(cat "$dir/run/rc")"
expect "cgclients output" done "$(cat "$dir/run/out")"
stats=$(stats_file_for "$dir/stats") || finish t_callgraph_clients
gostat_json "$stats" "$dir/prog.json" || fail "gostat --json"
pprof_go() { HOME=$dir/home go_env $GO "$(go_bin $GO)" tool pprof "$@"; }

########## the arcs themselves, as gostat --json and --callers show them
expect "ARCS agree with testdata/cgclients/expect" "$(derive calls)" \
    "$(grep -v '^#' $PROG/expect | sort)"
expect "gostat --json: callers of main.*" "$(derive callers)" "$(python3 - "$dir/prog.json" <<'PY'
import json, sys
funcs = json.load(open(sys.argv[1]))["functions"]
for f in sorted(funcs, key=lambda f: f["name"]):
    if f["name"].startswith("main.") and f["name"] != "main.main":
        c = sorted((a["name"], a["calls"]) for a in f["callers"] or [])
        print(f["name"], " ".join(f"{a}={n}" for a, n in c))
PY
)"
run_ok "--callers main.busy" "$stats" --callers 'main\.busy$'
expect "--callers main.busy: calls, share, caller" "callers of main.busy: 70 calls
40 57.1% main.beta
30 42.9% main.alpha" "$(awk 'NR == 1 { sub(/, [^,]* total$/, ""); print; next }
    NR > 2 { print $1, $2, $5 }' <<<"$out")"
run_ok "--callees main.run" "$stats" --callees 'main\.run$'
expect "--callees main.run: calls, share, callee" "30 50.0% main.alpha
20 33.3% main.beta
10 16.7% main.gamma" "$(awk 'NR > 2 { print $1, $2, $5 }' <<<"$out")"

# A FUNC matching never-called functions: one block per called one (in
# --sort calls order), the uncalled ones counted once at the end.
RE='^main\.busy$|^runtime\.gc'
read -r want_called want_uncalled < <(python3 - "$dir/prog.json" "$RE" <<'PY'
import json, re, sys
fs = [f for f in json.load(open(sys.argv[1]))["functions"] if re.search(sys.argv[2], f["name"])]
called = sorted((f for f in fs if f["calls"]), key=lambda f: (-f["calls"], f["name"]))
print(",".join(f["name"] for f in called), sum(1 for f in fs if not f["calls"]))
PY
)
[ "$want_uncalled" -ge 1 ] && [[ $want_called == *main.busy* ]] || fail "--callers '$RE': no uncalled match to test with"
run_ok "--callers with uncalled matches" "$stats" --callers "$RE"
expect "--callers: blocks of the called ones only" "$want_called" \
    "$(sed -n 's/^callers of \([^:]*\):.*/\1/p' <<<"$out" | paste -sd,)"
expect "--callers: the uncalled ones said once" \
    "$want_uncalled functions matching '$RE' never called: not shown" "$(tail -n 1 <<<"$out")"
expect "--callers: said once" 1 "$(grep -c 'never called' <<<"$out")"
one=$(python3 - "$dir/prog.json" <<'PY'
import json, sys
print(next(f["name"] for f in json.load(open(sys.argv[1]))["functions"]
           if f["name"].startswith("runtime.gc") and not f["calls"]).replace(".", "\\."))
PY
)
run_ok "--callees of an uncalled one only" "$stats" --callees "^$one\$"
expect "--callees: only the line" "1 function matching '^$one\$' never called: not shown" "$out"

########## folded stacks
"$GOSTAT" folded --value calls -o "$dir/calls.folded" "$stats" 2>"$dir/folded.err" \
    || fail "gostat folded --value calls: $(cat "$dir/folded.err")"
expect "folded --value calls: paths from main.run" "$(derive folded)" \
    "$(sed -n 's/^runtime\.goexit;main\.main\.func1;\(main\.run.*\)/\1/p' "$dir/calls.folded" | sort)"
"$GOSTAT" folded -o "$dir/self.folded" "$stats" 2>/dev/null || fail "gostat folded"
# Self times through main.run add up to its total, each line rounded to 1 ns.
python3 - "$dir/self.folded" "$dir/prog.json" <<'PY' || fail "folded --value self: main.run's self times do not add up to its total_ns"
import json, sys
lines = [l.rsplit(" ", 1) for l in open(sys.argv[1])]
through = [int(v) for p, v in lines if ";main.run" in p]
total = next(f["total_ns"] for f in json.load(open(sys.argv[2]))["functions"] if f["name"] == "main.run")
if abs(sum(through) - total) > len(through):
    sys.exit(f"sum {sum(through)} over {len(through)} lines, total_ns {total}")
PY

########## speedscope in headless Chromium, on the calls through main.run
grep ';main\.run' "$dir/calls.folded" >"$dir/run.folded"
if bash "$SHOT" "$dir/run.folded" "$dir/run.png" "$dir/run.html" 2>"$dir/shot.err"; then
    expect "speedscope: main.* frames, total, self" "$(derive sandwich)" "$(speedscope_rows "$dir/run.html" main.)"
    # Rows of the picture: one colour across the width (goexit, func1,
    # run), and run's callees alpha, beta, gamma at 120:120:20 of 261
    # (main.run's own call is the rest). 1 % tolerance.
    screenshot_check "$dir/run.png" <<'PY' || fail "speedscope: the screenshot does not show the flame graph"
want = sorted([120 / 261 * w, 120 / 261 * w, 20 / 261 * w])
full = children = 0
for row in rows:
    s = sorted((a, b + 1) for a, b in colour_extents(row).values() if b + 1 - a > 8)
    if len(s) == 1 and s[0][0] <= tol and s[0][1] >= w - tol:
        full += 1
    if len(s) == 3 and s[0][0] <= tol and all(abs(x - y) <= tol for x, y in
                                              zip(sorted(b - a for a, b in s), want)):
        children += 1
if full == 0 or children == 0:
    sys.exit(f"rows across the width: {full}, rows with alpha, beta, gamma: {children}")
PY
else
    fail "speedscope_shot.sh run.folded: $(cat "$dir/shot.err")"
fi

########## go tool pprof
"$GOSTAT" pprof -o "$dir/prog.pb.gz" "$stats" >/dev/null || fail "gostat pprof"
pprof_go -top -sample_index=calls -nodecount=100000 -nodefraction=0 "$dir/prog.pb.gz" >"$dir/top.calls" 2>&1 \
    || fail "pprof -top: $(tail -3 "$dir/top.calls")"
expect "pprof -top calls: flat and cum of main.*" "$(derive top)" \
    "$(awk '$6 ~ /^main\./ && $6 != "main.main" && $6 != "main.main.func1" { print $6, $1, $4 }' \
        "$dir/top.calls" | sort)"
pprof_go -top -sample_index=time -unit=ns -nodecount=100000 -nodefraction=0 "$dir/prog.pb.gz" >"$dir/top.time" 2>&1 \
    || fail "pprof -top time: $(tail -3 "$dir/top.time")"
python3 - "$dir/top.time" "$dir/prog.json" <<'PY' || fail "pprof -top time: flat/cum against self_ns/total_ns"
import json, re, sys
top = {}
for line in open(sys.argv[1]):
    m = re.match(r"\s*(\d+)ns\s+\S+\s+\S+\s+(\d+)ns\s+\S+\s+(\S+)$", line)
    if m:
        top[m.group(3)] = (int(m.group(1)), int(m.group(2)))
bad = []
for f in json.load(open(sys.argv[2]))["functions"]:
    if f["name"] not in ("main.run", "main.alpha", "main.beta", "main.busy", "main.gamma"):
        continue
    flat, cum = top.get(f["name"], (None, None))
    if flat is None or not flat < cum:
        bad.append(f"{f['name']}: flat {flat} not below cum {cum}")
    elif abs(flat - f["self_ns"]) > 20 or abs(cum - f["total_ns"]) > 20:
        bad.append(f"{f['name']}: flat {flat} cum {cum}, self_ns {f['self_ns']} total_ns {f['total_ns']}")
if bad:
    sys.exit("; ".join(bad))
PY
pprof_go -peek '^main\.busy$' -sample_index=calls "$dir/prog.pb.gz" >"$dir/peek" 2>&1 \
    || fail "pprof -peek: $(tail -3 "$dir/peek")"
expect "pprof -peek main.busy: callers, itself, callee" "80 main.beta
60 main.alpha
70 140 | main.busy
70 main.spin" "$(awk '/\|/ && !/context/ && !/^-/ { sub(/ +$/, ""); n = split($0, w, " ");
    if ($0 ~ /\| main\.busy$/) print $1, $4, "| main.busy"; else print $1, w[n] }' "$dir/peek")"
pprof_go -traces -sample_index=calls "$dir/prog.pb.gz" >"$dir/traces" 2>&1 \
    || fail "pprof -traces: $(tail -3 "$dir/traces")"
expect "pprof -traces: main.busy's paths, leaf first" \
    "30 main.busy main.alpha main.run main.main.func1 runtime.goexit
40 main.busy main.beta main.run main.main.func1 runtime.goexit" "$(awk '
    /^-/ { if (t ~ /^[0-9]+ main\.busy /) print t; t = ""; next }
    { sub(/^ +/, ""); t = t == "" ? $1 " " $2 : t " " $1 }' "$dir/traces" | sort)"
pprof_go -svg -sample_index=calls -nodefraction=0 -edgefraction=0 -nodecount=100000 \
    -output "$dir/prog.svg" "$dir/prog.pb.gz" >"$dir/svg.out" 2>&1 || fail "pprof -svg: $(cat "$dir/svg.out")"
expect "pprof -svg: edges between main.* and their weights" "$(derive edges)" "$(python3 - "$dir/prog.svg" <<'PY' | sort
import re, sys
import xml.etree.ElementTree as ET
S = "{http://www.w3.org/2000/svg}"
root = ET.parse(sys.argv[1]).getroot()
names = {}
for g in root.iter(S + "g"):
    if g.get("class") == "node":
        text = [t.text or "" for t in g.iter(S + "text")]
        parts = []
        for t in text:   # the name's lines, then "N (P%)"
            if re.match(r"\d", t):
                break
            parts.append(t)
        names[g.findtext(S + "title")] = ".".join(parts)
for g in root.iter(S + "g"):
    if g.get("class") == "edge":
        a, b = g.findtext(S + "title").split("->")
        a, b = names.get(a, ""), names.get(b, "")
        label = "".join(t.text or "" for t in g.iter(S + "text")).strip()
        if a.startswith("main.") and b.startswith("main.") and a != "main.main":
            print(a, b, label.split()[0])
PY
)"

########## callgrind_annotate --tree=caller
"$GOSTAT" callgrind -o "$dir/prog.cg" "$stats" >/dev/null || fail "gostat callgrind"
(cd / && callgrind_annotate --tree=caller --threshold=100 "$dir/prog.cg") >"$dir/ann" 2>"$dir/ann.err" \
    || fail "callgrind_annotate --tree=caller: $(cat "$dir/ann.err")"
expect "callgrind_annotate --tree=caller: stderr" "" "$(cat "$dir/ann.err")"
expect "callgrind_annotate --tree=caller: main.* callers" "$(derive tree)" "$(python3 - "$dir/ann" <<'PY'
import re, sys
callers, out = [], {}
for line in open(sys.argv[1]):
    m = re.search(r"<\s+\S*:(\S+) \((\d+)x\)", line)
    if m:
        callers.append((m.group(1), int(m.group(2))))
        continue
    m = re.search(r"\*\s+\S*:(main\.\S+) \[", line)
    if m:
        out[m.group(1)] = sorted(c for c in callers if c[0].startswith("main."))
    if not line.strip() or m:
        callers = []
for f in sorted(out):
    if f != "main.main":
        print(f, " ".join(f"{a}={n}" for a, n in out[f]))
PY
)"

########## OpenMetrics: self time of a live --call-graph process
mkfifo "$dir/stdin"
mkdir "$dir/live"
GOSTAT_DIR=$dir/live "$dir/prog.i" wait <"$dir/stdin" >"$dir/live.out" &
live_pid=$!
exec 9>"$dir/stdin"
for _ in $(seq 100); do grep -q done "$dir/live.out" 2>/dev/null && break; sleep 0.1; done
GOSTAT_DIR=$dir/live "$GOSTAT" serve --once --openmetrics >"$dir/om.txt" 2>"$dir/om.err" || fail "serve --once: $(cat "$dir/om.err")"
"$GOSTAT" --json "$dir/live"/gostat.* >"$dir/live.json" || fail "gostat --json (live)"
exec 9>&-
wait $live_pid
# The parser accepts it; self seconds of main.* are --json's self_ns
# (1 % apart at most: OpenMetrics uses the start-up clock calibration).
/usr/bin/python3 - "$dir/om.txt" "$dir/live.json" <<'PY' || fail "OpenMetrics: gostat_function_self_seconds_total"  # Debian's, with python3-prometheus-client
import json, re, sys
from prometheus_client.openmetrics.parser import text_string_to_metric_families
text = open(sys.argv[1]).read()
self_s = {}
for fam in text_string_to_metric_families(text):
    if fam.name == "gostat_function_self_seconds":
        for s in fam.samples:
            self_s[s.labels["function"]] = s.value
want = {f["name"]: f["self_ns"] for f in json.load(open(sys.argv[2]))["functions"]
        if f["name"].startswith("main.") and f.get("self_ns") is not None}
bad = [f"{n}: {self_s.get(n)} s, self_ns {v}" for n, v in sorted(want.items())
       if n not in self_s or abs(self_s[n] * 1e9 - v) > 0.01 * v + 100]
if len(want) < 6 or bad:
    sys.exit(f"{len(want)} main.* functions with self_ns; " + "; ".join(bad))
PY

########## usage errors (exit 1) and a FUNC that matches nothing (2)
errs() { "$GOSTAT" "$@" 2>&1 >/dev/null; echo "exit $?"; }
expect "usage errors" "gostat: --callers needs a PID or FILE (see gostat --help)
exit 1
gostat: --callers cannot be combined with --json
exit 1
gostat: --callers and --callees together need the same FUNC
exit 1
gostat: --callees: bad regular expression 'x(': Unmatched ( or \\(
exit 1
gostat: $stats: no function matches 'nomatch'
exit 2
gostat: folded: --value takes self, calls, time or oncpu, not 'bogus' (see gostat folded --help)
exit 1" "$(errs --callers x; errs --callers x --json "$stats"; errs --callers x --callees y "$stats"
    errs --callees 'x(' "$stats"; errs --callers nomatch "$stats"; errs folded --value bogus "$stats")"

########## a file without paths
"$GOREWRITE" "$dir/prog" "$dir/plain.i" >/dev/null || fail "gorewrite (default mode)"
run_one "$dir/run.plain" "$dir/plain" "$dir/plain.i"
plain=$(stats_file_for "$dir/plain") || finish t_callgraph_clients
"$GOSTAT" folded "$plain" >/dev/null 2>"$dir/plain.err"
expect "folded without --call-graph: exit" 2 $?
expect "folded without --call-graph: message" \
    "gostat: $plain: built without --call-graph: no call graph; rebuild with gorewrite --call-graph" \
    "$(cat "$dir/plain.err")"
"$GOSTAT" "$plain" --callers 'main\.busy$' >/dev/null 2>"$dir/plain.err"
expect "--callers without --call-graph: exit" 2 $?
expect "--callers without --call-graph: message" \
    "gostat: $plain: built without --call-graph: no call graph; rebuild with gorewrite --call-graph" \
    "$(cat "$dir/plain.err")"
"$GOSTAT" pprof -o "$dir/plain.pb.gz" "$plain" >/dev/null || fail "gostat pprof (no paths)"
pprof_go -raw "$dir/plain.pb.gz" 2>&1 | grep -q "flat equals cum (no call paths" \
    || fail "pprof without paths: the comment saying flat equals cum"

finish t_callgraph_clients
