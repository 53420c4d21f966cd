# tests/gostat/serve_lib.sh: what the t_gostat_serve_* tests share. Source
# it from the repository root; it sources tests/assert.sh. The real
# clients' paths, an EXIT trap that stops every background process ($pids),
# the synthetic stats files, and helpers for reading the replies.
. tests/assert.sh

PROM_BIN=$ROOT/build/prometheus/usr/bin
PY=/usr/bin/python3   # Debian's, with python3-prometheus-client
GOVER=1.22
trap 'stop_pids; rm -rf "$dir"' EXIT

OM_ACCEPT='application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5'
# The fixed le bounds of gostat's histograms.
LES="1e-07 2e-07 5e-07 1e-06 2e-06 5e-06 1e-05 2e-05 5e-05 0.0001 0.0002 0.0005 0.001 0.002 0.005 0.01 0.02 0.05 0.1 0.2 0.5 1 2 5 10 20 50 100 +Inf"

# require_clients TEST [prometheus]: curl, and with "prometheus" also
# promtool, the Prometheus server and python3-prometheus-client, or the
# test fails at once.
require_clients() {
    local tool tools=("$(command -v curl)")
    [ "${2:-}" = prometheus ] && tools+=("$PROM_BIN/promtool" "$PROM_BIN/prometheus")
    for tool in "${tools[@]}"; do
        [ -x "$tool" ] || { fail "missing $tool (run scripts/deps.sh)"; finish "$1"; }
    done
    [ "${2:-}" = prometheus ] || return 0
    $PY -c 'import prometheus_client' 2>/dev/null ||
        { fail "python3-prometheus-client missing (run scripts/deps.sh)"; finish "$1"; }
}

# metrics FILE [ACCEPT]: GET $url into FILE; the response headers into FILE.h.
metrics() {
    curl -sS -o "$1" -D "$1.h" ${2:+-H "Accept: $2"} "$url"
}

# code CURL_ARGS...: the HTTP status of a request.
code() { curl -s -o /dev/null -w '%{http_code}' "$@"; }

# header NAME FILE: the value of a response header saved by curl -D.
header() { grep -i "^$1:" "$2" | cut -d' ' -f2- | tr -d '\r'; }

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

# synthetic_files: the stats files of two live processes with known counts
# and timing, an older image of the first, an exited process and an invalid
# file, in $dir. Sets $my_ticks, $other (a sleep standing for process B),
# $other_ticks and $odd (a function name to escape).
synthetic_files() {
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
    #    (< 2^22 ticks = 2.097 ms: le 0.005); 4,000,000 ticks = 2 ms, of which
    #    3,000,000 on-CPU (1.5 ms: gostat_function_oncpu_seconds_total).
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
        --time 1:1:4000000:1000000:3000000:15=1,17=1 --oncpu 1:1:3000000 \
        --drops 1:2:7:0:6:0:5 || fail "mkstats A"
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
}

# start_prometheus BIN TARGET: the Prometheus server BIN on a free port,
# scraping TARGET (HOST:PORT; "self": itself) every second, its data and
# log in $dir; sets PROM, its URL.
start_prometheus() {
    local port target=$2
    port=$($PY -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    [ "$target" = self ] && target=127.0.0.1:$port
    cat >"$dir/prometheus.yml" <<EOF
global:
  scrape_interval: 1s
  evaluation_interval: 1s
scrape_configs:
  - job_name: gostat
    static_configs:
      - targets: ["$target"]
EOF
    "$1" --config.file="$dir/prometheus.yml" --storage.tsdb.path="$dir/prom-data" \
        --web.listen-address="127.0.0.1:$port" >"$dir/prometheus.log" 2>&1 &
    pids+=($!)
    PROM=http://127.0.0.1:$port
}
