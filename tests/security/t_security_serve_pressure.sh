#!/usr/bin/env bash
# t_security_serve_pressure: gostat serve under a local client that wants to
# hold it, with a bearer token so that the attacker is not authorized:
#  - 16 `POST /metrics` connections from 127.0.0.1 announcing a 100 MB body
#    and sending one byte of it: each is answered (401) at once, and
#    closed; an authorized scrape from 127.0.0.1 meanwhile gets 200. The old
#    server read the bodies first (no deadline) and refused the scrape (16
#    per address);
#  - authorized requests with a body: GET /metrics gets 413 and POST gets
#    405, both before the body is sent;
#  - 70 connections from 127.0.0.1 that send half a request header: only
#    16 stay open, the newest (each new one evicts the one waiting longest),
#    and an authorized scrape from 127.0.0.1 gets 200 and evicts one more.
cd "$(dirname "$0")/../.."
. tests/assert.sh

trap 'stop_pids; rm -rf "$dir"' EXIT

stats_of_this_shell
head -c 32 /dev/urandom | base64 >"$dir/token"
chmod 600 "$dir/token"

start_serve pressure --listen 127.0.0.1:0 --token-file "$dir/token"
port=${url##*:}
port=${port%%/*}

# Slow bodies, then requests with bodies from an authorized client.
/usr/bin/python3 - "$port" "$url" "$dir/token" <<'EOF' || fail "slow request bodies held the server"
import socket, subprocess, sys, time
port, url, token = int(sys.argv[1]), sys.argv[2], open(sys.argv[3]).read().strip()
bad = []

def status_and_eof(s, within):
    """The status code the server answers s with, and whether it then
    closes s, waiting at most `within` seconds."""
    s.settimeout(within)
    data = b""
    try:
        while True:
            chunk = s.recv(4096)
            if not chunk:
                return data.split(b" ")[1].decode() if data else "none", True
            data += chunk
    except (socket.timeout, OSError):
        return (data.split(b" ")[1].decode() if data else "none"), False

def scrape():
    t = time.time()
    code = subprocess.run(["curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "--max-time", "5",
                           "-H", "Authorization: Bearer " + token, url],
                          capture_output=True, text=True).stdout
    return code, time.time() - t

conns = []
for _ in range(16):
    s = socket.create_connection(("127.0.0.1", port))
    s.sendall(b"POST /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100000000\r\n\r\nx")
    conns.append(s)
time.sleep(0.5)
code, took = scrape()
print("authorized scrape beside 16 slow bodies: %s in %.2f s" % (code, took))
if code != "200":
    bad.append("authorized scrape beside slow bodies: %s" % code)
for i, s in enumerate(conns):
    code, closed = status_and_eof(s, 2)
    if (code, closed) != ("401", True):
        bad.append("slow body %d: answered %s, closed %s (want 401, closed)" % (i, code, closed))

auth = ("Authorization: Bearer %s\r\n" % token).encode()
for method, want in (b"GET", "413"), (b"POST", "405"):
    s = socket.create_connection(("127.0.0.1", port))
    s.sendall(method + b" /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n" + auth +
              b"Content-Length: 100000000\r\n\r\n")
    code, closed = status_and_eof(s, 5)
    if (code, closed) != (want, True):
        bad.append("authorized %s with a body: %s, closed %s (want %s, closed)"
                   % (method.decode(), code, closed, want))
for line in bad:
    print("  " + line)
sys.exit(1 if bad else 0)
EOF

# 70 half-open connections from the scraper's own address.
/usr/bin/python3 - "$port" "$url" "$dir/token" <<'EOF' || fail "half-open connections locked out a scrape"
import socket, subprocess, sys, time
port, url, token = int(sys.argv[1]), sys.argv[2], open(sys.argv[3]).read().strip()
bad = []

def still_open(conns):
    """Indices of the connections the server has not closed (a closed one
    reads end of file at once)."""
    time.sleep(0.5)
    out = []
    for i, s in enumerate(conns):
        s.settimeout(0.05)
        try:
            if s.recv(1) == b"":
                continue
        except socket.timeout:
            out.append(i)
        except OSError:
            pass
    return out

conns = []
for _ in range(70):
    s = socket.create_connection(("127.0.0.1", port))
    s.sendall(b"GET /metrics HTTP/1.1\r\nHost: 127.0.")
    conns.append(s)
open_ = still_open(conns)
if open_ != list(range(54, 70)):
    bad.append("after 70 half-open connections, open: %s (want 54..69)" % open_)
t = time.time()
code = subprocess.run(["curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "--max-time", "5",
                       "-H", "Authorization: Bearer " + token, url],
                      capture_output=True, text=True).stdout
print("authorized scrape beside 70 half-open connections: %s in %.2f s" % (code, time.time() - t))
if code != "200":
    bad.append("authorized scrape beside half-open connections: %s" % code)
open_ = still_open(conns)
if open_ != list(range(55, 70)):
    bad.append("after the scrape, open: %s (want 55..69)" % open_)
for line in bad:
    print("  " + line)
sys.exit(1 if bad else 0)
EOF

expect "stderr" "" "$(cat "$dir/pressure.err")"
finish t_security_serve_pressure
