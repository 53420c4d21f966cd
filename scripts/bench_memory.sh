#!/usr/bin/env bash
# scripts/bench_memory.sh [SECONDS] [RUNS]: the instrumented program's memory.
# Rewrites Debian's Prometheus (build/prometheus, from scripts/deps.sh) and,
# when installed, etcd, in each mode (original, --count-only, default,
# --call-graph), runs each RUNS times (default 3, modes interleaved) for
# SECONDS (default 10; Prometheus scrapes itself every second), and prints
# the medians of peak RSS (VmHWM) and of where the resident pages are
# (scripts/mem_breakdown.py: stats file tables, timing stacks, the program's
# own mappings). KiB throughout. Needs root (pagemap).
# GOREWRITE=PATH compares another build of gorewrite.
set -euo pipefail
cd "$(dirname "$0")/.."
SECS=${1:-10}
GOREWRITE=${GOREWRITE:-bin/gorewrite}   # another build's, to compare
RUNS=${2:-3}
work=$(mktemp -d)
pid=
cleanup() { [ -n "$pid" ] && kill -9 "$pid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
PROM=build/prometheus/usr/bin/prometheus
[ -x "$PROM" ] || { echo "bench_memory: $PROM missing (scripts/deps.sh)" >&2; exit 1; }
[ -x "$GOREWRITE" ] || { echo "bench_memory: build first (make all)" >&2; exit 1; }

modes=(original count-only default call-graph)
programs=(prometheus)
command -v etcd >/dev/null && programs+=(etcd)

instrument() {  # PROGRAM BIN
    for m in "${modes[@]}"; do
        if [ "$m" = original ]; then cp "$2" "$work/$1.$m"; continue; fi
        local flag=; [ "$m" = default ] || flag=--$m
        "$GOREWRITE" $flag "$2" "$work/$1.$m" >/dev/null
    done
}

# run PROGRAM MODE RUN: one run; appends its breakdown to $work/PROGRAM.MODE.json
run() {
    local d=$work/run.$1.$2.$3
    mkdir -p "$d/stats"
    case $1 in
    prometheus)
        local port
        port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
        printf 'global:\n  scrape_interval: 1s\nscrape_configs:\n  - job_name: self\n    static_configs:\n      - targets: ["127.0.0.1:%s"]\n' \
            "$port" >"$d/prometheus.yml"
        GOSTAT_DIR=$d/stats "$work/$1.$2" --config.file="$d/prometheus.yml" \
            --storage.tsdb.path="$d/data" --web.listen-address="127.0.0.1:$port" >"$d/log" 2>&1 &
        ;;
    etcd)
        GOSTAT_DIR=$d/stats "$work/$1.$2" --data-dir "$d/data" \
            --listen-client-urls http://127.0.0.1:0 --advertise-client-urls http://127.0.0.1:2379 \
            --listen-peer-urls http://127.0.0.1:0 >"$d/log" 2>&1 &
        ;;
    esac
    pid=$!
    sleep "$SECS"
    python3 scripts/mem_breakdown.py "$pid" >>"$work/$1.$2.json"
    kill -9 "$pid"; wait "$pid" 2>/dev/null || true; pid=
    rm -rf "$d"
}

for p in "${programs[@]}"; do
    bin=$PROM; [ "$p" = etcd ] && bin=$(command -v etcd)
    instrument "$p" "$bin"
    for r in $(seq "$RUNS"); do
        for m in "${modes[@]}"; do run "$p" "$m" "$r"; done
    done
    python3 - "$work" "$p" "${modes[@]}" <<'PY'
import json, statistics, sys
work, prog, modes = sys.argv[1], sys.argv[2], sys.argv[3:]
keys = ["VmHWM", "VmRSS", "RssAnon", "RssFile", "RssShmem", "stats_file_blocks", "stats_total", "stats_head",
        "stats_timing", "stats_paths", "stats_arcs", "stats_sites", "stats_live",
        "rows_touched", "timing_stacks", "exe_mapped", "Threads"]
med = {}
for m in modes:
    runs = [json.loads(l) for l in open(f"{work}/{prog}.{m}.json")]
    med[m] = {k: statistics.median(r.get(k, 0) for r in runs) for k in keys}
    med[m]["runs"] = len(runs)
print(f"{prog}: medians over {med[modes[0]]['runs']} runs, KiB")
print("%-18s" % "" + "".join("%12s" % m for m in modes))
for k in keys:
    print("%-18s" % k + "".join("%12d" % med[m][k] for m in modes))
base = med["original"]["VmHWM"]
print("%-18s" % "VmHWM vs orig" + "".join("%+11.1f%%" % (100 * (med[m]["VmHWM"] / base - 1)) for m in modes))
PY
done
