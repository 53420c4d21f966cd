#!/usr/bin/env bash
# t_regtail: tail calls through a register (testdata/regtail), on every Go
# of the tests:
#  - where go tool objdump shows the wrapper main.(*boxed).area ending in
#    JMP reg (Go 1.27; it must there), gorewrite -v says "count+time" for
#    it in the default mode and --time-all: its jmp reg is a return, as a
#    direct tail call is (not skipped as "branch targets unknown"); with
#    --call-graph it is counted, untimed for its tail call; elsewhere it
#    is counted (and timed) like any function;
#  - main.pick (a jump table from Go 1.19 on: its jmp reg runs after a
#    table load) stays counted;
#  - in --count-only, the default mode, --time-all and --call-graph, the
#    run's output equals the original's and the counts are exactly
#    testdata/regtail/expect's;
#  - --time-all: all 700 calls of the wrapper and of the method it jumps
#    to timed, none unmatched or unwound (the wrapper's entry is gone when
#    the method's is pushed at the same depth).
# The program is built stripped (-s -w, as Debian ships Go programs); the
# objdump check reads an unstripped build of the same code.
# Environment: GOVERS="1.27" restricts the Go versions.
. "$(dirname "$0")/../lib.sh"
require_tools

work_dir
DIR=$ROOT/testdata/regtail
WRAPPER="main.(*boxed).area"

check_release() {
    local v=$1 bin=$WORK/regtail$v ok=1
    build_go_stripped "$v" "$DIR" "$bin" || { fail "go$v: build"; return; }
    REG=0
    go_objdump "$v" "$bin.syms" 'main\.\(\*boxed\)\.area$' |
        grep -qE 'JMP [A-Z0-9]+[[:space:]]*$' && REG=1
    if [ "$v" = 1.27 ] && [ $REG = 0 ]; then
        fail "go$v: the wrapper does not end in JMP reg (the case this test is for)"
        return
    fi
    check_counted "$v" "$bin" count-only --count-only || ok=0
    check_counted "$v" "$bin" default || ok=0
    check_counted "$v" "$bin" time-all --time-all && check_timed "$v" || ok=0
    check_counted "$v" "$bin" call-graph --call-graph || ok=0
    if [ $ok = 1 ]; then
        echo "ok   go$v (wrapper ends in jmp reg: $([ $REG = 1 ] && echo yes || echo no))"
    else
        fail "go$v (above)"
    fi
}

# check_counted V BIN MODE [FLAGS]: the wrapper and pick counted (the
# wrapper with its reason where it ends in jmp reg), the run's output the
# original's, counts exactly expect's.
check_counted() {
    local v=$1 bin=$2 mode=$3 line
    shift 3
    "$GOREWRITE" -v "$@" "$bin" "$bin.$mode" >"$WORK/v.txt" 2>&1 ||
        { echo "  go$v: gorewrite ($mode): $(tail -1 "$WORK/v.txt")"; return 1; }
    line=$(decision "$WORK/v.txt" "$WRAPPER")
    case $mode:$REG:$line in
        count-only:*:"count "*"--count-only"*) ;;
        default:*:"count+time "* | time-all:*:"count+time "*) ;;
        call-graph:1:"count "*"tail call"*"--call-graph"*) ;;
        call-graph:0:"count"*) ;;
        *) echo "  go$v ($mode): $WRAPPER: $line"; return 1 ;;
    esac
    line=$(decision "$WORK/v.txt" "main.pick")
    case $line in
        count*) ;;
        *) echo "  go$v ($mode): main.pick: $line"; return 1 ;;
    esac
    run_compare "$bin" "$bin.$mode" || { echo "  go$v: $mode run differs"; return 1; }
    local f
    f=$(stats_file_for "$RC_STATDIR") && gostat_json "$f" "$WORK/$mode.json" &&
        check_counts "$WORK/$mode.json" "$DIR/expect" "$v" || return 1
    rm -rf "$RC_WORK"
}

# check_timed V: --time-all's run (time-all.json), as the top says.
check_timed() {
    python3 - "$WORK/time-all.json" "$1" "$WRAPPER" <<'PY'
import json, sys
stats = json.load(open(sys.argv[1]))
funcs = {f["name"]: f for f in stats["functions"]}
bad = []
for name in (sys.argv[3], "main.(*square).area"):
    f = funcs[name]
    if f.get("timed_calls") != f["calls"] or f["calls"] != 700:
        bad.append("%s: %s timed calls of %s, want 700 of 700" % (name, f.get("timed_calls"), f["calls"]))
for why in ("unmatched", "unwound"):
    if stats["drops"][why]:
        bad.append("%d calls dropped as %s" % (stats["drops"][why], why))
for b in bad:
    print("  go%s (--time-all): %s" % (sys.argv[2], b))
sys.exit(1 if bad else 0)
PY
}

for v in ${GOVERS:-$GO_VERSIONS $GO_VERSIONS_NEWER}; do
    check_release "$v"
done
[ $fails -eq 0 ]
