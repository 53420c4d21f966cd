#!/usr/bin/env bash
# t_leaf: functions without a stack-bound check (testdata/leaf), with every
# Go of the tests (t_testdata runs the same program in the default mode):
#  - gorewrite -v says "count ... no stack check" for the leaf functions
#    main.add, main.classify, main.readGlobal and main.(*box).get (whose
#    first instruction loads through the receiver: guarded), and, with the
#    register ABI (Go >= 1.17), skips main.countdown (its loop's back edge
#    lands inside the first 5 bytes) with that reason; every skip has one;
#  - with --count-only the counts are exactly testdata/leaf/expect's;
#  - a nil dereference in a leaf method's first (relocated) instruction
#    that is not recovered ("unrecovered" argument): the instrumented
#    program's stderr (panic message, signal line with its pc and address,
#    traceback with the leaf's frame and line) and exit status (2) equal the
#    original's, for a plain executable and a stripped PIE (the recovered
#    case, with its message, is in the program's normal output);
#  - the runtime's assembly is never relocated ("assembly of the runtime");
#  - timed (--time-all, every call timed, and the default mode): -v says "count+time" for
#    main.add, main.readGlobal, main.spin and main.(*box).get (Go <= 1.16
#    too: R14 is loaded from TLS there); every leaf function of main that
#    -v says is timed has timed calls equal to its calls (main.(*box).get:
#    one fewer, the nil call panics inside), counts are exactly expect's,
#    nothing is unmatched; main.spin's total time (20 calls of a ~1 ms
#    loop) lies within the program's own time.Now measurement around the
#    calls (at most 2 % above it, at least 90 % of it). In the default
#    mode (with --first 32, so that spin's 20 calls are all timed and its
#    total exact) a leaf called more than 32 times (main.add, 800,000 calls
#    from 8 goroutines) is sampled instead: at least its first 32 calls and
#    fewer than all are timed, and its times are marked estimated.
# Environment: GOVERS="1.22" restricts the Go versions.
. "$(dirname "$0")/../lib.sh"
require_tools

work_dir
DIR=$ROOT/testdata/leaf

check_release() {
    local v=$1 bin=$WORK/leaf$v ok=1
    build_go "$v" "$DIR" "$bin" || { fail "go$v: build"; return; }
    "$GOREWRITE" -v --count-only "$bin" "$bin.co" >"$WORK/v.txt" 2>&1 ||
        { fail "go$v: gorewrite: $(tail -1 "$WORK/v.txt")"; return; }
    local fn line
    for fn in main.add main.classify main.readGlobal main.spin; do
        line=$(decision "$WORK/v.txt" "$fn")
        case $line in
            "count "*"(no stack check; "*) ;;
            *) echo "  go$v: $fn not counted as a leaf: $line"; ok=0 ;;
        esac
    done
    if [ "$v" != 1.15 ]; then
        line=$(decision "$WORK/v.txt" main.countdown)
        case $line in
            "skip "*": no stack check: a branch lands inside the first 5 bytes") ;;
            *) echo "  go$v: main.countdown: $line"; ok=0 ;;
        esac
    fi
    line=$(decision "$WORK/v.txt" "main.(*box).get")
    case $line in
        "count "*"(no stack check; "*) ;;
        *) echo "  go$v: main.(*box).get not counted as a leaf: $line"; ok=0 ;;
    esac
    grep -q "^skip .*: no stack check: assembly of the runtime" "$WORK/v.txt" ||
        { echo "  go$v: no assembly function skipped as such"; ok=0; }
    if grep -E "^skip +0x[0-9a-f]+ [^ ]+: *$" "$WORK/v.txt" | head -3 | grep -q .; then
        echo "  go$v: a skip without a reason"; ok=0
    fi

    run_compare "$bin" "$bin.co" || { fail "go$v: --count-only run differs"; return; }
    local f
    f=$(stats_file_for "$RC_STATDIR") && gostat_json "$f" "$WORK/co.json" &&
        check_counts "$WORK/co.json" "$DIR/expect" "$v" || ok=0
    rm -rf "$RC_WORK"

    check_timed "$v" "$bin" time-all --time-all || ok=0
    check_timed "$v" "$bin" default --first 32 || ok=0

    local variant flags
    for variant in exe pie; do
        flags=()
        [ $variant = pie ] && flags=(-buildmode=pie "-ldflags=-s -w")
        build_go "$v" "$DIR" "$bin.$variant" "${flags[@]+"${flags[@]}"}" || { fail "go$v $variant: build"; continue; }
        instrument "$bin.$variant" "$bin.$variant.instr" || { fail "go$v $variant: gorewrite"; continue; }
        same_nil_panic "go$v $variant" "$bin.$variant" "$bin.$variant.instr" "main.(*box).get" || ok=0
    done
    if [ $ok = 1 ]; then
        echo "ok   go$v"
    else
        fail "go$v (above)"
    fi
}

