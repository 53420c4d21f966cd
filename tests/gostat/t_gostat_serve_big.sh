#!/usr/bin/env bash
# t_gostat_serve_big: the default scrape of a big real program stays small.
# Debian's Prometheus 2.42 (scripts/prometheus.sh; 63,000 functions),
# instrumented in the default mode, runs and scrapes itself for a while;
# then `gostat serve --once` with the defaults is under 2 MB (docs/metrics.md
# "Cardinality"; sizes are deterministic in shape: at most 100 functions
# and 100 goroutine sites per process), exports 100 functions, has no pid
# label, and promtool accepts it; --all, the full export, is well over
# 2 MB (so the bound means something). Scrape times are measured in
# docs/benchmarks/history.md, not here.
cd "$(dirname "$0")/../.."
. tests/gostat/serve_lib.sh
require_clients t_gostat_serve_big prometheus

"$GOREWRITE" "$PROM_BIN/prometheus" "$dir/prometheus" >/dev/null || { fail "gorewrite prometheus"; finish t_gostat_serve_big; }
start_prometheus "$dir/prometheus" self
# Ready, then a few of its own scrapes: thousands of functions called.
for i in $(seq 120); do
    [ "$(curl -s -o /dev/null -w '%{http_code}' "$PROM/-/ready")" = 200 ] && break
    sleep 0.5
done
sleep 5
curl -s "$PROM/api/v1/query?query=up" | grep -q '"success"' || fail "prometheus not answering"

"$GOSTAT" serve --once >"$dir/default.prom" || fail "serve --once"
size=$(stat -c %s "$dir/default.prom")
[ "$size" -lt 2000000 ] || fail "default scrape is $size bytes, not under 2 MB"
expect "default: 100 functions" 100 "$(grep -c '^gostat_function_calls_total' "$dir/default.prom")"
expect "default: no pid label" 0 "$(grep -c 'pid=' "$dir/default.prom")"
check_promtool "$dir/default.prom" || fail "promtool: default scrape"
"$GOSTAT" serve --once --all >"$dir/all.prom" || fail "serve --once --all"
all=$(stat -c %s "$dir/all.prom")
[ "$all" -gt 4000000 ] || fail "--all gave only $all bytes: is the program busy enough to test the bound?"
called=$(grep -c '^gostat_function_calls_total' "$dir/all.prom")
[ "$called" -gt 1000 ] || fail "--all: only $called functions called"
echo "  default $size bytes, --all $all bytes ($called functions called)"

finish t_gostat_serve_big
