#!/usr/bin/env bash
# t_gostat_profiles.sh: "gostat pprof" and "gostat callgrind", read back by
# the real readers: Go 1.22's `go tool pprof` (-raw, -top, -traces, -tags,
# -http) and valgrind's callgrind_annotate.
#  - a real instrumented program (testdata/recursion, exact counts in its
#    expect file): every function's calls in both files equal gostat
#    --json's exactly, times within the clock's drift between two gostat
#    runs (1e-4); totals; file:line; --filter; default file names; -o -.
#  - a live process (testdata/live, by PID): a snapshot with a duration.
#  - a synthetic file with a known clock: exact times, untimed functions at
#    0 with their reason, zero-call functions left out.
#  - hostile names (quotes, newline, escape, invalid UTF-8, "(5)", blanks):
#    both readers accept the files and show the cleaned names.
#  - bad inputs: exit 2 with one line, no file, an existing file untouched;
#    usage errors exit 1.
cd "$(dirname "$0")/../.."
. tests/assert.sh
require_tools

GO=1.22
mkdir -p "$dir/home" "$dir/stats" "$dir/cwd"
# pprof with a private HOME: nothing is written to the real one.
pprof() { HOME=$dir/home go_env $GO "$(go_bin $GO)" tool pprof "$@"; }
# callgrind_annotate run from /: it strips the current directory from file
# names.
annotate() { (cd / && callgrind_annotate --threshold=100 "$@"); }

# gostat_ok NAME ARGS...: gostat ARGS must exit 0 with nothing on stderr.
gostat_ok() {
    local name=$1
    shift
    "$GOSTAT" "$@" >"$dir/gout" 2>"$dir/gerr"
    local rc=$?
    [ $rc -eq 0 ] || fail "$name: exit $rc: $(cat "$dir/gerr")"
    [ -s "$dir/gerr" ] && fail "$name: stderr: $(cat "$dir/gerr")"
}

# check_against_json JSON PPROF_RAW ANNOTATE [FILTER]: every called
# function's calls (exact) and time (relative 1e-4) in pprof -raw and in
# callgrind_annotate's table equal gostat --json's; nothing else is listed.
check_against_json() {
    python3 - "$@" <<'PY'
import json, re, sys
j = json.load(open(sys.argv[1]))
raw = open(sys.argv[2]).read()
ann = open(sys.argv[3]).read()
flt = re.compile(sys.argv[4]) if len(sys.argv) > 4 else None
want = {}
for f in j["functions"]:
    if f["calls"] and (flt is None or flt.search(f["name"])):
        want[int(f["entry"], 16)] = (f["name"], f["file"], f["line"], f["calls"], f["total_ns"] or 0)
bad = []
def close(a, b):
    return abs(a - b) <= max(1, 1e-4 * max(a, b))
# pprof -raw: samples "CALLS TIME[ ONCPU]: LOCID", locations "ID: 0xADDR M=1 NAME FILE:LINE s=LINE"
samples = dict((int(m[3]), (int(m[1]), int(m[2])))
               for m in re.finditer(r"^ +(\d+) +(\d+)(?: +\d+)?: (\d+) $", raw, re.M))
locs = {}
for m in re.finditer(r"^ +(\d+): 0x([0-9a-f]+) M=1 (\S+) (\S*):(\d+) s=(\d+)$", raw, re.M):
    locs[int(m[2], 16)] = (m[3], m[4], int(m[5]), samples.get(int(m[1])))
if set(locs) != set(want):
    bad.append("pprof locations: %d, want %d" % (len(locs), len(want)))
for a, (name, file, line, calls, ns) in want.items():
    got = locs.get(a)
    if got is None:
        bad.append("pprof: %s missing" % name); continue
    if got[:3] != (name, file, line) or got[3] is None or got[3][0] != calls or not close(got[3][1], ns):
        bad.append("pprof %s: got %s, want %s" % (name, got, (name, file, line, (calls, ns))))
# callgrind_annotate: "CALLS (P%) TIME (P%)  FILE:FUNC [OBJ]"; duplicate names add up.
rows = {}
for m in re.finditer(r"^ *([\d,]+) \( *[\d.]+%\) +([\d,]+)(?: \( *[\d.]+%\))? +(.*) \[.*\]$", ann, re.M):
    c, t = rows.get(m[3], (0, 0))
    rows[m[3]] = (c + int(m[1].replace(",", "")), t + int(m[2].replace(",", "")))
byname = {}
for name, file, line, calls, ns in want.values():
    c, t = byname.get("%s:%s" % (file, name), (0, 0))
    byname["%s:%s" % (file, name)] = (c + calls, t + ns)
if set(rows) != set(byname):
    bad.append("callgrind_annotate rows: %s" % sorted(set(rows) ^ set(byname))[:5])
for k, (calls, ns) in byname.items():
    got = rows.get(k)
    if got is None or got[0] != calls or not close(got[1], ns):
        bad.append("callgrind_annotate %s: got %s, want %s" % (k, got, (calls, ns)))
for b in bad[:10]:
    print(b)
sys.exit(1 if bad else 0)
PY
}

