#!/usr/bin/env bash
# t_gostat_serve_prometheus: a real instrumented Go program
# (testdata/servedemo), timed (the default mode with --first 1000: each of
# main.work's 1,000 calls timed) and sampled, served by gostat serve and
# scraped by a real Prometheus server (OpenMetrics): exact call counts,
# time > 0, a histogram_quantile no lower than the true durations,
# goroutine counters equal to gostat --json's and up by exactly the
# goroutines the program starts (in all and at their go statement), the sample rate, and its series gone once
# it exits; promtool and the strict OpenMetrics parser accept the replies,
# also with no process left.
cd "$(dirname "$0")/../.."
. tests/gostat/serve_lib.sh
require_clients t_gostat_serve_prometheus prometheus

go_bin_dir=$ROOT/build/testbin/go$GOVER/exe
build_go "$GOVER" testdata/servedemo "$go_bin_dir/servedemo" || { fail "build servedemo"; finish t_gostat_serve_prometheus; }
"$GOREWRITE" --first 1000 "$go_bin_dir/servedemo" "$dir/servedemo" >/dev/null || fail "gorewrite servedemo"
"$GOREWRITE" --sample 8 "$go_bin_dir/servedemo" "$dir/servedemo.sampled" >/dev/null || fail "gorewrite --sample 8"

# start_demo NAME BINARY: runs it with stdin from a fifo held open on fd
# $demo_fd (later children inherit that fd too, so the program is told to
# exit by a line, not by the fifo's end); sets demo_pid.
start_demo() {
    mkfifo "$dir/$1.in"
    "$2" <"$dir/$1.in" >"$dir/$1.out" 2>"$dir/$1.err" &
    demo_pid=$!
    pids+=($demo_pid)
    exec {demo_fd}>"$dir/$1.in"
    wait_for_line "$dir/$1.out" '^ready$' || fail "$1: not ready: $(cat "$dir/$1.err")"
}
start_demo timed "$dir/servedemo"
timed_pid=$demo_pid timed_fd=$demo_fd
start_demo sampled "$dir/servedemo.sampled"
sampled_pid=$demo_pid sampled_fd=$demo_fd

start_serve real --listen 127.0.0.1:0 --all --pid-label
metrics "$dir/real.prom" || fail "curl real text"
check_promtool "$dir/real.prom" || fail "promtool: real program's Prometheus text"
metrics "$dir/real.om" "$OM_ACCEPT" || fail "curl real openmetrics"
check_openmetrics "$dir/real.om" || fail "openmetrics parser: real program"

