#!/usr/bin/env bash
# t_security_setuid: setuid programs cannot be made to create files where
# their caller chooses. Runs as root and drops to
# `nobody` with setpriv (util-linux):
#  - gorewrite drops the setuid/setgid bits of a 4755/2755 input, and keeps
#    them only with --keep-setuid;
#  - a setuid-root instrumented program run by nobody ignores GOSTAT_DIR
#    (nothing appears in a root-only directory, nor at the path a 1299-byte
#    ././ GOSTAT_DIR used to be cut to) and writes its root-owned 0600 file
#    to /dev/shm; it ignores GOSTAT_QUIET (a read-only /dev/shm in a private
#    mount namespace still gives the stderr line);
#  - for anyone, a GOSTAT_DIR too long for a path is an error (one stderr
#    line, counting in memory), never a shortened path.
. "$(dirname "$0")/../lib.sh"
require_tools

[ "$(id -u)" = 0 ] || { echo "FAIL t_security_setuid must run as root (it drops to nobody)"; exit 1; }

V=1.22
WORK=$(mktemp_dir)
trap 'rm -rf "$WORK"; rm -f /dev/shm/gostat.live.suid.*' EXIT
chmod 755 "$WORK"

build_go "$V" "$ROOT/testdata/live" "$WORK/live" || exit 1
"$WORK/live" 10 >"$WORK/want.out"

# gorewrite and the mode bits.
chmod 4755 "$WORK/live"
"$GOREWRITE" "$WORK/live" "$WORK/live.plain" >/dev/null || fail "gorewrite of a 4755 input failed"
[ "$(stat -c %a "$WORK/live.plain")" = 755 ] || fail "output of a 4755 input is $(stat -c %a "$WORK/live.plain"), not 755"
chmod 2755 "$WORK/live"
"$GOREWRITE" "$WORK/live" "$WORK/live.plain2" >/dev/null || fail "gorewrite of a 2755 input failed"
[ "$(stat -c %a "$WORK/live.plain2")" = 755 ] || fail "output of a 2755 input is $(stat -c %a "$WORK/live.plain2"), not 755"
chmod 4755 "$WORK/live"
"$GOREWRITE" --keep-setuid "$WORK/live" "$WORK/live.suid" >/dev/null || fail "gorewrite --keep-setuid failed"
[ "$(stat -c %a "$WORK/live.suid")" = 4755 ] || fail "--keep-setuid output is $(stat -c %a "$WORK/live.suid"), not 4755"
"$GOREWRITE" --help | grep -q -- "--keep-setuid" || fail "--keep-setuid is not in --help"
S=$WORK/live.suid

as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
shm_files() { ls /dev/shm | grep -c '^gostat\.live\.suid\.'; }

# A directory nobody cannot write to, and a GOSTAT_DIR whose first 1299
# bytes are VICTIM/./././.../pwned (what the old stub cut it to).
VICTIM=$WORK/victim
mkdir -m 755 "$VICTIM"
long=$VICTIM/
while [ ${#long} -lt $((1299 - 5)) ]; do long=$long./; done
long=${long:0:$((1299 - 5))}pwned/x/y
[ "${long:0:1299}" = "${long:0:1294}pwned" ] || fail "test setup: prefix is not .../pwned"

before=$(shm_files)
as_nobody env GOSTAT_DIR="$VICTIM" "$S" 10 >"$WORK/out" 2>"$WORK/err" || fail "setuid run as nobody failed: $(cat "$WORK/err")"
cmp -s "$WORK/out" "$WORK/want.out" || fail "setuid run: stdout differs"
as_nobody env GOSTAT_DIR="$long" "$S" 10 >"$WORK/out" 2>"$WORK/err" || fail "setuid run with a long GOSTAT_DIR failed"
[ -z "$(ls -A "$VICTIM")" ] || fail "setuid program created files in GOSTAT_DIR: $(ls -lA "$VICTIM")"
[ -e "$VICTIM/pwned" ] && fail "setuid program created $VICTIM/pwned (path cut at 1299 bytes)"
[ "$(shm_files)" = $((before + 2)) ] || fail "setuid runs did not write 2 files to /dev/shm: $(ls /dev/shm)"
for f in /dev/shm/gostat.live.suid.*; do
    [ "$(stat -c '%U %a' "$f")" = "root 600" ] || fail "$f is $(stat -c '%U %a' "$f"), not root 600"
    [ "$("$GOSTAT" --json "$f" | python3 -c 'import json,sys; print(sum(f["calls"] for f in json.load(sys.stdin)["functions"] if f["name"] == "main.work"))')" = 10 ] ||
        fail "wrong count in $f"
done
rm -f /dev/shm/gostat.live.suid.*

# GOSTAT_QUIET is ignored too: with /dev/shm read-only (private mount
# namespace) the secure program still says it counts in memory.
unshare -m sh -c 'mount -t tmpfs -o ro,size=64k gostat-ro /dev/shm && exec setpriv --reuid=65534 --regid=65534 --clear-groups env GOSTAT_QUIET=1 "$0" 10' "$S" \
    >"$WORK/out" 2>"$WORK/err" || fail "setuid run with a read-only /dev/shm failed: $(cat "$WORK/err")"
cmp -s "$WORK/out" "$WORK/want.out" || fail "read-only /dev/shm: stdout differs"
[ "$(wc -l <"$WORK/err")" = 1 ] && grep -q "^gostat: cannot create stats file /dev/shm/gostat.live.suid.[0-9]*: read-only file system (errno 30); counting in memory only$" "$WORK/err" ||
    fail "secure process with GOSTAT_QUIET=1: stderr is not the one line: $(cat "$WORK/err")"

# Not secure: the same long GOSTAT_DIR as an ordinary user is an ordinary
# path (no file at the cut prefix), and one too long for PATH_MAX is an
# error, never shortened.
P=$WORK/live.plain
OWN=$WORK/own
mkdir -m 777 "$OWN"
long=$OWN/
while [ ${#long} -lt $((1299 - 5)) ]; do long=$long./; done
long=${long:0:$((1299 - 5))}pwned/x
as_nobody env GOSTAT_DIR="$long" "$P" 10 >"$WORK/out" 2>"$WORK/err"
[ -e "$OWN/pwned" ] && fail "a 1300-byte GOSTAT_DIR was cut to $OWN/pwned"
grep -q "no such file or directory" "$WORK/err" || fail "long GOSTAT_DIR: $(cat "$WORK/err")"
huge=$OWN/
while [ ${#huge} -lt 4080 ]; do huge=$huge./; done
as_nobody env GOSTAT_DIR="$huge" "$P" 10 >"$WORK/out" 2>"$WORK/err" || fail "run with a 4080-byte GOSTAT_DIR failed"
cmp -s "$WORK/out" "$WORK/want.out" || fail "4080-byte GOSTAT_DIR: stdout differs"
[ "$(wc -l <"$WORK/err")" = 1 ] && grep -q '^gostat: cannot create stats file in \$GOSTAT_DIR: file name too long (errno 36); counting in memory only' "$WORK/err" ||
    fail "4080-byte GOSTAT_DIR: stderr is not one 'file name too long' line: $(cat "$WORK/err")"
[ -z "$(ls -A "$OWN")" ] || fail "files appeared under the too-long GOSTAT_DIR: $(ls -A "$OWN")"

[ $fails -eq 0 ]
