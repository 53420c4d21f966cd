#!/usr/bin/env bash
# t_gostat_timing.sh: per-function timing from a synthetic version 3 stats
# file built for timing: sums over thread rows (row 0 and pages the page map
# does not mark backed are never read), min/max across rows, percentiles
# interpolated in the log2 histogram, ticks to ns through the start-up
# calibration, the drops line, --sort time, the JSON fields, a file whose
# CPU had no invariant TSC, and the "this boot" clock.
cd "$(dirname "$0")/../.."
. tests/assert.sh


# Clock: tsc1 - tsc0 = 2,000,000 ticks over mono1 - mono0 = 1,000,000 ns:
# 0.5 ns per tick (2 GHz). No boot_id, so the start-up calibration is used.
#
# Histogram buckets: 0 is [0, 32) ticks, b >= 1 is [2^(b+4), 2^(b+5)).
# A percentile's rank is ceil(p/100 * timed calls); within its bucket the
# value is lo + (hi - lo) * (rank - calls below) / calls in bucket, clamped
# to [min, max].
#
# main.work (function 0): row 1: 4 calls, 5300 ticks, min 100, max 5000,
#   buckets 2 ([64,128)) x3 and 8 ([4096,8192)) x1; row 2: 6 calls, 900
#   ticks, min 130, max 200, bucket 3 ([128,256)) x6. Row 0 holds a record
#   too, which must be ignored (row 0 holds no timing).
#   10 timed calls, total 6200 ticks = 3100 ns, mean 310 ns, min 100 ticks =
#   50 ns, max 5000 ticks = 2500 ns.
#   p50: rank 5, bucket 3 (ranks 4..9): 128 + 128 * 2/6 = 170.67 ticks = 85.33 ns
#   p90: rank 9, bucket 3: 128 + 128 * 6/6 = 256 ticks = 128 ns
#   p99: rank 10, bucket 8: 4096 + 4096 * 1/1 = 8192, clamped to max 5000 = 2500 ns
# main.slow (1): row 1: 2 calls, 4,000,000 ticks, min 1,000,000, max
#   3,000,000, buckets 15 ([2^19,2^20)) and 17 ([2^21,2^22)).
#   total 2 ms, mean 1 ms, min 500 us, max 1.5 ms;
#   p50: rank 1, bucket 15: 2^20 = 1048576 ticks = 524288 ns
#   p90, p99: rank 2, bucket 17: 2^22, clamped to 3,000,000 ticks = 1.5 ms
# main.never (2): timed, never called: total 0, the rest unknown.
# main.inl (3): not timed ("too short to patch").
# main.hidden (4): its only record is in row 3, on a page whose page-map
#   byte is 2 (backing failed): never read, so no timed calls: its time is
#   unknown (`-`, null), as for any function called but never timed.
# Drops: row 0 (1,2,0,3,0,4) + row 1 (2,7,0,6,0,0): unwound 3, too deep 9,
#   unmatched 9, abandoned by the scheduler 4; 16 calls untimed.
t=$dir/gostat.timed.4194305
"$MKSTATS" "$t" --pid 4194305 --rows 4 --spread --timing --tsc 1000:0:2001000:1000000 \
    --func main.work:0x10:10:/src/w.go:3 --func main.slow:0x20:2:/src/s.go:9 \
    --func main.never:0x30:0 --func main.inl:0x40:5:/src/i.go:1 --func main.hidden:0x50:1 \
    --untimed '3:too short to patch' \
    --time 0:1:5300:100:5000:2=3,8=1 --time 0:2:900:130:200:3=6 --time 0:0:999999:1:999999:0=7 \
    --time 1:1:4000000:1000000:3000000:15=1,17=1 --time 4:3:500:500:500:4=1 --pagemap 3:1:2 \
    --drops 0:1:2:0:3:0:4 --drops 1:2:7:0:6:0 || fail "mkstats"