########## a real program: testdata/recursion (fib(25) etc.)
build_go $GO testdata/recursion "$dir/rec" || fail "build recursion"
instrument "$dir/rec" "$dir/rec.i" || fail "instrument recursion"
run_one "$dir/run" "$dir/stats" "$dir/rec.i" "$(cat testdata/recursion/args)"
expect "recursion exit status" 0 "$(cat "$dir/run/rc")"
stats=$(stats_file_for "$dir/stats")
pid=$(cat "$dir/run/pid")
gostat_json "$stats" "$dir/rec.json" || fail "gostat --json"

gostat_ok "pprof" pprof -o "$dir/rec.pb.gz" "$stats"
nfuncs=$(python3 -c 'import json,sys; print(sum(1 for f in json.load(open(sys.argv[1]))["functions"] if f["calls"]))' "$dir/rec.json")
expect "pprof: stdout" "wrote $nfuncs functions to $dir/rec.pb.gz" "$(cat "$dir/gout")"
gzip -t "$dir/rec.pb.gz" || fail "pprof: not gzip"
gostat_ok "callgrind" callgrind -o "$dir/callgrind.out" "$stats"

pprof -raw "$dir/rec.pb.gz" >"$dir/rec.raw" 2>"$dir/pprof.err" || fail "pprof -raw: $(cat "$dir/pprof.err")"
annotate "$dir/callgrind.out" >"$dir/rec.ann" 2>"$dir/ann.err" \
    || fail "callgrind_annotate: $(cat "$dir/ann.err")"
expect "callgrind_annotate: stderr" "" "$(cat "$dir/ann.err")"
check_against_json "$dir/rec.json" "$dir/rec.raw" "$dir/rec.ann" || fail "recursion: readers disagree with --json"

# The expect file's exact counts, in pprof -top and callgrind_annotate.
pprof -top -nodecount=100000 -nodefraction=0 -sample_index=calls "$dir/rec.pb.gz" >"$dir/top" 2>/dev/null || fail "pprof -top"
while read -r name count; do
    case $name in '#'*|'') continue ;; esac
    expect "pprof -top $name" "$count $count" \
        "$(awk -v n="$name" '$6 == n { print $1, $4 }' "$dir/top")"
    expect "callgrind_annotate $name" "$count" \
        "$(awk -v n=":$name" 'index($0, n " [") { gsub(",", "", $1); print $1 }' "$dir/rec.ann")"
done <testdata/recursion/expect
total_calls=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["total_calls"])' "$dir/rec.json")
grep -q "of $total_calls total\$" "$dir/top" || fail "pprof -top: total is not $total_calls: $(grep total "$dir/top")"
grep -q '^Type: calls$' "$dir/top" || fail "pprof: default sample type is not calls"
grep -q '^Duration:' "$dir/top" || fail "pprof: an exited process has no duration (its file records its end)"
expect "pprof -raw mapping" \
    "$dir/rec.i [FN][FL][LN][IN]" "$(sed -n '/^Mappings/{n;p}' "$dir/rec.raw" | sed 's/^1: [^ ]* //; s/ [^ ]* \[/ [/')"
