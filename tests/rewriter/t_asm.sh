#!/usr/bin/env bash
# t_asm: assembly functions without a stack check (testdata/asmcalls), with
# every Go of the tests:
#  - gorewrite -v counts internal/bytealg.IndexByte, IndexByteString and
#    math/big.addVV (assembly, their first instructions relocated), skips
#    the runtime's assembly with its reason, and no skip lacks a reason;
#  - the instrumented program (default mode) behaves as the original with
#    1000 and with 3000 rounds, and between the two runs the counts grow by
#    exactly 2000 for bytealg.IndexByte, bytealg.IndexByteString,
#    math/big.addVV and syscall.RawSyscall (assembly in Go <= 1.18), and by
#    4000 for sha256's block (two blocks per Sum256 of 64 bytes).
# Environment: GOVERS="1.22" restricts the Go versions.
. "$(dirname "$0")/../lib.sh"
require_tools

work_dir
DIR=$ROOT/testdata/asmcalls

# Async preemption off for these runs: Go 1.15's isAsyncSafePoint calls
# runtime.funcname -> findnull -> bytealg.IndexByteString whenever a
# preemption signal lands, so that count moved by 1-2 between identical
# runs (89 vs 91 calls with 1000 rounds; gdb: the extra callers are
# runtime.funcname), and the 2000-call difference came out 1999 once in 12.
export GODEBUG=asyncpreemptoff=1
# run_rounds V BIN N: runs BIN and BIN.i with N rounds (same behaviour), gostat --json of BIN.i to r$N.json.
run_rounds() {
    local v=$1 bin=$2 n=$3 f
    run_compare "$bin" "$bin.i" "$n" || { echo "  go$v: run with $n rounds differs"; return 1; }
    f=$(stats_file_for "$RC_STATDIR") && gostat_json "$f" "$WORK/r$n.json" || return 1
    rm -rf "$RC_WORK"
}

check_release() {
    local v=$1 bin=$WORK/asm$v ok=1 fn line
    build_go "$v" "$DIR" "$bin" || { fail "go$v: build"; return; }
    "$GOREWRITE" -v "$bin" "$bin.i" >"$WORK/v.txt" 2>&1 ||
        { fail "go$v: gorewrite: $(tail -1 "$WORK/v.txt")"; return; }
    for fn in internal/bytealg.IndexByte internal/bytealg.IndexByteString math/big.addVV; do
        line=$(decision "$WORK/v.txt" "$fn")
        case $line in
            "count "*"(no stack check; "* | "count+time "*"(no stack check; "*) ;;
            *) echo "  go$v: $fn (assembly) not counted: $line"; ok=0 ;;
        esac
    done
    grep -q "^skip .*: no stack check: assembly of the runtime" "$WORK/v.txt" ||
        { echo "  go$v: no runtime assembly skipped as such"; ok=0; }
    if grep -E "^skip +0x[0-9a-f]+ [^ ]+: *$" "$WORK/v.txt" | head -3 | grep -q .; then
        echo "  go$v: a skip without a reason"; ok=0
    fi
    run_rounds "$v" "$bin" 1000 && run_rounds "$v" "$bin" 3000 || { fail "go$v (above)"; return; }
    python3 - "$WORK/r1000.json" "$WORK/r3000.json" "$v" <<'PY' || ok=0
import json, re, sys
a, b = [{f["name"]: f["calls"] for f in json.load(open(p))["functions"]} for p in sys.argv[1:3]]
want = {"internal/bytealg.IndexByte": 2000, "internal/bytealg.IndexByteString": 2000,
        "math/big.addVV": 2000, "syscall.RawSyscall": 2000}
bad = []
for name, d in want.items():
    got = b.get(name, 0) - a.get(name, 0)
    if got != d:
        bad.append("%s: %d more calls with 2000 more rounds, want %d" % (name, got, d))
block = [n for n in b if re.fullmatch(r"crypto/(internal/fips140/)?sha256\.block", n)]
got = sum(b[n] - a.get(n, 0) for n in block)
if len(block) != 1 or got != 4000:
    bad.append("sha256 block %s: %d more calls, want 4000" % (block, got))
for x in bad:
    print("  go%s: %s" % (sys.argv[3], x))
sys.exit(1 if bad else 0)
PY
    if [ $ok = 1 ]; then
        echo "ok   go$v"
    else
        fail "go$v (above)"
    fi
}

for v in ${GOVERS:-$GO_VERSIONS $GO_VERSIONS_NEWER}; do
    check_release "$v"
done
[ $fails -eq 0 ]