run_ok "table" "$t"
expect "timing table" "\
pid 4194305  exited  exe /usr/bin/fake  calls 18  functions 5  tsc 2.000 GHz (start-up calibration)
FUNCTION     CALLS   TOTAL  SELF    MEAN     P50     P90     P99     MAX  FILE:LINE
main.work       10  3.10us     -   310ns  85.3ns   128ns  2.50us  2.50us  /src/w.go:3
main.inl         5       -     -       -       -       -       -       -  /src/i.go:1
main.slow        2  2.00ms     -  1.00ms   524us  1.50ms  1.50ms  1.50ms  /src/s.go:9
main.hidden      1       -     -       -       -       -       -       -  -
main.never       0     0ns     -       -       -       -       -       -  -
timing: 16 calls untimed (unwound by panic/Goexit 3, abandoned by the scheduler 4, stack too deep 9, no goroutine slot 0, no space 0); 9 returns unmatched" "$out"

# --sort time: most total time first; ties (0) by calls, then name.
run_ok "sort time" --sort time "$t"
expect "--sort time order" "main.slow main.work main.inl main.hidden main.never" \
    "$(sed -n '3,7p' <<<"$out" | cut -d' ' -f1 | tr '\n' ' ' | sed 's/ $//')"
run_ok "sort time top" --sort time --top 1 "$t"
expect "--sort time --top 1" "main.slow 2 2.00ms - 1.00ms 524us 1.50ms 1.50ms 1.50ms /src/s.go:9" "$(row 3)"

# --watch shares the table: timing columns, then CALLS/S.
out=$(timeout 5 "$GOSTAT" --watch 0.1 --top 1 "$t" 2>&1)
expect "watch header" "FUNCTION CALLS TOTAL SELF MEAN P50 P90 P99 MAX CALLS/S FILE:LINE" "$(row 2)"
expect "watch row" "main.work 10 3.10us - 310ns 85.3ns 128ns 2.50us 2.50us - /src/w.go:3" "$(row 3)"

"$GOSTAT" --json "$t" >"$dir/out" 2>"$dir/err" || fail "json: exit $?"
python3 - "$dir/out" <<'PY' || fail "json values"
import json, sys
j = json.load(open(sys.argv[1]))
f = {x["name"]: x for x in j["functions"]}
checks = [
    j["timing"] is True,
    j["tsc_hz"] == 2000000000,
    j["clock_source"] == "start-up calibration",
    j["drops"] == {"unwound": 3, "too_deep": 9, "no_slot": 0, "unmatched": 9, "no_space": 0, "abandoned": 4,
                   "rowless_calls": 0, "closed_at_exit": 0},
    {k: v for k, v in f["main.work"].items() if k not in ("name", "entry", "calls", "file", "line", "inlined")}
        == {"timed": True, "timed_calls": 10, "time_estimated": False, "total_ns": 3100, "mean_ns": 310, "p50_ns": 85,
            "p90_ns": 128, "p99_ns": 2500, "min_ns": 50, "max_ns": 2500},
    f["main.slow"]["timed_calls"] == 2 and f["main.slow"]["total_ns"] == 2000000,
    f["main.slow"]["mean_ns"] == 1000000 and f["main.slow"]["p50_ns"] == 524288,
    f["main.slow"]["p90_ns"] == 1500000 and f["main.slow"]["p99_ns"] == 1500000,
    f["main.slow"]["min_ns"] == 500000 and f["main.slow"]["max_ns"] == 1500000,
    f["main.inl"]["timed"] is False and f["main.inl"]["untimed_reason"] == "too short to patch",
    f["main.inl"]["timed_calls"] is None and f["main.inl"]["total_ns"] is None and f["main.inl"]["p50_ns"] is None,
    "untimed_reason" not in f["main.work"],
    f["main.never"]["timed"] is True and f["main.never"]["total_ns"] == 0 and f["main.never"]["mean_ns"] is None,
    f["main.hidden"]["timed_calls"] == 0 and f["main.hidden"]["total_ns"] is None,
]
for i, ok in enumerate(checks):
    if not ok:
        print("  json check %d failed: %s" % (i, json.dumps(j)))
        sys.exit(1)
