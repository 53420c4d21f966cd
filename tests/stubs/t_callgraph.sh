#!/usr/bin/env bash
# t_callgraph: self time and caller -> callee arcs, recorded by gorewrite
# --call-graph and read from gostat --json, with every Go of the tests, on
# testdata/callgraph:
#  - exact arcs: main.target's callers are main.a 70, main.b 30, the
#    interface method main.(*S).M 11, the closure main.makeClosure.func1 5
#    and main.boom 3 (boom is not timed, or its calls are unwound by its
#    panic: its arc still comes from the return address), each with the
#    entry gostat lists for that function; main.outer <- main.main 5,
#    main.inner <- main.outer 5, main.rec <- main.rec 10 and main.main 1,
#    main.guard <- main.main 3;
#  - consistency: for every timed function of the program (runtime
#    included), its callers' calls add up to its timed calls (panics and
#    Goexit: unwound calls are in neither), self_ns <= total_ns, no path
#    or arc overflow, and call_paths.recorded is true;
#  - self time: main.outer's self_ns and main.inner's lie within 15 % of
#    the busy loops' durations the program measured itself (outer's
#    inclusive time holds inner's: not within 15 %);
#  - the same for a stripped PIE (run-time return addresses, link-time
#    symbols);
#  - --max-paths 64 (one page of paths): paths overflow (counted, > 0, in
#    the JSON and on the table's "call paths:" line) and main.target's arcs
#    are still exact;
#  - the argument "deep" (100,000-deep direct recursion, then a 100,000-deep
#    mutual recursion): no crash, same output as the original,
#    main.deep <- main.deep 100000 and main.main 1 exactly, and in the
#    folded output (gostat folded --value calls) the direct recursion is
#    two nodes, main.main;main.deep 1 and main.main;main.deep;main.deep
#    100000 (collapsed: it fits the path table); the mutual recursions are
#    folded too: main.ping <- main.pong 50000 and main.main 1, main.pong <-
#    main.ping 50000 exactly, in four nodes (main.main;main.ping 1,
#    ...;main.ping;main.pong 1, then 50000 and 49999 calls under them), and
#    the cycle of three tri1 -> tri2 -> tri3 -> tri1 (30,000 deep) in six,
#    no path and no arc overflow;
#  - the argument "fib" (fib(20), two recursive call sites): the folded
#    output has main.main;main.fib 1 and main.main;main.fib;main.fib 21890
#    calls and no other main.fib node, their self times (--value self) add
#    up to main.fib's self_ns (2 ns of rounding), no path overflow;
#  - --max-arcs 64 (Go 1.22): arcs overflow as well, counted in the JSON and
#    named on the table's line; --max-arcs without --call-graph, 0, or
#    with --max-paths 0 is a usage error (exit 1);
#  - --max-paths 262144: the stats file holds less than half of what the
#    whole path tables of the threads with paths would (their pages are
#    backed as lookups reach them);
#  - --time-all without --call-graph and the default mode record no call paths: JSON says
#    why, functions have no self_ns and no callers, the table's SELF is "-".
# Environment: GOVERS="1.22" restricts the Go versions.
. "$(dirname "$0")/../lib.sh"
require_tools

work_dir
DIR=$ROOT/testdata/callgraph

