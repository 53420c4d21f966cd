#!/usr/bin/env bash
# t_flamegraph_clients.sh: the real clients of flame graphs and call graphs,
# as installed by scripts/deps.sh, each fed a file and its output checked
# (gostat's call-graph outputs of a --call-graph program are checked with the
# same clients in tests/gostat/t_callgraph_clients.sh; here speedscope gets a
# hand-written file whose picture is known exactly, and pprof and
# callgrind_annotate a file without call paths):
#  - speedscope (npm) in headless Chromium, through scripts/speedscope_shot.sh,
#    on a folded file with 3 known paths: the sandwich view's table in the
#    DOM has each frame's exact total and self; the screenshot has the
#    window's size and the flame graph's geometry (root across the width,
#    children 500:300:200 of it, in left-heavy order); a file speedscope
#    cannot read and a missing file make the script fail with a message.
#  - go tool pprof -svg (Debian's graphviz) on `gostat pprof` of
#    testdata/recursion: a well-formed SVG whose graph has a node per
#    function in the profile, main.fib among them with its exact calls.
#  - callgrind_annotate (plain and --tree=caller) on `gostat callgrind` of
#    the same run: main.fib with its exact calls.
cd "$(dirname "$0")/../.."
. tests/assert.sh
require_tools

GO=1.22
SHOT=scripts/speedscope_shot.sh

########## speedscope in headless Chromium
printf '%s\n' 'main.main;main.alpha;main.busy 300' 'main.main;main.beta;main.busy 200' \
    'main.main;main.gamma 500' >"$dir/paths.folded"
if bash "$SHOT" "$dir/paths.folded" "$dir/paths.png" "$dir/paths.html" 2>"$dir/shot.err"; then
    # The sandwich table: "TOTAL (P%)" "SELF (P%)" NAME per frame.
    expect "speedscope: frames, total, self" "main.alpha 300 0
main.beta 200 0
main.busy 500 500
main.gamma 500 500
main.main 1000 0" "$(speedscope_rows "$dir/paths.html")"
    # The picture: a row where one colour spans the width (main.main), one
    # with three colours left to right at 500:300:200 of it (gamma, then
    # alpha and beta: left heavy), one with a colour from 50 % to the end
    # and nothing before (main.busy under alpha and beta). 1 % tolerance.
    screenshot_check "$dir/paths.png" <<'PY' || fail "speedscope: the screenshot does not show the flame graph"
def near(a, b):
    return abs(a - b) <= tol
def spans(row):
    return sorted((a, b + 1) for a, b in colour_extents(row).values() if b + 1 - a > 8)
found = {"root": False, "children": False, "busy": False}
for row in rows:
    s = spans(row)
    if len(s) == 1 and near(s[0][0], 0) and near(s[0][1], w):
        found["root"] = True
    if len(s) == 3 and all(near(a, x) and near(b, y) for (a, b), (x, y)
                           in zip(s, [(0, .5 * w), (.5 * w, .8 * w), (.8 * w, w)])):
        found["children"] = True
    if len(s) == 1 and near(s[0][0], .5 * w) and near(s[0][1], w):
        found["busy"] = True
missing = [k for k, v in found.items() if not v]
if missing:
    sys.exit("no pixel row shows: " + ", ".join(missing))
PY
else
    fail "speedscope_shot.sh paths.folded: $(cat "$dir/shot.err")"
fi

# Pages that did not load a profile are errors, with a message.
printf 'not a profile\n' >"$dir/bad.folded"
bash "$SHOT" "$dir/bad.folded" "$dir/bad.png" 2>"$dir/bad.err"
expect "speedscope_shot.sh unreadable profile: exit" 1 $?
grep -q "bad.folded: speedscope did not load the profile: page title is 'speedscope alert: Unrecognized format" \
    "$dir/bad.err" || fail "speedscope_shot.sh unreadable profile: message: $(cat "$dir/bad.err")"
bash "$SHOT" "$dir/none.folded" "$dir/none.png" 2>"$dir/none.err"
expect "speedscope_shot.sh missing file: exit" 1 $?
expect "speedscope_shot.sh missing file: message" \
    "speedscope_shot.sh: $dir/none.folded: cannot read the folded-stacks file" "$(cat "$dir/none.err")"

########## a real profile: testdata/recursion
mkdir -p "$dir/stats" "$dir/home"
build_go $GO testdata/recursion "$dir/rec" || fail "build recursion"
instrument "$dir/rec" "$dir/rec.i" || fail "instrument recursion"
run_one "$dir/run" "$dir/stats" "$dir/rec.i" "$(cat testdata/recursion/args)"
expect "recursion exit status" 0 "$(cat "$dir/run/rc")"
stats=$(stats_file_for "$dir/stats") || finish t_flamegraph_clients
fib_calls=$(awk '$1 == "main.fib" { print $2 }' testdata/recursion/expect)

########## go tool pprof -svg (graphviz's dot draws it)
"$GOSTAT" pprof -o "$dir/rec.pb.gz" "$stats" >"$dir/pprof.out" || fail "gostat pprof"
# "wrote N functions to FILE": N called functions; the graph draws one node
# per name (an ABI wrapper and the function it calls share one).
wrote=$(sed -n 's/^wrote \([0-9]*\) functions to .*/\1/p' "$dir/pprof.out")
in_profile=$("$GOSTAT" --json "$stats" | python3 -c '
import json, sys
called = [f["name"] for f in json.load(sys.stdin)["functions"] if f["calls"]]
print(len(set(called)) if len(called) == int(sys.argv[1]) else "wrote %s, %d called" % (sys.argv[1], len(called)))
' "$wrote")
HOME=$dir/home go_env $GO "$(go_bin $GO)" tool pprof -svg -sample_index=calls -nodecount=100000 \
    -nodefraction=0 -output "$dir/rec.svg" "$dir/rec.pb.gz" >"$dir/svg.out" 2>&1 \
    || fail "pprof -svg: $(cat "$dir/svg.out")"
# Function nodes are titled N1, N2...; the legend and the labels' boxes
# (N3_0: untimed=...) are nodes too, titled otherwise.
expect "pprof -svg: function nodes, main.fib's label" "${in_profile:-?} nodes
main fib $fib_calls" "$(python3 - "$dir/rec.svg" <<'PY'
import re, sys
import xml.etree.ElementTree as ET
S = "{http://www.w3.org/2000/svg}"
root = ET.parse(sys.argv[1]).getroot()
nodes = [g for g in root.iter(S + "g") if g.get("class") == "node"
         and re.fullmatch(r"N\d+", g.findtext(S + "title") or "")]
print(f"{len(nodes)} nodes")
for g in nodes:
    text = [t.text or "" for t in g.iter(S + "text")]
    if text[:2] == ["main", "fib"]:
        print("main fib", text[2].split(" ")[0])
PY
)"

########## callgrind_annotate
"$GOSTAT" callgrind -o "$dir/rec.cg" "$stats" >/dev/null || fail "gostat callgrind"
for tree in none caller; do
    (cd / && callgrind_annotate --threshold=100 --tree=$tree "$dir/rec.cg") >"$dir/ann.$tree" 2>"$dir/ann.err" \
        || fail "callgrind_annotate --tree=$tree: $(cat "$dir/ann.err")"
    expect "callgrind_annotate --tree=$tree: stderr" "" "$(cat "$dir/ann.err")"
    expect "callgrind_annotate --tree=$tree: main.fib" "$fib_calls" \
        "$(awk '/:main\.fib \[/ { gsub(",", "", $1); print $1; exit }' "$dir/ann.$tree")"
done

finish t_flamegraph_clients
