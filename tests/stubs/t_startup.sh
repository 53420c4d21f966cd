#!/usr/bin/env bash
# t_startup: what the instrumented program does before Go starts.
#  - GOSTAT_DIR missing or read-only: same stdout and exit status as the
#    original, exactly one extra stderr line, none with GOSTAT_QUIET=1;
#  - a stale file (another user's) at the name it wants: not followed,
#    truncated or reused; it takes a name with a random suffix;
#  - the stats file is mode 0600 and goes to /dev/shm by default;
#  - counts are visible while the program runs, and stay readable with the
#    final counts after kill -9;
#  - the prefix image it copied into the file is no longer resident.
. "$(dirname "$0")/../lib.sh"
require_tools

V=1.22
WORK=$(mktemp_dir)
trap 'kill -9 $live_pid 2>/dev/null; umount "$WORK/ro" 2>/dev/null; rm -rf "$WORK"' EXIT
live_pid=

build_go "$V" "$ROOT/testdata/live" "$WORK/live" || exit 1
instrument "$WORK/live" "$WORK/live.instr" || exit 1
P=$WORK/live.instr

calls_of_work() { # FILE -> calls of main.work
    "$GOSTAT" --json "$1" | python3 -c 'import json,sys; print(sum(f["calls"] for f in json.load(sys.stdin)["functions"] if f["name"] == "main.work"))'
}

# No usable directory: runs as before, one line on stderr (none when quiet).
"$WORK/live" 100 >"$WORK/want.out" 2>"$WORK/want.err"
# Read-only: a read-only tmpfs (root writes anywhere else), or mode 555.
mkdir -p "$WORK/ro"
if [ "$(id -u)" = 0 ]; then
    mount -t tmpfs -o ro,size=64k gostat-test "$WORK/ro" || fail "cannot mount a read-only tmpfs"
else
    chmod 555 "$WORK/ro"
fi
for dir in "$WORK/missing" "$WORK/ro"; do
    GOSTAT_DIR=$dir "$P" 100 >"$WORK/out" 2>"$WORK/err"
    [ $? -eq 0 ] || fail "exit status with GOSTAT_DIR=$dir"
    cmp -s "$WORK/out" "$WORK/want.out" || fail "stdout differs with GOSTAT_DIR=$dir"
    [ "$(wc -l <"$WORK/err")" -eq 1 ] && grep -q "^gostat: cannot create stats file $dir/gostat.live.instr.[0-9]*: .*counting in memory only" "$WORK/err" ||
        fail "stderr with GOSTAT_DIR=$dir: $(cat "$WORK/err")"
    GOSTAT_QUIET=1 GOSTAT_DIR=$dir "$P" 100 >"$WORK/out" 2>"$WORK/err"
    [ -s "$WORK/err" ] && fail "GOSTAT_QUIET=1 still wrote: $(cat "$WORK/err")"
done

# A stale file at the first name: the program must take pid.<16 hex
# digits> (random), and leave it untouched.
S=$WORK/stale
mkdir -p "$S"
# The stale file belongs to another user (nobody) when we can arrange it.
GOSTAT_DIR=$S bash -c 'echo stale >"$0/gostat.live.instr.$$"; [ "$(id -u)" = 0 ] && chown 65534 "$0/gostat.live.instr.$$"; exec "$1" 100' \
    "$S" "$P" >"$WORK/out" 2>"$WORK/err" || fail "run beside a stale file failed: $(cat "$WORK/err")"
stale=$(ls "$S"/gostat.live.instr.* | grep -E '\.[0-9]+$' | head -1)
[ "$(cat "$stale")" = stale ] || fail "the stale file was changed"
taken=$(ls "$S" | grep -E '^gostat\.live\.instr\.[0-9]+\.[0-9a-f]{16}$')
[ "$(echo "$taken" | grep -c .)" = 1 ] || fail "no stats file with a random suffix: $(ls "$S")"
[ "$(stat -c %a "$S/$taken" 2>/dev/null)" = 600 ] || fail "stats file mode is not 0600"
[ "$(calls_of_work "$S/$taken")" = 100 ] || fail "wrong count in $S/$taken"

# Default directory: /dev/shm.
env -u GOSTAT_DIR bash -c 'echo $$ >"$0"; exec "$1" 7' "$WORK/pid" "$P" >/dev/null
shm=/dev/shm/gostat.live.instr.$(cat "$WORK/pid")
[ -f "$shm" ] || fail "no stats file in /dev/shm"
[ -f "$shm" ] && { [ "$(calls_of_work "$shm")" = 7 ] || fail "wrong count in $shm"; }
rm -f "$shm"

# Live counts, then kill -9.
L=$WORK/livedir
mkdir -p "$L"
GOSTAT_DIR=$L "$P" 5000 wait >"$WORK/live.out" &
live_pid=$!
for _ in $(seq 100); do grep -q done "$WORK/live.out" 2>/dev/null && break; sleep 0.1; done
f=$L/gostat.live.instr.$live_pid
[ "$(calls_of_work "$f")" = 5000 ] || fail "live count is not 5000 while running"
"$GOSTAT" --json "$f" | grep -q '"live":true' || fail "gostat does not say live while running"
# The prefix image, copied into the file at start-up, is not kept resident.
res=$(python3 "$(dirname "$0")/image_resident.py" $live_pid "$P" "$f") || fail "image_resident failed"
case $res in
    */0|*/1|*/2) fail "the image is too small to check: $res" ;;
    0/*|1/*) ;;
    *) fail "the prefix image is still resident after start-up: $res pages" ;;
esac
kill -9 $live_pid
wait $live_pid 2>/dev/null
[ "$(calls_of_work "$f")" = 5000 ] || fail "count after kill -9 is not 5000"
"$GOSTAT" --json "$f" | grep -q '"live":false' || fail "gostat does not say exited after kill -9"

[ $fails -eq 0 ] && echo "ok   start-up: fallbacks, unique names, mode, default dir, live and after kill -9"
[ $fails -eq 0 ]
