#!/usr/bin/env bash
# t_goroutine_sites: goroutines by creation site (docs/goroutines.md) with
# every Go of the tests. testdata/gosites starts known goroutines from
# known go statements: WORKERS from spawnWorkers that end, BLOCKERS from
# spawnBlockers that stay blocked, three closures from main that end, and
# two goroutines through a method value (one ends, one stays). While it
# waits on stdin, `gostat goroutines --json PID` must give exactly those
# created/exited/live per creator function and go statement line (read
# from main.go), a start function of the right name, the age of the
# oldest blocked goroutine between what the program measured just before
# and just after (and within 10 % of the first), and lifetimes for the
# sites whose goroutines ended.
# --older-than keeps only the sites with an old live goroutine. A
# --count-only build keeps the same counts.
# GOVERS="1.22" narrows the releases (the parts after the loop need 1.22).
cd "$(dirname "$0")/../.."
. tests/lib.sh
require_tools
work_dir
export GOGC=off
WORKERS=200
BLOCKERS=7
SRC=testdata/gosites/main.go

# line PATTERN: the line of main.go holding PATTERN (a go statement).
line() { grep -nF "$1" "$SRC" | cut -d: -f1 | head -1; }
L_WORKER=$(line 'go worker(i, wg)')
L_BLOCKER=$(line 'go blocker()')
L_CLOSURE=$(line 'go func() { wg.Done() }()')
L_RUN_ENDS=$(grep -nF 'go run()' "$SRC" | sed -n 1p | cut -d: -f1)
L_RUN_STAYS=$(grep -nF 'go run()' "$SRC" | sed -n 2p | cut -d: -f1)

# observe BIN TAG: runs BIN until it is ready, then reads its sites into
# $WORK/TAG.json (and --older-than 1s into TAG.old.json); the program's
# own report into TAG.out.
observe() {
    local bin=$1 tag=$2 sd=$WORK/stat.$2 fifo=$WORK/in.$2 pid k
    mkdir -p "$sd"
    mkfifo "$fifo"
    GOSTAT_DIR=$sd timeout -k 5 "$RUN_TIMEOUT" "$bin" "$WORKERS" "$BLOCKERS" <"$fifo" >"$WORK/$tag.out" 2>"$WORK/$tag.err" &
    pid=$!
    exec 7>"$fifo"
    for k in $(seq 1 600); do
        grep -q '^ready$' "$WORK/$tag.out" && break
        sleep 0.1
    done
    local f
    f=$(stats_file_for "$sd")
    "$GOSTAT" goroutines --json "$f" >"$WORK/$tag.json" 2>"$WORK/$tag.gerr" ||
        fail "$tag: gostat goroutines: $(cat "$WORK/$tag.gerr")"
    "$GOSTAT" goroutines --json --older-than 1s "$f" >"$WORK/$tag.old.json" 2>>"$WORK/$tag.gerr" ||
        fail "$tag: gostat goroutines --older-than: $(cat "$WORK/$tag.gerr")"
    echo >&7
    exec 7>&-
    wait "$pid" || fail "$tag: the program exited $?: $(tail -3 "$WORK/$tag.err")"
}

# check TAG: compares TAG.json with what the program started.
check() {
    python3 - "$WORK/$1" "$WORKERS" "$BLOCKERS" "$L_WORKER" "$L_BLOCKER" "$L_CLOSURE" \
        "$L_RUN_ENDS" "$L_RUN_STAYS" <<'PY'
import json, re, sys
tag, workers, blockers = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
lw, lb, lc, lre, lrs = map(int, sys.argv[4:9])
sites = json.load(open(tag + ".json"))["goroutines"]
old = json.load(open(tag + ".old.json"))["goroutines"]
out = open(tag + ".out").read()
age = int(re.search(r"^oldest_live_ns (\d+)$", out, re.M).group(1))
after = int(re.search(r"^oldest_live_ns_after (\d+)$", out, re.M).group(1))
want = [  # creator, line, start pattern, created, exited, live
    ("main.spawnWorkers", lw, r"main\.(worker|spawnWorkers\.gowrap\d+|spawnWorkers\.func\d+)$", workers, workers, 0),
    ("main.spawnBlockers", lb, r"main\.blocker$", blockers, 0, blockers),
    ("main.main", lc, r"main\.main\.func\d+$", 3, 3, 0),
    ("main.main", lre, r"main\.\(\*server\)\.handle-fm$", 1, 1, 0),
    ("main.main", lrs, r"main\.\(\*server\)\.handle-fm$", 1, 0, 1),
]
bad = []
for creator, line, start, c, e, l in want:
    got = [s for s in sites if s["creator"] == creator and s["line"] == line]
    if len(got) != 1:
        bad.append("%s:%d: %d sites" % (creator, line, len(got)))
        continue
    s = got[0]
    if not s["file"].endswith("testdata/gosites/main.go"):
        bad.append("%s:%d: file %s" % (creator, line, s["file"]))
    if not re.match(start, s["start"]):
        bad.append("%s:%d: start %s" % (creator, line, s["start"]))
    if (s["created"], s["exited"], s["live"]) != (c, e, l):
        bad.append("%s:%d: created/exited/live %d/%d/%d, want %d/%d/%d" %
                   (creator, line, s["created"], s["exited"], s["live"], c, e, l))
    lt = s["lifetime_ns"]
    if e and not (lt["max"] and 0 < lt["p50"] <= lt["p90"] <= lt["p99"] <= lt["max"]):
        bad.append("%s:%d: lifetimes %s" % (creator, line, lt))
    if not e and lt["max"] is not None:
        bad.append("%s:%d: lifetimes of none ended: %s" % (creator, line, lt))
    # gostat read between the program's two measures of the same age
    # (TSC vs. Go's monotonic clock: 1 % slack), and within 10 % of the
    # first unless the reads themselves were that far apart (a loaded machine)
    o = s["oldest_live_ns"]
    if l and not (age * 0.99 <= o <= after * 1.01 and (o <= age * 1.10 or after > age * 1.10)):
        bad.append("%s:%d: oldest live %d ns, the program measured %d ns before and %d ns after" %
                   (creator, line, o, age, after))
    if not l and s["oldest_live_ns"] != 0:
        bad.append("%s:%d: oldest live %d ns with none live" % (creator, line, s["oldest_live_ns"]))
keys = {(s["creator"], s["line"]) for s in old}
if ("main.spawnBlockers", lb) not in keys or ("main.spawnWorkers", lw) in keys:
    bad.append("--older-than 1s kept %s" % sorted(keys))
if any(s["live"] == 0 or s["oldest_live_ns"] < 1e9 for s in old):
    bad.append("--older-than 1s kept a site without a live goroutine that old")
print("; ".join(bad) if bad else "ok: %d sites, oldest %.3fs (program %.3fs before, %.3fs after)" % (
    len(sites), max(s["oldest_live_ns"] for s in sites if s["creator"].startswith("main.")) / 1e9,
    age / 1e9, after / 1e9))
sys.exit(1 if bad else 0)
PY
}

