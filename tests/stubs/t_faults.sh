#!/usr/bin/env bash
# t_faults: the instrumented program under faults, and readers under load.
#  - $GOSTAT_DIR on a full tmpfs, on a 64 KiB one, and on one with room for
#    the file's header and tables but not its live page: same stdout and
#    exit status as the original, the one fallback line on stderr, no file
#    left behind, never SIGBUS;
#  - gostat polling while 8 threads count (testdata/spin): every snapshot
#    has the same header and functions, and no count ever goes down;
#  - kill -9 mid-run: the file stays readable with the counts so far;
#  - 100 instrumented processes started at once: 100 files, one per pid,
#    each with exactly the right counts.
# Mounting tmpfs needs root (make check runs as root).
. "$(dirname "$0")/../lib.sh"
require_tools

V=1.22
WORK=$(mktemp_dir)
trap 'kill -9 $spin_pid 2>/dev/null; umount "$WORK/fs" 2>/dev/null; rm -rf "$WORK"' EXIT
spin_pid=
if [ "$(id -u)" != 0 ]; then
    echo "FAIL: t_faults mounts tmpfs and must run as root (make check does)"
    exit 1
fi

build_go $V "$ROOT/testdata/live" "$WORK/live" || exit 1
instrument "$WORK/live" "$WORK/live.instr" || exit 1
"$WORK/live" 100 >"$WORK/want.out" 2>"$WORK/want.err" || fail "the original live program failed"

# header_field FILE OFFSET: a u64 of a stats file's header.
header_field() {
    python3 -c 'import struct,sys; print(struct.unpack_from("<Q", open(sys.argv[1],"rb").read(), int(sys.argv[2]))[0])' "$1" "$2"
}
# Where the live page starts, from a file written in a roomy directory.
mkdir -p "$WORK/roomy"
GOSTAT_DIR=$WORK/roomy "$WORK/live.instr" 100 >/dev/null 2>&1
f=$(stats_file_for "$WORK/roomy") || exit 1
live_off=$(header_field "$f" 88)

# on_small_tmpfs WHAT SIZE [FILL]: runs the program with GOSTAT_DIR on a
# fresh tmpfs of SIZE bytes (FILL: first fill it up completely).
on_small_tmpfs() {
    local what=$1 size=$2 fill=${3:-}
    mkdir -p "$WORK/fs"
    mount -t tmpfs -o "size=$size,mode=1777" gostat-faults "$WORK/fs" || { fail "$what: cannot mount tmpfs"; return; }
    [ -n "$fill" ] && dd if=/dev/zero of="$WORK/fs/filler" bs=4096 2>/dev/null
    GOSTAT_DIR=$WORK/fs "$WORK/live.instr" 100 >"$WORK/out" 2>"$WORK/err"
    local rc=$?
    [ $rc -eq 0 ] || fail "$what: exit status $rc (138 or 135: SIGBUS), want 0"
    cmp -s "$WORK/out" "$WORK/want.out" || fail "$what: stdout differs"
    [ "$(wc -l <"$WORK/err")" -eq 1 ] &&
        grep -q "^gostat: cannot create stats file $WORK/fs/gostat.live.instr.[0-9]*: no space left on device (errno 28); counting in memory only" "$WORK/err" ||
        fail "$what: stderr is not the one fallback line: $(head -3 "$WORK/err")"
    [ -z "$(ls "$WORK/fs" | grep -v '^filler$')" ] || fail "$what: left behind: $(ls "$WORK/fs")"
    umount "$WORK/fs"
    echo "ok   $what: $(cat "$WORK/err" | head -c 100)..."
}
on_small_tmpfs "full tmpfs" 1m fill
on_small_tmpfs "64 KiB tmpfs" 64k
on_small_tmpfs "tmpfs with room for header and tables only ($live_off bytes)" "$live_off"

# 8 threads counting, a reader polling, then kill -9 mid-run.
build_go $V "$ROOT/testdata/spin" "$WORK/spin" || exit 1
instrument "$WORK/spin" "$WORK/spin.instr" || exit 1
mkdir -p "$WORK/spindir"
GOSTAT_DIR=$WORK/spindir "$WORK/spin.instr" >"$WORK/spin.out" 2>"$WORK/spin.err" &
spin_pid=$!
for _ in $(seq 300); do grep -q running "$WORK/spin.out" 2>/dev/null && break; sleep 0.05; done
grep -q running "$WORK/spin.out" || fail "spin did not start: $(cat "$WORK/spin.err")"
sf=$WORK/spindir/gostat.spin.instr.$spin_pid
if snaps=$(python3 "$ROOT/tests/faults/poll.py" "$GOSTAT" "$sf" 3 "$WORK/last.json"); then
    echo "ok   $snaps snapshots while 8 threads counted: header constant, no count went down"
else
    fail "polling while 8 threads count: $snaps"
fi
kill -9 $spin_pid
wait $spin_pid 2>/dev/null
spin_pid=
step_calls() { python3 -c 'import json,sys; print(sum(f["calls"] for f in json.load(open(sys.argv[1]))["functions"] if f["name"] == "main.step"))' "$1"; }
if gostat_json "$sf" "$WORK/after1.json" && gostat_json "$sf" "$WORK/after2.json"; then
    last=$(step_calls "$WORK/last.json")
    a1=$(step_calls "$WORK/after1.json")
    a2=$(step_calls "$WORK/after2.json")
    [ "$a1" -ge "$last" ] && [ "$last" -gt 0 ] || fail "after kill -9: main.step $a1 calls, below the last live snapshot ($last)"
    [ "$a1" = "$a2" ] || fail "after kill -9 the counts still change: $a1 then $a2"
    grep -q '"live":false' "$WORK/after1.json" || fail "after kill -9 gostat does not say exited"
    echo "ok   kill -9 mid-run: readable, main.step $a1 calls (last live snapshot $last), final"
else
    fail "the stats file is not readable after kill -9"
fi

# 100 short-lived processes at once.
build_go $V "$ROOT/testdata/recursion" "$WORK/rec" || exit 1
instrument "$WORK/rec" "$WORK/rec.instr" || exit 1
P=$WORK/par
mkdir -p "$P/stats" "$P/runs"
pids=()
for i in $(seq 100); do
    GOSTAT_DIR=$P/stats "$WORK/rec.instr" $(cat "$ROOT/testdata/recursion/args") >"$P/runs/$i.out" 2>"$P/runs/$i.err" &
    pids+=($!)
done
bad_exit=0
for p in "${pids[@]}"; do wait "$p" || bad_exit=$((bad_exit + 1)); done
[ $bad_exit -eq 0 ] || fail "$bad_exit of 100 parallel runs exited non-zero"
[ "$(ls "$P/stats" | wc -l)" -eq 100 ] || fail "$(ls "$P/stats" | wc -l) stats files for 100 processes"
okc=0
for p in "${pids[@]}"; do
    f=$P/stats/gostat.rec.instr.$p
    if [ ! -f "$f" ]; then
        fail "no stats file for pid $p"
        continue
    fi
    if gostat_json "$f" "$P/$p.json" && check_counts "$P/$p.json" "$ROOT/testdata/recursion/expect" $V >"$P/$p.check"; then
        okc=$((okc + 1))
    else
        fail "pid $p: wrong counts: $(head -3 "$P/$p.check")"
    fi
done
echo "ok   100 parallel processes: $okc files with exactly the expected counts"

[ $fails -eq 0 ]
