#!/usr/bin/env bash
# t_gostat_serve_text: gostat serve --once --all --pid-label (the full export) on synthetic files (mkstats)
# with known counts and timing: the exact exposition, label escaping
# (quotes, backslashes, newline, invalid UTF-8, a terminal escape),
# histogram buckets mapped to the fixed le bounds (a source bucket ending
# exactly on a bound stays in it), a sampled file, an exited process and an
# invalid file left out, in both formats; then the checkers: promtool check
# metrics (Prometheus 2.42) on the Prometheus text, prometheus_client's
# strict OpenMetrics parser on the OpenMetrics output (promtool only
# parses the Prometheus text format: it rejects OpenMetrics's info type and
# sees its counter families as help-less). The same over HTTP:
# t_gostat_serve_http; a real program scraped by Prometheus:
# t_gostat_serve_prometheus; listening: t_gostat_serve_listen.
cd "$(dirname "$0")/../.."
. tests/gostat/serve_lib.sh
require_clients t_gostat_serve_text prometheus
synthetic_files

run_ok "--once" serve --once --all --pid-label
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
gostat_timing_drops_total{$A,reason=\"abandoned\"} 5
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
gostat_function_oncpu_seconds_total{$A,function=\"main.work\"} 0
gostat_function_oncpu_seconds_total{$A,function=\"main.slow\"} 0.0015
gostat_function_oncpu_seconds_total{$A,function=\"$ODD\"} 0
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
gostat_timing_drops_total{$B,reason=\"abandoned\"} 0
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
# HELP gostat_goroutines_live Goroutines alive now, by creation site (go statement) and start function.
# TYPE gostat_goroutines_live gauge
# HELP gostat_goroutines_created_total Goroutines created, by creation site and start function.
# TYPE gostat_goroutines_created_total counter
# HELP gostat_goroutines_oldest_live_seconds Age of the oldest live goroutine, by creation site and start function.
# TYPE gostat_goroutines_oldest_live_seconds gauge
# HELP gostat_goroutine_lifetime_seconds Lifetimes of the goroutines that ended, by creation site and start function.
# TYPE gostat_goroutine_lifetime_seconds histogram
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
# HELP gostat_function_oncpu_seconds_total Time in the function's timed calls less the time their goroutines were descheduled (programs whose scheduler hand-offs are hooked).
# TYPE gostat_function_oncpu_seconds_total counter
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
run_ok "--once --openmetrics" serve --once --openmetrics --all --pid-label
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
# HELP gostat_goroutines_live Goroutines alive now, by creation site (go statement) and start function.
# TYPE gostat_goroutines_live gauge
# HELP gostat_goroutines_created Goroutines created, by creation site and start function.
# TYPE gostat_goroutines_created counter
# HELP gostat_goroutines_oldest_live_seconds Age of the oldest live goroutine, by creation site and start function.
# TYPE gostat_goroutines_oldest_live_seconds gauge
# UNIT gostat_goroutines_oldest_live_seconds seconds
# HELP gostat_goroutine_lifetime_seconds Lifetimes of the goroutines that ended, by creation site and start function.
# TYPE gostat_goroutine_lifetime_seconds histogram
# UNIT gostat_goroutine_lifetime_seconds seconds
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
# HELP gostat_function_oncpu_seconds Time in the function's timed calls less the time their goroutines were descheduled (programs whose scheduler hand-offs are hooked).
# TYPE gostat_function_oncpu_seconds counter
# UNIT gostat_function_oncpu_seconds seconds
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

finish t_gostat_serve_text
