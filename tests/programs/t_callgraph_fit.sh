#!/usr/bin/env bash
# t_callgraph_fit: call paths fit at default settings on a real program.
# Debian's restic (scripts/deps.sh installs it) backs up a generated tree
# of 3,000 small files with GOMAXPROCS=1, built with --call-graph and no
# --max-paths. Its busiest thread runs more distinct paths than the old
# default of 16,384 paths per thread held (which left ~80 % of its calls
# beyond them), so:
#   - the path table is sized from the program: 8 per timed function in
#     whole blocks of 128, from 16384 to 1048576 (JSON max_paths);
#   - the fullest thread's table holds more than 16,384 paths, and at most
#     1 % of the calls are beyond the paths;
#   - no call overflows while the fullest table is under half full (a
#     group that is full spills into its block);
#   - every reader reports how full the tables got: the table's
#     "call paths: fullest thread's tables" line and the JSON's
#     fullest_paths agree, pprof's comments and folded's stderr note say it;
#   - an explicit --max-paths still wins, rounded up to whole blocks:
#     20000 asks for 20096 paths, which overflow there, and the fullest
#     table is then nearly full (keys spread over every block of a table
#     that is no power of two).
. "$(dirname "$0")/../lib.sh"
require_tools

RESTIC=/usr/bin/restic
require_installed "$RESTIC"
work_dir

python3 - "$WORK/data" <<'PY'
import os, random, sys
rnd = random.Random(20261126)
for d in range(40):
    os.makedirs(os.path.join(sys.argv[1], "d%02d" % d))
    for f in range(75):
        n = rnd.randrange(100, 4000)
        data = bytes(rnd.getrandbits(8) for _ in range(n)) if f % 3 else b"line %d %d\n" % (d, f) * (n // 12)
        with open(os.path.join(sys.argv[1], "d%02d" % d, "f%02d.txt" % f), "wb") as fh:
            fh.write(data)
PY

# backup TAG [gorewrite options]: instruments restic, backs $WORK/data up
# into a fresh repository (made by the original), leaves
# $WORK/TAG.json, $WORK/TAG.table and $WORK/TAG.file (the stats file).
backup() {
    local tag=$1 sd=$WORK/$1.stat f
    shift
    if ! "$GOREWRITE" --call-graph "$@" "$RESTIC" "$WORK/restic.$tag" >"$WORK/$tag.rw" 2>&1; then
        fail "$tag: gorewrite --call-graph $*: $(cat "$WORK/$tag.rw")"
        return 1
    fi
    mkdir -p "$sd"
    export RESTIC_PASSWORD=x RESTIC_REPOSITORY=$WORK/$tag.repo RESTIC_CACHE_DIR=$WORK/$tag.cache
    "$RESTIC" init -q >/dev/null || { fail "$tag: restic init"; return 1; }
    if ! GOMAXPROCS=1 GOSTAT_DIR=$sd "$WORK/restic.$tag" backup -q "$WORK/data" >"$WORK/$tag.out" 2>&1; then
        fail "$tag: instrumented backup: $(head -c 500 "$WORK/$tag.out")"
        return 1
    fi
    f=$(stats_file_for "$sd") || { fail "$tag: stats file"; return 1; }
    echo "$f" >"$WORK/$tag.file"
    gostat_json "$f" "$WORK/$tag.json" || { fail "$tag: gostat --json"; return 1; }
    "$GOSTAT" "$f" --top 1 >"$WORK/$tag.table" 2>&1 || fail "$tag: gostat table"
}

# fit TAG: prints "max_paths fullest_paths path_overflow_calls total_calls".
fit() {
    python3 -c '
import json, sys
d = json.load(open(sys.argv[1])); cp = d["call_paths"]
print(cp["max_paths"], cp["fullest_paths"], cp["path_overflow_calls"], d["total_calls"])' "$WORK/$1.json"
}

# table_says TAG FULLEST MAX: the table's fullness line names them.
table_says() {
    grep -q "^call paths: fullest thread's tables $2 of $3 paths" "$WORK/$1.table" ||
        fail "$1: the table does not say 'fullest thread's tables $2 of $3 paths': $(grep '^call paths' "$WORK/$1.table")"
}

if backup default; then
    timed=$(sed -n 's/.*(\([0-9]*\) timed).*/\1/p' "$WORK/default.rw")
    want=$(( (timed * 8 + 127) / 128 * 128 ))
    [ "$want" -ge 16384 ] || want=16384
    [ "$want" -le 1048576 ] || want=1048576
    read -r max fullest over total < <(fit default)
    echo "default: $timed timed functions, max_paths $max, fullest $fullest, $over of $total calls beyond the paths"
    [ "$max" = "$want" ] || fail "default: max_paths $max, want $want (8 per timed function of $timed)"
    [ "$fullest" -gt 16384 ] ||
        fail "default: fullest table $fullest paths: the workload no longer needs more than the old 16384"
    [ $((over * 100)) -le "$total" ] || fail "default: $over of $total calls beyond the paths (over 1 %)"
    if [ $((fullest * 2)) -lt "$max" ] && [ "$over" -ne 0 ]; then
        fail "default: $over calls overflowed while the fullest table was $fullest of $max paths"
    fi
    table_says default "$fullest" "$max"
fi

if backup small --max-paths 20000; then
    read -r max fullest over total < <(fit small)
    echo "--max-paths 20000: fullest $fullest, $over of $total calls beyond the paths"
    [ "$max" = 20096 ] || fail "small: max_paths $max: --max-paths 20000 did not win as 20096"
    [ "$over" -gt 0 ] || fail "small: no overflow with 20096 paths"
    [ "$fullest" -ge $((20096 * 9 / 10)) ] || fail "small: overflow with the fullest table at $fullest of 20096"
    table_says small "$fullest" 20096
    f=$(cat "$WORK/small.file")
    "$GOSTAT" folded "$f" -o "$WORK/small.folded" 2>"$WORK/small.folded.err" || fail "small: gostat folded"
    grep -q "the fullest thread's held $fullest)" "$WORK/small.folded.err" ||
        fail "small: folded's note does not say how full: $(cat "$WORK/small.folded.err")"
    "$GOSTAT" pprof "$f" -o "$WORK/small.pb.gz" 2>"$WORK/small.pprof.err" || fail "small: gostat pprof"
    zcat "$WORK/small.pb.gz" | grep -aq "path tables: the fullest thread's held $fullest of 20096 paths" ||
        fail "small: the pprof profile's comments do not say how full the tables got"
fi

[ $fails -eq 0 ]