expect "pprof -raw build id" "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["build_id"])' "$dir/rec.json")" \
    "$(sed -n '/^Mappings/{n;p}' "$dir/rec.raw" | cut -d' ' -f4)"
expect "pprof -raw time" "$(python3 -c 'import json,sys,datetime; j=json.load(open(sys.argv[1])); print(datetime.datetime.fromtimestamp(j["start_time_ns"]//10**9, datetime.timezone.utc).strftime("%Y-%m-%d %H:%M:%S"))' "$dir/rec.json")" \
    "$(sed -n 's/^Time: \([0-9-]* [0-9:]*\)\..*/\1/p' "$dir/rec.raw")"
grep -qx 'PeriodType: calls count' "$dir/rec.raw" || fail "pprof: period type"
grep -qx 'Period: 1' "$dir/rec.raw" || fail "pprof: period"

# -sample_index=time: the total is the sum of gostat's total_ns, as pprof
# rounds it (e.g. 341.39ms; 2.29s on a loaded machine: half a unit of the
# last digit it prints).
pprof -top -sample_index=time "$dir/rec.pb.gz" >"$dir/toptime" 2>/dev/null || fail "pprof -top time"
sum_ms=$(python3 -c 'import json,sys; print(sum(f["total_ns"] or 0 for f in json.load(open(sys.argv[1]))["functions"]) / 1e6)' "$dir/rec.json")
got=$(sed -n 's/.* of \([0-9.]*[a-zµ]*\) total$/\1/p' "$dir/toptime")
python3 - "$sum_ms" "${got:-none}" <<'PY' || fail "pprof -sample_index=time total ${got}, gostat ${sum_ms}ms"
import re, sys
a = float(sys.argv[1])
m = re.fullmatch(r"([0-9]+)(?:\.([0-9]*))?(ns|us|µs|ms|s)", sys.argv[2])
if not m:
    sys.exit(1)
scale = {"ns": 1e-6, "us": 1e-3, "µs": 1e-3, "ms": 1.0, "s": 1e3}[m.group(3)]
b = float(m.group(1) + "." + (m.group(2) or "0")) * scale
sys.exit(abs(a - b) > max(0.01 + 1e-4 * a, 0.5 * 10 ** -len(m.group(2) or "") * scale))
PY
grep -q '^Type: time$' "$dir/toptime" || fail "pprof -sample_index=time type"

# -traces: one single-frame trace per function; -lines: file:line.
pprof -traces "$dir/rec.pb.gz" 2>/dev/null | grep -qE '^ +242785   main\.fib$' || fail "pprof -traces main.fib"
expect "pprof -top -lines main.fib" "242785 $ROOT/testdata/recursion/main.go:16" \
    "$(pprof -top -lines "$dir/rec.pb.gz" 2>/dev/null | awk '$6 == "main.fib" { print $1, $7 }')"
# Untimed functions: time 0, labelled with the reason.
pprof -tags "$dir/rec.pb.gz" 2>/dev/null | grep -q '^ *untimed: Total' || fail "pprof -tags: no untimed label"

# callgrind: the header and exact totals.
expect "callgrind header" "# callgrind format
version: 1
creator: gostat
pid: $pid
cmd: $dir/rec.i
desc: Trigger: process exited" "$(head -6 "$dir/callgrind.out")"
grep -qx 'events: Calls TimeNs' "$dir/callgrind.out" || fail "callgrind: events line"
grep -q '^Events recorded:  Calls TimeNs$' "$dir/rec.ann" || fail "callgrind_annotate: events"
grep -q "^Profiled target:  $dir/rec.i (PID $pid)\$" "$dir/rec.ann" || fail "callgrind_annotate: target"
totals=$(sed -n 's/^totals: //p' "$dir/callgrind.out")
expect "callgrind summary = totals" "$totals" "$(sed -n 's/^summary: //p' "$dir/callgrind.out")"
expect "callgrind totals calls" "$total_calls" "${totals% *}"
# (%.0f: mawk's %d stops at 2^31-1, 2.1 s in ns, which a loaded machine passes)
expect "callgrind totals time" "$(awk '$0 ~ /^[0-9]+ [0-9]+ [0-9]+$/ { t += $3 } END { printf "%.0f", t }' "$dir/callgrind.out")" "${totals#* }"
expect "callgrind_annotate program totals" "$total_calls" \
    "$(awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }' "$dir/rec.ann")"