# check_json JSON PROGRAM_STDOUT GOVERSION CASE FOLDED_CALLS FOLDED_SELF:
# the arcs, paths and self times above.
check_json() {
    py_check "$@" <<'PY'
case = sys.argv[4]
funcs = {f["name"]: f for f in stats["functions"]}
cp = stats.get("call_paths", {})

def callers(name):
    f = funcs.get(name)
    if f is None:
        bad.append("%s missing" % name)
        return {}
    if "callers" not in f:
        bad.append("%s has no callers list" % name)
        return {}
    return {c["name"]: c for c in f["callers"]}

def arcs(name, want):
    got = callers(name)
    have = {k: v["calls"] for k, v in got.items()}
    if have != want:
        bad.append("%s callers %s, want %s" % (name, have, want))
    for k, c in got.items():
        if k in funcs and c["entry"] != funcs[k]["entry"]:
            bad.append("%s caller %s entry %s, the function's is %s" % (name, k, c["entry"], funcs[k]["entry"]))

if cp.get("recorded") is not True:
    bad.append("call_paths.recorded is not true: %s" % cp)
if cp.get("overflow_calls") != 0:
    bad.append("%s calls in no arc" % cp.get("overflow_calls"))
def folded(path, func):
    """The folded lines of func's nodes, as {stack from main.main: value}."""
    got = {}
    for line in open(path):
        stack, _, value = line.rstrip("\n").rpartition(" ")
        frames = stack.split(";")
        if frames[-1] != func:
            continue
        if "main.main" in frames:
            stack = ";".join(frames[frames.index("main.main"):])
        got[stack] = got.get(stack, 0) + int(value)
    return got

def collapsed(func, calls):
    want = {"main.main;" + func: 1, "main.main;%s;%s" % (func, func): calls}
    got = folded(sys.argv[5], func)
    if got != want:
        some = dict((k if len(k) < 80 else k[:40] + "..." + k[-36:], v) for k, v in sorted(got.items())[:4])
        bad.append("%s: %d nodes, %d calls (%s...), want %s" % (func, len(got), sum(got.values()), some, want))
    return got

def folded_nodes(funcs, want):
    got = {}
    for func in funcs:
        got.update(folded(sys.argv[5], func))
    if got != want:
        bad.append("%s: nodes %s, want %s" % ("/".join(funcs), sorted(got.items()), sorted(want.items())))

if case == "deep":
    arcs("main.deep", {"main.deep": 100000, "main.main": 1})
    collapsed("main.deep", 100000)
    arcs("main.ping", {"main.pong": 50000, "main.main": 1})
    arcs("main.pong", {"main.ping": 50000})
    # folded: a call hangs under the ancestor with its callee, its caller
    # a frame between
    m = "main.main;main."
    folded_nodes(("main.ping", "main.pong"), {
        m + "ping": 1, m + "ping;main.pong": 1,
        m + "ping;main.pong;main.ping": 50000, m + "ping;main.pong;main.ping;main.pong": 49999})
    arcs("main.tri1", {"main.tri3": 10000, "main.main": 1})
    arcs("main.tri2", {"main.tri1": 10000})
    arcs("main.tri3", {"main.tri2": 10000})
    folded_nodes(("main.tri1", "main.tri2", "main.tri3"), {
        m + "tri1": 1, m + "tri1;main.tri2": 1, m + "tri1;main.tri2;main.tri3": 1,
        m + "tri1;main.tri3;main.tri1": 10000,
        m + "tri1;main.tri2;main.tri1;main.tri2": 9999,
        m + "tri1;main.tri2;main.tri3;main.tri2;main.tri3": 9999})
    if cp.get("path_overflow_calls") != 0:
        bad.append("%s calls beyond the path tables" % cp.get("path_overflow_calls"))
elif case == "fib":
    arcs("main.fib", {"main.fib": 21890, "main.main": 1})
    if collapsed("main.fib", 21890):
        self_sum = sum(folded(sys.argv[6], "main.fib").values())
        if abs(self_sum - funcs["main.fib"].get("self_ns", -10)) > 2:
            bad.append("main.fib: its nodes' self times add up to %d ns, its self_ns is %s"
                       % (self_sum, funcs["main.fib"].get("self_ns")))
    if cp.get("path_overflow_calls") != 0:
        bad.append("%s calls beyond the path tables" % cp.get("path_overflow_calls"))
else:
    arcs("main.target", {"main.a": 70, "main.b": 30, "main.(*S).M": 11,
                         "main.makeClosure.func1": 5, "main.boom": 3})
    if case == "small":
        if not cp.get("path_overflow_calls", 0) > 0:
            bad.append("--max-paths 64: no path overflow shown (%s)" % cp)
    else:
        arcs("main.outer", {"main.main": 5})
        arcs("main.inner", {"main.outer": 5})
        arcs("main.rec", {"main.rec": 10, "main.main": 1})
        arcs("main.guard", {"main.main": 3})
        arcs("main.(*S).M", {"main.main": 1})
        arcs("main.makeClosure.func1", {"main.main": 1})
        if cp.get("path_overflow_calls") != 0:
            bad.append("%s calls beyond the path tables" % cp.get("path_overflow_calls"))
        own = json.loads(open(sys.argv[2]).read())
        for name, key in (("main.outer", "outer_busy_ns"), ("main.inner", "inner_busy_ns")):
            got, want = funcs[name].get("self_ns"), own[key]
            if got is None or abs(got - want) > 0.15 * want:
                bad.append("%s self %s ns, the program's busy loop took %d ns (15 %%)" % (name, got, want))
        if funcs["main.outer"]["total_ns"] < own["outer_busy_ns"] + 0.85 * own["inner_busy_ns"]:
            bad.append("main.outer total %s ns does not hold its own busy loop and inner's" % funcs["main.outer"]["total_ns"])
# every timed function of main: callers add up to its timed calls; self <=
# total. Not the runtime's: exit kills its other threads wherever they are,
# now and then between a call's timing and its arc (go1.19: 3 runs in 100,
# e.g. runtime.minitSignals with 4 callers for 5 timed calls).
if cp.get("overflow_calls") == 0:
    for f in stats["functions"]:
        if not f["timed"] or not f["name"].startswith("main."):
            continue
        n = sum(c["calls"] for c in f.get("callers", []))
        if n != f["timed_calls"]:
            bad.append("%s: callers add up to %d calls, it has %d timed calls" % (f["name"], n, f["timed_calls"]))
        if f.get("self_ns") is None or f["self_ns"] > f["total_ns"] + 1:
            bad.append("%s: self %s ns, total %s ns" % (f["name"], f.get("self_ns"), f["total_ns"]))
limit = 20
label = "go%s %s: " % (sys.argv[3], case)
PY
}

