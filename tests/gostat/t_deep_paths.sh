#!/bin/bash
# t_deep_paths: gostat's call-path outputs stay linear in the nodes however
# deep the paths (each node's whole stack used to be written, about
# depth^2/2 frames for a chain: a 16,384-deep file made folded write 4 GB
# and pprof take 2.4 GB). A path keeps its 64 innermost frames under a first
# frame "(truncated)", as Go's CPU profiles cap stack depth:
#  - a crafted file (mkstats --chain) with one chain of 16,384 nested calls
#    through 10 functions: folded --value calls has one line per context,
#    min(depth + 2, 64 + 1) frames each (exactly, summed), the deeper ones
#    starting with "(truncated)"; pprof (go tool pprof -raw) as many
#    samples with as many locations, and its comment says how many were cut;
#    the table's cum (JSON cum_ns) is exact (each function once per path);
#  - a real program (testdata/deeppath, 60,000 nested calls through 10
#    functions, --call-graph --max-paths 262144, Go $GO, default 1.22):
#    folded has the 60,001 contexts of the chain with min(depth + 3, 65)
#    frames, pprof the same samples.
# Every gostat here runs under a 1 GB address-space limit (not under
# ASan), a 256 MB file size limit and a 120 s timeout; /usr/bin/time's
# figures are printed, not checked (sizes are).
cd "$(dirname "$0")/../.."
. tests/assert.sh
require_tools

GO=${GO:-1.22}
mkdir -p "$dir/home"
# The reader is Go 1.22's pprof whatever built the program (older ones
# wrap long samples in -raw).
pprof_go() { HOME=$dir/home go_env 1.22 "$(go_bin 1.22)" tool pprof "$@"; }

# bounded NAME ARGS...: gostat ARGS under the limits, stdout to $dir/NAME.out.
bounded() {
    local name=$1
    shift
    # (ASan reserves terabytes of shadow address space: no -v limit under it)
    local vm=1048576
    [ -n "${SANITIZE:-}" ] && vm=unlimited
    (ulimit -v $vm -f 262144; timeout 120 /usr/bin/time -f "$name: %e s, %M KB" "$GOSTAT" "$@") \
        >"$dir/$name.out" 2>"$dir/$name.err"
    local rc=$?
    tail -1 "$dir/$name.err"
    return $rc
}