PY

# The start-up calibration of a probe's cost (overhead compensation): in
# the table's header and the JSON, in ns at the file's 2 GHz; a file
# without one (above) is uncompensated: no mention, probe_cost_ns null.
"$MKSTATS" "$dir/comp" --pid 4194305 --timing --tsc 1000:0:2001000:1000000 --probe 50:10:128 \
    --func main.work:0x10:10:/src/w.go:3 || fail "mkstats --probe"
run_ok "compensated table" "$dir/comp"
expect "compensated header" "pid 4194305  exited  exe /usr/bin/fake  calls 10  functions 1  tsc 2.000 GHz \
(start-up calibration)  probe 25.0 ns (5.0 inside, untimed 0.25) compensated" "$(sed -n 1p <<<"$out")"
"$GOSTAT" --json "$dir/comp" >"$dir/comp.json" 2>"$dir/err" || fail "compensated json: exit $?"
python3 - "$dir/comp.json" "$dir/out" <<'PY' || fail "probe_cost_ns"
import json, sys
got = [json.load(open(p))["probe_cost_ns"] for p in sys.argv[1:]]
if got != [{"timed": 25.0, "timed_inside": 5.0, "untimed": 0.25, "sampled": None}, None]:
    print("  probe_cost_ns %s, want the calibration, then null" % got)
    sys.exit(1)
PY

# No usable calibration (tsc1 == tsc0): timing columns show "-", JSON null.
"$MKSTATS" "$dir/nocal" --pid 4194305 --rows 2 --spread --timing --tsc 5:0:5:0 \
    --func a.f:0x10:4 --time 0:1:400:100:100:3=4
run_ok "no calibration" "$dir/nocal"
expect "no calibration: summary" "pid 4194305 exited exe /usr/bin/fake calls 4 functions 1" "$(row 1)"
expect "no calibration: row" "a.f 4 - - - - - - - -" "$(row 3)"
"$GOSTAT" --json "$dir/nocal" >"$dir/out"
python3 -c '
import json, sys
j = json.load(open(sys.argv[1])); f = j["functions"][0]
sys.exit(not (j["tsc_hz"] is None and j["clock_source"] is None and f["timed_calls"] == 4 and f["total_ns"] is None))
' "$dir/out" || fail "no calibration: json $(cat "$dir/out")"

# No invariant TSC at run time.
"$MKSTATS" "$dir/notsc" --pid 4194305 --timing --no-tsc --func a.f:0x10:4
run_ok "no tsc" "$dir/notsc"
expect "no tsc" "\
pid 4194305  exited  exe /usr/bin/fake  calls 4  functions 1
FUNCTION  CALLS  TOTAL  SELF  MEAN  P50  P90  P99  MAX  FILE:LINE
a.f           4      -     -     -    -    -    -    -  -
timing: off at run time (no invariant TSC)" "$out"

# This boot: the file's boot_id is this machine's, so the TSC is read now
# against (tsc0, mono0_ns); the start-up pair here is useless on purpose.
if [[ $(uname -m) == x86_64 ]] && [ -r /proc/sys/kernel/random/boot_id ]; then
    "$MKSTATS" "$dir/boot" --pid 4194305 --timing --tsc 1:1:1:1 \
        --boot-id "$(cat /proc/sys/kernel/random/boot_id)" --func a.f:0x10:1
    "$GOSTAT" --json "$dir/boot" >"$dir/out"
    python3 -c '
import json, sys
j = json.load(open(sys.argv[1]))
sys.exit(not (j["clock_source"] == "this boot" and j["tsc_hz"] > 0))
' "$dir/out" || fail "this boot: $(cat "$dir/out")"
fi

finish t_gostat_timing