# check_absent JSON GOVERSION WHAT: no call paths recorded, and said so.
check_absent() {
    py_check "$@" <<'PY'
cp = stats.get("call_paths", {})
if cp.get("recorded") is not False or not cp.get("why"):
    bad.append("call_paths %s, want recorded false with a reason" % cp)
for f in stats["functions"]:
    if "self_ns" in f or "callers" in f:
        bad.append("%s has self_ns or callers" % f["name"])
        break
label = "go%s %s: " % (sys.argv[2], sys.argv[3])
PY
}

# run_case V BIN CASE [args]: runs BIN, checks its JSON with check_json.
# run_json WHAT OUT BIN [args]: runs BIN (stdout and status in OUT/,
# stats in OUT.st/), its exit status must be 0; its stats file into
# LAST_STATS and gostat --json of it into OUT/j.json. Fails WHAT otherwise.
run_json() {
    local what=$1 o=$2 bin=$3
    shift 3
    rm -rf "$o" "$o.st"
    mkdir -p "$o.st"
    run_one "$o" "$o.st" "$bin" "$@"
    if [ "$(cat "$o/rc")" != 0 ]; then
        fail "$what: exited $(cat "$o/rc"): $(head -c 400 "$o/err")"
        return 1
    fi
    LAST_STATS=$(stats_file_for "$o.st") || { fail "$what: stats file"; return 1; }
    gostat_json "$LAST_STATS" "$o/j.json" || { fail "$what: gostat --json"; return 1; }
}

run_case() {
    local v=$1 bin=$2 case=$3 o=$WORK/run.$3 f
    shift 3
    run_json "go$v $case" "$o" "$bin" "$@" || return
    f=$LAST_STATS
    "$GOSTAT" folded "$f" --value calls >"$o/calls.folded" 2>"$o/folded.err" &&
        "$GOSTAT" folded "$f" --value self >"$o/self.folded" 2>>"$o/folded.err" ||
        { fail "go$v $case: gostat folded: $(head -c 400 "$o/folded.err")"; return; }
    check_json "$o/j.json" "$o/out" "$v" "$case" "$o/calls.folded" "$o/self.folded" ||
        fail "go$v $case: call graph"
}

check_release() {
    local v=$1 bin=$WORK/cg$v
    build_go "$v" "$DIR" "$bin" || { fail "go$v: build"; return; }
    "$GOREWRITE" --call-graph "$bin" "$bin.all" >/dev/null 2>"$WORK/err" ||
        { fail "go$v: gorewrite --call-graph: $(tail -1 "$WORK/err")"; return; }
    run_case "$v" "$bin.all" normal
    # a stripped PIE: return addresses are run-time, the symbols link-time
    build_go "$v" "$DIR" "$bin.pie" -buildmode=pie "-ldflags=-s -w" || { fail "go$v: build PIE"; return; }
    "$GOREWRITE" --call-graph "$bin.pie" "$bin.pie.all" >/dev/null 2>"$WORK/err" ||
        { fail "go$v: gorewrite --call-graph PIE: $(tail -1 "$WORK/err")"; return; }
    run_case "$v" "$bin.pie.all" normal
    "$GOREWRITE" --call-graph --max-paths 64 "$bin" "$bin.small" >/dev/null 2>"$WORK/err" ||
        { fail "go$v: gorewrite --max-paths 64: $(tail -1 "$WORK/err")"; return; }
    run_case "$v" "$bin.small" small
    "$GOSTAT" "$LAST_STATS" >"$WORK/table" 2>&1
    grep -Eq '^call paths: [1-9][0-9]* calls beyond the 64 paths per thread \(their arcs are exact\)$' "$WORK/table" ||
        fail "go$v small: the table shows no path overflow: $(tail -2 "$WORK/table")"

    # fib: direct recursion from two call sites, collapsed
    run_case "$v" "$bin.all" fib fib
    # 100,000 deep: the same output as the original, arcs exact
    run_compare "$bin" "$bin.all" deep || fail "go$v deep: output differs from the original's"
    run_case "$v" "$bin.all" deep deep

    # no call paths: --time-all (without --call-graph), the default mode
    local mode st
    for mode in "--time-all" ""; do
        # shellcheck disable=SC2086
        "$GOREWRITE" $mode "$bin" "$bin.none" >/dev/null 2>"$WORK/err" ||
            { fail "go$v: gorewrite $mode: $(tail -1 "$WORK/err")"; continue; }
        run_json "go$v ${mode:-default mode}" "$WORK/none" "$bin.none" || continue
        st=$LAST_STATS
        check_absent "$WORK/none/j.json" "$v" "${mode:-default mode}" || fail "go$v ${mode:-default mode}: paths"
        "$GOSTAT" --filter '^main\.outer$' "$st" >"$WORK/table" 2>&1
        awk 'NR == 2 { for (i = 1; i <= NF; i++) if ($i == "SELF") c = i } NR == 3 && (!c || $c != "-") { exit 1 }' "$WORK/table" ||
            fail "go$v ${mode:-default mode}: SELF is not \"-\": $(sed -n 2,3p "$WORK/table")"
    done
}