target=${url#http://}
start_prometheus "$PROM_BIN/prometheus" "${target%/metrics}"

# query EXPR: the values of an instant query, one per line, sorted ("" if
# the result is empty).
query() {
    curl -s --data-urlencode "query=$1" "$PROM/api/v1/query" | $PY -c '
import json, sys
text = sys.stdin.read()
if not text:
    print("no answer"); sys.exit(0)   # Prometheus not listening yet
r = json.loads(text)
if r.get("status") != "success":
    print("error: %s" % r.get("error")); sys.exit(0)
print("\n".join(sorted(v["value"][1] for v in r["data"]["result"])))'
}
# wait_query EXPR WANT: polls for up to 60 s (a loaded machine) until the
# query answers WANT.
wait_query() {
    local i got
    for i in $(seq 120); do
        got=$(query "$1")
        [ "$got" = "$2" ] && { printf '%s' "$got"; return 0; }
        sleep 0.5
    done
    printf '%s' "$got"
    return 1
}

T="pid=\"$timed_pid\""
S="pid=\"$sampled_pid\""
up=$(wait_query 'up{job="gostat"}' 1) || fail "Prometheus: up = '$up' (see $dir/prometheus.log)"
expect "Prometheus: main.work calls" 1000 "$(wait_query "gostat_function_calls_total{$T,function=\"main.work\"}" 1000)"
expect "Prometheus: main.pause calls" 5 "$(query "gostat_function_calls_total{$T,function=\"main.pause\"}")"
expect "Prometheus: main.work timed calls" 1000 \
    "$(query "gostat_function_duration_seconds_count{$T,function=\"main.work\"}")"
# 5 sleeps of 2 ms: at least 10 ms.
expect "Prometheus: main.pause time >= 10ms" 1 \
    "$(query "gostat_function_seconds_total{$T,function=\"main.pause\"} >= bool 0.01")"
# Every pause lasts >= 2 ms, so its bucket's le is >= 5 ms and the
# interpolated quantile >= 2 ms, the bucket's lower end. The 99th of 5
# pauses lies in the bucket of the longest (gostat --json's max_ns): gostat
# keeps a log2 histogram and puts each of its buckets under the first le at
# or above the bucket's upper end (below 2 x max), so the quantile is at
# most the first le >= 2 x max (a 9.7 ms pause at load 26 was counted
# under le 0.02).
pmax=$("$GOSTAT" --json "$timed_pid" | $PY -c 'import json, sys
print([f["max_ns"] for f in json.load(sys.stdin)["functions"] if f["name"] == "main.pause"][0])')
p99=$(query "histogram_quantile(0.99, sum by (le) (gostat_function_duration_seconds_bucket{$T,function=\"main.pause\"}))")
if ! $PY - "$p99" "${pmax:-0}" "$LES" <<'PY'; then
import sys
v, mx = float(sys.argv[1]), float(sys.argv[2]) / 1e9
les = [float(x) for x in sys.argv[3].split() if x != "+Inf"]
hi = min(x for x in les if x >= 2 * mx)
print("  main.pause: longest %.6f s, p99 %s, want 0.002 .. %g" % (mx, v, hi))
sys.exit(not (mx >= 0.002 and 0.002 <= v <= hi))
PY
    fail "Prometheus: histogram_quantile(0.99) of main.pause = '$p99', want 0.002 s .. the first le >= 2 x the longest pause"
fi
expect "Prometheus: go_version label" 1 \
    "$(query "count(gostat_process_info{$T,go_version=~\"go$GOVER.*\",build_id!=\"\"})")"
expect "Prometheus: sample rate" "1
8" "$(query "gostat_timing_sample_every{pid=~\"$timed_pid|$sampled_pid\"}")"
expect "Prometheus: sampled: every call counted" 1000 \
    "$(query "gostat_function_calls_total{$S,function=\"main.work\"}")"
# Sampled: gostat --json's timed_calls is the calls actually timed (all
# 1000 only if every gap drawn in [1, 15] were 1). Each timed call weighs
# the gap that led to it, so a row's weighted count is the number of its
# last timed call: _count lies between the timed calls and the calls, and
# equals 1000 when the 1000th call happened to be timed (1 run in ~8).
timed=$("$GOSTAT" --json "$sampled_pid" | $PY -c 'import json, sys
print([f["timed_calls"] for f in json.load(sys.stdin)["functions"] if f["name"] == "main.work"][0])')
expect "sampled: fewer timed calls (gostat --json)" 1 "$([ "${timed:-1000}" -lt 1000 ] && echo 1)"
expect "Prometheus: sampled: weighted count between timed calls and calls" 1 \
    "$(query "(gostat_function_duration_seconds_count{$S,function=\"main.work\"} > bool $timed)
      * (gostat_function_duration_seconds_count{$S,function=\"main.work\"} <= bool 1000)")"

# Goroutines: the runtime's own count varies by release, so the totals
# must equal gostat --json's (the program is idle), and spawning 100
# must add exactly 100 to each counter.
json_calls() {
    "$GOSTAT" --json "$timed_pid" | $PY -c '
import json, sys
f = {x["name"]: x["calls"] for x in json.load(sys.stdin)["functions"]}
print(f["runtime.newproc1"], f["runtime.goexit1"])'
}
read -r c1 e1 <<<"$(json_calls)"
expect "Prometheus: creations = gostat --json" "$c1" \
    "$(wait_query "gostat_goroutine_creations_total{$T}" "$c1")"
expect "Prometheus: exits = gostat --json" "$e1" "$(query "gostat_goroutine_exits_total{$T}")"
echo "spawn 100" >&"$timed_fd"
wait_for_line "$dir/timed.out" '^spawned 100$' || fail "servedemo: no 'spawned 100'"
expect "Prometheus: creations + 100" $((c1 + 100)) \
    "$(wait_query "gostat_goroutine_creations_total{$T}" $((c1 + 100)))"
expect "Prometheus: exits + 100" $((e1 + 100)) "$(wait_query "gostat_goroutine_exits_total{$T}" $((e1 + 100)))"
expect "Prometheus: live goroutines" $((c1 - e1)) "$(query "gostat_goroutines{$T}")"
expect "gostat --json after spawn" "$((c1 + 100)) $((e1 + 100))" "$(json_calls)"
# By creation site (docs/goroutines.md): spawn's go statement started
# exactly those 100, all ended, each with a lifetime; the main goroutine
# (started by the runtime) is live and has an age.
SPAWN="$T,creator=\"main.spawn\",location=\"main.go:$(grep -n 'go child(&wg)' testdata/servedemo/main.go | cut -d: -f1)\""
expect "Prometheus: created at main.spawn's go statement" 100 \
    "$(wait_query "gostat_goroutines_created_total{$SPAWN}" 100)"
expect "Prometheus: live from main.spawn" 0 "$(query "gostat_goroutines_live{$SPAWN}")"
expect "Prometheus: lifetimes from main.spawn" 100 "$(query "gostat_goroutine_lifetime_seconds_count{$SPAWN}")"
expect "Prometheus: the main goroutine is live and old" 1 \
    "$(query "gostat_goroutines_live{$T,start=\"runtime.main\"} * (gostat_goroutines_oldest_live_seconds{$T,start=\"runtime.main\"} > bool 0)")"

# The program exits: its series go stale at the next scrape.
echo exit >&"$timed_fd"
wait "$timed_pid"
expect "servedemo exit status" 0 $?
left=$(wait_query "count(gostat_function_calls_total{$T})" "") ||
    fail "Prometheus: series of the exited program still there ($left)"
expect "Prometheus: the sampled program still there" 1000 \
    "$(query "gostat_function_calls_total{$S,function=\"main.work\"}")"
echo exit >&"$sampled_fd"
wait "$sampled_pid"
expect "Prometheus: no process left" 0 "$(wait_query 'gostat_scrape_processes' 0)"
# No process at all: still valid in both formats.
metrics "$dir/empty.prom" || fail "curl empty text"
check_promtool "$dir/empty.prom" || fail "promtool: no process"
metrics "$dir/empty.om" "$OM_ACCEPT" || fail "curl empty openmetrics"
check_openmetrics "$dir/empty.om" || fail "openmetrics parser: no process"
grep -q '^gostat_function' "$dir/empty.om" && fail "no process: function samples"

finish t_gostat_serve_prometheus