# pprof -http serves the profile; its top page lists the functions.
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
pprof -http="127.0.0.1:$port" -no_browser "$dir/rec.pb.gz" >"$dir/http.log" 2>&1 &
server=$!
# kill_tree PID: PID and its descendants (the pprof function's subshell,
# the go command and pprof itself; killing the subshell alone left pprof
# serving after the test)
kill_tree() {
    local c
    for c in $(pgrep -P "$1"); do kill_tree "$c"; done
    kill "$1" 2>/dev/null
}
trap 'kill_tree $server; rm -rf "$dir"' EXIT
for _ in $(seq 100); do
    curl -sf "http://127.0.0.1:$port/ui/top" -o "$dir/top.html" && break
    sleep 0.1
done
kill_tree $server
wait $server 2>/dev/null
grep -q 'main\.fib' "$dir/top.html" || fail "pprof -http /ui/top: no main.fib ($(cat "$dir/http.log"))"
grep -q '242785' "$dir/top.html" || fail "pprof -http /ui/top: no 242785"

# --filter; default output names; -o - (the same bytes as a file).
gostat_ok "pprof --filter" pprof --filter '^main\.' -o "$dir/main.pb.gz" "$stats"
gostat_ok "callgrind --filter" callgrind --filter '^main\.' -o "$dir/main.cg" "$stats"
pprof -raw "$dir/main.pb.gz" >"$dir/main.raw" 2>/dev/null
annotate "$dir/main.cg" >"$dir/main.ann" 2>/dev/null
check_against_json "$dir/rec.json" "$dir/main.raw" "$dir/main.ann" '^main\.' || fail "--filter"
(cd "$dir/cwd" && "$GOSTAT" pprof "$stats" >/dev/null && "$GOSTAT" callgrind "$stats" >/dev/null) \
    || fail "default names: exit status"
expect "default names" "callgrind.out.$pid pprof.rec.i.$pid.pb.gz" "$(ls "$dir/cwd" | tr '\n' ' ' | sed 's/ $//')"

########## a live process, by PID: a snapshot with a duration
build_go $GO testdata/live "$dir/live" || fail "build live"
instrument "$dir/live" "$dir/live.i" || fail "instrument live"
mkdir -p "$dir/livestats"
t_launch=$(date +%s.%N)
GOSTAT_DIR=$dir/livestats "$dir/live.i" 777 wait >"$dir/live.out" 2>&1 &
livepid=$!
trap 'kill_tree $server; kill $livepid 2>/dev/null; rm -rf "$dir"' EXIT
for _ in $(seq 100); do grep -q done "$dir/live.out" && break; sleep 0.1; done
t_done=$(date +%s.%N)
sleep 1
t_before=$(date +%s.%N)
GOSTAT_DIR=$dir/livestats gostat_ok "pprof live" pprof -o "$dir/live.pb.gz" "$livepid"
t_after=$(date +%s.%N)
GOSTAT_DIR=$dir/livestats gostat_ok "callgrind live" callgrind -o "$dir/live.cg" "$livepid"
kill $livepid
wait $livepid 2>/dev/null
pprof -top -sample_index=calls "$dir/live.pb.gz" >"$dir/livetop" 2>/dev/null || fail "pprof live -top"
expect "live: main.work calls" "777" "$(awk '$6 == "main.work" { print $1 }' "$dir/livetop")"
dur=$(sed -n 's/^Duration: \([0-9.]*\)s, .*/\1/p' "$dir/livetop")
# The run time so far: the process started after t_launch and before
# "done" was seen, and was read between t_before and t_after (pprof prints
# two decimals: 0.005 s for rounding).
python3 -c 'import sys; d, l, o, b, a = map(float, sys.argv[1:]); sys.exit(not b - o - 0.005 <= d <= a - l + 0.005)' \
    "${dur:-0}" "$t_launch" "$t_done" "$t_before" "$t_after" ||
    fail "live: duration '${dur}' not the run time so far (launched $t_launch, seen running $t_done, read $t_before..$t_after): $(grep Duration "$dir/livetop")"
