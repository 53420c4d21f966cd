#!/usr/bin/env bash
# t_gostat_merge_at_exit: the merge at exit (GOSTAT_MERGE, stubs/finish.c)
# and gostat merge add the same records the same way (format/gostat_merge.h),
# saturation included. testdata/poked (default mode) runs once with
# GOSTAT_MERGE=1 and becomes the merged file M; in M, every timing record
# of a call timed in full (the next timed call's weight, gap, is 1) is set
# 3 below 2^64: its total and on-CPU ticks, its timed calls and (by as
# much) its first non-empty histogram bucket; M is copied to A. A second
# run, its own file kept by a hard link K while it waits on stdin, merges
# itself into M at exit (clearing K's magic, which the test restores). Then gostat merge M and gostat merge A K agree on
# every function: calls, timed calls (saturated where patched) and the
# histogram exactly; durations within the two runs' clocks; where nothing
# saturated, time_estimated (a gap of 1 in each process is no untimed
# call) and totals where no call was left untimed (an estimate for the
# rest, mean x calls, is not a sum; and a saturated sum no longer tells
# whether the timed calls weighed more than themselves).
cd "$(dirname "$0")/../.."
. tests/lib.sh
require_tools
. tests/assert.sh
work_dir

build_go 1.22 testdata/poked "$WORK/poked" || exit 1
instrument "$WORK/poked" "$WORK/poked.instr" || exit 1
D=$WORK/merged
mkdir -p "$D" "$WORK/keep"
GOSTAT_MERGE=1 GOSTAT_DIR=$D "$WORK/poked.instr" </dev/null >"$WORK/p1.out" || fail "first run: exited $?"
M=$(stats_file_for "$D") || exit 1

# Every backed timing record of M whose calls were all timed: sums near 2^64.
patched=$(python3 - "$M" <<'PY'
import struct, sys
path = sys.argv[1]
data = bytearray(open(path, "rb").read())
u32 = lambda off: struct.unpack_from("<I", data, off)[0]
u64 = lambda off: struct.unpack_from("<Q", data, off)[0]
nfuncs, functab, live, rows, stride, max_rows = u32(56), u64(64), u64(88), u64(96), u64(104), u32(112)
ntimed, timing_size, timing_off = u32(1304), u32(1308), u64(1320)
per_page = 4096 // timing_size
last = min(u64(live), max_rows - 1)
near = 2**64 - 3
n = 0
for k in range(ntimed):
    at = timing_off + (k // per_page) * 4096 + (k % per_page) * timing_size
    for r in range(1, last + 1):
        row = rows + r * stride
        if not (u64(live + 8 + (r // 64) * 8) >> (r % 64)) & 1 or data[row + 128 + at // 4096] != 1:
            continue
        rec = row + at
        samples, hist = u64(rec + 296), [u64(rec + 24 + 8 * b) for b in range(32)]
        if samples == 0 or sum(hist) != samples or u64(rec + 288) != 1:   # gap
            continue
        for off in (0, 296, 312):               # total, samples, oncpu_total
            struct.pack_into("<Q", data, rec + off, near)
        b = next(b for b in range(32) if hist[b])
        struct.pack_into("<Q", data, rec + 24 + 8 * b, hist[b] + near - samples)
        n += 1
open(path, "r+b").write(data)
print(n)
PY
) || fail "patching $M"
[ "${patched:-0}" -gt 10 ] || fail "only ${patched:-0} timing records to patch in $M"
cp "$M" "$WORK/A" || fail "copying $M"

# The second run: its own file linked as K while it waits, then merged at exit.
mkfifo "$WORK/in"
exec 3<>"$WORK/in"
GOSTAT_MERGE=1 GOSTAT_DIR=$D "$WORK/poked.instr" <"$WORK/in" >"$WORK/p2.out" &
pid=$!
for _ in $(seq 600); do
    grep -q '^ready$' "$WORK/p2.out" 2>/dev/null && break
    sleep 0.05
done
own=$(ls "$D" | grep -v merged)
[ -n "$own" ] && ln "$D/$own" "$WORK/keep/K" || fail "second run: no own file to keep in $D: $(ls "$D")"
echo >&3
exec 3>&-
wait $pid || fail "second run: exited $?"
expect "the second run merged into M" "$(basename "$M")" "$(ls "$D")"
expect "M: two processes" 2 "$("$GOSTAT" --json "$M" | python3 -c 'import json, sys; print(json.load(sys.stdin).get("processes"))')"
# The merge clears the own file's magic before it places the counts (so a
# process dying before it removes its file is not counted twice): K gets
# it back here to be read.
expect "K's magic cleared by the merge" 0000000000000000 "$(head -c 8 "$WORK/keep/K" | od -An -tx1 | tr -d ' \n')"
head -c 8 "$M" | dd of="$WORK/keep/K" conv=notrunc status=none || fail "restoring K's magic"

"$GOSTAT" merge "$M" -o "$WORK/at_exit.json" >/dev/null || fail "gostat merge M"
"$GOSTAT" merge "$WORK/A" "$WORK/keep/K" -o "$WORK/gostat.json" >/dev/null || fail "gostat merge A K"
expect "at exit = gostat merge, per function" "[] True True" "$(python3 - "$WORK/at_exit.json" "$WORK/gostat.json" <<'PY'
import json, sys
a, g = ({f["name"]: f for f in json.load(open(p))["functions"]} for p in sys.argv[1:])
exact = ("calls", "timed", "timed_calls")
times = ("mean_ns", "p50_ns", "min_ns", "max_ns")
def close(x, y):
    return x == y or (x is not None and y is not None and abs(x - y) <= 1e-4 * max(abs(x), abs(y)) + 1)
bad = []
for name in sorted(set(a) | set(g)):
    x, y = a.get(name, {}), g.get(name, {})
    hx, hy = x.get("histogram"), y.get("histogram")
    same = all(x.get(k) == y.get(k) for k in exact) and all(close(x.get(k), y.get(k)) for k in times)
    if x.get("timed_calls") != 2**64 - 1:
        same &= x.get("time_estimated") == y.get("time_estimated")
        if not x.get("time_estimated"):
            same &= close(x.get("total_ns"), y.get("total_ns")) and close(x.get("oncpu_ns"), y.get("oncpu_ns"))
    same &= (hx is None) == (hy is None)
    if hx and hy:
        same &= all(hx[k] == hy[k] for k in ("buckets", "min_ticks", "max_ticks"))
    if not same:
        bad.append(name)
sat = sum(f.get("timed_calls") == 2**64 - 1 for f in a.values())
print(bad[:5], sat > 10, sum(f.get("time_estimated") is False and (f.get("timed_calls") or 0) > 0 for f in a.values()) > 10)
PY
)"

finish t_gostat_merge_at_exit
