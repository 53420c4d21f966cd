#!/usr/bin/env bash
# t_runtime_asm: the runtime's assembly counted (testdata/rtasm), with every
# Go of the tests, in the default mode and with --count-only:
#  - gorewrite -v counts runtime.memmove, runtime.memequal, memeqbody,
#    indexbytebody and sha256's assembly block; it skips runtime.goexit,
#    runtime.morestack and the write barrier, each with its reason;
#  - the instrumented program behaves as the original with 1000 and 3000
#    rounds, and between the two runs the counts grow by exactly 4000 for
#    sha256's assembly block (only the program calls it: two blocks per
#    Sum256 of 64 bytes) and 2000 for internal/bytealg.IndexByteString
#    less runtime.findnull's calls (the lowest of three runs of each: see
#    AGAIN below);
#    runtime.memmove, runtime.memequal, memeqbody and indexbytebody, which
#    the runtime calls too, count at least one call per round, and grow by
#    2000 +- SLACK (the runtime's own calls vary between runs by a few);
#  - hash/crc32.ieeeCLMUL (assembly outside the runtime that only compiled
#    Go calls and that keeps R14) is timed: 2000 more calls, in the default
#    mode (built with --first 1000) all 1000 calls of the first run timed,
#    within the time of its caller crc32.ChecksumIEEE;
#  - math/big.addVV on 8-word numbers (its 4-word loop uses R14 as a
#    scratch register) is counted exactly (2000 more calls) and the
#    program behaves as the original: a timed return would take that
#    scratch value for g;
#  - "fault": memmove and memequal reading an unmapped address under
#    debug.SetPanicOnFault panic as in the original: the same recovered
#    error and the same functions on the stack (run_compare's exact stdout).
# Environment: GOVERS="1.22" restricts the Go versions.
. "$(dirname "$0")/../lib.sh"
require_tools

work_dir
DIR=$ROOT/testdata/rtasm
SLACK=100
# Async preemption off: Go 1.15's preemption handler calls IndexByteString
# (runtime.funcname -> findnull) whenever its signal lands (t_asm.sh).
export GODEBUG=asyncpreemptoff=1
# The runtime calls IndexByteString itself through runtime.findnull (C
# strings: arguments, environment, uname's release, and function names,
# which Go 1.15's checkdead reads for every goroutine whenever all its
# threads fall idle, as often as the machine's load makes them: a fresh
# check once had one call more in all three runs of 1000 rounds). findnull
# calls it once per page it scans, so IndexByteString's calls less
# findnull's are the program's own, plus one whenever a string crosses a
# page (uname's release, a local at a random place on the main thread's
# stack: 2 runs in 800): the lowest of three runs of each size is taken.
AGAIN="index"
AGAIN_RUNS="1 2"

# run_rounds V BIN WHAT N: BIN and BIN.i with N rounds of WHAT (same
# behaviour); gostat --json to WHAT.N.json.
run_rounds() {
    local v=$1 bin=$2 what=$3 n=$4 f
    run_compare "$bin" "$bin.i" "$what" "$n" || { echo "  go$v: $what with $n rounds differs"; return 1; }
    f=$(stats_file_for "$RC_STATDIR") && gostat_json "$f" "$WORK/$what.$n.json" || return 1
    rm -rf "$RC_WORK"
    case " $AGAIN " in *" $what "*) ;; *) return 0 ;; esac
    local k
    for k in $AGAIN_RUNS; do
        mkdir -p "$WORK/again.$n" && GOSTAT_DIR=$WORK/again.$n "$bin.i" "$what" "$n" >/dev/null &&
            gostat_json "$WORK/again.$n"/gostat.* "$WORK/$what.$n.again$k.json" || return 1
        rm -rf "$WORK/again.$n"
    done
}

# decisions V MODE: the -v lines of the functions the test relies on.
decisions() {
    local v=$1 mode=$2 fn line ok=0
    for fn in runtime.memmove runtime.memequal memeqbody indexbytebody; do
        line=$(decision "$WORK/v.txt" "$fn")
        case $line in
            "count "*"(no stack check; "*) ;;
            *) echo "  go$v: $fn not counted: $line"; ok=1 ;;
        esac
    done
    line=$(decision "$WORK/v.txt" hash/crc32.ieeeCLMUL)
    case $mode:$line in
        --count-only:"count "*"(no stack check; "* | :"count+time "*"(no stack check; "*) ;;
        *) echo "  go$v $mode: hash/crc32.ieeeCLMUL not counted (and timed): $line"; ok=1 ;;
    esac
    for fn in runtime.goexit runtime.morestack; do
        line=$(decision "$WORK/v.txt" "$fn")
        case $line in
            "skip "*": no stack check: "*runtime*) ;;
            *) echo "  go$v: $fn not skipped with its reason: $line"; ok=1 ;;
        esac
    done
    grep -qE "^skip .*runtime.gcWriteBarrier.*: no stack check: assembly of the runtime entered with R12, R13 or flags live" \
        "$WORK/v.txt" || { echo "  go$v: the write barrier is not skipped as entered with R12/R13 live"; ok=1; }
    return $ok
}

