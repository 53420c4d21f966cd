#!/usr/bin/env bash
# t_gostat_serve.sh: gostat serve, read by real clients.
#  1. Exact exposition of synthetic files (mkstats) with known counts and
#     timing: label escaping (quotes, backslashes, newline, invalid UTF-8,
#     a terminal escape), histogram buckets mapped to the fixed le bounds
#     (a source bucket ending exactly on a bound stays in it), a sampled
#     file, an exited process and an invalid file left out, in both
#     formats, the same over HTTP as with --once.
#  2. The checkers: promtool check metrics (Prometheus 2.42) on the
#     Prometheus text; prometheus_client's strict OpenMetrics parser on the
#     OpenMetrics output (promtool only parses the Prometheus text format:
#     it rejects OpenMetrics's info type and sees its counter families as
#     help-less); a real Prometheus server scraping OpenMetrics.
#  3. A real instrumented Go program (testdata/servedemo), timed and
#     sampled, scraped by Prometheus: exact call counts, time > 0, a
#     histogram_quantile no lower than the true durations, goroutine
#     counters equal to gostat --json's and up by exactly the goroutines the
#     program starts, the sample rate, and its series gone once it exits.
#  4. HTTP routes (404, 405, HEAD, index), IPv6, a busy port, a bad
#     --listen, SIGTERM and SIGINT.
cd "$(dirname "$0")/../.."
. tests/assert.sh

PROM_BIN=$ROOT/build/prometheus/usr/bin
PY=/usr/bin/python3   # Debian's, with python3-prometheus-client
GOVER=1.22
pids=()
cleanup() {
    local p
    for p in ${pids[@]+"${pids[@]}"}; do
        kill "$p" 2>/dev/null
    done
    for p in ${pids[@]+"${pids[@]}"}; do
        wait "$p" 2>/dev/null
    done
    rm -rf "$dir"
}
trap cleanup EXIT

for tool in "$PROM_BIN/promtool" "$PROM_BIN/prometheus" "$(command -v curl)"; do
    [ -x "$tool" ] || { fail "missing $tool (run scripts/deps.sh)"; finish t_gostat_serve; }
done
$PY -c 'import prometheus_client' 2>/dev/null ||
    { fail "python3-prometheus-client missing (run scripts/deps.sh)"; finish t_gostat_serve; }

OM_ACCEPT='application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5'


# start_serve NAME [ARGS...]: starts gostat serve in the background; sets
# $url to its /metrics URL (from its "serving" line) and $serve_pid.
start_serve() {
    local name=$1
    shift
    "$GOSTAT" serve "$@" >"$dir/$name.out" 2>"$dir/$name.err" &
    serve_pid=$!
    pids+=($serve_pid)
    url=
    wait_for_line "$dir/$name.out" '^serving http://' || { fail "$name: no serving line: $(cat "$dir/$name.err")"; return 1; }
    url=$(sed -n 's/^serving //p' "$dir/$name.out")
}

# metrics FILE [ACCEPT]: GET $url into FILE; the response headers into FILE.h.
metrics() {
    curl -sS -o "$1" -D "$1.h" ${2:+-H "Accept: $2"} "$url"
}

# check_openmetrics FILE: the strict OpenMetrics parser accepts FILE.
check_openmetrics() {
    $PY - "$1" <<'PY'
import sys
from prometheus_client.openmetrics.parser import text_string_to_metric_families
try:
    for _ in text_string_to_metric_families(open(sys.argv[1]).read()):
        pass
except Exception as e:
    print("  openmetrics parser: %s" % e)
    sys.exit(1)
PY
}

# check_promtool FILE: promtool check metrics exits 0 and says nothing.
check_promtool() {
    local lint
    lint=$("$PROM_BIN/promtool" check metrics <"$1" 2>&1)
    local rc=$?
    [ $rc -eq 0 ] && [ -z "$lint" ] && return 0
    echo "  promtool (exit $rc): $lint"
    return 1
}

# ---- 1. synthetic files: exact text ----------------------------------------
my_ticks=$(sed 's/.*) //' /proc/$$/stat | cut -d' ' -f20)
sleep 600 &
other=$!
pids+=($other)
other_ticks=$(sed 's/.*) //' /proc/$other/stat | cut -d' ' -f20)

