#!/usr/bin/env bash
# t_names_in_place: the output carries no second copy of the function
# names where the program's own table can serve. From Go 1.16 the names are
# a table of their own (pclntab's funcnametab), loaded read-only; the stats
# file's strings then end with a copy of it made at start-up from the
# program's memory, and the embedded image leaves them out
# (rewriter/gen/stats_image.c, stubs/startup.c). testdata/recursion's
# main.isEven is a name that only function tables hold: the output must
# hold it exactly as often as the input where the names stay in place (Go
# 1.22, 1.19 and 1.27, the default mode and --call-graph, whose symbol
# table names every function), and once more where they cannot (Go 1.15,
# whose names lie among pclntab's other tables; a PIE build, whose
# pclntab is in a writable segment; --trace, whose section follows the
# strings). Each output runs as the input does, gostat finds every
# expected name with its exact count, and two processes' files merged at
# exit (GOSTAT_MERGE) keep the names.
. "$(dirname "$0")/../lib.sh"
require_tools
work_dir
fails=0
ARGS=(25)

# count FILE: occurrences of the NUL-terminated name in FILE.
count() {
    python3 -c 'import sys; print(open(sys.argv[1], "rb").read().count(b"main.isEven\0"))' "$1"
}

# case ID GO BUILDFLAGS EXTRA [GOREWRITE FLAGS...]: the input built with Go
# GO (BUILDFLAGS: "" or a go build flag), instrumented with the flags; the
# output holds EXTRA more copies of the name than the input.
case_() {
    local id=$1 v=$2 bflag=$3 extra=$4
    shift 4
    local bin=$WORK/$id out=$WORK/$id.instr
    build_go "$v" "$ROOT/testdata/recursion" "$bin" ${bflag:+"$bflag"} || { fail "$id: build"; return; }
    "$GOREWRITE" "$@" "$bin" "$out" >/dev/null || { fail "$id: gorewrite $*"; return; }
    local a b
    a=$(count "$bin")
    b=$(count "$out")
    if [ "$b" -ne $((a + extra)) ]; then
        fail "$id: the output holds main.isEven $b times, the input $a: want $((a + extra))"
        return
    fi
    run_compare "$bin" "$out" "${ARGS[@]}" || { fail "$id: the output runs differently"; return; }
    gostat_json "$(stats_file_for "$RC_STATDIR")" "$WORK/$id.json" || { fail "$id: gostat"; return; }
    python3 - "$WORK/$id.json" "$ROOT/testdata/recursion/expect" <<'PY' || fail "$id: names or counts"
import json, sys
got = {f["name"]: f["calls"] for f in json.load(open(sys.argv[1]))["functions"]}
bad = []
for line in open(sys.argv[2]):
    if line.startswith("#") or not line.strip():
        continue
    name, n = line.split()
    if got.get(name) != int(n):
        bad.append("%s: %s calls, want %s" % (name, got.get(name), n))
if not any(n.startswith("runtime.") for n in got):
    bad.append("no runtime function named")
for b in bad:
    print("  " + b)
sys.exit(1 if bad else 0)
PY
    echo "ok   $id: main.isEven $a times in the input, $b in the output"
}

case_ go1.22 1.22 "" 0
case_ go1.19 1.19 "" 0
case_ go1.27 1.27 "" 0
case_ go1.22-callgraph 1.22 "" 0 --call-graph
case_ go1.15 1.15 "" 1
case_ go1.22-pie 1.22 "-buildmode=pie" 1
case_ go1.22-trace 1.22 "" 1 --trace '^main\.ack$'

# Two processes' files merged at exit: the first becomes the merged file,
# the second compares its tables (names included) and adds its counts.
mdir=$WORK/merge
mkdir -p "$mdir"
for i in 1 2; do
    GOSTAT_DIR=$mdir GOSTAT_MERGE=1 "$WORK/go1.22.instr" "${ARGS[@]}" >/dev/null ||
        fail "merge: run $i failed"
done
merged=$(ls "$mdir" | grep -c merged)
if [ "$merged" != 1 ] || [ "$(ls "$mdir" | wc -l)" != 1 ]; then
    fail "merge: want one merged file, found: $(ls "$mdir" | tr '\n' ' ')"
else
    gostat_json "$mdir"/gostat.* "$WORK/merged.json" &&
        python3 - "$WORK/merged.json" <<'PY' || fail "merge: names or counts"
import json, sys
got = {f["name"]: f["calls"] for f in json.load(open(sys.argv[1]))["functions"]}
if got.get("main.fib") != 2 * 242785 or got.get("main.isEven") != 2 * 890:
    sys.exit("  merged: main.fib %s, main.isEven %s; want 485570, 1780" % (got.get("main.fib"), got.get("main.isEven")))
PY
    echo "ok   merge: two processes in one file, names and counts kept"
fi
[ $fails -eq 0 ]
