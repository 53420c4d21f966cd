# tests/lib.sh: helpers shared by the tests/GROUP/t_*.sh scripts. Source it:
#   . "$(dirname "$0")/../lib.sh"
# Tests are run from the repository root by tests/run.sh.

set -u

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# The tests run gorewrite through tests/tools/gorewrite_checked.sh: the
# real program's status and output, then LIEF re-reads every output it
# wrote and compares it with gorewrite's --layout-report.
GOREWRITE_REAL=${GOREWRITE_REAL:-$ROOT/bin/gorewrite}
GOREWRITE=${GOREWRITE:-$ROOT/tests/tools/gorewrite_checked.sh}
LIEF_CHECK=${LIEF_CHECK:-$ROOT/build/tests/lief_check}
export GOREWRITE_REAL LIEF_CHECK
GOSTAT=${GOSTAT:-$ROOT/bin/gostat}
# Every Go toolchain the tests build with (Debian packages golang-1.XX-go;
# Go 1.15 is unpacked into build/toolchains by scripts/go_toolchains.sh).
GO_VERSIONS="1.15 1.19 1.21 1.22 1.23 1.24"
# Newer than any Debian 12 toolchain (1.25 from trixie-backports, 1.26 and 1.27
# from sid, unpacked into build/toolchains
# by scripts/go_toolchains.sh): tests/programs/t_testdata.sh builds with them too.
GO_VERSIONS_NEWER="1.25 1.26 1.27"
# releases LIST...: the releases of LIST, or only those also in $GOVERS when
# it is set (a mutant's "Test:" line narrows a test to one release so).
releases() {
    local v
    for v in "$@"; do
        [ -z "${GOVERS:-}" ] || case " $GOVERS " in *" $v "*) ;; *) continue ;; esac
        echo "$v"
    done
}
# Time limit for one run of a program under test (seconds).
RUN_TIMEOUT=${RUN_TIMEOUT:-300}

# fail MESSAGE: reports one failed check and counts it in $fails; a test
# ends with [ $fails -eq 0 ].
fails=0
fail() {
    echo "FAIL $*"
    fails=$((fails + 1))
}

# go_root VERSION: that toolchain's GOROOT (installed system-wide, or
# project-local under build/toolchains for releases Debian 12 lacks).
go_root() {
    if [ -d "/usr/lib/go-$1" ]; then
        echo "/usr/lib/go-$1"
    else
        echo "$ROOT/build/toolchains/usr/lib/go-$1"
    fi
}

# go_bin VERSION: path of that toolchain's go command.
go_bin() {
    echo "$(go_root "$1")/bin/go"
}

# go_env VERSION CMD...: runs CMD with an offline, hermetic Go environment
# for that toolchain: GOPATH mode (single-directory programs, no go.mod, no
# network), build cache under build/gocache/goVERSION, nothing under $HOME.
# cgo is off unless GO_CGO=1.
go_env() {
    local v=$1
    shift
    mkdir -p "$ROOT/build/gocache/go$v" "$ROOT/build/gopath"
    env -u GOROOT -u GOOS -u GOARCH -u GOAMD64 -u GOEXPERIMENT \
        GOTOOLCHAIN=local GOPROXY=off GOFLAGS= GO111MODULE=off GOENV=off \
        GOTELEMETRY=off GOWORK=off CGO_ENABLED="${GO_CGO:-0}" \
        GOCACHE="$ROOT/build/gocache/go$v" GOPATH="$ROOT/build/gopath" \
        "$@"
}

