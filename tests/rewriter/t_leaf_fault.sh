#!/usr/bin/env bash
# t_leaf_fault: a fault at a non-nil address inside a relocated leaf
# instruction (testdata/leaffault: main.(*box).get loads through its
# receiver first) keeps the original PC and frame, with every Go of the
# tests, as a plain executable and a stripped PIE:
#  - gorewrite -v counts main.(*box).get as a leaf (its entry relocated);
#  - recovered under debug.SetPanicOnFault(true), a wild pointer to an
#    unmapped page (SIGSEGV) and a read of a truncated mapped file
#    (SIGBUS): the recovered stack (the functions runtime.Callers names,
#    the function lines of debug.Stack()) equals the original's and holds
#    main.(*box).get;
#  - unrecovered, both: exit status 2 as the original; the fatal error,
#    the signal line (its pc= is the faulting instruction's original PC,
#    in main.(*box).get) and goroutine 1's traceback (function lines, file
#    lines with their offsets and pc=) equal the original's. Masked: each
#    frame's argument words (stack slots that hold whatever was there: the
#    red zone the stubs use, heap addresses) and fp= and sp= (where the
#    goroutine's stack lies); the text does not move, so every pc= must
#    be equal. Other goroutines (the runtime's own, in whatever state the
#    crash found them) are left out.
#  - the same with --sample 1000000, where the faulting call is
#    not timed and runs the covered bytes' other copy;
#  - the same fatal SIGSEGV with --only 'main\.' (runtime.sigpanic, whose
#    entry trampoline restores the frame, stays instrumented);
#  - Go >= 1.17: the faulting load is among the relocated bytes (its
#    offset in the original's traceback is below the count -v gives), so
#    the fault happens in the trampoline; Go 1.15 passes the receiver on
#    the stack, the load comes after the relocated bytes, and the case
#    checks that nothing changes there.
# Environment: GOVERS="1.22" restricts the Go versions.
. "$(dirname "$0")/../lib.sh"
require_tools

work_dir
DIR=$ROOT/testdata/leaffault

# run BIN CASE: stdout and stderr of BIN CASE with ASLR off (fixed mapping
# addresses), masked as above and cut after goroutine 1's traceback;
# returns its exit status.
run() {
    local rc
    GOSTAT_DIR=$WORK GOSTAT_QUIET=1 setarch -R "$1" "$2" >"$WORK/raw" 2>&1
    rc=$?
    sed -E -e 's/^((stack: )?[^\t ][^ ]*)\([^()]*\)$/\1(...)/' \
        -e 's/ fp=0x[0-9a-f]+ sp=0x[0-9a-f]+/ fp=? sp=?/' \
        -e 's/ gp=0x[0-9a-f]+ m=[0-9]+ mp=0x[0-9a-f]+//' "$WORK/raw" |
        awk '/^goroutine / { n++ } n > 1 { exit } { print }'
    return $rc
}

# in_relocated TRACEBACK DECISION: the offset of main.(*box).get's file
# line (none: +0) is below the relocated byte count of its -v decision.
in_relocated() {
    local off n
    off=$(grep -A1 '^main.(\*box).get(' "$1" | sed -n 's/.*main\.go:[0-9]* +\(0x[0-9a-f]*\).*/\1/p')
    n=$(sed -n 's/.*; \([0-9]*\) entry bytes relocated.*/\1/p' <<<"$2")
    [ -n "$n" ] && [ $((${off:-0})) -lt "$n" ]
}

# same_cases TAG BIN INSTR DECISION: the four cases of the top comment,
# INSTR against BIN.
same_cases() {
    local tag=$1 bin=$2 instr=$3 line=$4 c ok=0 want_rc got_rc
    for c in recover-wild recover-bus wild bus; do
        run "$bin" $c >"$WORK/want"
        want_rc=$?
        run "$instr" $c >"$WORK/got"
        got_rc=$?
        case $c in
            recover-*) [ $want_rc = 0 ] && [ $got_rc = 0 ] && grep -q '^callers: main.(\*box).get$' "$WORK/got" &&
                grep -q '^stack: main.(\*box).get(' "$WORK/got" ;;
            *) [ $want_rc = 2 ] && [ $got_rc = 2 ] && grep -q '^unexpected fault address 0x' "$WORK/got" &&
                grep -q "^\[signal SIG.* pc=0x" "$WORK/got" && grep -q '^main.(\*box).get(' "$WORK/got" ;;
        esac || { echo "  $tag $c: exit $got_rc (original $want_rc), or the leaf frame is missing:"
                  head -12 "$WORK/got"; ok=1; }
        diff -u --label original --label instrumented "$WORK/want" "$WORK/got" >"$WORK/d" ||
            { echo "  $tag $c: differs from the original"; head -30 "$WORK/d"; ok=1; }
        [ $c = wild ] && [[ $tag != go1.15* ]] && ! in_relocated "$WORK/want" "$line" &&
            { echo "  $tag: the fault is not in the relocated bytes ($line)"; ok=1; }
    done
    return $ok
}

check_release() {
    local v=$1 bin variant flags ok=1 c line
    for variant in exe pie; do
        bin=$WORK/lf$v.$variant
        flags=()
        [ $variant = pie ] && flags=(-buildmode=pie "-ldflags=-s -w")
        build_go "$v" "$DIR" "$bin" "${flags[@]+"${flags[@]}"}" || { fail "go$v $variant: build"; return; }
        "$GOREWRITE" -v "$bin" "$bin.instr" >"$WORK/v.txt" 2>&1 ||
            { fail "go$v $variant: gorewrite: $(tail -1 "$WORK/v.txt")"; return; }
        line=$(decision "$WORK/v.txt" "main.(*box).get")
        case $line in
            "count"*"(no stack check; "*) ;;
            *) echo "  go$v $variant: main.(*box).get not relocated: $line"; ok=0 ;;
        esac
        same_cases "go$v $variant" "$bin" "$bin.instr" "$line" || ok=0
        # the calls not timed run their own copy of the covered bytes
        # (trampoline.c: B, with guards of its own): no call sampled
        "$GOREWRITE" --sample 1000000 "$bin" "$bin.untimed" >/dev/null 2>&1 ||
            { fail "go$v $variant: gorewrite --sample 1000000"; return; }
        same_cases "go$v $variant --sample 1000000" "$bin" "$bin.untimed" "$line" || ok=0
    done
    "$GOREWRITE" --only 'main\.' "$bin" "$bin.only" >/dev/null 2>&1 || { fail "go$v: gorewrite --only"; return; }
    run "$bin" wild >"$WORK/want"
    run "$bin.only" wild >"$WORK/got"
    diff -u --label original --label "--only 'main\.'" "$WORK/want" "$WORK/got" >"$WORK/d" ||
        { echo "  go$v --only: differs from the original"; head -30 "$WORK/d"; ok=0; }
    if [ $ok = 1 ]; then
        echo "ok   go$v: recovered stacks and fatal tracebacks as the original's (exe, pie, --only)"
    else
        fail "go$v (above)"
    fi
}

for v in ${GOVERS:-$GO_VERSIONS $GO_VERSIONS_NEWER}; do
    check_release "$v"
done
[ $fails -eq 0 ]