grep -q 'live snapshot' "$dir/livetop" || fail "live: comment"
grep -qx "desc: Trigger: gostat snapshot of a live process" "$dir/live.cg" || fail "live: callgrind desc"
grep -qx "fn=([0-9]*) main.work" "$dir/live.cg" || fail "live: callgrind main.work"
grep -A1 -x "fn=([0-9]*) main.work" "$dir/live.cg" | grep -qE '^[0-9]+ 777 [0-9]+$' || fail "live: callgrind main.work cost"

########## synthetic: a known clock (0.5 ns per tick), exact times
# (see t_gostat_timing.sh): main.work 10 calls 6200 ticks = 3100 ns,
# main.slow 2 calls 4,000,000 ticks = 2 ms, main.inl untimed, main.hidden
# timed but no timed call (0 ns), main.never not called (left out).
t=$dir/gostat.timed.4194305
"$MKSTATS" "$t" --pid 4194305 --rows 4 --spread --timing --tsc 1000:0:2001000:1000000 \
    --exe /usr/bin/fake --build-id abc123 --start-ns 1700000000123456789 \
    --func main.work:0x10:10:/src/w.go:3 --func main.slow:0x20:2:/src/s.go:9 \
    --func main.never:0x30:0 --func main.inl:0x40:5:/src/i.go:1 --func main.hidden:0x50:1 \
    --untimed '3:too short to patch' \
    --time 0:1:5300:100:5000:2=3,8=1 --time 0:2:900:130:200:3=6 \
    --time 1:1:4000000:1000000:3000000:15=1,17=1 --time 4:3:500:500:500:4=1 --pagemap 3:1:2 \
    || fail "mkstats timed"
gostat_ok "pprof synthetic" pprof -o "$dir/syn.pb.gz" "$t"
gostat_ok "callgrind synthetic" callgrind -o "$dir/syn.cg" "$t"
# -o - writes the same bytes as -o FILE (a file with a fixed clock: for a
# real one each gostat run calibrates anew and times may differ in the
# last digit).
cmp -s "$dir/syn.cg" <("$GOSTAT" callgrind -o - "$t") || fail "callgrind -o -: differs"
"$GOSTAT" pprof -o - "$t" | gzip -dc >"$dir/stdout.pb" || fail "pprof -o -: not gzip"
cmp -s "$dir/stdout.pb" <(gzip -dc "$dir/syn.pb.gz") || fail "pprof -o -: differs"
pprof -raw "$dir/syn.pb.gz" >"$dir/syn.raw" 2>/dev/null || fail "pprof -raw synthetic"
expect "synthetic pprof samples" "calls/count[dflt] time/nanoseconds
10 3100: 1
5 0: 2
untimed:[too short to patch]
2 2000000: 3
1 0: 4
untimed:[no call timed]
Locations
1: 0x10 M=1 main.work /src/w.go:3 s=3
2: 0x40 M=1 main.inl /src/i.go:1 s=1
3: 0x20 M=1 main.slow /src/s.go:9 s=9
4: 0x50 M=1 main.hidden :0 s=0
Mappings
1: 0x10/0x51/0x0 /usr/bin/fake abc123 [FN][FL][LN][IN]" \
    "$(sed -n '/^Samples:/,$p' "$dir/syn.raw" | sed '1d; s/^ *//; s/ *$//; s/  */ /g')"