# Process A (this shell): clock 0.5 ns per tick (tsc 2,000,000 ticks over
# 1 ms). Histogram source buckets: b holds durations below 2^(b+5) ticks.
#  main.work: src 2 x3 (< 128 ticks = 64 ns: le 1e-07), src 3 x6 (< 256
#    ticks = 128 ns: le 2e-07), src 8 x1 (< 8192 ticks = 4096 ns: le
#    5e-06); 6200 ticks = 3.1 us.
#  main.slow: src 15 x1 (< 2^20 ticks = 524288 ns: le 0.001), src 17 x1
#    (< 2^22 ticks = 2.097 ms: le 0.005); 4,000,000 ticks = 2 ms.
#  main.inl untimed: calls only; main.never: never called, not exported.
#  the odd name: timed, no timed calls: zero histogram.
odd=$'odd"name\\with\nnewline\xff\x1b[31m'
"$MKSTATS" "$dir/gostat.app.$$" --pid $$ --start-ticks "$my_ticks" --start-ns 1700000000500000000 \
    --exe '/opt/my "app"' --go-version go1.22.12 --build-id go:abc/def \
    --rows 4 --spread --timing --tsc 1000:0:2001000:1000000 \
    --func main.work:0x10:10:/src/w.go:3 --func main.slow:0x20:2 --func main.inl:0x30:5 \
    --func "$odd:0x40:3" --func runtime.newproc1:0x50:7 --func runtime.goexit1:0x60:4 \
    --func main.never:0x70:0 \
    --untimed '2:too short to patch' --untimed 4:runtime --untimed 5:runtime \
    --time 0:1:5300:100:5000:2=3,8=1 --time 0:2:900:130:200:3=6 \
    --time 1:1:4000000:1000000:3000000:15=1,17=1 \
    --drops 1:2:7:0:6:0 || fail "mkstats A"
# Process B (the sleep): sampled 1 in 8; clock 1000/1024 ns per tick, so
# src 5 (< 1024 ticks) ends at exactly 1 us: le 1e-06, not 2e-06. 8 timed
# calls of 80, 8000 ticks = 7.8125 us. No goroutine functions: no
# goroutine series.
"$MKSTATS" "$dir/gostat.sampled.$other" --pid "$other" --start-ticks "$other_ticks" \
    --start-ns 1700000001000000000 --exe /opt/sampled --go-version go1.24.1 \
    --rows 2 --spread --timing --tsc 1000:0:1025000:1000000 --sample-every 8 \
    --func b.f:0x10:80 --time 0:1:8000:1000:1020:5=8 || fail "mkstats B"
# This shell's pid again, started earlier: an instrumented program that
# exec'd the current one (same pid and process start). Only the newer is
# exported.
"$MKSTATS" "$dir/gostat.old.$$" --pid $$ --start-ticks "$my_ticks" --start-ns 1600000000000000000 \
    --exe /opt/old --func old.f:0x10:1 || fail "mkstats old image"
"$MKSTATS" "$dir/gostat.gone.4194305" --pid 4194305 --func gone.f:0x10:9 || fail "mkstats exited"
echo junk >"$dir/gostat.junk.1"