# build_go VERSION DIR OUT [go build flags...]: builds the package main in
# DIR with Go VERSION into OUT. Prints the compiler output on failure.
build_go() {
    local v=$1 dir=$2 out=$3
    shift 3
    local go
    go=$(go_bin "$v")
    if [ ! -x "$go" ]; then
        echo "build_go: Go $v is not installed ($go missing)" >&2
        return 1
    fi
    case $out in /*) ;; *) out=$PWD/$out ;; esac
    mkdir -p "$(dirname "$out")"
    # built aside (from a copy, which go build leaves alone when it is up to
    # date), then renamed: tests running at once may build the same OUT, and
    # one may be running it
    local log tmp=$out.tmp.$$.$RANDOM
    [ -f "$out" ] && cp -p "$out" "$tmp"
    if ! log=$(cd "$dir" && go_env "$v" "$go" build "$@" -o "$tmp" . 2>&1); then
        rm -f "$tmp"
        echo "build_go: go$v build $* $dir failed:" >&2
        printf '%s\n' "$log" >&2
        return 1
    fi
    mv -f "$tmp" "$out"
}

# build_go_stripped VERSION DIR OUT: OUT stripped (-s -w, as Debian ships
# Go programs) and OUT.syms unstripped (for go tool objdump), same code.
build_go_stripped() {
    build_go "$1" "$2" "$3.syms" && build_go "$1" "$2" "$3" "-ldflags=-s -w"
}

# go_objdump VERSION BIN REGEX: go tool objdump -s REGEX BIN with that Go.
go_objdump() {
    go_env "$1" "$(go_bin "$1")" tool objdump -s "$3" "$2"
}

# require_tools: fails the calling test (exit 1) unless bin/gorewrite,
# bin/gostat and the LIEF checker have been built (`make all tools`).
require_tools() {
    local t
    for t in "$GOREWRITE" "$GOREWRITE_REAL" "$GOSTAT" "$LIEF_CHECK"; do
        if [ ! -x "$t" ]; then
            echo "FAIL: $t does not exist; run 'make all tools' first" >&2
            exit 1
        fi
    done
}

# require_installed PATH: fails the calling test (exit 1) unless the Debian
# program at PATH, which scripts/deps.sh installs, is there.
require_installed() {
    if [ ! -x "$1" ]; then
        echo "FAIL: $1 is missing: run scripts/deps.sh (Debian's $(basename "$1"))"
        exit 1
    fi
}

# instrument IN OUT: bin/gorewrite IN OUT (checked by LIEF, as every
# $GOREWRITE run). On failure prints its status and stderr and returns 1.
instrument() {
    local in=$1 out=$2 err rc
    err=$("$GOREWRITE" "$in" "$out" 2>&1 >/dev/null)
    rc=$?
    if [ $rc -ne 0 ]; then
        echo "instrument: bin/gorewrite $in $out exited $rc: $err" >&2
        return 1
    fi
    if [ ! -x "$out" ]; then
        echo "instrument: bin/gorewrite $in $out exited 0 but $out is not an executable file" >&2
        return 1
    fi
}

# mktemp_dir: a fresh temporary directory (caller removes it).
mktemp_dir() {
    mktemp -d "${TMPDIR:-/tmp}/gorewrite-test.XXXXXX"
}

# work_dir: sets $WORK to a fresh temporary directory that the test's EXIT
# trap removes (a test with more to undo sets a trap of its own).
work_dir() {
    WORK=$(mktemp_dir)
    trap 'rm -rf "$WORK"' EXIT
}

# run_one OUTDIR STATDIR CMD [args...]: runs CMD with GOSTAT_DIR=STATDIR,
# stdout/stderr/status/pid into OUTDIR/{out,err,rc,pid}. The pid is that of
# CMD itself (exec), so it names the stats file.
run_one() {
    local o=$1 sd=$2
    shift 2
    mkdir -p "$o"
    GOSTAT_DIR=$sd timeout -k 10 "$RUN_TIMEOUT" \
        bash -c 'echo $$ > "$0"; exec "$@"' "$o/pid" "$@" \
        </dev/null >"$o/out" 2>"$o/err"
    echo $? >"$o/rc"
}

# run_compare ORIG INSTR [args...]: runs both programs with the same
# arguments, environment and working directory (each with its own private
# GOSTAT_DIR) and compares stdout, stderr and exit status exactly; prints a
# diff and returns 1 on any difference. Afterwards:
#   RC_STATDIR  the instrumented run's GOSTAT_DIR
#   RC_PID      the instrumented process's pid
#   RC_STATUS   its exit status
#   RC_WORK     directory with orig/{out,err,rc} and instr/{out,err,rc}
# RC_WORK is created inside $WORK when the caller has set WORK (its temporary
# directory, removed on exit), else under ${TMPDIR:-/tmp}; the caller may
# remove it earlier.
run_compare() {
    local orig=$1 instr=$2
    shift 2
    RC_WORK=$(mktemp -d "${WORK:-${TMPDIR:-/tmp}}/run.XXXXXX")
    mkdir -p "$RC_WORK/stat.orig" "$RC_WORK/stat.instr"
    run_one "$RC_WORK/orig" "$RC_WORK/stat.orig" "$orig" "$@"
    run_one "$RC_WORK/instr" "$RC_WORK/stat.instr" "$instr" "$@"
    RC_STATDIR=$RC_WORK/stat.instr
    RC_PID=$(cat "$RC_WORK/instr/pid")
    RC_STATUS=$(cat "$RC_WORK/instr/rc")
    local bad=0 what
    for what in out err rc; do
        if ! cmp -s "$RC_WORK/orig/$what" "$RC_WORK/instr/$what"; then
            case $what in out) echo "stdout differs: $orig vs $instr $*" ;;
                          err) echo "stderr differs: $orig vs $instr $*" ;;
                          rc) echo "exit status differs: $orig exited $(cat "$RC_WORK/orig/rc"), $instr exited $RC_STATUS" ;;
            esac
            diff -u --label "original $what" --label "instrumented $what" \
                "$RC_WORK/orig/$what" "$RC_WORK/instr/$what" | head -40
            bad=1
        fi
    done
    if [ "$(cat "$RC_WORK/orig/rc")" = 124 ]; then
        echo "run_compare: $orig timed out after ${RUN_TIMEOUT}s"
        bad=1
    fi
    if [ -n "$(ls -A "$RC_WORK/stat.orig")" ]; then
        echo "run_compare: the original program $orig wrote into GOSTAT_DIR: $(ls -A "$RC_WORK/stat.orig")"
        bad=1
    fi
    return $bad
}

# stats_file_for DIR: prints the single gostat.* file in DIR; fails (with a
# message on stderr) if there is none or more than one.
stats_file_for() {
    local d=$1 f n
    n=0
    for f in "$d"/gostat.*; do
        [ -e "$f" ] || continue
        n=$((n + 1))
        printf '%s\n' "$f"
    done
    if [ $n -ne 1 ]; then
        echo "stats_file_for: expected exactly one gostat.* file in $d, found $n: $(ls -A "$d" | tr '\n' ' ')" >&2
        return 1
    fi
}

# gostat_json STATSFILE OUTJSON: bin/gostat --json STATSFILE > OUTJSON,
# failing with its stderr if it exits non-zero or prints nothing.
gostat_json() {
    local f=$1 j=$2 rc
    "$GOSTAT" --json "$f" >"$j" 2>"$j.err"
    rc=$?
    if [ $rc -ne 0 ]; then
        echo "gostat --json $f exited $rc: $(head -c 500 "$j.err")" >&2
        return 1
    fi
    if [ ! -s "$j" ]; then
        echo "gostat --json $f printed nothing" >&2
        return 1
    fi
}

# check_counts JSON EXPECT [GOVERSION]: compares gostat --json output with an
# expect file. EXPECT lines: "name count" (exact count, summed over all
# functions of that name) or "name >0" (at least one call). Blank lines and
# '#' comments are ignored. A line may start with "goX.Y:" or "go>=X.Y:"
# (comma-separated alternatives) to apply only to those Go versions; such
# lines are skipped when GOVERSION is not given. Prints each mismatch.
check_counts() {
    python3 - "$@" <<'PY'
import json, sys

def vt(s):
    return tuple(int(x) for x in s.split("."))

jpath, epath = sys.argv[1], sys.argv[2]
ver = sys.argv[3] if len(sys.argv) > 3 else None
try:
    data = json.load(open(jpath))
except Exception as e:
    print("check_counts: %s is not valid JSON: %s" % (jpath, e))
    sys.exit(1)
calls = {}
for f in data.get("functions", []):
    calls[f["name"]] = calls.get(f["name"], 0) + int(f["calls"])
bad = 0
n = 0
for lineno, line in enumerate(open(epath), 1):
    line = line.split("#", 1)[0].strip()
    if not line:
        continue
    fields = line.split()
    if fields[0].endswith(":"):
        sel = fields[0][:-1]
        fields = fields[1:]
        ok = False
        for alt in sel.split(","):
            if ver is None:
                continue
            if alt.startswith("go>="):
                ok = ok or vt(ver) >= vt(alt[4:])
            elif alt.startswith("go"):
                ok = ok or vt(ver) == vt(alt[2:])
            else:
                print("%s:%d: bad version selector %r" % (epath, lineno, alt))
                bad += 1
        if not ok:
            continue
    if len(fields) != 2:
        print("%s:%d: malformed line %r" % (epath, lineno, line))
        bad += 1
        continue
    name, want = fields
    n += 1
    if name not in calls:
        print("  %s: expected %s calls, but gostat lists no function of that name" % (name, want))
        bad += 1
        continue
    got = calls[name]
    if want == ">0":
        if got <= 0:
            print("  %s: expected some calls, got 0" % name)
            bad += 1
    elif got != int(want):
        print("  %s: expected %s calls, got %d" % (name, want, got))
        bad += 1
if n == 0:
    print("check_counts: %s has no applicable lines" % epath)
    bad += 1
sys.exit(1 if bad else 0)
PY
}

# check_meta JSON EXEPATH PID GOVERSION: the run is over, so "live" must be
# false, "exe" must end with the instrumented file's name, "pid" must be PID
# and "go_version" the release of toolchain GOVERSION (e.g. 1.22).
check_meta() {
    python3 - "$@" <<'PY'
import json, os, sys
jpath, exe, pid, gover = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
d = json.load(open(jpath))
bad = []
v = str(d.get("go_version", ""))
if v != "go" + gover and not v.startswith("go" + gover + "."):
    bad.append('"go_version" is %r, want go%s.x' % (v, gover))
if d.get("live") is not False:
    bad.append('"live" is %r after the program exited, want false' % (d.get("live"),))
if not str(d.get("exe", "")).endswith("/" + os.path.basename(exe)):
    bad.append('"exe" is %r, want a path ending in /%s' % (d.get("exe"), os.path.basename(exe)))
if d.get("pid") != pid:
    bad.append('"pid" is %r, want %d' % (d.get("pid"), pid))
if not isinstance(d.get("functions"), list) or not d["functions"]:
    bad.append('"functions" is empty or missing')
for b in bad:
    print("  " + b)
sys.exit(1 if bad else 0)
PY
}

# check_stats_name FILE EXE PID: the stats file is named
# gostat.<exe basename>.<pid>[.<n>].
check_stats_name() {
    local base want
    base=$(basename "$1")
    want="gostat.$(basename "$2").$3"
    case $base in
        "$want" | "$want".[0-9]*) return 0 ;;
    esac
    echo "  stats file is named $base, want $want"
    return 1
}

# decision FILE FUNC: the `gorewrite -v` line of FUNC in FILE.
decision() {
    grep -E "^[a-z+ ]+0x[0-9a-f]+ $(printf '%s' "$2" | sed 's/[][().*]/\\&/g')[ :]" "$1" | head -1
}

# elapsed_since START: whole seconds since START (from `date +%s`).
elapsed_since() {
    echo $(($(date +%s) - $1))
}

# wait_for_line FILE REGEX: waits up to 30 s for a line of FILE (written by
# a background process) to match the extended REGEX; 1 if none did.
wait_for_line() {
    local i
    for i in $(seq 300); do
        grep -qE "$2" "$1" 2>/dev/null && return 0
        sleep 0.1
    done
    return 1
}

# pids: background processes a test started (servers, programs under
# test); stop_pids, from the test's EXIT trap, kills and reaps each.
pids=()
stop_pids() {
    local p
    for p in ${pids[@]+"${pids[@]}"}; do
        kill "$p" 2>/dev/null
    done
    for p in ${pids[@]+"${pids[@]}"}; do
        wait "$p" 2>/dev/null
    done
}

# stats_of_this_shell: a stats file of this shell's process in $dir (one
# function, main.work, 10 calls), so a server has a live process to read.
stats_of_this_shell() {
    local ticks
    ticks=$(sed 's/.*) //' /proc/$$/stat | cut -d' ' -f20)
    "$MKSTATS" "$dir/gostat.app.$$" --pid $$ --start-ticks "$ticks" --func main.work:0x10:10 >/dev/null ||
        fail "mkstats failed"
}

# start_serve NAME ARGS...: `gostat serve ARGS` in the background, its
# stdout and stderr in $dir/NAME.out and $dir/NAME.err ($dir: the test's
# temporary directory); waits for its "serving" line, then sets $serve_pid
# and $url (the http URL it serves; "" for a unix socket).
start_serve() {
    local name=$1
    shift
    "$GOSTAT" serve "$@" >"$dir/$name.out" 2>"$dir/$name.err" &
    serve_pid=$!
    pids+=($serve_pid)
    url=
    wait_for_line "$dir/$name.out" '^serving ' ||
        { fail "$name: no serving line: $(cat "$dir/$name.err")"; return 1; }
    url=$(sed -n 's/^serving \(http[^ ]*\).*/\1/p' "$dir/$name.out")
}