# check_folded FILE LEAF_RE FIRST_FRAMES COUNT: the lines of folded FILE
# whose leaf matches LEAF_RE are COUNT, the i-th (by depth) having
# min(FIRST_FRAMES + i, 65) frames, those of 65 starting with
# "(truncated)"; no line has more than 65 frames.
check_folded() {
    python3 - "$@" <<'PY'
import re, sys
path, leaf, first, count = sys.argv[1], re.compile(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
bad, depths = [], []
for line in open(path):
    stack = line.rsplit(" ", 1)[0].split(";")
    if len(stack) > 65:
        bad.append("a line of %d frames" % len(stack))
    if leaf.fullmatch(stack[-1]):
        depths.append(len(stack))
        if (len(stack) == 65) != (stack[0] == "(truncated)"):
            bad.append("line of %d frames starts with %s" % (len(stack), stack[0]))
want = sum(min(first + i, 65) for i in range(count))
if len(depths) != count or sum(depths) != want:
    bad.append("%d chain lines of %d frames in all, want %d of %d" % (len(depths), sum(depths), count, want))
for b in bad[:5]:
    print("  " + b)
sys.exit(1 if bad else 0)
PY
}

# check_pprof FILE COUNT FRAMES: go tool pprof -raw of FILE has COUNT
# path samples (those of 2 locations or more: a path starts with its
# caller; the untimed functions' samples have one) with FRAMES locations
# in all, none above 65, and the comment on the truncated ones.
check_pprof() {
    pprof_go -raw "$1" >"$1.raw" 2>"$1.err" || { echo "  pprof -raw: $(head -3 "$1.err")"; return 1; }
    python3 - "$1.raw" "$2" "$3" <<'PY'
import sys
raw, count, frames = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
samples, in_samples, comment = [], False, False
for line in open(raw):
    if line.startswith("Comment:") and "deeper than 64 frames keep their 64 innermost" in line:
        comment = True
    if line.startswith("Samples:"):
        in_samples = True
        continue
    if in_samples and ":" in line and line.split(":")[0].split()[0].isdigit():
        n = len(line.split(":", 1)[1].split())
        if n >= 2:
            samples.append(n)
    elif in_samples and line.startswith("Locations"):
        break
bad = []
if len(samples) != count or sum(samples) != frames or max(samples) > 65:
    bad.append("%d samples, %d locations, at most %d; want %d, %d, 65"
               % (len(samples), sum(samples), max(samples or [0]), count, frames))
if not comment:
    bad.append("no comment on the truncated samples")
for b in bad:
    print("  pprof: " + b)
sys.exit(1 if bad else 0)
PY
}

# A crafted 16,384-deep chain (exited pid: nothing is live).
N=16384
args=()
for i in 0 1 2 3 4 5 6 7 8 9; do args+=(--func "main.f$i:$((0x1000 + 0x100 * i)):$(( (N - i + 9) / 10 ))"); done
"$MKSTATS" "$dir/chain.stats" --pid 4194305 --timing --tsc 1000:0:1001000:1000000 --rows 2 \
    --chain $N "${args[@]}" || fail "mkstats --chain"
bounded chain_folded folded --value calls "$dir/chain.stats" || fail "folded of the chain file"
check_folded "$dir/chain_folded.out" 'main\.f[0-9]' 2 $N || fail "folded of the chain file: not capped"
# (uncapped, the rest would take minutes to reach its limits)
[ $fails -eq 0 ] || finish t_deep_paths
frames=$(python3 -c "print(sum(min(d + 2, 65) for d in range($N)))")
bounded chain_pprof pprof -o "$dir/chain.pb.gz" "$dir/chain.stats" || fail "pprof of the chain file"
check_pprof "$dir/chain.pb.gz" $N "$frames" || fail "pprof of the chain file: not capped"
bounded chain_json --json "$dir/chain.stats" || fail "--json of the chain file"
# cum: main.fK is on the paths of every context from depth K on.
expect "chain: cum_ns of main.f0 main.f5 main.f9" "16384 16379 16375" \
    "$(python3 -c 'import json,sys; c={f["name"]: f.get("cum_ns") for f in json.load(open(sys.argv[1]))["functions"]}; print(c["main.f0"], c["main.f5"], c["main.f9"])' "$dir/chain_json.out")"

# The real program.
DEPTH=60000
build_go $GO testdata/deeppath "$dir/deep" || fail "build deeppath"
"$GOREWRITE" --call-graph --max-paths 262144 "$dir/deep" "$dir/deep.instr" >/dev/null 2>"$dir/rw.err" ||
    { fail "gorewrite: $(cat "$dir/rw.err")"; finish t_deep_paths; }
mkdir -p "$dir/sd"
expect "deeppath output" "f0($DEPTH) = $DEPTH" "$(GOSTAT_DIR=$dir/sd "$dir/deep.instr" $DEPTH)"
stats=$(ls "$dir"/sd/gostat.deep.instr.*)
echo "deeppath stats file: $(du -k "$stats" | cut -f1) KB used"
bounded deep_folded folded --value calls "$stats" || fail "folded of deeppath"
# runtime.main;main.main;main.f0;...: f at depth d has d + 3 frames
check_folded "$dir/deep_folded.out" 'main\.f[0-9]' 3 $((DEPTH + 1)) || fail "folded of deeppath: not capped"
lines=$(wc -l <"$dir/deep_folded.out")
frames=$(awk -F';' '{ n += NF } END { print n }' "$dir/deep_folded.out")
bounded deep_pprof pprof -o "$dir/deep.pb.gz" "$stats" || fail "pprof of deeppath"
check_pprof "$dir/deep.pb.gz" "$lines" "$frames" || fail "pprof of deeppath: not capped"

finish t_deep_paths
