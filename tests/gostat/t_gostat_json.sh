#!/usr/bin/env bash
# t_gostat_json.sh: gostat --json: the exact shape and key order, every
# field checked after parsing with Python's json module, string escaping
# (quotes, backslash, control characters, invalid UTF-8), zero-call
# functions always present, and --filter/--sort/--top applied.
cd "$(dirname "$0")/../.."
. tests/assert.sh

# json_check NAME PYTHON_ASSERTIONS ARGS...: runs gostat --json ARGS, parses
# stdout as j and runs the assertions; prints the first one that fails.
json_check() {
    local name=$1 asserts=$2; shift 2
    "$GOSTAT" --json "$@" >"$dir/out" 2>"$dir/err"
    local rc=$?
    [ $rc -eq 0 ] || { fail "$name: exit $rc: $(cat "$dir/err")"; return; }
    [ -s "$dir/err" ] && fail "$name: stderr: $(cat "$dir/err")"
    python3 - "$dir/out" "$asserts" <<'PY' || fail "$name"
import json, sys
raw = open(sys.argv[1], "rb").read()
assert raw.endswith(b"}\n") and raw.count(b"\n") == 1, "one line of JSON"
j = json.loads(raw.decode("utf-8"))
for line in sys.argv[2].strip().split("\n"):
    try:
        ok = eval(line)
    except Exception as e:
        ok = False
        line += "  (%r)" % e
    if not ok:
        print("  assertion failed:", line.strip())
        print("  json:", raw.decode("utf-8", "replace").strip())
        sys.exit(1)
PY
}

my_ticks=$(sed 's/.*) //' /proc/$$/stat | cut -d' ' -f20)
f=$dir/gostat.fib.$$
"$MKSTATS" "$f" --pid $$ --start-ticks "$my_ticks" --exe '/opt/my "fib"' --build-id 'go:abc/def' --go-version go1.22.12 \
    --start-ns 1700000000123456789 --rows 3 --spread \
    --func main.fib:0x480900:832040:/src/fib.go:10 \
    --func 'main.(*T).Get:0x480b00:7:/src/t.go:5:inlined' \
    --func runtime.add:0x401000:0 || fail "mkstats"

json_check "full object" '
list(j.keys()) == ["pid", "exe", "live", "build_id", "go_version", "start_time_ns", "ended_ns", "total_calls", "timing", "timing_mode", "mode", "sample_every", "tsc_hz", "clock_source", "probe_cost_ns", "drops", "goroutines", "call_paths", "functions"]
j["timing"] is False and j["tsc_hz"] is None and j["clock_source"] is None
j["drops"] == {"unwound": 0, "too_deep": 0, "no_slot": 0, "unmatched": 0, "no_space": 0, "abandoned": 0, "rowless_calls": 0, "closed_at_exit": 0}
j["ended_ns"] is None
j["pid"] == '$$'
j["exe"] == "/opt/my \"fib\""
j["live"] is True
j["build_id"] == "go:abc/def"
j["go_version"] == "go1.22.12"
j["start_time_ns"] == 1700000000123456789
j["total_calls"] == 832047
[f["name"] for f in j["functions"]] == ["main.fib", "main.(*T).Get", "runtime.add"]
all(list(f.keys()) == ["name", "entry", "calls", "file", "line", "inlined", "timed", "untimed_reason", "timed_calls", "time_estimated", "total_ns", "mean_ns", "p50_ns", "p90_ns", "p99_ns", "min_ns", "max_ns"] for f in j["functions"])
all(f["timed"] is False and f["untimed_reason"] == "not built for timing" and f["timed_calls"] is None for f in j["functions"])
all(f[k] is None for f in j["functions"] for k in ["total_ns", "mean_ns", "p50_ns", "p90_ns", "p99_ns", "min_ns", "max_ns"])
{k: j["functions"][0][k] for k in list(j["functions"][0])[:6]} == {"name": "main.fib", "entry": "0x480900", "calls": 832040, "file": "/src/fib.go", "line": 10, "inlined": False}
{k: j["functions"][1][k] for k in list(j["functions"][1])[:6]} == {"name": "main.(*T).Get", "entry": "0x480b00", "calls": 7, "file": "/src/t.go", "line": 5, "inlined": True}
{k: j["functions"][2][k] for k in list(j["functions"][2])[:6]} == {"name": "runtime.add", "entry": "0x401000", "calls": 0, "file": "", "line": 0, "inlined": False}
' "$f"

