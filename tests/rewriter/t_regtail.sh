#!/usr/bin/env bash
# t_regtail: tail calls through a register (testdata/regtail), on every Go
# of the tests:
#  - where go tool objdump shows the wrapper main.(*boxed).area ending in
#    JMP reg (Go 1.27; it must there), gorewrite -v says "count" for it,
#    untimed "a tail call through a register" (not skipped as "branch
#    targets unknown"); elsewhere it is counted like any function;
#  - main.pick (a jump table from Go 1.19 on: its jmp reg runs after a
#    table load) stays counted;
#  - in --count-only and the default mode, the run's output equals the
#    original's and the counts are exactly testdata/regtail/expect's.
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
        default:1:"count "*"a tail call through a register"*) ;;
        default:0:"count"*) ;;
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

for v in ${GOVERS:-$GO_VERSIONS $GO_VERSIONS_NEWER}; do
    check_release "$v"
done
[ $fails -eq 0 ]
