#!/usr/bin/env bash
# t_exec: a program that execs (docs/stats-format.md "At exit", "Before
# an exec"). testdata/execself makes main.before 7 calls, then
# syscall.Exec's /proc/self/exe, whose second image makes main.after 11
# calls and exits ("first"); or its exec of a missing path fails and the
# same process makes the main.after calls ("fail"). While the image that
# makes the main.after calls waits (EXECSELF_WAIT), the pid has exactly one
# LIVE file (gostat's list and JSON "live"), and the file from before the
# exec is finished: ended_ns set, not live. After the exit each file holds
# exactly its part: the old image's main.before 7 and main.main 1 (its
# call closed at the exec, closed_at_exit 1 when timed), the new image's (or, after
# the failed exec, the new file's) main.after 11 and main.afterPart 1,
# with main.main 1 in the new image and 0 after a failed exec; nothing in
# both. With GOSTAT_MERGE=1 only the merged file is left, with the sum:
# main.before 7, main.after 11, main.main 2 (1 after a failed exec), from
# 2 files (processes 2). On Go 1.15 (stack ABI), 1.19, 1.22 and the
# newest release (GOVERS narrows them); on 1.22 with --call-graph,
# --count-only, --only '^main\.' and --engine copy too.
cd "$(dirname "$0")/../.."
. tests/lib.sh
require_tools
work_dir

# files_json DIR TAG: gostat --json of every file in DIR into
# $WORK/TAG.N.json, their names into $WORK/TAG.files.
files_json() {
    local dir=$1 tag=$2 f n=0
    : >"$WORK/$tag.files"
    for f in "$dir"/gostat.*; do
        [ -e "$f" ] || continue
        "$GOSTAT" --json "$f" >"$WORK/$tag.$n.json" 2>"$WORK/$tag.$n.err" || fail "$tag: gostat --json $f"
        echo "$f $WORK/$tag.$n.json" >>"$WORK/$tag.files"
        n=$((n + 1))
    done
}

# check_files TAG MODE WHEN PID: the files of $WORK/TAG.files against what
# MODE (first, fail, merged-first, merged-fail) leaves, WHEN "running"
# (the second part waiting) or "ended".
check_files() {
    local tag=$1 mode=$2 when=$3 pid=$4 r
    r=$(python3 - "$WORK/$tag.files" "$mode" "$when" "$pid" "${COPIED:-}" <<'PY'
import json, sys
files, mode, when, pid, copied = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]
docs = []
for line in open(files):
    path, js = line.split()
    docs.append((path, json.load(open(js))))
bad = []
def calls(d, name):
    return sum(f["calls"] for f in d["functions"] if f["name"] == name)
def closed(d, name):
    return sum(f.get("closed_at_exit") or 0 for f in d["functions"] if f["name"] == name)
names = ("main.before", "main.after", "main.afterPart", "main.main")
fail = mode.endswith("fail")
if copied:
    # the copy engine's module does not count package main: the exec's own
    # functions, counted after the gate, witness it (after the freeze: in
    # the new file of a failed exec, else gone with the image)
    names = ("syscall.runtime_BeforeExec", "syscall.runtime_AfterExec")
if mode.startswith("merged"):
    if len(docs) != 1:
        bad.append("%d files, want the merged one only: %s" % (len(docs), [p for p, _ in docs]))
    else:
        d = docs[0][1]
        want = ((1, 1) if fail else (0, 0)) if copied else (7, 11, 1, 2 if mode == "merged-first" else 1)
        got = tuple(calls(d, n) for n in names)
        if got != want:
            bad.append("merged %s = %s, want %s" % (names, got, want))
        if d.get("processes") != 2:
            bad.append("merged processes %s, want 2" % d.get("processes"))
        if not d.get("ended_ns"):
            bad.append("merged file without ended_ns")
else:
    if len(docs) != 2:
        bad.append("%d files, want 2: %s" % (len(docs), [p for p, _ in docs]))
    else:
        if copied:   # the pid's own name is the old image's
            old = [d for p, d in docs if p.endswith(".%d" % pid)]
            new = [d for p, d in docs if not p.endswith(".%d" % pid)]
        else:
            old = [d for _, d in docs if calls(d, "main.before")]
            new = [d for _, d in docs if calls(d, "main.after")]
        if len(old) != 1 or len(new) != 1 or old[0] is new[0]:
            bad.append("want one file with main.before and another with main.after")
        else:
            o, n = old[0], new[0]
            want_o = (0, 0) if copied else (7, 0, 0, 1)
            want_n = ((1, 1) if fail else (0, 0)) if copied else (0, 11, 1, 1 if mode == "first" else 0)
            if tuple(calls(o, x) for x in names) != want_o:
                bad.append("old file %s = %s, want %s" % (names, tuple(calls(o, x) for x in names), want_o))
            if tuple(calls(n, x) for x in names) != want_n:
                bad.append("new file %s = %s, want %s" % (names, tuple(calls(n, x) for x in names), want_n))
            if not copied and closed(o, "main.main") != (1 if o.get("timing") else 0):
                bad.append("old file: main.main closed_at_exit %s, want 1" % closed(o, "main.main"))
            for tag, d in (("old", o), ("new", n)):
                if d.get("pid") != pid:
                    bad.append("%s file pid %s, want %d" % (tag, d.get("pid"), pid))
            if o.get("live") or not o.get("ended_ns"):
                bad.append("old file live %s ended_ns %s: want finished" % (o.get("live"), o.get("ended_ns")))
            if when == "running":
                if not n.get("live") or n.get("ended_ns"):
                    bad.append("new file live %s ended_ns %s: want live" % (n.get("live"), n.get("ended_ns")))
            elif n.get("live") or not n.get("ended_ns"):
                bad.append("new file live %s ended_ns %s: want finished" % (n.get("live"), n.get("ended_ns")))
            if o.get("ended_ns") and n.get("start_time_ns") and mode == "first" and o["ended_ns"] > n["start_time_ns"]:
                bad.append("old image ended at %d, after the new one started (%d)" % (o["ended_ns"], n["start_time_ns"]))
print("; ".join(bad) if bad else "ok")
sys.exit(1 if bad else 0)
PY
) || fail "$tag: $r"
    echo "$tag: $r"
}

