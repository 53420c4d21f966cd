#!/usr/bin/env bash
# t_gostat_serve_listen: where gostat serve listens: a busy port, bad
# --listen values and options (one line naming the value, exit 2 or 1),
# :PORT (all addresses), IPv6, exit 0 on SIGINT.
cd "$(dirname "$0")/../.."
. tests/gostat/serve_lib.sh
require_clients t_gostat_serve_listen

start_serve busy --listen 127.0.0.1:0
target=${url#http://}
target=${target%/metrics}
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

finish t_gostat_serve_listen