# The same by PID, from the private GOSTAT_DIR.
json_check "by pid" '
j["pid"] == '$$' and j["total_calls"] == 832047 and len(j["functions"]) == 3
' $$

json_check "--nonzero does not hide JSON rows" '
[f["name"] for f in j["functions"]] == ["main.fib", "main.(*T).Get", "runtime.add"]
' --nonzero "$f"

json_check "--sort name --top 2" '
[f["name"] for f in j["functions"]] == ["main.(*T).Get", "main.fib"]
j["total_calls"] == 832047
' --sort name --top 2 "$f"

json_check "--filter" '
[f["name"] for f in j["functions"]] == ["runtime.add"]
' --filter '^runtime\.' "$f"

# Exact bytes for a small file: compact, fixed key order, one line.
"$MKSTATS" "$dir/small" --pid 31 --exe /x --start-ns 5 --func a.b:0x10:3:/a.go:7
"$GOSTAT" --json "$dir/small" >"$dir/out"
expect "exact JSON text" \
    '{"pid":31,"exe":"/x","live":false,"build_id":"","go_version":"","start_time_ns":5,"ended_ns":null,"total_calls":3,"timing":false,"timing_mode":"count-only","mode":"count-only","sample_every":1,"tsc_hz":null,"clock_source":null,"probe_cost_ns":null,"drops":{"unwound":0,"too_deep":0,"no_slot":0,"unmatched":0,"no_space":0,"abandoned":0,"rowless_calls":0,"closed_at_exit":0},"goroutines":null,"call_paths":{"recorded":false,"why":"recorded only with gorewrite --call-graph"},"functions":[{"name":"a.b","entry":"0x10","calls":3,"file":"/a.go","line":7,"inlined":false,"timed":false,"untimed_reason":"not built for timing","timed_calls":null,"time_estimated":false,"total_ns":null,"mean_ns":null,"p50_ns":null,"p90_ns":null,"p99_ns":null,"min_ns":null,"max_ns":null}]}' \
    "$(cat "$dir/out")"

# Escaping: quote, backslash, control characters, valid UTF-8 kept,
# invalid UTF-8 replaced (so the output always parses).
"$MKSTATS" "$dir/esc" --pid 32 --exe $'/e\tx' \
    --func $'q"b\\s\x01c\x1fn\nt\x7f:0x10:1' \
    --func $'caf\xc3\xa9.\xe4\xb8\x96:0x20:2:/src/\xff.go:3'
json_check "escaping" '
j["exe"] == "/e\tx"
j["functions"][0]["name"] == "caf\u00e9.\u4e16"
j["functions"][0]["file"] == "/src/\ufffd.go"
j["functions"][1]["name"] == "q\"b\\s\x01c\x1fn\nt\x7f"
' "$dir/esc"
"$GOSTAT" --json "$dir/esc" >"$dir/out"
grep -qF '"name":"q\"b\\s\u0001c\u001fn\u000at' "$dir/out" || fail "control characters as \\u00XX: $(cat "$dir/out")"

# Goroutines: created = calls of runtime.newproc1, exited = calls of
# runtime.goexit1 (counters read while the program runs may show an end
# before its creation: live is then 0, never negative).
"$MKSTATS" "$dir/gor" --pid 33 --exe /g --func runtime.newproc1:0x10:12 --func runtime.goexit1:0x20:5 --func main.main:0x30:1
json_check "goroutines" '
j["goroutines"] == {"created": 12, "exited": 5, "live": 7}
' "$dir/gor"
run_ok "goroutines table" "$dir/gor"
expect "goroutines in the summary line" "pid 33 exited exe /g calls 18 functions 3 goroutines 7 live (12 created, 5 exited)" "$(row 1)"
"$MKSTATS" "$dir/gor2" --pid 34 --exe /g --func runtime.newproc1:0x10:4 --func runtime.goexit1:0x20:5
json_check "goroutines: exit seen before creation" '
j["goroutines"] == {"created": 4, "exited": 5, "live": 0}
' "$dir/gor2"
"$MKSTATS" "$dir/gor3" --pid 35 --exe /g --func runtime.newproc1:0x10:4
json_check "goroutines: unknown without runtime.goexit1" '
j["goroutines"] is None
' "$dir/gor3"

finish t_gostat_json
