#!/usr/bin/env bash
# t_row_access: how a trampoline finds its thread's counter row. Without
# runtime/cgo the runtime points FS at &m.tls[1] on every thread, so the
# row is fs:[0] (one load); a program that links runtime/cgo (internal or
# external linking) keeps the path through g.m. For testdata/recursion
# built as a static executable and as a PIE with the oldest and newest Go,
# and with cgo both ways (Go 1.22): `gorewrite -v` names the access, the
# trampolines contain `mov r12, fs:0x0` exactly when it is fs:[0], and the
# counts of the expect file are exact in the default mode and with
# --count-only, with no call reported as without a row; with the rows used
# up, the calls without a row are reported (JSON drops.rowless_calls, the
# table's timing line).
. "$(dirname "$0")/../lib.sh"
require_tools
work_dir
SRC=$ROOT/testdata/recursion
FS_LOAD='mov    %fs:0x0,%r12'

# expect_counts NAME SRC JSON: every "function count" line of SRC/expect.
expect_counts() {
    python3 - "$2/expect" "$3" <<'PY' || fail "$1: counts differ from the expect file (above)"
import json, sys
got = {f["name"]: f["calls"] for f in json.load(open(sys.argv[2]))["functions"]}
bad = 0
for line in open(sys.argv[1]):
    if line.strip() and not line.startswith("#"):
        name, n = line.split()[:2]
        if got.get(name) != int(n):
            print("  %s: %s calls, want %s" % (name, got.get(name), n)); bad = 1
sys.exit(bad)
PY
}

# check NAME WANT(fs|g) SRC BIN: the access gorewrite chose, the code, the counts.
check() {
    local name=$1 want=$2 src=$3 bin=$4 mode line n
    for mode in default count-only; do
        local flags=() out=$bin.$mode
        [ $mode = count-only ] && flags=(--count-only)
        "$GOREWRITE" -v ${flags[@]+"${flags[@]}"} "$bin" "$out" >"$WORK/v.txt" 2>&1 ||
            { fail "$name $mode: gorewrite: $(tail -1 "$WORK/v.txt")"; continue; }
        line=$(grep '^row access: ' "$WORK/v.txt")
        case $want:$line in
            fs:"row access: fs:[0] "*|g:"row access: g.m.tls[1] "*) ;;
            *) fail "$name $mode: want $want, gorewrite -v says '$line'"; continue ;;
        esac
        n=$(objdump -d -j .gorewrite.text "$out" | grep -c -F "$FS_LOAD")
        if [ $want = fs ] && [ "$n" -lt 1000 ]; then
            fail "$name $mode: only $n fs:[0] loads in the trampolines"
        elif [ $want = g ] && [ "$n" -ne 0 ]; then
            fail "$name $mode: $n fs:[0] loads in a cgo program"
        fi
        local args=()
        [ -f "$src/args" ] && read -r -a args <"$src/args"
        run_compare "$bin" "$out" ${args[@]+"${args[@]}"} || { fail "$name $mode: run differs"; continue; }
        gostat_json "$(stats_file_for "$RC_STATDIR")" "$WORK/c.json" && expect_counts "$name $mode" "$src" "$WORK/c.json"
        python3 -c 'import json, sys; sys.exit(json.load(open(sys.argv[1]))["drops"]["rowless_calls"])' "$WORK/c.json" ||
            fail "$name $mode: calls without a row reported where every thread had one"
        rm -rf "$RC_WORK"
    done
}

for v in 1.15 1.27; do
    build_go "$v" "$SRC" "$WORK/exe$v" && check "go$v exe" fs "$SRC" "$WORK/exe$v"
    build_go "$v" "$SRC" "$WORK/pie$v" -buildmode=pie && check "go$v pie" fs "$SRC" "$WORK/pie$v"
done
CGO=$ROOT/testdata/cgocall
GO_CGO=1 build_go 1.22 "$CGO" "$WORK/cgo_int" -ldflags=-linkmode=internal &&
    check "go1.22 cgo internal" g "$CGO" "$WORK/cgo_int"
GO_CGO=1 build_go 1.22 "$CGO" "$WORK/cgo_ext" -ldflags=-linkmode=external &&
    check "go1.22 cgo external" g "$CGO" "$WORK/cgo_ext"

# Rows used up: built with --max-threads 2 (two thread rows), testdata/threads
# runs on more threads than that, and every further thread counts in the
# shared row 0 through the slow path: where the row is fs:[0], shared by
# every trampoline, gs_sample_enter for a sampled function's call (the
# default mode) and gs_row_slow for the others (--count-only: all), the
# only two stores to fs:[0] in the output, in every program; the
# trampoline's own path where it is g.m. Counts exact, and more threads
# (calls of runtime.mstart1) than rows. exhausted NAME BIN [FLAG...]
exhausted() {
    local name=$1 bin=$2 out=$2.rows n
    shift 2
    "$GOREWRITE" --max-threads 2 "$@" "$bin" "$out" >/dev/null || { fail "$name rows: gorewrite"; return; }
    n=$(objdump -d -j .gorewrite.text "$out" | grep -c -F 'mov    %r12,%fs:0x0')
    [ "$n" -eq 2 ] || fail "$name rows: $n stores to fs:[0] in the output, want 2 (gs_row_slow's, gs_sample_enter's)"
    run_compare "$bin" "$out" || { fail "$name rows: run differs"; return; }
    gostat_json "$(stats_file_for "$RC_STATDIR")" "$WORK/r.json" || { fail "$name rows: gostat"; return; }
    expect_counts "$name rows" "$ROOT/testdata/threads" "$WORK/r.json"
    python3 - "$WORK/r.json" <<'PY' || fail "$name rows: the rows were not used up"
import json, sys
n = next((f["calls"] for f in json.load(open(sys.argv[1]))["functions"] if f["name"] == "runtime.mstart1"), 0)
sys.exit(0 if n >= 3 else "  %d threads for 1 thread row" % n)
PY
    # their calls are counted, not timed: said in JSON and in the table
    python3 - "$WORK/r.json" <<'PY' || fail "$name rows: the calls without a row not reported"
import json, sys
j = json.load(open(sys.argv[1]))
n, total = j["drops"]["rowless_calls"], sum(f["calls"] for f in j["functions"])
sys.exit(0 if 0 < n <= total else "  drops.rowless_calls %d of %d calls" % (n, total))
PY
    if [ -z "$*" ]; then
        "$GOSTAT" "$(stats_file_for "$RC_STATDIR")" | grep -q '^timing: [0-9]* calls on threads beyond the 2 with rows of their own are counted, not timed' ||
            fail "$name rows: the table does not say the calls without a row are untimed"
    fi
    rm -rf "$RC_WORK"
}
build_go 1.22 "$ROOT/testdata/threads" "$WORK/threads" && exhausted "go1.22 threads" "$WORK/threads" &&
    exhausted "go1.22 threads --count-only" "$WORK/threads" --count-only
mkdir -p "$WORK/threads_cgo_src"
cp "$ROOT"/testdata/threads/*.go "$WORK/threads_cgo_src/"
printf 'package main\n\nimport _ "runtime/cgo"\n' >"$WORK/threads_cgo_src/zz_cgo.go"
GO_CGO=1 build_go 1.22 "$WORK/threads_cgo_src" "$WORK/threads_cgo" && exhausted "go1.22 threads cgo" "$WORK/threads_cgo"
[ $fails -eq 0 ] && echo "ok   fs:[0] without runtime/cgo, g.m with it; counts exact; rows used up, counts exact"
[ $fails -eq 0 ]
