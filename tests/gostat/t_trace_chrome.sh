#!/usr/bin/env bash
# t_trace_chrome: gostat trace --chrome on testdata/traceargs (Go 1.22,
# traced with --trace): valid Chrome trace-event JSON with one complete
# ("X") event per call of --json's output, the same names, goroutines,
# arguments and results, a thread_name track per goroutine; then loaded in
# a real viewer, speedscope (npm) in headless Chromium
# (scripts/speedscope_shot.sh: the page must list the events' frames and
# draw them; SHOT_OUT=FILE keeps the screenshot: docs/trace-chrome-speedscope.png).
cd "$(dirname "$0")/../.."
. tests/lib.sh
require_tools
work_dir
fails=0
build_go 1.22 testdata/traceargs "$WORK/ta" || exit 1
"$GOREWRITE" --trace '^main\.(main|add|fact|greet|divmod|safePositive|mustPositive)$' --trace-buffer 4M \
    "$WORK/ta" "$WORK/ta.i" >/dev/null 2>&1 || { echo "FAIL: gorewrite"; exit 1; }
mkdir -p "$WORK/s"
GOSTAT_DIR=$WORK/s "$WORK/ta.i" >/dev/null
f=$(stats_file_for "$WORK/s") || exit 1
"$GOSTAT" trace --json "$f" >"$WORK/t.json" || fail "gostat trace --json"
"$GOSTAT" trace --chrome "$WORK/c.json" "$f" || fail "gostat trace --chrome"
"$GOSTAT" trace --chrome "$WORK/x.json" --follow "$f" 2>/dev/null && fail "--chrome --follow accepted"
python3 - "$WORK/t.json" "$WORK/c.json" <<'PY' || fail "chrome events differ from --json's"
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
d = json.load(open(sys.argv[2]))
x = [e for e in d["traceEvents"] if e["ph"] == "X"]
m = [e for e in d["traceEvents"] if e["ph"] == "M"]
ok = len(x) == len(lines) > 10
for e, l in zip(x, lines):
    ok = ok and e["name"] == l["func"] and e["tid"] == l["goid"] and e["args"]["args"] == l["args"] \
        and e["args"]["results"] == l["results"] and abs(e["ts"] * 1000 - l["start_ns"]) <= 1e-5 * l["start_ns"] + 1 \
        and e["args"]["caller"] == l["caller"]
ok = ok and sorted(e["tid"] for e in m) == sorted(set(l["goid"] for l in lines))
ok = ok and any(e["args"].get("panicked") for e in x)
print("events", len(x), "tracks", len(m))
sys.exit(0 if ok else 1)
PY
scripts/speedscope_shot.sh "$WORK/c.json" "$WORK/c.png" "$WORK/c.dom" 2>"$WORK/shot.err" ||
    fail "speedscope: $(cat "$WORK/shot.err")"
grep -q 'main.add {' "$WORK/c.dom" || fail "speedscope lists no main.add call with its values"
[ -n "${SHOT_OUT:-}" ] && cp "$WORK/c.png" "$SHOT_OUT"
[ $fails -eq 0 ] && echo "t_trace_chrome: PASS" || { echo "t_trace_chrome: $fails failures"; exit 1; }