for v in $(releases $GO_VERSIONS $GO_VERSIONS_NEWER); do
    bin=$WORK/g$v
    build_go "$v" testdata/gosites "$bin" || { fail "go$v: build"; continue; }
    instrument "$bin" "$bin.instr" || { fail "go$v: gorewrite"; continue; }
    observe "$bin.instr" "$v"
    r=$(check "$v") || fail "go$v: $r"
    echo "go$v: $r"
done

# --count-only keeps the same sites.
if [ -x "$WORK/g1.22" ]; then
    "$GOREWRITE" --count-only "$WORK/g1.22" "$WORK/g1.22.count" >/dev/null 2>&1 || fail "--count-only rewrite"
    observe "$WORK/g1.22.count" count
    r=$(check count) || fail "--count-only: $r"
    echo "--count-only: $r"
fi

# run_to_end TAG OPTION...: g1.22 rewritten with OPTIONs, run to its end
# (stdin closed at once) with its stats in $WORK/stat.TAG, its output in
# $WORK/TAG.out; fails the test if the rewrite or the program fails.
run_to_end() {
    local tag=$1
    shift
    "$GOREWRITE" "$@" "$WORK/g1.22" "$WORK/g1.22.$tag" >/dev/null 2>&1 || { fail "$*: rewrite"; return 1; }
    mkdir -p "$WORK/stat.$tag"
    echo | GOSTAT_DIR=$WORK/stat.$tag "$WORK/g1.22.$tag" "$WORKERS" "$BLOCKERS" >"$WORK/$tag.out" 2>&1 ||
        { fail "$*: the program failed: $(tail -2 "$WORK/$tag.out")"; return 1; }
}

# Tables too small: 2 sites (the runtime's first goroutines take them) and
# 2 live entries. The program runs as before, the sites it has stay exact
# as far as they go, and gostat says what was not kept.
if [ -x "$WORK/g1.22" ] && run_to_end small --max-goroutine-sites 2 --max-live-goroutines 2; then
    grep -q "^site main.spawnWorkers worker created $WORKERS exited $WORKERS live 0$" "$WORK/small.out" ||
        fail "small tables: the program's output: $(head -2 "$WORK/small.out")"
    small=$("$GOSTAT" goroutines "$(stats_file_for "$WORK/stat.small")")
    n=$(tail -n +2 <<<"$small" | grep -c ' -> ')
    [ "$n" -eq 2 ] || fail "small tables: $n sites shown, want 2: $small"
    # every creation and end of the 10 sites but 2 finds no entry
    grep -qE "^not kept: [1-9][0-9]+ creations or exits found no site entry, [1-9][0-9]* goroutines no live entry" <<<"$small" ||
        fail "small tables: no 'not kept' line: $small"
    echo "small tables: $(tail -2 <<<"$small" | head -1)"
fi

# A live table of 2 entries, which the runtime's first goroutines keep: the
# workers end without a known lifetime (counted apart from the histogram's
# ends, stubs/sites.S) and still count as ended, exactly.
if [ -x "$WORK/g1.22" ] && run_to_end nolive --max-live-goroutines 2; then
    r=$("$GOSTAT" goroutines --json "$(stats_file_for "$WORK/stat.nolive")" | python3 -c '
import json, sys
w = int(sys.argv[1])
s = [g for g in json.load(sys.stdin)["goroutines"] if g["creator"] == "main.spawnWorkers"]
got = [(g["created"], g["exited"], g["live"]) for g in s]
print("ok" if got == [(w, w, 0)] else "main.spawnWorkers: %s, want [(%d, %d, 0)]" % (got, w, w))' "$WORKERS")
    [ "$r" = ok ] || fail "2 live entries: $r"
    echo "2 live entries: main.spawnWorkers created $WORKERS exited $WORKERS live 0"
fi

# --max-goroutine-sites 0 keeps none (the cost's baseline, make bench).
if [ -x "$WORK/g1.22" ] && run_to_end nosites --max-goroutine-sites 0; then
    r=$("$GOSTAT" goroutines "$(stats_file_for "$WORK/stat.nosites")" 2>&1)
    grep -q "keeps no goroutine sites" <<<"$r" || fail "--max-goroutine-sites 0: gostat goroutines says: $r"
    echo "--max-goroutine-sites 0: no sites"
fi

[ $fails -eq 0 ] && echo "PASS: t_goroutine_sites"
exit $((fails > 0))
