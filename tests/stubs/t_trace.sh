#!/usr/bin/env bash
# t_trace: gorewrite --trace's engine and gostat trace (docs/trace.md).
# testdata/traceargs with Go 1.15 (stack ABI), 1.19, 1.21, 1.22 and the
# newest (register ABI), built normally and stripped: the program's output
# unchanged, one event per call (recursion; 2001 calls of main.deep growing
# and moving the stack with their arguments in flight; a recovered panic
# gives an event with "panicked": true and no results), exact values
# (tests/stubs/trace_check.py). testdata/tracego: 8 goroutines x 500 calls
# each exactly once; --trace-slower-than and gostat --slower-than keep
# exactly the 5 calls that slept 30 ms of 20; a 4K ring keeps exactly the
# newest calls and counts the others as lost; --follow streams a running
# program's calls while it runs; testdata/tracedeep, deeper than the
# pending records reach, gives exact events of the calls that fit and
# counts the others as not recorded.
# GOVERS="1.22" keeps only those of the releases above.
cd "$(dirname "$0")/../.."
. tests/lib.sh
require_tools
work_dir
fails=0
CHECK="python3 tests/stubs/trace_check.py"
NEWEST=$(ls -d build/toolchains/usr/lib/go-1.* /usr/lib/go-1.* 2>/dev/null | sed 's/.*go-//' | sort -t. -k2 -n | tail -1)

# traced NAME BIN OPTIONS... : instruments BIN into $WORK/NAME.i with the options.
traced() {
    local name=$1 bin=$2
    shift 2
    "$GOREWRITE" "$@" "$bin" "$WORK/$name.i" >/dev/null 2>"$WORK/$name.rw" ||
        { fail "$name: gorewrite $*: $(cat "$WORK/$name.rw")"; return 1; }
}

# run_traced NAME ARGS...: runs $WORK/NAME.i, its stats in $WORK/NAME.s,
# then gostat trace --json into $WORK/NAME.json (stderr NAME.err).
run_traced() {
    local name=$1
    shift
    rm -rf "$WORK/$name.s"
    mkdir -p "$WORK/$name.s"
    GOSTAT_DIR=$WORK/$name.s "$WORK/$name.i" "$@" >"$WORK/$name.out" 2>&1
    local f
    f=$(stats_file_for "$WORK/$name.s") || { fail "$name: no stats file"; return 1; }
    "$GOSTAT" trace --json "$f" >"$WORK/$name.json" 2>"$WORK/$name.err" ||
        { fail "$name: gostat trace: $(cat "$WORK/$name.err")"; return 1; }
}

FUNCS='^main\.(add|divmod|greet|fact|deep|mustPositive)$'
for v in $(releases 1.15 1.19 1.21 1.22 "$NEWEST"); do
    for kind in normal stripped; do
        flags=()
        [ $kind = stripped ] && flags=('-ldflags=-s -w')
        build_go "$v" testdata/traceargs "$WORK/ta" "${flags[@]}" || { fail "go$v $kind build"; continue; }
        "$WORK/ta" >"$WORK/ta.ref" 2>&1
        traced ta "$WORK/ta" --trace "$FUNCS" --trace-buffer 4M || continue
        run_traced ta || continue
        cmp -s "$WORK/ta.ref" "$WORK/ta.out" || fail "go$v $kind: output differs"
        [ -s "$WORK/ta.err" ] && fail "go$v $kind: gostat says: $(cat "$WORK/ta.err")"
        $CHECK traceargs "$WORK/ta.json" $kind || fail "go$v $kind: traceargs events"
    done
done

for v in $(releases 1.15 1.22 "$NEWEST"); do
    build_go "$v" testdata/tracego "$WORK/tg" || { fail "go$v tracego build"; continue; }
    "$WORK/tg" >"$WORK/tg.ref"
    if traced tg "$WORK/tg" --trace '^main\.(work|slow)$' --trace-buffer 1M && run_traced tg; then
        cmp -s "$WORK/tg.ref" "$WORK/tg.out" || fail "go$v tracego: output differs"
        $CHECK tracego "$WORK/tg.json" || fail "go$v tracego events"
        f=$(stats_file_for "$WORK/tg.s")
        "$GOSTAT" trace --json --func 'slow$' --slower-than 10ms "$f" >"$WORK/filtered.json"
        $CHECK slower "$WORK/filtered.json" || fail "go$v: gostat trace --slower-than 10ms"
        # the trace section grows the file's prefix: the goroutine sites
        # after the rows must still be found (main.all's 8 workers)
        "$GOSTAT" goroutines --json "$f" >"$WORK/tg.sites" 2>&1 || fail "go$v: gostat goroutines: $(cat "$WORK/tg.sites")"
        python3 - "$WORK/tg.sites" <<'PY' || fail "go$v: goroutine sites of a traced program"
import json, sys
sites = [s for s in json.load(open(sys.argv[1]))["goroutines"] if s["creator"] == "main.all"]
if [(s["created"], s["exited"]) for s in sites] != [(8, 8)]:
    sys.exit("main.all's go statement: %r, not one site with 8 created and 8 exited" % sites)
