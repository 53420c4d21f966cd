#!/usr/bin/env bash
# t_security_serve: gostat serve's exposure and robustness, with a stats
# file of this shell (mkstats) so there is something to read:
#  - one client (source address 127.0.0.2) opens 70 connections and sends
#    nothing; a normal scrape from 127.0.0.1 still gets 200 at once (the
#    old server took 64 connections in all and refused it), and the idle
#    connections are closed by the header deadline (10 s);
#  - a client that sends one header byte per second (which restarts
#    libmicrohttpd's idle timeout) is cut off by the deadline too;
#  - Host: a name not allowed gets 403 (DNS rebinding), and so does text
#    after the host but a port (`[::1]junk`); two Host headers get 400;
#    IP literals, localhost and --allow-host names get 200;
#  - --token-file: no or a wrong bearer token gets 401, the right one 200;
#    a token file others can read is refused at start (exit 1);
#  - --listen unix:PATH: a socket of mode 0600, served over it;
#  - --listen 0.0.0.0:0 warns on stderr; 127.0.0.1 does not;
#  - at most 4 metrics replies in flight: a fifth slow reader gets 503;
#  - at most 2 of them for one client address: a client (127.0.0.2) with
#    4 slow-reading connections has 2 replies sent and 2 refused with 503,
#    and a scrape from 127.0.0.1 meanwhile gets its whole reply within 10 s.
cd "$(dirname "$0")/../.."
. tests/assert.sh

trap 'stop_pids; rm -rf "$dir"' EXIT

stats_of_this_shell

code() { curl -s -o /dev/null -w '%{http_code}' --max-time 5 "$@"; }

