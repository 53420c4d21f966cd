#!/usr/bin/env bash
# t_goroutine_paths: goroutine sites told apart by the creator's call path
# under --call-graph (docs/goroutines.md, "Creator call paths").
# testdata/gopaths holds one go statement in main.spawn, called A times
# from main.helperA (goroutines that end), B times from main.helperB (that
# stay blocked) and once from main.main directly (main never returns).
# At the program's end `gostat goroutines --json` must give exactly three
# rows for that go statement, one per path, with exact created/exited/live
# and creator_path root first; the table a "via" line under each. Without
# --call-graph: one row with the sums and no creator_path. Go 1.15, 1.19,
# 1.22 and the newest toolchain.
cd "$(dirname "$0")/../.."
. tests/lib.sh
require_tools
work_dir
export GOGC=off
A=4
B=6
NEWEST=$(echo $GO_VERSIONS $GO_VERSIONS_NEWER | tr ' ' '\n' | while read -r v; do
    [ -x "$(go_bin "$v")" ] && echo "$v"; done | tail -1)

# run TAG BIN: BIN A B to its end (stdin closed at once), its stats in
# $WORK/stat.TAG; gostat goroutines into TAG.json and TAG.txt.
run() {
    local tag=$1 bin=$2 f
    mkdir -p "$WORK/stat.$tag"
    echo | GOSTAT_DIR=$WORK/stat.$tag timeout -k 5 "$RUN_TIMEOUT" "$bin" "$A" "$B" >"$WORK/$tag.out" 2>&1 ||
        { fail "$tag: the program failed: $(tail -2 "$WORK/$tag.out")"; return 1; }
    f=$(stats_file_for "$WORK/stat.$tag") || { fail "$tag: no stats file"; return 1; }
    "$GOSTAT" goroutines --json "$f" >"$WORK/$tag.json" 2>"$WORK/$tag.err" &&
        COLUMNS=200 "$GOSTAT" goroutines "$f" >"$WORK/$tag.txt" 2>>"$WORK/$tag.err" ||
        { fail "$tag: gostat goroutines: $(cat "$WORK/$tag.err")"; return 1; }
}

# check TAG PATHS: TAG.json's rows for main.spawn, with creator paths
# (PATHS 1) or without (0).
check() {
    python3 - "$WORK/$1" "$2" "$A" "$B" <<'PY'
import json, sys
tag, paths, a, b = sys.argv[1], sys.argv[2] == "1", int(sys.argv[3]), int(sys.argv[4])
sites = json.load(open(tag + ".json"))["goroutines"]
rows = [s for s in sites if s["creator"] == "main.spawn"]
bad = []
if paths:
    root = ["runtime.main", "main.main"]
    want = {tuple(root + ["main.helperA", "main.spawn"]): (a, a, 0),
            tuple(root + ["main.helperB", "main.spawn"]): (b, 0, b),
            tuple(root + ["main.spawn"]): (1, 0, 1)}
    got = {tuple(s.get("creator_path", [])): (s["created"], s["exited"], s["live"]) for s in rows}
    if len(rows) != 3 or got != want:
        bad.append("rows %s, want %s" % (got, want))
    if any("creator_path" not in s or s["creator_path"][-1] != s["creator"] for s in sites):
        bad.append("a row without creator_path ending with its creator")
    txt = open(tag + ".txt").read().splitlines()
    vias = [txt[i + 1].strip() for i, l in enumerate(txt[:-1]) if " main.spawn (" in l]
    want_vias = sorted(["via main.helperA <- main.main <- runtime.main",
                        "via main.helperB <- main.main <- runtime.main", "via main.main <- runtime.main"])
    if sorted(vias) != want_vias:
        bad.append("table: %s, want %s" % (vias, want_vias))
else:
    got = [(s["created"], s["exited"], s["live"]) for s in rows]
    if got != [(a + b + 1, a, b + 1)]:
        bad.append("rows %s, want %s" % (got, [(a + b + 1, a, b + 1)]))
    if any("creator_path" in s for s in sites):
        bad.append("creator_path without --call-graph")
    if "via " in open(tag + ".txt").read():
        bad.append("a via line without --call-graph")
print("; ".join(bad) if bad else "ok: " + ", ".join(
    "%s %d/%d/%d" % ("<-".join(reversed(s.get("creator_path", ["-"]))), s["created"], s["exited"], s["live"])
    for s in rows))
sys.exit(1 if bad else 0)
PY
}

for v in 1.15 1.19 1.22 $NEWEST; do
    bin=$WORK/g$v
    build_go "$v" testdata/gopaths "$bin" || { fail "go$v: build"; continue; }
    "$GOREWRITE" --call-graph "$bin" "$bin.cg" >"$WORK/rw.txt" 2>&1 ||
        { fail "go$v: gorewrite --call-graph: $(tail -1 "$WORK/rw.txt")"; continue; }
    run "cg$v" "$bin.cg" && { r=$(check "cg$v" 1) || fail "go$v --call-graph: $r"; echo "go$v --call-graph: $r"; }
    # the readers of profiles (merge, diff, serve) add the paths up
    if [ "$v" = 1.22 ]; then
        "$GOSTAT" merge --force -o "$WORK/merged.json" "$(stats_file_for "$WORK/stat.cg$v")" >/dev/null 2>&1 ||
            fail "gostat merge failed"
        r=$(python3 -c '
import json, sys
def sites(o):
    if isinstance(o, dict):
        if o.get("creator") == "main.spawn":
            yield (o["created"], o["exited"], o["live"])
        for v in o.values():
            yield from sites(v)
    elif isinstance(o, list):
        for v in o:
            yield from sites(v)
print(list(sites(json.load(open(sys.argv[1])))))' "$WORK/merged.json")
        [ "$r" = "[($((A + B + 1)), $A, $((B + 1)))]" ] || fail "gostat merge: main.spawn $r, want one summed site"
        echo "gostat merge: main.spawn $r"
    fi
    "$GOREWRITE" "$bin" "$bin.def" >"$WORK/rw.txt" 2>&1 ||
        { fail "go$v: gorewrite: $(tail -1 "$WORK/rw.txt")"; continue; }
    run "def$v" "$bin.def" && { r=$(check "def$v" 0) || fail "go$v: $r"; echo "go$v: $r"; }
done

[ $fails -eq 0 ] && echo "PASS: t_goroutine_paths"
exit $((fails > 0))
