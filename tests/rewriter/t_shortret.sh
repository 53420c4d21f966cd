#!/usr/bin/env bash
# t_shortret: returns with fewer than 5 replaceable bytes before them
# (testdata/shortret: methods whose mid-function ret follows a store
# through the receiver), on every Go of the tests:
#  - gorewrite -v says "count+time" for main.(*acc).clamp and
#    main.(*spinner).spin with their 2 returns (before return guards: untimed,
#    "a return with fewer than 5 replaceable bytes");
#  - counts are exactly testdata/shortret/expect's in --count-only, the
#    default mode and --time-all, and the output equals the original's
#    (the recovered nil dereference, which faults in clamp's replayed
#    store, prints the runtime's own message);
#  - --time-all: every call timed (clamp: one fewer, the nil call panics
#    inside), nothing unmatched; spin's total time (20 calls of a ~1 ms
#    loop) within 10 % of the program's own time.Now measurement around
#    the calls (at least 90 %, at most 110 %);
#  - the unrecovered nil dereference in the replayed store: stderr (panic,
#    signal line, traceback with clamp's frame and line) and exit status 2
#    equal the original's;
#  - leaves whose first return is too near the entry for a return hook of its
#    own (main.(*box).get and pick: test, jcc, load, ret with the register
#    ABI, whose entries then cover 9 bytes and that return): counted
#    exactly and timed ("count+time") in the default mode and --time-all,
#    where every call is timed (pick: one fewer, the nil call panics
#    inside); pick's load faulting on a nil box, in the entry trampoline,
#    is Go's own panic, recovered (stdout) and, with the register ABI,
#    unrecovered (stderr, status 2; with the stack ABI the traceback
#    prints pick's result slot, which holds whatever was on the stack);
#  - tail calls: where the compiler's wrapper main.(*wrapped).spin ends in
#    a jump to main.(*spinner).spin (go tool objdump says so: Go 1.15-1.20
#    and 1.24+; 1.21-1.23 call it), --time-all times all 10 of its calls up
#    to that jump (its total under 1 % of spin's, which the jump goes on
#    to); with
#    --call-graph it is untimed with its reason, spin's 10 calls through it
#    are arcs from main.timedCalls (30 in all), whose self time stays
#    under 1 % of its total. Where it calls, it is timed as any function.
# The program is built stripped (-s -w, as Debian ships Go programs); the
# objdump check reads an unstripped build of the same code.
# Environment: GOVERS="1.22" restricts the Go versions.
. "$(dirname "$0")/../lib.sh"
require_tools

work_dir
DIR=$ROOT/testdata/shortret
METHODS=("main.(*acc).clamp" "main.(*spinner).spin")
NEAR=("main.(*box).get" "main.(*box).pick")
WRAPPER="main.(*wrapped).spin"

# register_abi V: Go V passes arguments in registers (1.17 on).
register_abi() {
    [ "$(printf '%s\n' "$1" 1.17 | sort -V | head -1)" = 1.17 ]
}

check_release() {
    local v=$1 bin=$WORK/shortret$v ok=1
    build_go_stripped "$v" "$DIR" "$bin" || { fail "go$v: build"; return; }
    TAIL=0
    go_objdump "$v" "$bin.syms" 'main\.\(\*wrapped\)\.spin$' |
        grep -q 'JMP main\.(\*spinner)\.spin(SB)' && TAIL=1
    check_counted "$v" "$bin" count-only --count-only || ok=0
    check_counted "$v" "$bin" default || ok=0
    check_timed "$v" "$bin" || ok=0
    check_call_graph "$v" "$bin" || ok=0
    instrument "$bin" "$bin.instr" || { fail "go$v: gorewrite"; return; }
    same_nil_panic "go$v" "$bin" "$bin.instr" "main.(*acc).clamp" || ok=0
    if register_abi "$v"; then
        same_nil_panic "go$v" "$bin" "$bin.instr" "main.(*box).pick" unrecovered-pick || ok=0
    fi
    if [ $ok = 1 ]; then
        echo "ok   go$v (wrapper ends in a tail call: $([ $TAIL = 1 ] && echo yes || echo no))"
    else
        fail "go$v (above)"
    fi
}

# check_counted V BIN MODE [FLAGS]: both methods timed (unless
# --count-only), the run's output the original's, counts exactly expect's.
check_counted() {
    local v=$1 bin=$2 mode=$3 fn line want="count+time *; 2 returns)"
    shift 3
    [ "$mode" = count-only ] && want="count *: untimed: --count-only"
    "$GOREWRITE" -v "$@" "$bin" "$bin.$mode" >"$WORK/v.txt" 2>&1 ||
        { echo "  go$v: gorewrite ($mode): $(tail -1 "$WORK/v.txt")"; return 1; }
    for fn in "${METHODS[@]}"; do
        line=$(decision "$WORK/v.txt" "$fn")
        case $line in
            $want) ;;
            *) echo "  go$v ($mode): $fn: $line"; return 1 ;;
        esac
    done
    local near="count+time *"
    register_abi "$v" && near="count+time *; 9 entry bytes relocated; 1 returns)"
    for fn in "${NEAR[@]}"; do
        line=$(decision "$WORK/v.txt" "$fn")
        case $mode:$line in
            count-only:"count "*|*:$near) ;;
            *) echo "  go$v ($mode): $fn: $line"; return 1 ;;
        esac
    done
    line=$(decision "$WORK/v.txt" "$WRAPPER")
    case $mode:$line in
        count-only:"count "*|*:"count+time "*) ;;
        *) echo "  go$v ($mode): $WRAPPER: $line"; return 1 ;;
    esac
    run_compare "$bin" "$bin.$mode" || { echo "  go$v: $mode run differs"; return 1; }
    local f
    f=$(stats_file_for "$RC_STATDIR") && gostat_json "$f" "$WORK/$mode.json" &&
        check_counts "$WORK/$mode.json" "$DIR/expect" "$v" || return 1
    rm -rf "$RC_WORK"
}