grep -qx 'Time: 2023-11-14 22:13:20.123456789 +0000 UTC' "$dir/syn.raw" || fail "synthetic: time_nanos"
expect "synthetic callgrind body" "ob=(1) /usr/bin/fake
fl=(1) /src/w.go
fn=(1) main.work
3 10 3100
fl=(2) /src/i.go
fn=(2) main.inl
1 5 0
fl=(3) /src/s.go
fn=(3) main.slow
9 2 2000000
fl=(4) ???
fn=(4) main.hidden
0 1 0

totals: 18 2003100" "$(sed -n '/^ob=/,$p' "$dir/syn.cg")"
annotate "$dir/syn.cg" >"$dir/syn.ann" 2>"$dir/ann.err" || fail "callgrind_annotate synthetic"
expect "synthetic callgrind_annotate" "18 (100.0%) 2,003,100 (100.0%) PROGRAM TOTALS
10 (55.56%) 3,100 ( 0.15%) /src/w.go:main.work [/usr/bin/fake]
5 (27.78%) 0 /src/i.go:main.inl [/usr/bin/fake]
2 (11.11%) 2,000,000 (99.85%) /src/s.go:main.slow [/usr/bin/fake]
1 ( 5.56%) 0 ???:main.hidden [/usr/bin/fake]" \
    "$(grep -E 'PROGRAM TOTALS|\[/usr/bin/fake\]' "$dir/syn.ann" | sed 's/^ *//; s/  */ /g')"
expect "synthetic callgrind_annotate stderr" "" "$(cat "$dir/ann.err")"

########## hostile names: both readers take them, every name stays one line
h=$dir/gostat.hostile.4194306
"$MKSTATS" "$h" --pid 4194306 --exe $'/tmp/odd\nexe' \
    --func 'say "hi":0x10:7:/src/q "x".go:1' --func $'new\nline:0x20:6' \
    --func 'with spaces:0x30:5:/a b/c d.go:2' --func $'bad\xff\xfeutf8:0x40:4' \
    --func $'\e[31mred\e[0m:0x50:3' --func '(5) paren:0x60:2' --func '   :0x70:1:   :4' \
    || fail "mkstats hostile"
