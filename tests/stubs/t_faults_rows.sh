#!/usr/bin/env bash
# t_faults_rows: $GOSTAT_DIR on a tmpfs with room for the stats file's
# header, tables, live page and shared row 0, and for at most one more
# row: threads that cannot get a row of their own must count in row 0
# instead of touching an unbacked page of the shared mapping (SIGBUS).
# The program must run with unchanged stdout and exit status and either
# write a valid file with exact counts (no stderr) or print the one
# fallback line and leave no file.
# With --call-graph (testdata/callgraph): room for a thread's row head and
# timing records and two pages more, not for its call-path tables (whose
# pages a thread backs as its lookups reach them, stubs/paths.S): the
# paths that fit are recorded, the calls whose page or record could not
# be backed are in the JSON's drops (path_overflow_calls, no_space), never
# SIGBUS; the counts stay exact.
# The goroutine sites section (after the rows, reserved whole at start-up:
# stubs/startup.c) gets its room on top (sites_bytes).
# Depends on the trampolines' row claim populating a row before use and
# falling back to row 0 (madvise MADV_POPULATE_WRITE); start-up already
# reserves everything up to row 0 (stubs/startup.c reserve_eager_pages).
. "$(dirname "$0")/../lib.sh"
require_tools

V=1.22
WORK=$(mktemp_dir)
trap 'umount "$WORK/fs" 2>/dev/null; rm -rf "$WORK"' EXIT
if [ "$(id -u)" != 0 ]; then
    echo "FAIL: t_faults_rows mounts tmpfs and must run as root (make check does)"
    exit 1
fi
build_go $V "$ROOT/testdata/live" "$WORK/live" || exit 1
instrument "$WORK/live" "$WORK/live.instr" || exit 1
"$WORK/live" 100 >"$WORK/want.out" 2>/dev/null
mkdir -p "$WORK/fs"
# image_header BIN OUT: the stats file's header as gorewrite put it into
# BIN (the running layout: a file shrinks at exit, docs/stats-format.md).
image_header() {
    python3 -c 'import struct,sys; d=open(sys.argv[1],"rb").read(); i=d.find(b"GOSTATv6"+struct.pack("<II",6,1784))
assert i >= 0, "no stats image"; open(sys.argv[2],"wb").write(d[i:i+1784])' "$1" "$2"
}
image_header "$WORK/live.instr" "$WORK/live.hdr" || exit 1
f=$WORK/live.hdr
read -r rows_off stride < <(python3 -c 'import struct,sys; d=open(sys.argv[1],"rb").read(); print(*struct.unpack_from("<QQ", d, 96))' "$f")
# sites_bytes FILE: the goroutine sites section's size (gs_header.sites_off
# at 1480, file_size at 16, GS_HDR_SITES 128 in flags at 60), 0 without.
sites_bytes() {
    python3 -c 'import struct,sys; d=open(sys.argv[1],"rb").read()
print(struct.unpack_from("<Q", d, 16)[0] - struct.unpack_from("<Q", d, 1480)[0] if struct.unpack_from("<I", d, 60)[0] & 128 else 0)' "$1"
}
sites=$(sites_bytes "$f")

for extra in 0 1; do
    size=$((rows_off + (1 + extra) * stride + sites))
    what="tmpfs with room up to row $extra ($size bytes)"
    mount -t tmpfs -o "size=$size" gostat-faults "$WORK/fs" || { fail "$what: cannot mount"; continue; }
    GOMAXPROCS=1 GOSTAT_DIR=$WORK/fs "$WORK/live.instr" 100 >"$WORK/out" 2>"$WORK/err"
    rc=$?
    [ $rc -eq 0 ] || fail "$what: exit status $rc (135: SIGBUS), want 0"
    cmp -s "$WORK/out" "$WORK/want.out" || fail "$what: stdout differs"
    if [ -s "$WORK/err" ]; then
        [ "$(wc -l <"$WORK/err")" -eq 1 ] && grep -q "counting in memory only" "$WORK/err" ||
            fail "$what: stderr: $(head -3 "$WORK/err")"
        [ -z "$(ls -A "$WORK/fs")" ] || fail "$what: fallback, but left $(ls -A "$WORK/fs")"
    elif sf=$(stats_file_for "$WORK/fs") && gostat_json "$sf" "$WORK/j"; then
        printf 'main.work 100\nmain.main 1\n' >"$WORK/expect"
        check_counts "$WORK/j" "$WORK/expect" || fail "$what: wrong counts"
    else
        fail "$what: no fallback line and no readable stats file"
    fi
    umount "$WORK/fs"
    [ $fails -eq 0 ] && echo "ok   $what"
done

# call paths on a full tmpfs
build_go $V "$ROOT/testdata/callgraph" "$WORK/cg" || exit 1
"$GOREWRITE" --call-graph "$WORK/cg" "$WORK/cg.all" >/dev/null 2>&1 || { fail "gorewrite --call-graph"; exit 1; }
image_header "$WORK/cg.all" "$WORK/cg.hdr" || exit 1
f=$WORK/cg.hdr
read -r rows_off timing_off paths_off < <(python3 -c 'import struct,sys; d=open(sys.argv[1],"rb").read(); print(struct.unpack_from("<Q", d, 96)[0], struct.unpack_from("<Q", d, 1320)[0], struct.unpack_from("<Q", d, 1424)[0])' "$f")
size=$((rows_off + timing_off + paths_off + 2 * 4096 + $(sites_bytes "$f")))
what="--call-graph, tmpfs without room for the path tables ($size bytes)"
if mount -t tmpfs -o "size=$size" gostat-faults "$WORK/fs"; then
    GOMAXPROCS=1 GOSTAT_DIR=$WORK/fs "$WORK/cg.all" >"$WORK/out" 2>"$WORK/err"
    rc=$?
    [ $rc -eq 0 ] || fail "$what: exit status $rc (135: SIGBUS), want 0: $(head -3 "$WORK/err")"
    if sf=$(stats_file_for "$WORK/fs") && gostat_json "$sf" "$WORK/j"; then
        printf 'main.target 119\nmain.outer 5\nmain.rec 11\n' >"$WORK/expect"
        check_counts "$WORK/j" "$WORK/expect" || fail "$what: wrong counts"
        python3 -c '
import json, sys
j = json.load(open(sys.argv[1]))
cp, drops = j["call_paths"], j["drops"]
over = [f["name"] for f in j["functions"] if (f.get("timed_calls") or 0) > f["calls"]]
sys.exit(not (cp["recorded"] and (drops["no_space"] > 0 or cp["path_overflow_calls"] > 0) and not over))
' "$WORK/j" || fail "$what: want the room run out (no_space or path overflow) and no function timed more often than called: $(python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print(j["call_paths"], j["drops"])' "$WORK/j")"
    else
        fail "$what: no readable stats file (stderr: $(head -3 "$WORK/err"))"
    fi
    umount "$WORK/fs"
else
    fail "$what: cannot mount"
fi
[ $fails -eq 0 ] && echo "ok   $what"
[ $fails -eq 0 ]