# run_waiting BIN MODE TAG: runs BIN MODE, checks the files while its
# second part waits and after it exits.
run_waiting() {
    local bin=$1 mode=$2 tag=$3 sd=$WORK/sd.$3 w=$WORK/w.$3 i
    mkdir -p "$sd" "$w"
    env EXECSELF_WAIT="$w" GOSTAT_DIR="$sd" "$bin" "$mode" >"$WORK/$tag.out" 2>&1 &   # env execs: $! is its pid
    local pid=$!
    for i in $(seq 200); do
        [ -e "$w/ready" ] && break
        sleep 0.05
    done
    [ -e "$w/ready" ] || fail "$tag: the second part never got ready: $(tail -2 "$WORK/$tag.out")"
    local live
    live=$(GOSTAT_DIR=$sd "$GOSTAT" 2>&1 | awk -v p="$pid" '$1 == p && $2 == "LIVE"' | wc -l)
    [ "$live" -eq 1 ] || fail "$tag: $live LIVE files for pid $pid, want 1: $(GOSTAT_DIR=$sd "$GOSTAT" 2>&1)"
    files_json "$sd" "$tag.running"
    check_files "$tag.running" "$mode" running "$pid"
    touch "$w/go"
    wait "$pid"
    local rc=$?
    [ $rc -eq 0 ] || fail "$tag: exit status $rc: $(tail -2 "$WORK/$tag.out")"
    live=$(GOSTAT_DIR=$sd "$GOSTAT" 2>&1 | awk '$2 == "LIVE"' | wc -l)
    [ "$live" -eq 0 ] || fail "$tag: $live LIVE files after the exit"
    files_json "$sd" "$tag.ended"
    check_files "$tag.ended" "$mode" ended "$pid"
}

# run_merged BIN MODE TAG: runs BIN MODE with GOSTAT_MERGE=1.
run_merged() {
    local bin=$1 mode=$2 tag=$3 sd=$WORK/sd.$3
    mkdir -p "$sd"
    GOSTAT_DIR=$sd GOSTAT_MERGE=1 timeout -k 5 "$RUN_TIMEOUT" "$bin" "$mode" >"$WORK/$tag.out" 2>&1
    local rc=$?
    [ $rc -eq 0 ] || fail "$tag: exit status $rc: $(tail -2 "$WORK/$tag.out")"
    files_json "$sd" "$tag"
    check_files "$tag" "merged-$mode" ended 0
}

for v in $(releases 1.15 1.19 1.22 1.27); do
    bin=$WORK/e$v
    build_go "$v" testdata/execself "$bin" || { fail "go$v: build"; continue; }
    instrument "$bin" "$bin.instr" || { fail "go$v: gorewrite"; continue; }
    for mode in first fail; do
        run_waiting "$bin.instr" "$mode" "$v.$mode"
        run_merged "$bin.instr" "$mode" "$v.merged.$mode"
    done
done

# the other modes on 1.22: call paths (gs_path_return closes the exec's
# calls), counting only (no timing stacks), a selection of package main
# only (the exec's two functions stay: docs/selection.md) and the copy
# engine (which leaves them in place; its module counts no main.*, so
# syscall.runtime_BeforeExec's and AfterExec's own counts are checked:
# 1 each in the new file of a failed exec, 0 elsewhere)
if [ -x "$WORK/e1.22" ]; then
    for tag in cg count only copy; do
        case $tag in
        copy) opts=(--engine copy) ;;
        cg) opts=(--call-graph) ;;
        count) opts=(--count-only) ;;
        only) opts=(--only '^main\.') ;;
        esac
        "$GOREWRITE" "${opts[@]}" "$WORK/e1.22" "$WORK/e1.22.$tag" >/dev/null 2>&1 ||
            { fail "${opts[*]}: gorewrite"; continue; }
        COPIED=
        [ "$tag" = copy ] && COPIED=1
        for mode in first fail; do
            run_waiting "$WORK/e1.22.$tag" "$mode" "1.22.$tag.$mode"
            run_merged "$WORK/e1.22.$tag" "$mode" "1.22.$tag.merged.$mode"
        done
        COPIED=
    done
fi
[ $fails -eq 0 ]