# instrumented_live: testdata/live built with Go 1.22 into $WORK/live and
# instrumented into $WORK/live.instr (the program of the security tests);
# ends the test if either fails.
instrumented_live() {
    build_go 1.22 "$ROOT/testdata/live" "$WORK/live" || exit 1
    instrument "$WORK/live" "$WORK/live.instr" || exit 1
}

# py_check ARGS... <<'PY' ... PY: runs the Python checks read from stdin
# with sys.argv[1:] = ARGS (the first a JSON file), `stats` (that file
# parsed) and `bad`, a list the checks append one line to per failure.
# Then prints each line of bad (the first `limit`, each after `label`;
# the checks may set both) and returns 1 if there was any.
py_check() {
    python3 -c "import json, sys
stats = json.load(open(sys.argv[1]))
bad = []
label, limit = '', None
$(cat)
for b in bad[:limit]:
    print('  ' + label + b)
sys.exit(1 if bad else 0)" "$@"
}

# speedscope_rows HTML [PREFIX]: the sandwich table of speedscope's page
# saved in HTML (scripts/speedscope_shot.sh), one "name total self" line
# per frame whose name starts with PREFIX, sorted by name.
speedscope_rows() {
    python3 - "$1" "${2:-}" <<'PY'
import re, sys
dom = open(sys.argv[1]).read()
rows = re.findall(r'<tr[^>]*><td[^>]*>([\d,]+) \([^)]*\)<div.*?</td><td[^>]*>([\d,]+) \([^)]*\)<div.*?</td>'
                  r'<td[^>]*><span[^>]*></span>([^<]+)</td></tr>', dom)
for total, self_, name in sorted(rows, key=lambda r: r[2]):
    if name.startswith(sys.argv[2]):
        print(name, total.replace(",", ""), self_.replace(",", ""))
PY
}