# check_timed V BIN: --time-all; see the top of this file.
check_timed() {
    local v=$1 bin=$2
    SHORTRET_OUT=$WORK/self.json check_counted "$v" "$bin" time-all --time-all || return 1
    python3 - "$WORK/time-all.json" "$WORK/self.json" "$v" "$TAIL" <<'PY'
import json, sys
stats = json.load(open(sys.argv[1]))
around = json.load(open(sys.argv[2]))["spin_around_ns"]
tail = sys.argv[4] == "1"
funcs = {f["name"]: f for f in stats["functions"]}
bad = []
spin = funcs["main.(*spinner).spin"].get("total_ns") or 0
wrapper = funcs["main.(*wrapped).spin"]
if tail and not (wrapper.get("total_ns") or 0) < 0.01 * spin:
    bad.append("the tail-calling wrapper: %s ns in total, spin %d ns: its time did not stop at the jump"
               % (wrapper.get("total_ns"), spin))
for name, fewer in (("main.(*acc).clamp", 1), ("main.(*spinner).spin", 0), ("main.(*wrapped).spin", 0),
                    ("main.(*box).get", 0), ("main.(*box).pick", 1)):
    f = funcs[name]
    if f.get("timed_calls") != f["calls"] - fewer:
        bad.append("%s: %s timed calls of %s calls, want %d" % (name, f.get("timed_calls"), f["calls"], f["calls"] - fewer))
if stats["drops"]["unmatched"] != 0:
    bad.append("%d unmatched returns" % stats["drops"]["unmatched"])
got = funcs["main.(*spinner).spin"].get("total_ns") or 0
if not (0.90 * around <= got <= 1.10 * around):
    bad.append("main.(*spinner).spin: %d ns in total, the program measured %d ns around its calls" % (got, around))
for b in bad:
    print("  go%s: %s" % (sys.argv[3], b))
sys.exit(1 if bad else 0)
PY
}

# check_call_graph V BIN: --call-graph; see the top of this file.
check_call_graph() {
    local v=$1 bin=$2
    "$GOREWRITE" -v --call-graph "$bin" "$bin.cg" >"$WORK/vcg.txt" 2>&1 ||
        { echo "  go$v: gorewrite --call-graph: $(tail -1 "$WORK/vcg.txt")"; return 1; }
    run_compare "$bin" "$bin.cg" || { echo "  go$v: --call-graph run differs"; return 1; }
    local f
    f=$(stats_file_for "$RC_STATDIR") && gostat_json "$f" "$WORK/cg.json" &&
        check_counts "$WORK/cg.json" "$DIR/expect" "$v" || return 1
    rm -rf "$RC_WORK"
    python3 - "$WORK/cg.json" "$v" "$TAIL" <<'PY'
import json, sys
stats = json.load(open(sys.argv[1]))
tail = sys.argv[3] == "1"
funcs = {f["name"]: f for f in stats["functions"]}
bad = []
wrapper, spin, calls = (funcs[n] for n in ("main.(*wrapped).spin", "main.(*spinner).spin", "main.timedCalls"))
callers = {c["name"]: c["calls"] for c in spin.get("callers", [])}
if tail:
    if wrapper.get("timed") or "tail call" not in (wrapper.get("untimed_reason") or ""):
        bad.append("the tail-calling wrapper: timed %s, reason %r" % (wrapper.get("timed"), wrapper.get("untimed_reason")))
    if callers != {"main.timedCalls": 30}:
        bad.append("spin's callers %s: want 30 calls from main.timedCalls" % callers)
elif callers != {"main.timedCalls": 20, "main.(*wrapped).spin": 10}:
    bad.append("spin's callers %s: want 20 from main.timedCalls, 10 from the wrapper" % callers)
if not (calls.get("self_ns") or 0) < 0.01 * (calls.get("total_ns") or 1):
    bad.append("main.timedCalls: self %s ns of %s ns" % (calls.get("self_ns"), calls.get("total_ns")))
for b in bad:
    print("  go%s (--call-graph): %s" % (sys.argv[2], b))
sys.exit(1 if bad else 0)
PY
}

for v in ${GOVERS:-$GO_VERSIONS $GO_VERSIONS_NEWER}; do
    check_release "$v"
done
[ $fails -eq 0 ]