# check_counts_grew WHAT TAG NAME...: between WHAT.1000.json and
# WHAT.3000.json, as the top comment says.
check_counts_grew() {
    python3 - "$WORK/$1.1000.json" "$WORK/$1.3000.json" "$SLACK" "$2" "${@:3}" <<'PY'
import glob, json, re, sys
def calls(path):
    return {f["name"]: f["calls"] for f in json.load(open(path))["functions"]}
a, b = [calls(p) for p in sys.argv[1:3]]
ibs = "internal/bytealg.IndexByteString"
def own(counts):  # IndexByteString's calls less runtime.findnull's (one each)
    return counts.get(ibs, 0) - counts.get("runtime.findnull", 0)
for counts, path in ((a, sys.argv[1]), (b, sys.argv[2])):
    lowest = own(counts)
    for again in glob.glob(path.replace(".json", ".again*.json")):
        lowest = min(lowest, own(calls(again)))
    counts[ibs] = lowest
files = {f["name"]: f.get("file", "") for f in json.load(open(sys.argv[2]))["functions"]}
slack, tag, names = int(sys.argv[3]), sys.argv[4], sys.argv[5:]
bad = []
def grew(name):
    return b.get(name, 0) - a.get(name, 0)
if "internal/bytealg.IndexByteString" in names and grew("internal/bytealg.IndexByteString") != 2000:
    bad.append("IndexByteString: %d more calls with 2000 more rounds, want 2000" %
               grew("internal/bytealg.IndexByteString"))
for name in [n for n in names if n not in ("internal/bytealg.IndexByteString", "sha256", "crc32", "bigadd")]:
    if a.get(name, 0) < 1000 or b.get(name, 0) < 3000:
        bad.append("%s: %d and %d calls in 1000 and 3000 rounds, want at least that" %
                   (name, a.get(name, 0), b.get(name, 0)))
    elif abs(grew(name) - 2000) > slack:
        bad.append("%s: %d more calls with 2000 more rounds, want 2000 +- %d" % (name, grew(name), slack))
block = [n for n in b if re.fullmatch(r"crypto/(internal/fips140/)?sha256\.block\w*", n)
         and files.get(n, "").endswith(".s") and grew(n) > 0]
got = sum(grew(n) for n in block)
if "sha256" in names and (len(block) != 1 or got != 4000):
    bad.append("sha256's assembly block %s: %d more calls, want 4000" % (block, got))
full = {f["name"]: f for f in json.load(open(sys.argv[1]))["functions"]}
if "crc32" in names:
    clmul, caller = full.get("hash/crc32.ieeeCLMUL", {}), full.get("hash/crc32.ChecksumIEEE", {})
    if grew("hash/crc32.ieeeCLMUL") != 2000:
        bad.append("ieeeCLMUL: %d more calls with 2000 more rounds, want 2000" % grew("hash/crc32.ieeeCLMUL"))
    if tag.endswith("default") and (clmul.get("timed_calls") != 1000 or
                                    not 0 < clmul.get("total_ns", 0) <= caller.get("total_ns", 0)):
        bad.append("ieeeCLMUL: %s timed calls of 1000, %s ns within ChecksumIEEE's %s ns" %
                   (clmul.get("timed_calls"), clmul.get("total_ns"), caller.get("total_ns")))
    if tag.endswith("count-only") and clmul.get("timed"):
        bad.append("ieeeCLMUL timed with --count-only")
if "bigadd" in names and grew("math/big.addVV") != 2000:
    bad.append("math/big.addVV: %d more calls with 2000 more rounds, want 2000" % grew("math/big.addVV"))
for x in bad:
    print("  %s: %s" % (tag, x))
sys.exit(1 if bad else 0)
PY
}

check_mode() {
    local v=$1 mode=$2 bin=$WORK/rt$v
    # the default mode with --first 1000: ieeeCLMUL's 1000 calls all timed
    "$GOREWRITE" -v ${mode:---first 1000} "$bin" "$bin.i" >"$WORK/v.txt" 2>&1 ||
        { echo "  go$v $mode: gorewrite: $(tail -1 "$WORK/v.txt")"; return 1; }
    decisions "$v" "$mode" || return 1
    run_compare "$bin" "$bin.i" fault || { echo "  go$v $mode: the faults differ"; return 1; }
    grep -q "^  runtime.memmove$" "$RC_WORK/instr/out" ||
        { echo "  go$v $mode: the memmove fault is not inside runtime.memmove"; return 1; }
    local what tag="go$v ${mode:-default}" ok=0
    for what in copy equal index sha256 crc32 bigadd; do
        run_rounds "$v" "$bin" $what 1000 && run_rounds "$v" "$bin" $what 3000 || return 1
    done
    check_counts_grew copy "$tag" runtime.memmove || ok=1
    check_counts_grew equal "$tag" runtime.memequal memeqbody || ok=1
    check_counts_grew index "$tag" internal/bytealg.IndexByteString indexbytebody || ok=1
    check_counts_grew sha256 "$tag" sha256 || ok=1
    check_counts_grew crc32 "$tag" crc32 || ok=1
    check_counts_grew bigadd "$tag" bigadd || ok=1
    return $ok
}

for v in ${GOVERS:-$GO_VERSIONS $GO_VERSIONS_NEWER}; do
    build_go "$v" "$DIR" "$WORK/rt$v" || { fail "go$v: build"; continue; }
    ok=1
    for mode in "" --count-only; do
        check_mode "$v" "$mode" || ok=0
    done
    if [ $ok = 1 ]; then echo "ok   go$v"; else fail "go$v (above)"; fi
done
[ $fails -eq 0 ]
