#!/usr/bin/env bash
# t_callgraph_compile: --call-graph on a large real program, Debian's
# stripped Go 1.22 compile (about 13,000 timed functions, recursive descent
# everywhere), used through `go build -a -toolexec` to rebuild
# testdata/recursion and everything it imports (30-odd compile processes):
#  - the package archives equal those the original compile builds;
#  - in every compile process's stats file, every call is in an arc (no arc
#    overflow: the arc table is sized from the program's timed functions),
#    while paths do overflow (the compiler has far more calling contexts
#    than its default 65,536 per thread: counted, never wrong);
#  - for every timed function of cmd/compile/..., its callers' calls add
#    up to its timed calls exactly (the compiler's work is done when it
#    exits; runtime functions are left out: exiting kills the runtime's
#    other threads wherever they are);
#  - gostat folded reads the largest file: its path lines add up to the
#    calls recorded in paths (timed calls minus path overflow) and its
#    "(path overflow)" line holds the rest.
. "$(dirname "$0")/../lib.sh"
require_tools

work_dir
RP=$ROOT/tests/realprogs
TOOLS=$(go_root 1.22)/pkg/tool/linux_amd64

mkdir -p "$WORK/tools"
"$GOREWRITE" --call-graph "$TOOLS/compile" "$WORK/tools/compile" >/dev/null 2>"$WORK/err" ||
    { fail "gorewrite --call-graph compile: $(tail -1 "$WORK/err")"; exit 1; }
ln -s "$TOOLS/link" "$WORK/tools/link"
ln -s "$TOOLS/asm" "$WORK/tools/asm"

# build NAME TOOLDIR: go build -a of testdata/recursion with TOOLDIR's
# compile; the archives' checksums into $WORK/NAME/archives.
build() {
    local name=$1 d=$2 w
    mkdir -p "$WORK/$name/stat"
    (cd "$ROOT/testdata/recursion" && go_env 1.22 env GOCACHE="$WORK/$name/cache" \
        GOSTAT_DIR="$WORK/$name/stat" GR_TOOLDIR="$d" "$(go_bin 1.22)" build -a -work -p 2 \
        -toolexec "$RP/toolexec.sh" -o "$WORK/$name/recursion" .) >"$WORK/$name/out" 2>"$WORK/$name/err" ||
        { fail "$name: go build failed: $(grep -v '^WORK=' "$WORK/$name/err" | head -5)"; return 1; }
    w=$(sed -n 's/^WORK=//p' "$WORK/$name/err")
    (cd "$w" && find . -name '*.a' | LC_ALL=C sort | xargs md5sum) >"$WORK/$name/archives"
    rm -rf "$w"
}

build orig "$TOOLS" || exit 1
build graph "$WORK/tools" || exit 1
n=$(wc -l <"$WORK/orig/archives")
[ "$n" -ge 30 ] && cmp -s "$WORK/orig/archives" "$WORK/graph/archives" ||
    fail "the archives differ from the original compile's (or fewer than 30: $n)"

nfiles=0
biggest=
for f in "$WORK/graph/stat"/gostat.*; do
    [ -e "$f" ] || continue
    nfiles=$((nfiles + 1))
    gostat_json "$f" "$WORK/j.$nfiles.json" || { fail "gostat --json $f"; continue; }
    [ -z "$biggest" ] || [ "$(stat -c %s "$WORK/j.$nfiles.json")" -gt "$(stat -c %s "$biggest.json")" ] &&
        { biggest=$WORK/j.$nfiles; cp "$f" "$biggest.stats"; }
done
[ "$nfiles" -ge 30 ] || fail "$nfiles stats files, want one per compile (30 or more)"

python3 - "$WORK"/j.*.json <<'PY' || fail "arcs of the instrumented compile"
import json, sys
bad, overflowed, calls, funcs_checked = [], 0, 0, 0
for path in sys.argv[1:]:
    st = json.load(open(path))
    cp = st.get("call_paths", {})
    if cp.get("recorded") is not True:
        bad.append("%s: call paths not recorded: %s" % (path, cp))
        continue
    if cp.get("overflow_calls") != 0:
        bad.append("%s: %s calls in no arc (max_arcs %s)" % (path, cp.get("overflow_calls"), cp.get("max_arcs")))
    overflowed += cp.get("path_overflow_calls", 0)
    for f in st["functions"]:
        calls += f["calls"]
        if not f["timed"] or not f["name"].startswith("cmd/compile/"):
            continue
        funcs_checked += 1
        # a call still open at exit (gc.Main under base.Exit) is timed to
        # the exit in its record but has no path: its callers never saw it
        n = sum(c["calls"] for c in f.get("callers", []))
        closed = f.get("closed_at_exit", 0)
        if n != f["timed_calls"] - closed:
            bad.append("%s: %s: callers add up to %d calls, it has %d timed calls (%d closed at exit)"
                       % (path, f["name"], n, f["timed_calls"], closed))
if overflowed == 0:
    bad.append("no path overflow in %d calls: the compiler's contexts should exceed the tables" % calls)
if funcs_checked < 10000:
    bad.append("only %d cmd/compile function instances checked" % funcs_checked)
for b in bad[:20]:
    print("  " + b)
print("  %d calls, %d beyond the path tables, %d function instances checked" % (calls, overflowed, funcs_checked))
sys.exit(1 if bad else 0)
PY

# the folded paths of the largest file add up to the calls in paths
"$GOSTAT" folded "$biggest.stats" --value calls >"$WORK/folded" 2>"$WORK/folded.err" ||
    fail "gostat folded: $(head -c 300 "$WORK/folded.err")"
python3 - "$biggest.json" "$WORK/folded" <<'PY' || fail "gostat folded of the largest compile"
import json, sys
st = json.load(open(sys.argv[1]))
timed = sum(f["timed_calls"] for f in st["functions"] if f["timed"])
closed = sum(f.get("closed_at_exit", 0) for f in st["functions"] if f["timed"])
over = st["call_paths"]["path_overflow_calls"]
folded, shown_over = 0, None
for line in open(sys.argv[2]):
    stack, value = line.rsplit(" ", 1)
    if stack == "(path overflow)":
        shown_over = int(value)
    else:
        folded += int(value)
if folded != timed - closed - over or folded == 0 or shown_over != over:
    print("  folded: paths add up to %d calls, (path overflow) %s; want %d timed calls minus %d closed at exit minus %d overflowed"
          % (folded, shown_over, timed, closed, over))
    sys.exit(1)
PY
[ $fails -eq 0 ] && echo "ok   compile --call-graph: $n identical archives, $nfiles stats files"
[ $fails -eq 0 ]
