#!/usr/bin/env bash
# t_gostat_serve_select: what gostat serve exports (docs/metrics.md
# "Cardinality"), exactly, on synthetic files (mkstats) with known calls
# and times: --top N by time (the default) and by calls, --filter,
# --no-histograms, --buckets and the default decade bounds, labels exe and
# replica (the oldest live process of an exe is 0) or pid with --pid-label,
# usage errors; --top stable across scrapes (a function left out replaces
# one chosen only when it has more than 25 % more); then a real program
# (testdata/servedemo, Go 1.15 to 1.27) run twice: the same series after
# the restart, its known functions chosen by --top/--filter; promtool on
# every output.
cd "$(dirname "$0")/../.."
. tests/gostat/serve_lib.sh
require_clients t_gostat_serve_select prometheus

# Two live processes of one exe (sleeps), A older than B. Clock: 0.5 ns per
# tick. A: a.hot 10 calls, 8,000,000 ticks (4 ms; histogram source bucket
# 15: < 2^20 ticks = 524 us, le 0.001); a.busy 1000 calls, 200,000 ticks
# (bucket 3: < 128 ns, le 2e-07); a.mid 500 calls, 100,000 ticks (bucket
# 3); a.cold 1 call, no time; a.never no call. By time: hot, busy, mid,
# cold; by calls: busy, mid, hot, cold. B: b.x 5 calls.
live_sleep() {
    sleep 600 &
    pids+=($!)
    eval "$1=$!"
    eval "$1_ticks=\$(sed 's/.*) //' /proc/$!/stat | cut -d' ' -f20)"
}
live_sleep pa
live_sleep pb
A=$dir/gostat.sel.$pa
"$MKSTATS" "$A" --pid "$pa" --start-ticks "$pa_ticks" --start-ns 1700000000000000000 \
    --exe /opt/sel --build-id go:sel --rows 2 --spread --timing --tsc 1000:0:2001000:1000000 \
    --func a.hot:0x10:10 --func a.busy:0x20:1000 --func a.mid:0x30:500 --func a.cold:0x40:1 \
    --func a.never:0x50:0 \
    --time 0:1:8000000:800000:800000:15=10 --time 1:1:200000:200:200:3=1000 \
    --time 2:1:100000:200:200:3=500 >/dev/null || fail "mkstats A"
"$MKSTATS" "$dir/gostat.sel.$pb" --pid "$pb" --start-ticks "$pb_ticks" --start-ns 1700000005000000000 \
    --exe /opt/sel --func b.x:0x10:5 >/dev/null || fail "mkstats B"

# calls ARGS...: "function=calls" of the gostat_function_calls_total
# series of `gostat serve --once ARGS`, process A's then B's (replica 0, 1),
# after promtool checked the output.
calls() {
    run_ok "serve --once $*" serve --once "$@"
    check_promtool <(printf '%s\n' "$out") || fail "promtool: serve --once $*"
    sed -n 's/^gostat_function_calls_total{exe="\/opt\/sel",\(replica\|pid\)="\([0-9]*\)",function="\([^"]*\)"} \(.*\)/\2:\3=\4/p' <<<"$out" |
        sort -s -t: -k1,1 | cut -d: -f2 | paste -sd' '
}
expect "default: every called function (top 100 by time)" "a.hot=10 a.busy=1000 a.mid=500 a.cold=1 b.x=5" "$(calls)"
expect "--top 2: most time" "a.hot=10 a.busy=1000 b.x=5" "$(calls --top 2)"
expect "--top 2 --top-by calls" "a.busy=1000 a.mid=500 b.x=5" "$(calls --top 2 --top-by calls)"
expect "--top 1 --top-by calls" "a.busy=1000 b.x=5" "$(calls --top 1 --top-by calls)"
expect "--filter" "a.mid=500 a.cold=1" "$(calls --filter 'a\.(mid|cold|never)')"
expect "--filter, then --top" "a.mid=500" "$(calls --filter 'a\.(mid|cold)' --top 1)"
expect "--all" "a.hot=10 a.busy=1000 a.mid=500 a.cold=1 b.x=5" "$(calls --all)"