# --max-arcs 64 with --max-paths 64: arcs overflow too, counted, and the
# table names the option; the option's usage errors.
check_max_arcs() {
    local bin=$WORK/cg1.22 o=$WORK/tiny f
    "$GOREWRITE" --call-graph --max-paths 64 --max-arcs 64 "$bin" "$bin.tiny" >/dev/null 2>"$WORK/err" ||
        { fail "gorewrite --max-arcs 64: $(tail -1 "$WORK/err")"; return; }
    run_json "--max-arcs 64" "$o" "$bin.tiny" || return
    f=$LAST_STATS
    python3 -c '
import json, sys
cp = json.load(open(sys.argv[1]))["call_paths"]
sys.exit(0 if cp["max_arcs"] == 64 and cp["overflow_calls"] > 0 and cp["path_overflow_calls"] >= cp["overflow_calls"] else 1)
' "$o/j.json" || fail "--max-arcs 64: call_paths $(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["call_paths"])' "$o/j.json")"
    "$GOSTAT" "$f" >"$WORK/table" 2>&1
    grep -Eq '^call paths: [1-9][0-9]* calls beyond the 64 paths per thread, [1-9][0-9]* of them beyond the 64 arcs per thread too \(in no arc: gorewrite --max-arcs\)$' "$WORK/table" ||
        fail "--max-arcs 64: the table's call paths line: $(tail -1 "$WORK/table")"
    local args
    for args in "--max-arcs 64" "--call-graph --max-arcs 0" "--call-graph --max-paths 0 --max-arcs 64"; do
        # shellcheck disable=SC2086
        "$GOREWRITE_REAL" $args "$bin" "$WORK/never" >/dev/null 2>"$WORK/err"
        [ $? = 1 ] && grep -q -- "--max-arcs" "$WORK/err" && [ ! -e "$WORK/never" ] ||
            fail "gorewrite $args: want exit 1 (usage) naming --max-arcs, got: $(cat "$WORK/err")"
    done
}

# --max-paths 262144 (16 MB of paths a thread): the path tables' pages are
# backed as lookups reach them, so the stats file holds far less than one
# whole table for each thread that timed calls (a few thousand paths touch
# at most a page each).
check_path_pages() {
    local bin=$WORK/cg1.22 o=$WORK/wide
    "$GOREWRITE" --call-graph --max-paths 262144 "$bin" "$bin.wide" >/dev/null 2>"$WORK/err" ||
        { fail "gorewrite --max-paths 262144: $(tail -1 "$WORK/err")"; return; }
    run_json "--max-paths 262144" "$o" "$bin.wide" || return
    python3 - "$o/j.json" "$(stat -c %b "$LAST_STATS")" <<'PY' || fail "--max-paths 262144: path tables backed whole"
import json, sys
cp = json.load(open(sys.argv[1]))["call_paths"]
held, whole = int(sys.argv[2]) * 512, cp["threads_with_paths"] * cp["max_paths"] * 64
print("  --max-paths 262144: stats file %.1f MB, %d threads' whole path tables %.1f MB, fullest %d paths"
      % (held / 1e6, cp["threads_with_paths"], whole / 1e6, cp["fullest_paths"]))
sys.exit(0 if cp["threads_with_paths"] >= 1 and held < whole / 2 else 1)
PY
}

for v in ${GOVERS:-$GO_VERSIONS $GO_VERSIONS_NEWER}; do
    check_release "$v"
done
case " ${GOVERS:-$GO_VERSIONS $GO_VERSIONS_NEWER} " in *" 1.22 "*) check_max_arcs; check_path_pages ;; esac
[ $fails -eq 0 ]