PY
    fi
    if traced slower "$WORK/tg" --trace '^main\.slow$' --trace-slower-than 10ms && run_traced slower; then
        $CHECK slower "$WORK/slower.json" || fail "go$v: gorewrite --trace-slower-than 10ms"
    fi
    if traced ring "$WORK/tg" --trace '^main\.work$' --trace-buffer 4K && run_traced ring ring 1000; then
        lost=$(sed -n 's/.* \([0-9]*\) events lost.*/\1/p' "$WORK/ring.err")
        $CHECK ring "$WORK/ring.json" 1000 "${lost:-0}" || fail "go$v: 4K ring ($(cat "$WORK/ring.err"))"
    fi
done

# Deeper than the pending records reach (testdata/tracedeep): the deepest
# calls go back from gs_trace_enter without a capture, counted as not
# recorded; the others give exact events, and the output is unchanged.
for v in $(releases 1.15 1.22 "$NEWEST"); do
    build_go "$v" testdata/tracedeep "$WORK/td" || { fail "go$v tracedeep build"; continue; }
    "$WORK/td" >"$WORK/td.ref"
    if traced td "$WORK/td" --trace '^main\.rec$' --trace-buffer 4M && run_traced td; then
        cmp -s "$WORK/td.ref" "$WORK/td.out" || fail "go$v tracedeep: output differs"
        python3 - "$WORK/td.json" "$WORK/td.err" <<'PY' || fail "go$v tracedeep events ($(cat "$WORK/td.err"))"
import json, re, sys
events = [json.loads(l) for l in open(sys.argv[1])]
m = re.search(r"(\d+) not recorded", open(sys.argv[2]).read())
missed = int(m.group(1)) if m else 0
lost = re.search(r"(\d+) events lost", open(sys.argv[2]).read())
if lost and lost.group(1) != "0":
    sys.exit("events lost in a 4M ring")
calls = [tuple(a["value"] for a in e["args"]) + (e["results"][0]["value"],) for e in events]
def chain(n, a, b, c):          # (n, a, b, c, result) of every call, outermost first
    out = []
    while True:
        out.append([n, a, b, c])
        if n == 0:
            break
        n, a, c = n - 1, a + 1, c - 1
    r = out[-1][1] + out[-1][2] + out[-1][3]
    for x in reversed(out):
        r = r + (x[0] % 7 if x[0] else 0)
        x.append(r)
    return [tuple(x) for x in out]
first, second = chain(20000, 1, 2, 3), chain(10, 4, 5, 6)
if not 0 < missed < len(first):
    sys.exit("%d calls not recorded, expected some of the deepest" % missed)
want = sorted(first[:len(first) - missed] + second)
if sorted(calls) != want:
    sys.exit("%d events, %d expected; first differences: %r" % (len(calls), len(want),
             sorted(set(calls) ^ set(want))[:4]))
PY
    fi
done

# A file without --trace, and bad options: refused with their exit status.
build_go 1.22 testdata/tracego "$WORK/tn" && "$GOREWRITE" "$WORK/tn" "$WORK/tn.i" >/dev/null 2>&1 && {
    mkdir -p "$WORK/tn.s"
    GOSTAT_DIR=$WORK/tn.s "$WORK/tn.i" ring 3 >/dev/null
    "$GOSTAT" trace "$(stats_file_for "$WORK/tn.s")" >/dev/null 2>"$WORK/tn.err"
    [ $? -eq 2 ] && grep -q 'not traced' "$WORK/tn.err" || fail "untraced file: $(cat "$WORK/tn.err")"
    "$GOSTAT" trace --slower-than 10 "$(stats_file_for "$WORK/tn.s")" >/dev/null 2>&1
    [ $? -eq 1 ] || fail "--slower-than 10 (no unit) accepted"
}
"$GOREWRITE_REAL" --trace-slower-than 10ms "$WORK/tn" "$WORK/tn2.i" >/dev/null 2>&1 && fail "--trace-slower-than without --trace accepted"
"$GOREWRITE_REAL" --trace x --trace-buffer 1K "$WORK/tn" "$WORK/tn2.i" >/dev/null 2>&1 && fail "--trace-buffer 1K accepted"

# --follow: the calls of a running program, printed while it runs.
build_go 1.22 testdata/tracego "$WORK/tf" && traced tf "$WORK/tf" --trace '^main\.work$' && {
    mkdir -p "$WORK/tf.s"
    GOSTAT_DIR=$WORK/tf.s "$WORK/tf.i" follow 30 >/dev/null &
    prog=$!
    pids+=("$prog")
    for i in $(seq 100); do ls "$WORK/tf.s"/gostat.* >/dev/null 2>&1 && break; sleep 0.05; done
    "$GOSTAT" trace --follow --json "$(stats_file_for "$WORK/tf.s")" >"$WORK/tf.json" 2>"$WORK/tf.err" &
    follow=$!
    pids+=("$follow")
    wait_for_line "$WORK/tf.json" '"value":5}' || fail "follow: no sixth call streamed"
    kill -0 "$prog" 2>/dev/null || fail "follow: the program ended before its sixth call was streamed"
    wait "$prog"
    for i in $(seq 100); do kill -0 "$follow" 2>/dev/null || break; sleep 0.1; done
    kill -0 "$follow" 2>/dev/null && fail "follow: still running after the program exited"
    $CHECK follow "$WORK/tf.json" 30 || fail "follow: streamed calls"
}
stop_pids

[ $fails -eq 0 ] && echo "t_trace: PASS" || { echo "t_trace: $fails failures"; exit 1; }
