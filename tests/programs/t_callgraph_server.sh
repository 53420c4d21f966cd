#!/usr/bin/env bash
# t_callgraph_server: --call-graph on a Go server nobody here wrote, under
# concurrent loopback load: Debian 12's Prometheus 2.42 (Go 1.19, 63,000
# functions: rows of some 40 MiB, of which the rel32 reach held only 8),
# from scripts/prometheus.sh, at GOMAXPROCS=2 with an empty scrape
# configuration, answering 2000 GET /-/healthy from 16 concurrent clients
# (hey) while its own goroutines run; stopped with SIGTERM. Its request
# handlers, net/http.serverHandler.ServeHTTP and (*ServeMux).ServeHTTP,
# have every call timed, and every timed function all of whose calls
# returned has CUM <= TOTAL, unflagged (tests/stubs/callgraph_threads_check.py);
# each handler's on-CPU time is above 0 and at most the CPU the process
# used. (All paths' on-CPU together is not: an idle M's sleep in the
# kernel and a blocking system call read as on-CPU, docs/timing.md
# "On-CPU time"; the test prints that sum beside the process's CPU.)
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
# the process's CPU (utime + stime, clock ticks) just before it is stopped;
# stopping it adds some, counted below as at most 1 s
cpu_ns=$(awk -v hz="$(getconf CLK_TCK)" '{print int(($14 + $15) * 1e9 / hz)}' "/proc/$pid/stat")
kill -TERM "$pid"
wait "$pid" || fail "prometheus exit status $?"
f=$(stats_file_for "$WORK/run") || { fail "stats file"; exit 1; }
gostat_json "$f" "$WORK/stats.json" || { fail "gostat --json"; exit 1; }
"$GOSTAT" --wide "$f" >"$WORK/table" 2>&1 || fail "gostat table"
out=$(python3 "$ROOT/tests/stubs/callgraph_threads_check.py" "$WORK/stats.json" "$WORK/table" $N \
    'net/http.serverHandler.ServeHTTP' 'net/http.(*ServeMux).ServeHTTP') || fail "$out"
echo "prometheus: $(printf '%s\n' "$out" | tail -1)"
"$GOSTAT" folded --value oncpu "$f" >"$WORK/oncpu" 2>/dev/null || fail "gostat folded --value oncpu"
oncpu=$(awk '{s += $NF} END {printf "%d", s}' "$WORK/oncpu")
limit=$((cpu_ns + 1000000000))
[ "$oncpu" -gt 0 ] || fail "no on-CPU time in the paths"
python3 - "$WORK/stats.json" "$limit" 'net/http.serverHandler.ServeHTTP' 'net/http.(*ServeMux).ServeHTTP' <<'PY' ||
import json, sys
funcs = json.load(open(sys.argv[1]))["functions"]
limit = int(sys.argv[2])
bad = [f"{f['name']}: oncpu_ns {f.get('oncpu_ns')}" for f in funcs
       if f["name"] in sys.argv[3:] and not 0 < (f.get("oncpu_ns") or 0) <= limit]
print("\n".join(bad))
sys.exit(1 if bad else 0)
PY
    fail "a handler's on-CPU time is missing or above the process's CPU (+1 s)"
echo "prometheus: on-CPU of all paths $((oncpu / 1000000)) ms, process CPU $((cpu_ns / 1000000)) ms before its stop"
[ $fails -eq 0 ]