run_ok "--once" serve --once
text=$out
A="exe=\"/opt/my \\\"app\\\"\",pid=\"$$\""
B="exe=\"/opt/sampled\",pid=\"$other\""
ODD='odd\"name\\with\nnewline'$'\xef\xbf\xbd\xef\xbf\xbd''[31m'
expect "text: process A" "\
gostat_process_info{$A,go_version=\"go1.22.12\",build_id=\"go:abc/def\"} 1
gostat_process_start_time_seconds{$A} 1700000000.5
gostat_goroutines{$A} 3
gostat_goroutine_creations_total{$A} 7
gostat_goroutine_exits_total{$A} 4
gostat_timing_sample_every{$A} 1
gostat_timing_drops_total{$A,reason=\"unwound\"} 2
gostat_timing_drops_total{$A,reason=\"too_deep\"} 7
gostat_timing_drops_total{$A,reason=\"no_slot\"} 0
gostat_timing_drops_total{$A,reason=\"no_space\"} 0
gostat_timing_unmatched_returns_total{$A} 6
gostat_function_calls_total{$A,function=\"main.work\"} 10
gostat_function_calls_total{$A,function=\"main.slow\"} 2
gostat_function_calls_total{$A,function=\"main.inl\"} 5
gostat_function_calls_total{$A,function=\"$ODD\"} 3
gostat_function_calls_total{$A,function=\"runtime.newproc1\"} 7
gostat_function_calls_total{$A,function=\"runtime.goexit1\"} 4
gostat_function_seconds_total{$A,function=\"main.work\"} 3.1e-06
gostat_function_seconds_total{$A,function=\"main.slow\"} 0.002
gostat_function_seconds_total{$A,function=\"$ODD\"} 0
gostat_function_duration_seconds_sum{$A,function=\"main.work\"} 3.1e-06
gostat_function_duration_seconds_count{$A,function=\"main.work\"} 10
gostat_function_duration_seconds_sum{$A,function=\"main.slow\"} 0.002
gostat_function_duration_seconds_count{$A,function=\"main.slow\"} 2
gostat_function_duration_seconds_sum{$A,function=\"$ODD\"} 0
gostat_function_duration_seconds_count{$A,function=\"$ODD\"} 0" \
    "$(grep -F "{$A" <<<"$text" | grep -v _bucket)"
expect "text: process B" "\
gostat_process_info{$B,go_version=\"go1.24.1\",build_id=\"\"} 1
gostat_process_start_time_seconds{$B} 1700000001
gostat_timing_sample_every{$B} 8
gostat_timing_drops_total{$B,reason=\"unwound\"} 0
gostat_timing_drops_total{$B,reason=\"too_deep\"} 0
gostat_timing_drops_total{$B,reason=\"no_slot\"} 0
gostat_timing_drops_total{$B,reason=\"no_space\"} 0
gostat_timing_unmatched_returns_total{$B} 0
gostat_function_calls_total{$B,function=\"b.f\"} 80
gostat_function_seconds_total{$B,function=\"b.f\"} 7.8125e-06
gostat_function_duration_seconds_sum{$B,function=\"b.f\"} 7.8125e-06
gostat_function_duration_seconds_count{$B,function=\"b.f\"} 8" \
    "$(grep -F "{$B" <<<"$text" | grep -v _bucket)"

# buckets FUNCTION: "le=cumulative ..." of that function's histogram.
buckets() {
    grep -F "function=\"$1\",le=" <<<"$text" | sed 's/.*le="\([^"]*\)"} /\1=/' | tr '\n' ' ' | sed 's/ $//'
}
LES="1e-07 2e-07 5e-07 1e-06 2e-06 5e-06 1e-05 2e-05 5e-05 0.0001 0.0002 0.0005 0.001 0.002 0.005 0.01 0.02 0.05 0.1 0.2 0.5 1 2 5 10 20 50 100 +Inf"
# cumulative LE=COUNT...: the expected line, buckets not named carry the
# previous count.
cumulative() {
    local le n=0 out=() want
    for le in $LES; do
        for want in "$@"; do
            [ "${want%%=*}" = "$le" ] && n=${want#*=}
        done
        out+=("$le=$n")
    done
    echo "${out[*]}"
}
expect "buckets main.work" "$(cumulative 1e-07=3 2e-07=9 5e-06=10)" "$(buckets main.work)"
expect "buckets main.slow" "$(cumulative 0.001=1 0.005=2)" "$(buckets main.slow)"
expect "buckets b.f (upper end on a bound)" "$(cumulative 1e-06=8)" "$(buckets b.f)"
expect "buckets odd name" "$(cumulative)" "$(buckets "$ODD")"
grep -q 'main.never\|main.inl",le=\|gone\|runtime.newproc1",le=\|/opt/old' <<<"$text" &&
    fail "text: exported a never-called, untimed or exited function, or a replaced image"
expect "text: scrape metrics" "\
gostat_scrape_processes 2
gostat_scrape_invalid_files 1" "$(grep '^gostat_scrape' <<<"$text")"
expect "text: families" "\
# HELP gostat_process_info Instrumented Go process: its Go release and build ID.
# TYPE gostat_process_info gauge
# HELP gostat_process_start_time_seconds Start time of the process since the Unix epoch.
# TYPE gostat_process_start_time_seconds gauge
# HELP gostat_goroutines Goroutines alive: creations minus exits, runtime goroutines included.
# TYPE gostat_goroutines gauge
# HELP gostat_goroutine_creations_total Goroutines created (calls of runtime.newproc1).
# TYPE gostat_goroutine_creations_total counter
# HELP gostat_goroutine_exits_total Goroutines that exited (calls of runtime.goexit1).
# TYPE gostat_goroutine_exits_total counter
# HELP gostat_timing_sample_every About 1 call in this many of a timed function is timed (1: all).
# TYPE gostat_timing_sample_every gauge
# HELP gostat_timing_drops_total Calls of timed functions that got no duration, by reason.
# TYPE gostat_timing_drops_total counter
# HELP gostat_timing_unmatched_returns_total Returns of timed functions whose entry was not recorded.
# TYPE gostat_timing_unmatched_returns_total counter
# HELP gostat_function_calls_total Calls of the function (every call, also when timing is sampled).
# TYPE gostat_function_calls_total counter
# HELP gostat_function_seconds_total Time in the function's timed calls, callees included.
# TYPE gostat_function_seconds_total counter
# HELP gostat_function_self_seconds_total Time in the function's timed calls outside its timed callees (programs instrumented with --call-graph).
# TYPE gostat_function_self_seconds_total counter
# HELP gostat_function_duration_seconds Durations of the function's timed calls, callees included.
# TYPE gostat_function_duration_seconds histogram
# HELP gostat_scrape_processes Live instrumented processes in this scrape.
# TYPE gostat_scrape_processes gauge
# HELP gostat_scrape_invalid_files Stats files skipped in this scrape: unreadable or invalid.
# TYPE gostat_scrape_invalid_files gauge" "$(grep '^#' <<<"$text")"
printf '%s\n' "$text" >"$dir/synthetic.prom"
check_promtool "$dir/synthetic.prom" || fail "promtool: synthetic Prometheus text"

# OpenMetrics: the same samples; family names without _total, an info
# family, # UNIT, # EOF last.
run_ok "--once --openmetrics" serve --once --openmetrics
om=$out
expect "openmetrics: samples as text" "$(grep -v '^#' <<<"$text")" "$(grep -v '^#' <<<"$om")"
expect "openmetrics: families" "\
# HELP gostat_process Instrumented Go process: its Go release and build ID.
# TYPE gostat_process info
# HELP gostat_process_start_time_seconds Start time of the process since the Unix epoch.
# TYPE gostat_process_start_time_seconds gauge
# UNIT gostat_process_start_time_seconds seconds
# HELP gostat_goroutines Goroutines alive: creations minus exits, runtime goroutines included.
# TYPE gostat_goroutines gauge
# HELP gostat_goroutine_creations Goroutines created (calls of runtime.newproc1).
# TYPE gostat_goroutine_creations counter
# HELP gostat_goroutine_exits Goroutines that exited (calls of runtime.goexit1).
# TYPE gostat_goroutine_exits counter
# HELP gostat_timing_sample_every About 1 call in this many of a timed function is timed (1: all).
# TYPE gostat_timing_sample_every gauge
# HELP gostat_timing_drops Calls of timed functions that got no duration, by reason.
# TYPE gostat_timing_drops counter
# HELP gostat_timing_unmatched_returns Returns of timed functions whose entry was not recorded.
# TYPE gostat_timing_unmatched_returns counter
# HELP gostat_function_calls Calls of the function (every call, also when timing is sampled).
# TYPE gostat_function_calls counter
# HELP gostat_function_seconds Time in the function's timed calls, callees included.
# TYPE gostat_function_seconds counter
# UNIT gostat_function_seconds seconds
# HELP gostat_function_self_seconds Time in the function's timed calls outside its timed callees (programs instrumented with --call-graph).
# TYPE gostat_function_self_seconds counter
# UNIT gostat_function_self_seconds seconds
# HELP gostat_function_duration_seconds Durations of the function's timed calls, callees included.
# TYPE gostat_function_duration_seconds histogram
# UNIT gostat_function_duration_seconds seconds
# HELP gostat_scrape_processes Live instrumented processes in this scrape.
# TYPE gostat_scrape_processes gauge
# HELP gostat_scrape_invalid_files Stats files skipped in this scrape: unreadable or invalid.
# TYPE gostat_scrape_invalid_files gauge
# EOF" "$(grep '^#' <<<"$om")"
expect "openmetrics: ends with # EOF" "# EOF" "$(tail -n 1 <<<"$om")"
printf '%s\n' "$om" >"$dir/synthetic.om"
check_openmetrics "$dir/synthetic.om" || fail "openmetrics parser: synthetic"

# Over HTTP: the same bodies, chosen by the Accept header.
start_serve synth --listen 127.0.0.1:0
metrics "$dir/h.prom" || fail "curl text"
expect "http text body" "$text" "$(cat "$dir/h.prom")"
expect "http text content type" "text/plain; version=0.0.4; charset=utf-8" \
    "$(grep -i '^content-type:' "$dir/h.prom.h" | cut -d' ' -f2- | tr -d '\r')"
metrics "$dir/h.om" "$OM_ACCEPT" || fail "curl openmetrics"
expect "http openmetrics body" "$om" "$(cat "$dir/h.om")"
expect "http openmetrics content type" "application/openmetrics-text; version=1.0.0; charset=utf-8" \
    "$(grep -i '^content-type:' "$dir/h.om.h" | cut -d' ' -f2- | tr -d '\r')"
metrics "$dir/h.q" 'application/openmetrics-text;q=0.2,text/plain;q=0.9' || fail "curl q"
expect "Accept prefers text/plain: text" "$text" "$(cat "$dir/h.q")"
# gzip when accepted (Prometheus asks for it); the same body once inflated.
header() { grep -i "^$1:" "$2" | cut -d' ' -f2- | tr -d '\r'; }
expect "no Accept-Encoding: identity" "" "$(header content-encoding "$dir/h.prom.h")"
curl -sS -o "$dir/h.gz" -D "$dir/h.gz.h" -H 'Accept-Encoding: gzip' "$url" || fail "curl gzip"
expect "Accept-Encoding gzip: encoding" gzip "$(header content-encoding "$dir/h.gz.h")"
expect "gzip body" "$text" "$(gzip -dc "$dir/h.gz")"
expect "Vary" "Accept, Accept-Encoding" "$(header vary "$dir/h.gz.h")"
curl -sS -o /dev/null -D "$dir/h.gz0.h" -H 'Accept-Encoding: gzip;q=0, identity' "$url"
expect "gzip;q=0: identity" "" "$(header content-encoding "$dir/h.gz0.h")"

# Routes.
code() { curl -s -o /dev/null -w '%{http_code}' "$@"; }
base=${url%/metrics}
expect "GET /nope" 404 "$(code "$base/nope")"
expect "GET /metrics/x" 404 "$(code "$base/metrics/x")"
expect "POST /metrics" 405 "$(code -X POST -d x=1 "$url")"
expect "DELETE /" 405 "$(code -X DELETE "$base/")"
expect "405 Allow header" "Allow: GET, HEAD" \
    "$(curl -s -D - -o /dev/null -X PUT "$url" | grep -i '^allow:' | tr -d '\r')"
expect "HEAD /metrics" 200 "$(code -I "$url")"
# HEAD over a raw socket (curl -I would hide a body): status 200, no body.
hostport=${base#http://}
expect "HEAD has no body" "200 0" "$($PY - "$hostport" <<'PY'
import socket, sys
host, port = sys.argv[1].rsplit(":", 1)
s = socket.create_connection((host, int(port)), timeout=10)
s.sendall(b"HEAD /metrics HTTP/1.0\r\nHost: localhost\r\n\r\n")
data = b""
while True:
    chunk = s.recv(65536)
    if not chunk:
        break
    data += chunk
head, _, body = data.partition(b"\r\n\r\n")
print(head.split()[1].decode(), len(body))
PY
)"
expect "GET / (index)" 200 "$(code "$base/")"
curl -s "$base/" | grep -q 'href="/metrics"' || fail "index page links /metrics"
expect "GET /metrics?x=1" 200 "$(code "$url?x=1")"

# An exited process drops out at the next scrape, and a new one appears.
"$MKSTATS" "$dir/gostat.sampled.$other" --pid "$other" --start-ticks "$((other_ticks + 1))" \
    --exe /opt/sampled --func b.f:0x10:80 || fail "mkstats B reused"
metrics "$dir/h2.prom" || fail "curl after B exit"
grep -q "pid=\"$other\"" "$dir/h2.prom" && fail "process B still exported after its file's process is gone"
expect "after B exit: processes" "gostat_scrape_processes 1" "$(grep '^gostat_scrape_processes' "$dir/h2.prom")"

# SIGTERM: exit 0.
kill -TERM "$serve_pid"
wait "$serve_pid"
expect "SIGTERM exit status" 0 $?
expect "synth server: stderr" "" "$(cat "$dir/synth.err")"

# ---- 3. a real Go program, scraped by Prometheus ----------------------------
rm -f "$dir"/gostat.*
kill "$other"
go_bin_dir=$ROOT/build/testbin/go$GOVER/exe
build_go "$GOVER" testdata/servedemo "$go_bin_dir/servedemo" || { fail "build servedemo"; finish t_gostat_serve; }
"$GOREWRITE" "$go_bin_dir/servedemo" "$dir/servedemo" >/dev/null || fail "gorewrite servedemo"
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

start_serve real --listen 127.0.0.1:0
metrics "$dir/real.prom" || fail "curl real text"
check_promtool "$dir/real.prom" || fail "promtool: real program's Prometheus text"
metrics "$dir/real.om" "$OM_ACCEPT" || fail "curl real openmetrics"
check_openmetrics "$dir/real.om" || fail "openmetrics parser: real program"

free_port() {
    $PY -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
prom_port=$(free_port)
target=${url#http://}
target=${target%/metrics}
cat >"$dir/prometheus.yml" <<EOF
global:
  scrape_interval: 1s
  evaluation_interval: 1s
scrape_configs:
  - job_name: gostat
    static_configs:
      - targets: ["$target"]
EOF
"$PROM_BIN/prometheus" --config.file="$dir/prometheus.yml" --storage.tsdb.path="$dir/prom-data" \
    --web.listen-address="127.0.0.1:$prom_port" >"$dir/prometheus.log" 2>&1 &
pids+=($!)
PROM=http://127.0.0.1:$prom_port

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

# ---- 4. listening ------------------------------------------------------------
port=${target##*:}
out=$("$GOSTAT" serve --listen "127.0.0.1:$port" 2>&1 >/dev/null)
expect "busy port: exit status" 2 $?
expect "busy port: message" "gostat: serve: cannot listen on 127.0.0.1:$port: Address already in use" "$out"
for bad in nonsense 127.0.0.1 127.0.0.1:99999 127.0.0.1:http ::1:80 '[::1]80' 'no.such.host.invalid:80'; do
    out=$("$GOSTAT" serve --listen "$bad" 2>&1 >/dev/null)
    rc=$?
    expect "bad --listen $bad: exit status" 2 $rc
    expect "bad --listen $bad: one line" 1 "$(wc -l <<<"$out")"
    [[ $out == "gostat: serve: --listen $bad: "* ]] || fail "bad --listen $bad: message '$out'"
done
out=$("$GOSTAT" serve --bogus 2>&1)
expect "unknown option: exit status" 1 $?
out=$("$GOSTAT" serve --openmetrics 2>&1)
expect "--openmetrics without --once: exit status" 1 $?

start_serve any --listen :0
[[ $url == http://0.0.0.0:*/metrics ]] || fail ":PORT: serving line '$url'"
expect ":PORT: GET via 127.0.0.1" 200 "$(code "http://127.0.0.1:${url##*:}")"
kill -TERM "$serve_pid"
wait "$serve_pid"
start_serve v6 --listen '[::1]:0'
[[ $url == http://\[::1\]:*/metrics ]] || fail "IPv6: serving line '$url'"
expect "IPv6: GET /metrics" 200 "$(code -g "$url")"
kill -INT "$serve_pid"
wait "$serve_pid"
expect "SIGINT exit status" 0 $?

kill -TERM "${pids[@]}" 2>/dev/null   # Prometheus and what is left
finish t_gostat_serve
