#!/usr/bin/env bash
# t_gostat_serve_http: gostat serve over HTTP, on t_gostat_serve_text's
# synthetic files: the bodies --once prints, chosen by the Accept header;
# gzip when accepted; the routes (404, 405 with Allow, HEAD without a body,
# the index page, a query string); an exited process dropping out at the
# next scrape; exit 0 on SIGTERM.
cd "$(dirname "$0")/../.."
. tests/gostat/serve_lib.sh
require_clients t_gostat_serve_http
synthetic_files
run_ok "--once" serve --once --pid-label
text=$out
run_ok "--once --openmetrics" serve --once --openmetrics --pid-label
om=$out

# Over HTTP: the same bodies, chosen by the Accept header.
start_serve synth --listen 127.0.0.1:0 --pid-label
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
expect "no Accept-Encoding: identity" "" "$(header content-encoding "$dir/h.prom.h")"
curl -sS -o "$dir/h.gz" -D "$dir/h.gz.h" -H 'Accept-Encoding: gzip' "$url" || fail "curl gzip"
expect "Accept-Encoding gzip: encoding" gzip "$(header content-encoding "$dir/h.gz.h")"
expect "gzip body" "$text" "$(gzip -dc "$dir/h.gz")"
expect "Vary" "Accept, Accept-Encoding" "$(header vary "$dir/h.gz.h")"
curl -sS -o /dev/null -D "$dir/h.gz0.h" -H 'Accept-Encoding: gzip;q=0, identity' "$url"
expect "gzip;q=0: identity" "" "$(header content-encoding "$dir/h.gz0.h")"

# Routes.
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

finish t_gostat_serve_http