start_serve plain --listen 127.0.0.1:0
port=${url##*:}
port=${port%%/*}
[ -s "$dir/plain.err" ] && fail "loopback listener wrote to stderr: $(cat "$dir/plain.err")"
expect "plain scrape" 200 "$(code "$url")"

# 70 idle connections from 127.0.0.2, a scrape from 127.0.0.1 meanwhile.
/usr/bin/python3 - "$port" "$url" <<'EOF' || fail "idle connections starved a normal scrape"
import socket, subprocess, sys, time
port, url = int(sys.argv[1]), sys.argv[2]
conns = []
for _ in range(70):
    s = socket.socket()
    s.bind(("127.0.0.2", 0))
    s.connect(("127.0.0.1", port))
    conns.append(s)
time.sleep(0.5)
t = time.time()
code = subprocess.run(["curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "--max-time", "5", url],
                      capture_output=True, text=True).stdout
print("scrape with 70 idle connections open: %s in %.2f s" % (code, time.time() - t))
if code != "200":
    sys.exit(1)
# The deadline closes what the per-address limit let in.
for s in conns:
    s.settimeout(0.1)
deadline = time.time() + 14
open_ = conns
while open_ and time.time() < deadline:
    still = []
    for s in open_:
        try:
            if s.recv(1) == b"":
                continue            # closed by the server
        except socket.timeout:
            still.append(s)
        except OSError:
            continue
    open_ = still
print("idle connections still open after the deadline: %d" % len(open_))
sys.exit(1 if open_ else 0)
EOF

# A dribbler: one byte of headers per second.
/usr/bin/python3 - "$port" <<'EOF' || fail "a dribbling client was not cut off by the header deadline"
import socket, sys, time
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
req = b"GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 100
t0 = time.time()
for b in req:
    try:
        s.send(bytes([b]))
        s.settimeout(1.0)
        if s.recv(1) == b"":
            break
    except socket.timeout:
        continue
    except OSError:
        break
    else:
        break
took = time.time() - t0
print("dribbling client cut off after %.1f s" % took)
sys.exit(0 if took < 14 else 1)
EOF

# Host header.
expect "Host: evil.example" 403 "$(code -H 'Host: evil.example' "$url")"
expect "Host: evil.example:port" 403 "$(code -H "Host: evil.example:$port" "$url")"
expect "Host: localhost" 200 "$(code -H "Host: localhost:$port" "$url")"
expect "Host: [::1]" 200 "$(code -H "Host: [::1]:$port" "$url")"
expect "Host: [::1]junk" 403 "$(code -H 'Host: [::1]junk' "$url")"
expect "Host: localhost:80junk" 403 "$(code -H 'Host: localhost:80junk' "$url")"
# Two Host headers, the first allowed: refused whole (curl sends only one).
raw_status() {
    python3 - "$port" "$@" <<'EOF2'
import socket, sys
port = int(sys.argv[1])
s = socket.create_connection(("127.0.0.1", port), timeout=5)
s.sendall(("GET /metrics HTTP/1.1\r\n" + "".join("Host: %s\r\n" % h for h in sys.argv[2:]) +
           "Connection: close\r\n\r\n").encode())
print(s.recv(64).decode().split(" ")[1])
EOF2
}
expect "two Host headers" 400 "$(raw_status localhost evil.example)"
expect "one Host header, raw" 200 "$(raw_status localhost)"
kill $serve_pid
start_serve allow --listen 127.0.0.1:0 --allow-host metrics.internal
expect "--allow-host name" 200 "$(code -H 'Host: metrics.internal:9464' "$url")"
expect "other name with --allow-host" 403 "$(code -H 'Host: other.internal' "$url")"
kill $serve_pid

# Bearer token.
head -c 32 /dev/urandom | base64 >"$dir/token"
chmod 600 "$dir/token"
start_serve token --listen 127.0.0.1:0 --token-file "$dir/token"
expect "no token" 401 "$(code "$url")"
expect "wrong token" 401 "$(code -H 'Authorization: Bearer wrong-token-wrong-token' "$url")"
expect "right token" 200 "$(code -H "Authorization: Bearer $(cat "$dir/token")" "$url")"
kill $serve_pid
chmod 644 "$dir/token"
"$GOSTAT" serve --listen 127.0.0.1:0 --token-file "$dir/token" >/dev/null 2>"$dir/err"
expect "world-readable token file: exit" 1 $?
grep -q "mode 644 lets others read" "$dir/err" || fail "no message for a world-readable token file: $(cat "$dir/err")"

# Unix socket.
start_serve unix --listen "unix:$dir/serve.sock"
expect "unix socket mode" 600 "$(stat -c %a "$dir/serve.sock")"
expect "scrape over the unix socket" 200 "$(code --unix-socket "$dir/serve.sock" http://localhost/metrics)"
curl -s --unix-socket "$dir/serve.sock" http://localhost/metrics | grep -q 'main.work' ||
    fail "no main.work over the unix socket"
kill $serve_pid
wait $serve_pid 2>/dev/null
[ -e "$dir/serve.sock" ] && fail "the unix socket was left behind"

# Warning for a non-loopback address.
start_serve exposed --listen 0.0.0.0:0
wait_for_line "$dir/exposed.err" 'warning: listening on 0.0.0.0:[0-9]+, which other machines can reach' ||
    fail "no warning for 0.0.0.0: $(cat "$dir/exposed.err")"
kill $serve_pid

# At most 4 metrics replies held at once: five clients (127.0.0.1-5) with
# a 4 KiB receive window each ask for ~7.5 MB of metrics and do not read;
# the fifth gets 503 while the others' replies are still being sent, and a
# scrape succeeds again once they are gone.
big=$(mktemp -d)
name=$(head -c 1500 /dev/zero | tr '\0' 'f')
for k in 1 2 3 4 5; do
    sleep 600 &
    sp=$!
    pids+=($sp)
    ticks=$(sed 's/.*) //' /proc/$sp/stat | cut -d' ' -f20)
    args=()
    for i in $(seq 1000); do args+=(--func "p$k.$name$i:$((0x1000 + 16 * i)):1"); done
    "$MKSTATS" "$big/gostat.big$k.$sp" --pid $sp --start-ticks "$ticks" "${args[@]}" >/dev/null ||
        fail "mkstats big$k"
done
GOSTAT_DIR=$big start_serve busy --listen 127.0.0.1:0 --all   # large replies: every function
port=${url##*:}
port=${port%%/*}
/usr/bin/python3 - "$port" <<'PY' || fail "a fifth concurrent scrape was not refused with 503"
import socket, sys, time
port = int(sys.argv[1])
socks = []
for k in range(5):
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.bind(("127.0.0.%d" % (k + 1), 0))
    s.connect(("127.0.0.1", port))
    s.sendall(b"GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    socks.append(s)
    time.sleep(1.0 if k < 4 else 0.5)
s = socks[-1]
s.settimeout(10)
head = s.recv(200)
print("fifth reply:", head.split(b"\r\n")[0].decode())
sys.exit(0 if head.startswith(b"HTTP/1.1 503") else 1)
PY
expect "scrape after the busy clients left" 200 "$(code --max-time 20 "$url")"

# One client address holds at most 2 of the 4: 127.0.0.2 asks 4 times on
# slow-reading connections and reads only the status lines; 127.0.0.1
# then gets its whole reply while those are still open.
/usr/bin/python3 - "$port" <<'PY' || fail "one slow client address held the scrapes of another"
import socket, sys, time
port = int(sys.argv[1])
req = b"GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
slow = []
for k in range(4):
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.bind(("127.0.0.2", 0))
    s.connect(("127.0.0.1", port))
    s.sendall(req)
    slow.append(s)
    time.sleep(1.0)
status = []
for s in slow:
    s.settimeout(10)
    status.append(s.recv(200).split(b"\r\n")[0].decode())
print("slow client:", status)
t0 = time.time()
s = socket.create_connection(("127.0.0.1", port))
s.settimeout(10)
s.sendall(b"GET /metrics HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n")
reply = b""
try:
    while True:
        chunk = s.recv(1 << 20)
        if not chunk:
            break
        reply += chunk
except socket.timeout:
    pass
took = time.time() - t0
head, _, body = reply.partition(b"\r\n\r\n")
line = head.split(b"\r\n")[0].decode()
length = [int(h.split(b":")[1]) for h in head.split(b"\r\n") if h.lower().startswith(b"content-length:")]
print("other client: %s, %d of %s bytes in %.2f s" % (line, len(body), length, took))
ok = status == ["HTTP/1.1 200 OK"] * 2 + ["HTTP/1.1 503 Service Unavailable"] * 2
ok = ok and line == "HTTP/1.1 200 OK" and length == [len(body)] and took < 10
sys.exit(0 if ok else 1)
PY
kill $serve_pid
rm -rf "$big"

finish t_security_serve
