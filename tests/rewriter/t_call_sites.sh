#!/usr/bin/env bash
# t_call_sites: direct calls go straight to their callee's trampoline
# (rewriter/plan/call_sites.c), testdata/recursion with Go 1.15, 1.22 and
# 1.27:
#  - gorewrite -v reports the call sites retargeted, and none with
#    --keep-call-sites;
#  - every direct `call` of main.* to main.fib, main.isEven, main.isOdd and
#    main.ack (objdump of the original) now leads where that function's
#    entry jmp leads, and to the entry again with --keep-call-sites (that
#    nothing else changed, return addresses included, is the LIEF re-read's,
#    as for every output);
#  - output and exit status equal the original's, counts are exactly
#    testdata/recursion/expect's, default mode and --count-only, both ways;
#  - gdb: `break main.isEven` (after the stack check) first stops at
#    main.main's call isEven(1000) in both binaries; `break *ENTRY` does
#    so only with --keep-call-sites; by default the direct calls pass it
#    and only a restart after stack growth (morestack's jmp back to the
#    entry) stops there (the documented trade, --help).
# Environment: GOVERS="1.22" restricts the Go versions.
. "$(dirname "$0")/../lib.sh"
require_tools

work_dir
DIR=$ROOT/testdata/recursion
ARGS=$(cat "$DIR/args")

# sites ORIG INSTR KEPT: checks every direct call between main's functions.
sites() {
    python3 - "$1" "$2" "$3" <<'PY'
import re, subprocess, sys
orig, instr, kept = sys.argv[1], sys.argv[2], sys.argv[3] == "1"
def dis(path):
    out = subprocess.run(["objdump", "-d", "--no-show-raw-insn", path], capture_output=True,
                         text=True, check=True).stdout
    ins = {}
    for m in re.finditer(r"^[ \t]*([0-9a-f]+):[ \t]+(\S+)(?:[ \t]+([0-9a-f]+)\b)?", out, re.M):
        ins[int(m.group(1), 16)] = (m.group(2), int(m.group(3), 16) if m.group(3) else None)
    return out, ins
otext, o = dis(orig)
_, n = dis(instr)
callees = {}
for m in re.finditer(r"^([0-9a-f]+) <(main\.(fib|isEven|isOdd|ack))>:", otext, re.M):
    callees[int(m.group(1), 16)] = m.group(2)
calls = [(a, t) for a, (op, t) in o.items() if op == "call" and t in callees]
bad = 0
for a, t in calls:
    entry_op, tramp = n.get(t, (None, None))
    want = t if kept else tramp
    got = n.get(a, (None, None))
    if entry_op != "jmp" or got != ("call", want):
        print("call at 0x%x to %s: instrumented %s, want call 0x%x (entry: %s 0x%x)"
              % (a, callees[t], got, want, entry_op, tramp or 0))
        bad = 1
if len(calls) < 6:
    print("only %d direct calls to main.fib/isEven/isOdd/ack found" % len(calls))
    bad = 1
print("%d calls" % len(calls))
sys.exit(bad)
PY
}

# gdb_first_stop BIN BREAK: the argument n of main.isEven at the first
# stop ("n=1000": the call from main.main), or "none" when the program ran
# to its end without stopping.
gdb_first_stop() {
    mkdir -p "$WORK/gdbstats"   # the program's stats file, not in /dev/shm
    GOSTAT_DIR=$WORK/gdbstats gdb -nx -batch -ex 'set auto-load safe-path /nonexistent' -ex 'handle SIGURG nostop noprint pass' \
        -ex "break $2" -ex "run $ARGS >/dev/null" -ex 'kill' "$1" >"$WORK/gdb.out" 2>&1
    if grep -q 'Breakpoint 1, main\.isEven (n=' "$WORK/gdb.out"; then
        grep -o -m1 'Breakpoint 1, main\.isEven (n=[0-9]*' "$WORK/gdb.out" | sed 's/.*(//'
    elif grep -q 'exited normally' "$WORK/gdb.out"; then
        echo none
    else
        echo "unclear: $(grep -m3 -i 'break\|error\|exited' "$WORK/gdb.out" | tr '\n' ' ')"
    fi
}

check_release() {
    local v=$1
    local bin=$WORK/rec$v mode flag out n
    build_go "$v" "$DIR" "$bin" || { fail "go$v: build"; return; }
    for flag in "" --keep-call-sites; do
        for mode in "" --count-only; do
            # shellcheck disable=SC2086
            "$GOREWRITE" -v $mode $flag "$bin" "$bin.i" >"$WORK/v.txt" 2>&1 ||
                { fail "go$v $mode $flag: gorewrite: $(tail -1 "$WORK/v.txt")"; continue; }
            n=$(sed -n 's/^call sites: \([0-9]*\) direct calls.*/\1/p' "$WORK/v.txt")
            if [ -z "$flag" ] && ! [ "${n:-0}" -gt 1000 ]; then
                fail "go$v $mode: -v says ${n:-nothing} call sites retargeted, want > 1000"
            elif [ -n "$flag" ] && [ "$n" != 0 ]; then
                fail "go$v $mode $flag: -v says $n call sites retargeted, want 0"
            fi
            out=$(sites "$bin" "$bin.i" "$([ -n "$flag" ] && echo 1 || echo 0)") ||
                fail "go$v $mode $flag: $out"
            # shellcheck disable=SC2086
            if run_compare "$bin" "$bin.i" $ARGS >"$WORK/cmp.txt"; then
                local f
                f=$(stats_file_for "$RC_STATDIR") && gostat_json "$f" "$WORK/j.json" &&
                    check_counts "$WORK/j.json" "$DIR/expect" "$v" ||
                    fail "go$v $mode $flag: counts differ from expect"
            else
                fail "go$v $mode $flag: run differs from the original: $(head -5 "$WORK/cmp.txt")"
            fi
            echo "ok   go$v ${mode:-default} ${flag:-(call sites retargeted: $n)}: $out, counts exact"
        done
        # gdb on the default-mode binary of this flag
        "$GOREWRITE" $flag "$bin" "$bin.g" >/dev/null 2>&1 || { fail "go$v $flag: gorewrite"; continue; }
        local entry post raw
        entry=$(nm "$bin" | awk '$3 == "main.isEven" {print $1}')
        post=$(gdb_first_stop "$bin.g" main.isEven)
        raw=$(gdb_first_stop "$bin.g" "*0x$entry")
        if [ "$post" != n=1000 ]; then
            fail "go$v $flag: gdb break main.isEven first stopped at: $post, want main.main's call (n=1000)"
        elif [ -z "$flag" ] && { [ "$raw" = n=1000 ] || [ "${raw#unclear}" != "$raw" ]; }; then
            fail "go$v: gdb break *0x$entry (main.isEven's entry): first stop $raw, want past main.main's direct call"
        elif [ -n "$flag" ] && [ "$raw" != n=1000 ]; then
            fail "go$v $flag: gdb break *0x$entry: first stop $raw, want main.main's call (n=1000)"
        else
            echo "ok   go$v ${flag:-default}: gdb break main.isEven first stops at n=1000; break *0x$entry at ${raw}"
        fi
    done
}

for v in ${GOVERS:-1.15 1.22 1.27}; do
    check_release "$v"
done
[ "$fails" -eq 0 ]