# Labels: exe and replica, stable; pid only with --pid-label.
run_ok "labels" serve --once --top 1
expect "replica labels" "\
gostat_process_start_time_seconds{exe=\"/opt/sel\",replica=\"0\"} 1700000000
gostat_process_start_time_seconds{exe=\"/opt/sel\",replica=\"1\"} 1700000005" \
    "$(grep '^gostat_process_start_time_seconds' <<<"$out")"
grep -q 'pid=' <<<"$out" && fail "a pid label without --pid-label"
run_ok "--pid-label" serve --once --pid-label --top 1
expect "--pid-label" "\
gostat_function_calls_total{exe=\"/opt/sel\",pid=\"$pa\",function=\"a.hot\"} 10
gostat_function_calls_total{exe=\"/opt/sel\",pid=\"$pb\",function=\"b.x\"} 5" \
    "$(grep '^gostat_function_calls_total' <<<"$out")"

# Histograms: the default decade bounds, --buckets, --no-histograms.
# les FUNCTION: "le=cumulative ..." of its duration histogram in $out.
les() {
    grep -F "function=\"$1\",le=" <<<"$out" | sed 's/.*le="\([^"]*\)"} /\1=/' | paste -sd' '
}
run_ok "default buckets" serve --once
expect "default bounds: decades 1e-07..10, a.hot" \
    "1e-07=0 1e-06=0 1e-05=0 0.0001=0 0.001=10 0.01=10 0.1=10 1=10 10=10 +Inf=10" "$(les a.hot)"
expect "default bounds: a.busy" \
    "1e-07=0 1e-06=1000 1e-05=1000 0.0001=1000 0.001=1000 0.01=1000 0.1=1000 1=1000 10=1000 +Inf=1000" \
    "$(les a.busy)"
check_promtool <(printf '%s\n' "$out") || fail "promtool: default buckets"
run_ok "--buckets" serve --once --buckets 2e-07,0.001
expect "--buckets 2e-07,0.001: a.busy" "2e-07=1000 0.001=1000 +Inf=1000" "$(les a.busy)"
expect "--buckets 2e-07,0.001: a.hot" "2e-07=0 0.001=10 +Inf=10" "$(les a.hot)"
expect "--buckets: sum and count stay" "\
gostat_function_duration_seconds_sum{exe=\"/opt/sel\",replica=\"0\",function=\"a.hot\"} 0.004
gostat_function_duration_seconds_count{exe=\"/opt/sel\",replica=\"0\",function=\"a.hot\"} 10" \
    "$(grep '^gostat_function_duration_seconds_[sc].*a.hot' <<<"$out")"
run_ok "--all buckets" serve --once --all
expect "--all: all 28 bounds and +Inf" 29 "$(les a.hot | wc -w)"
run_ok "--no-histograms" serve --once --no-histograms
expect "--no-histograms: no histogram lines" 0 "$(grep -c '_bucket\|_sum\|_count\|histogram' <<<"$out")"
expect "--no-histograms: seconds stay" 4 "$(grep -c '^gostat_function_seconds_total' <<<"$out")"
check_promtool <(printf '%s\n' "$out") || fail "promtool: --no-histograms"

# Usage errors.
for bad in "--buckets 0.003" "--buckets 1ms" "--buckets ,0.001" "--all --top 5" "--all --buckets 1" \
    "--top-by bytes" "--filter (" "--top -1"; do
    # shellcheck disable=SC2086
    "$GOSTAT" serve --once $bad >/dev/null 2>"$dir/err"
    expect "usage error: $bad" "1 1" "$? $(wc -l <"$dir/err")"
done

# --top stays put across scrapes: a.hot (10 calls) left out of the top 2 by
# calls (busy, mid) must exceed mid's 500 by more than 125 to get in.
start_serve stable --listen 127.0.0.1:0 --top 2 --top-by calls
chosen() {
    metrics "$dir/s.prom" || fail "curl"
    grep '^gostat_function_calls_total{[^}]*replica="0"' "$dir/s.prom" |
        sed 's/.*function="\([^"]*\)"} \(.*\)/\1=\2/' | paste -sd' '
}
expect "scrape 1" "a.busy=1000 a.mid=500" "$(chosen)"
"$MKSTATS" --bump "$A" 0 590 || fail "bump"
expect "scrape 2: hot 600 > mid 500, not clearly: kept out" "a.busy=1000 a.mid=500" "$(chosen)"
expect "--once has no memory: the plain top 2" "a.hot=600 a.busy=1000" "$(calls --top 2 --top-by calls | cut -d' ' -f1-2)"
"$MKSTATS" --bump "$A" 0 26 || fail "bump"
expect "scrape 3: hot 626 > 625: replaces mid" "a.hot=626 a.busy=1000" "$(chosen)"
"$MKSTATS" --bump "$A" 2 250 || fail "bump"
expect "scrape 4: mid 750 > hot 626, not clearly: kept out" "a.hot=626 a.busy=1000" "$(chosen)"
kill "$serve_pid"

# A real program, restarted: the same series, without a pid label; with
# Go 1.15, 1.19, 1.22 and 1.27.
rm -f "$dir"/gostat.*
kill "$pa" "$pb"
# run_demo NAME ARGS...: $demo running, `gostat serve --once ARGS` into
# $dir/NAME.full and, with the values left out, $dir/NAME.prom; then the
# program told to exit.
run_demo() {
    local name=$1
    shift
    mkfifo "$dir/$name.in"
    "$demo" <"$dir/$name.in" >"$dir/$name.out" 2>&1 &
    local pid=$!
    exec {fd}>"$dir/$name.in"
    wait_for_line "$dir/$name.out" '^ready$' || fail "$name: not ready: $(cat "$dir/$name.out")"
    "$GOSTAT" serve --once "$@" >"$dir/$name.full" || fail "$name: serve"
    check_promtool "$dir/$name.full" || fail "promtool: $name"
    sed 's/ [^ ]*$//' "$dir/$name.full" >"$dir/$name.prom"
    echo exit >&$fd
    exec {fd}>&-
    wait "$pid"
}
for v in 1.15 1.19 1.22 1.27; do
    demo=$dir/servedemo$v
    build_go "$v" testdata/servedemo "$ROOT/build/testbin/go$v/exe/servedemo" &&
        "$GOREWRITE" "$ROOT/build/testbin/go$v/exe/servedemo" "$demo" >/dev/null ||
        { fail "go$v: build and rewrite servedemo"; continue; }
    run_demo "first$v" --filter '^main\.'
    run_demo "second$v" --filter '^main\.'
    expect "go$v: restart: the same series" "" "$(diff "$dir/first$v.prom" "$dir/second$v.prom")"
    expect "go$v: restart: main's functions" "\
gostat_function_calls_total{exe=\"$demo\",replica=\"0\",function=\"main.work\"} 1000
gostat_function_calls_total{exe=\"$demo\",replica=\"0\",function=\"main.pause\"} 5
gostat_function_calls_total{exe=\"$demo\",replica=\"0\",function=\"main.main\"} 1" \
        "$(grep '^gostat_function_calls_total' "$dir/second$v.full")"
    run_demo "top$v" --top 1 --top-by calls --filter '^main\.'
    expect "go$v: --top 1 --top-by calls" \
        "gostat_function_calls_total{exe=\"$demo\",replica=\"0\",function=\"main.work\"} 1000" \
        "$(grep '^gostat_function_calls_total' "$dir/top$v.full")"
    run_demo "pid1$v" --filter '^main\.' --pid-label
    run_demo "pid2$v" --filter '^main\.' --pid-label
    expect "go$v: with --pid-label a restart makes new series" 1 \
        "$(diff -q "$dir/pid1$v.prom" "$dir/pid2$v.prom" >/dev/null; echo $?)"
done

finish t_gostat_serve_select