# screenshot_check PNG <<'PY' ... PY: runs the Python checks read from
# stdin on speedscope's screenshot PNG, which must be 1200x800, with `w`,
# `h` and `rows` (scripts/png_stats.py's decode), colour_extents and `tol`,
# 1 % of the width. Its status is theirs.
screenshot_check() {
    python3 -B -c "import sys
sys.path.insert(0, sys.argv[1])
from png_stats import decode, colour_extents
w, h, rows = decode(sys.argv[2])
if (w, h) != (1200, 800):
    sys.exit(f'screenshot is {w}x{h}, not 1200x800')
tol = 0.01 * w
$(cat)" "$ROOT/scripts" "$1"
}

# unrecovered BIN [ARG]: runs BIN with the argument ARG, "unrecovered" by
# default (a nil
# dereference the program does not recover: t_leaf, t_shortret) with ASLR
# off (a PIE's traceback prints addresses) and prints its stderr, with the
# argument words the runtime itself marks as unreliable ("0x...?": spill
# slots that hold whatever was there, different from run to run of the
# original too) masked; returns its exit status.
unrecovered() {
    local rc
    GOSTAT_DIR=$WORK GOSTAT_QUIET=1 setarch -R "$1" "${2:-unrecovered}" 2>"$WORK/raw.err" >/dev/null
    rc=$?
    sed -E 's/0x[0-9a-f]+\?/0x?/g' "$WORK/raw.err"
    return $rc
}

