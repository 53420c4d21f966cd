#!/usr/bin/env bash
# t_callgraph_threads: call paths keep every duration when goroutines move
# between threads (docs/timing.md "Call paths, self time and arcs").
# testdata/handlers, an HTTP server whose handler parks on a timer and
# blocks its thread in a system call, runs at GOMAXPROCS=2 under 16
# concurrent clients (hey, 2000 requests): its goroutines resume on other
# threads, and its requests spread over a dozen or more threads. Built
# with --call-graph and --max-paths 1048576 (80 MiB rows: a rel32 reach
# holds few of them, so each thread's row must live outside it), for each
# Go release in GOVERS:
#  - main.handle and net/http.serverHandler.ServeHTTP have 2000 calls, all
#    timed (none in the shared row 0 of threads without a row, none lost
#    at a return on such a thread);
#  - every timed function all of whose calls returned has CUM <= TOTAL,
#    and neither the JSON (cum_exceeds_total) nor the table ("!") flags
#    its CUM (tests/stubs/callgraph_threads_check.py);
#  - main.linger, whose third call never returns after a long main.work,
#    is flagged by both (CUM above TOTAL: a defect, not a figure);
#  - with the last release of GOVERS, built with --max-paths 1024 too,
#    whose paths overflow: the table, the
#    JSON (call_paths.suggested_max_paths) and gostat folded's note
#    suggest one --max-paths, a table size gorewrite takes as is, at least
#    twice 1024 and at least the fullest thread's paths and arcs.
# The server's own answers are checked too (2000 responses of 200).
. "$(dirname "$0")/../lib.sh"
require_tools
command -v hey >/dev/null || { fail "hey is not installed (scripts/deps.sh)"; exit 1; }
work_dir
trap 'stop_pids; rm -rf "$WORK"' EXIT
# Three releases by default, to keep make check short: 1.15 (the stack ABI,
# g from TLS), 1.22 and the newest; the rows are placed alike on all
# (GOVERS="$GO_VERSIONS $GO_VERSIONS_NEWER" runs every one, ~30 s each).
GOVERS=${GOVERS:-"1.15 1.22 ${GO_VERSIONS_NEWER##* }"}
N=2000

# serve_loaded BIN DIR: runs BIN 127.0.0.1:0 with GOSTAT_DIR=DIR at
# GOMAXPROCS=2, loads it with hey, stops it with SIGTERM.
serve_loaded() {
    local bin=$1 d=$2 pid addr i
    mkdir -p "$d"
    GOSTAT_DIR=$d GOMAXPROCS=2 "$bin" 127.0.0.1:0 >"$d/out" 2>"$d/err" &
    pid=$!
    pids+=("$pid")
    wait_for_line "$d/out" '^listening on ' || { fail "$bin: never listened: $(head -c 300 "$d/err")"; kill "$pid"; return 1; }
    addr=$(sed -n 's/^listening on //p' "$d/out")
    hey -n $N -c 16 "http://$addr/" >"$d/hey" 2>&1
    grep -q "\[200\][[:space:]]*$N responses" "$d/hey" || fail "$bin: not $N answers of 200: $(grep -A3 'Status code' "$d/hey")"
    kill -TERM "$pid"
    wait "$pid" || fail "$bin: exit status $?"
}

# check_suggestion VERSION DIR: the overflowing build's --max-paths advice.
check_suggestion() {
    local v=$1 b=$2 f
    "$GOREWRITE" --call-graph --max-paths 1024 "$b/handlers" "$b/handlers.small" >/dev/null ||
        { fail "go$v: gorewrite --max-paths 1024"; return; }
    serve_loaded "$b/handlers.small" "$b/small" || return
    f=$(stats_file_for "$b/small") || { fail "go$v: stats file (--max-paths 1024)"; return; }
    gostat_json "$f" "$b/small.json" || { fail "go$v: gostat --json (--max-paths 1024)"; return; }
    "$GOSTAT" --wide "$f" >"$b/small.table" 2>&1 || fail "go$v: gostat table (--max-paths 1024)"
    "$GOSTAT" folded "$f" >/dev/null 2>"$b/small.folded" || fail "go$v: gostat folded (--max-paths 1024)"
    python3 - "$b/small.json" "$b/small.table" "$b/small.folded" <<'PY' || fail "go$v: --max-paths advice (above)"
import json, sys
cp = json.load(open(sys.argv[1]))["call_paths"]
s = cp.get("suggested_max_paths")
bad = []
if cp["path_overflow_calls"] == 0:
    bad.append("no call overflowed 1024 paths")
elif not isinstance(s, int) or s < 2048 or s < cp["fullest_paths"] + cp["fullest_arcs"] or s % 128:
    bad.append(f"suggested_max_paths {s}: not a table of at least 2048 and {cp['fullest_paths']} + {cp['fullest_arcs']}")
else:
    advice = f"--max-paths {s} or more"
    for name in sys.argv[2:]:
        if advice not in open(name).read():
            bad.append(f"{name}: no '{advice}'")
for b in bad:
    print(b)
sys.exit(1 if bad else 0)
PY
}

for v in $GOVERS; do
    [ -x "$(go_bin "$v")" ] || { fail "go$v is not installed"; continue; }
    b=$WORK/go$v
    build_go "$v" testdata/handlers "$b/handlers" || { fail "go$v: build"; continue; }
    "$GOREWRITE" --call-graph --max-paths 1048576 "$b/handlers" "$b/handlers.cg" >/dev/null ||
        { fail "go$v: gorewrite"; continue; }
    serve_loaded "$b/handlers.cg" "$b/run" || continue
    f=$(stats_file_for "$b/run") || { fail "go$v: stats file"; continue; }
    gostat_json "$f" "$b/stats.json" || { fail "go$v: gostat --json"; continue; }
    "$GOSTAT" --wide "$f" >"$b/table" 2>&1 || fail "go$v: gostat table"
    out=$(python3 tests/stubs/callgraph_threads_check.py "$b/stats.json" "$b/table" $N \
        main.handle net/http.serverHandler.ServeHTTP --flagged main.linger) || fail "go$v: $out"
    echo "go$v: $(printf '%s\n' "$out" | tail -1)"
    [ "$v" = "${GOVERS##* }" ] && check_suggestion "$v" "$b"
done
[ $fails -eq 0 ]