gostat_ok "pprof hostile" pprof -o "$dir/h.pb.gz" "$h"
gostat_ok "callgrind hostile" callgrind -o "$dir/h.cg" "$h"
pprof -top "$dir/h.pb.gz" >"$dir/h.top" 2>"$dir/h.err" || fail "pprof hostile: $(cat "$dir/h.err")"
expect "hostile pprof -top" "7 say \"hi\"
6 new?line
5 with spaces
4 bad��utf8
3 ?[31mred?[0m
2 (5) paren
1 " "$(sed -n '/flat%/,$p' "$dir/h.top" | sed '1d' | sed -E 's/^ *([0-9]+) +[^ ]+ +[^ ]+ +[^ ]+ +[^ ]+ +/\1 /')"
pprof -raw "$dir/h.pb.gz" >"$dir/h.raw" 2>/dev/null || fail "pprof -raw hostile"
grep -q $'\e' "$dir/h.raw" "$dir/h.top" "$dir/h.cg" && fail "hostile: escape character in the output"
grep -q '/tmp/odd?exe' "$dir/h.raw" || fail "hostile: exe in the mapping"
expect "hostile callgrind" "cmd: /tmp/odd?exe
ob=(1) /tmp/odd?exe
fl=(1) /src/q \"x\".go
fn=(1) say \"hi\"
1 7 0
fl=(2) ???
fn=(2) new?line
0 6 0
fl=(3) /a b/c d.go
fn=(3) with spaces
2 5 0
fl=(2)
fn=(4) bad��utf8
0 4 0
fl=(2)
fn=(5) ?[31mred?[0m
0 3 0
fl=(2)
fn=(6) (5) paren
0 2 0
fl=(4) ???
fn=(7) ???
4 1 0
totals: 28 0" "$(grep -v '^$' "$dir/h.cg" | sed -n '/^cmd:/p; /^ob=/,$p')"
annotate "$dir/h.cg" >"$dir/h.ann" 2>"$dir/ann.err" || fail "callgrind_annotate hostile"
expect "hostile callgrind_annotate stderr" "" "$(cat "$dir/ann.err")"
expect "hostile callgrind_annotate" "28 (100.0%) 0 PROGRAM TOTALS
7 (25.00%) 0 /src/q \"x\".go:say \"hi\" [/tmp/odd?exe]
6 (21.43%) 0 ???:new?line [/tmp/odd?exe]
5 (17.86%) 0 /a b/c d.go:with spaces [/tmp/odd?exe]
4 (14.29%) 0 ???:bad��utf8 [/tmp/odd?exe]
3 (10.71%) 0 ???:?[31mred?[0m [/tmp/odd?exe]
2 ( 7.14%) 0 ???:(5) paren [/tmp/odd?exe]
1 ( 3.57%) 0 ???:??? [/tmp/odd?exe]" \
    "$(grep -E 'PROGRAM TOTALS|\[/tmp/odd' "$dir/h.ann" | sed 's/^ *//; s/  */ /g')"
# Default file name from a hostile exe: one safe component.
(cd "$dir/cwd" && rm -f ./* && "$GOSTAT" pprof "$h" >/dev/null) || fail "hostile default name"
expect "hostile default name" "pprof.odd_exe.4194306.pb.gz" "$(ls "$dir/cwd")"

########## bad inputs: exit 2, one line, no file; usage errors: exit 1
# bad CMD NAME STATUS ARGS...: gostat CMD ARGS exits STATUS with one stderr
# line and leaves $dir/out (and any temporary file) absent.
bad() {
    local cmd=$1 name=$2 want=$3
    shift 3
    mkdir -p "$dir/bad"
    "$GOSTAT" "$cmd" "$@" >"$dir/bad.out" 2>"$dir/bad.err"
    local rc=$?
    expect "$cmd $name: exit status" "$want" "$rc"
    expect "$cmd $name: stderr lines" 1 "$(wc -l <"$dir/bad.err")"
    grep -q "^gostat: " "$dir/bad.err" || fail "$cmd $name: stderr: $(cat "$dir/bad.err")"
    expect "$cmd $name: files left" "" "$(ls -A "$dir/bad")"
}
printf 'not a stats file at all' >"$dir/garbage"
"$MKSTATS" "$dir/corrupt" --pid 7 --func a:0x10:1 --corrupt bad-magic || fail "mkstats corrupt"
for cmd in pprof callgrind; do
    bad $cmd "missing file" 2 -o "$dir/bad/x" "$dir/no-such-file"
    bad $cmd "garbage file" 2 -o "$dir/bad/x" "$dir/garbage"
    bad $cmd "corrupt file" 2 -o "$dir/bad/x" "$dir/corrupt"
    bad $cmd "no such pid" 2 -o "$dir/bad/x" 999999999
    bad $cmd "no such directory" 2 -o "$dir/bad/none/x" "$stats"
    mkdir -p "$dir/isdir"
    bad $cmd "output is a directory" 2 -o "$dir/isdir" "$stats"
    expect "$cmd: nothing left beside the directory" "isdir" "$(ls -A "$dir" | grep isdir)"
    bad $cmd "write error" 2 -o /dev/full "$stats"
    bad $cmd "no target" 1
    bad $cmd "unknown option" 1 --bogus "$stats"
    bad $cmd "missing -o value" 1 "$stats" -o
    bad $cmd "bad regex" 1 --filter '(' "$stats"
    bad $cmd "two targets" 1 "$stats" "$stats"
    # A failure leaves an existing file as it was.
    echo keep >"$dir/keep"
    "$GOSTAT" $cmd -o "$dir/keep" "$dir/garbage" 2>/dev/null
    expect "$cmd: existing file kept on failure" keep "$(cat "$dir/keep")"
    "$GOSTAT" $cmd --help >"$dir/help" || fail "$cmd --help: exit status"
    grep -q "^usage: gostat $cmd " "$dir/help" || fail "$cmd --help: usage line"
    grep -q "INCLUSIVE" "$dir/help" || fail "$cmd --help: the inclusive-time caveat"
done

finish t_gostat_profiles