# same_nil_panic LABEL ORIG INSTR FRAME [ARG]: ORIG and INSTR run with ARG
# ("unrecovered" by default) exit 2 with the same stderr, a nil-dereference panic with FRAME (a
# function name) in its traceback; prints what differs, 1 if anything.
same_nil_panic() {
    local label=$1 orig=$2 instr=$3 frame=$4 arg=${5:-unrecovered} want_rc got_rc ok=0
    unrecovered "$orig" "$arg" >"$WORK/want.err"
    want_rc=$?
    unrecovered "$instr" "$arg" >"$WORK/got.err"
    got_rc=$?
    [ $want_rc = 2 ] && [ $got_rc = 2 ] ||
        { echo "  $label: exit status $got_rc (original $want_rc), want 2"; ok=1; }
    diff -u --label original --label instrumented "$WORK/want.err" "$WORK/got.err" >"$WORK/d" ||
        { echo "  $label: unrecovered nil dereference: stderr differs"; head -20 "$WORK/d"; ok=1; }
    grep -q "^panic: runtime error: invalid memory address or nil pointer dereference" "$WORK/got.err" &&
        grep -qF "$frame" "$WORK/got.err" ||
        { echo "  $label: stderr lacks the panic or $frame's frame: $(head -3 "$WORK/got.err")"; ok=1; }
    return $ok
}