# check_timed V BIN MODE [FLAGS]: a timed mode; see the top of this file.
check_timed() {
    local v=$1 bin=$2 mode=$3 fn line
    shift 3
    "$GOREWRITE" -v "$@" "$bin" "$bin.t" >"$WORK/vt.txt" 2>&1 ||
        { echo "  go$v: gorewrite ($mode): $(tail -1 "$WORK/vt.txt")"; return 1; }
    for fn in main.add main.readGlobal main.spin "main.(*box).get"; do
        line=$(decision "$WORK/vt.txt" "$fn")
        case $line in
            "count+time "*"(no stack check; "*) ;;
            *) echo "  go$v: $fn not timed as a leaf: $line"; return 1 ;;
        esac
    done
    LEAF_OUT=$WORK/self.json run_compare "$bin" "$bin.t" ||
        { echo "  go$v: $mode run differs"; return 1; }
    local f
    f=$(stats_file_for "$RC_STATDIR") && gostat_json "$f" "$WORK/t.json" &&
        check_counts "$WORK/t.json" "$DIR/expect" "$v" || return 1
    rm -rf "$RC_WORK"
    grep -E '^count\+time +0x[0-9a-f]+ main\.[^ ]+ \(no stack check; ' "$WORK/vt.txt" |
        awk '{print $3}' >"$WORK/timed_leaves"
    python3 - "$WORK/t.json" "$WORK/self.json" "$WORK/timed_leaves" "$v $mode" <<'PY'
import json, sys
stats = json.load(open(sys.argv[1]))
around = json.load(open(sys.argv[2]))["spin_around_ns"]
leaves = open(sys.argv[3]).read().split()
funcs = {f["name"]: f for f in stats["functions"]}
bad = []
if len(leaves) < 4:
    bad.append("only %d timed leaf functions in main: %s" % (len(leaves), leaves))
for name in leaves:
    f = funcs[name]
    want = f["calls"] - (1 if name == "main.(*box).get" else 0)
    timed = f.get("timed_calls")
    if sys.argv[4].endswith("default") and f["calls"] > 32:
        if not (32 <= timed < want and f.get("time_estimated") is True):
            bad.append("%s: %s timed calls of %s calls (estimated: %s), want sampled: 32 <= timed < calls"
                       % (name, timed, f["calls"], f.get("time_estimated")))
    elif timed != want:
        bad.append("%s: %s timed calls of %s calls, want %d" % (name, timed, f["calls"], want))
if stats["drops"]["unmatched"] != 0:
    bad.append("%d unmatched returns" % stats["drops"]["unmatched"])
got = funcs["main.spin"].get("total_ns") or 0
if not (0.90 * around <= got <= 1.02 * around + 1):
    bad.append("main.spin: %d ns in total, the program measured %d ns around its calls" % (got, around))
for b in bad:
    print("  go%s: %s" % (sys.argv[4], b))
sys.exit(1 if bad else 0)
PY
}

for v in ${GOVERS:-$GO_VERSIONS $GO_VERSIONS_NEWER}; do
    check_release "$v"
done
[ $fails -eq 0 ]
