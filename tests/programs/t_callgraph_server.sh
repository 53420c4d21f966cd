#!/usr/bin/env bash
# t_callgraph_server: --call-graph on a Go server nobody here wrote, under
# concurrent loopback load: Debian 12's Prometheus 2.42 (Go 1.19, 63,000
# functions: rows of some 40 MiB, of which the rel32 reach held only 8),
# from scripts/prometheus.sh, at GOMAXPROCS=2 with an empty scrape
# configuration, answering 2000 GET /-/healthy from 16 concurrent clients
# (hey) while its own goroutines run; stopped with SIGTERM. Its request
# handlers, net/http.serverHandler.ServeHTTP and (*ServeMux).ServeHTTP,
# have every call timed, and every timed function all of whose calls
# returned has CUM <= TOTAL, unflagged (tests/stubs/callgraph_threads_check.py).
. "$(dirname "$0")/../lib.sh"
require_tools
PROM=$ROOT/build/prometheus/usr/bin/prometheus
[ -x "$PROM" ] || { fail "$PROM missing (scripts/prometheus.sh)"; exit 1; }
command -v hey >/dev/null || { fail "hey is not installed (scripts/deps.sh)"; exit 1; }
work_dir
trap 'stop_pids; rm -rf "$WORK"' EXIT
N=2000

"$GOREWRITE" --call-graph "$PROM" "$WORK/prometheus" >/dev/null || { fail "gorewrite --call-graph"; exit 1; }
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
mkdir -p "$WORK/run"
printf 'global:\n  scrape_interval: 1h\n' >"$WORK/prometheus.yml"
GOSTAT_DIR=$WORK/run GOMAXPROCS=2 "$WORK/prometheus" --config.file="$WORK/prometheus.yml" \
    --storage.tsdb.path="$WORK/data" --web.listen-address="127.0.0.1:$port" >"$WORK/out" 2>&1 &
pid=$!
pids+=("$pid")
ready=0
for i in $(seq 600); do
    curl -sf "http://127.0.0.1:$port/-/ready" >/dev/null 2>&1 && { ready=1; break; }
    sleep 0.1
done
[ $ready = 1 ] || { fail "prometheus never became ready: $(tail -c 500 "$WORK/out")"; exit 1; }
hey -n $N -c 16 "http://127.0.0.1:$port/-/healthy" >"$WORK/hey" 2>&1
grep -q "\[200\][[:space:]]*$N responses" "$WORK/hey" || fail "not $N answers of 200: $(grep -A3 'Status code' "$WORK/hey")"
kill -TERM "$pid"
wait "$pid" || fail "prometheus exit status $?"
f=$(stats_file_for "$WORK/run") || { fail "stats file"; exit 1; }
gostat_json "$f" "$WORK/stats.json" || { fail "gostat --json"; exit 1; }
"$GOSTAT" --wide "$f" >"$WORK/table" 2>&1 || fail "gostat table"
out=$(python3 "$ROOT/tests/stubs/callgraph_threads_check.py" "$WORK/stats.json" "$WORK/table" $N \
    'net/http.serverHandler.ServeHTTP' 'net/http.(*ServeMux).ServeHTTP') || fail "$out"
echo "prometheus: $(printf '%s\n' "$out" | tail -1)"
[ $fails -eq 0 ]
