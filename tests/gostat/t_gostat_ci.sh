#!/usr/bin/env bash
# t_gostat_ci: gostat merge, diff and coverage on synthetic stats files
# (tests/tools/mkstats) and hand-written JSON, with exact results: merge
# sums calls, timed calls and times and takes min/max across processes
# (from stats files, --dir, gostat --json and its own output); processes of
# different builds are refused without --force; diff lists exactly the
# functions that changed by the threshold either way, in severity order,
# with exit 3 only for growth under --fail-on-regression; coverage lists
# exactly the never-called functions per Go package (methods, closures,
# generic instances with '/' inside brackets, compiler-generated and
# hostile names); every malformed JSON input gives exit 2 and one stderr
# line; a failed merge -o leaves no file (and no temporary one) behind.
cd "$(dirname "$0")/../.."
. tests/assert.sh
require_tools

# json_get FILE PYTHON-EXPR: evaluates EXPR with d = the parsed JSON and
# f = its functions by name.
json_get() {
    python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
fs = d.get("functions")
f = {x["name"]: x for x in fs} if isinstance(fs, list) else {}
print(eval(sys.argv[2]))' "$1" "$2"
}

# fails_with NAME WANT_RC WANT_STDERR ARGS...: gostat ARGS exits WANT_RC
# with exactly one stderr line, equal to WANT_STDERR unless that is "".
fails_with() {
    local name=$1 rc=$2 want=$3
    shift 3
    "$GOSTAT" "$@" >"$dir/fail.out" 2>"$dir/fail.err"
    expect "$name: exit status" "$rc" "$?"
    expect "$name: one stderr line" 1 "$(wc -l <"$dir/fail.err")"
    [ -n "$want" ] && expect "$name: message" "$want" "$(cat "$dir/fail.err")"
}

# ---------------------------------------------------------------- merge
# Clock 0.5 ns per tick. Two processes of one build:
#   M: 100 + 300 calls; timed 2 (2000 ticks, min 10, max 1000) and 4
#      (6000 ticks, min 2, max 3000): 6 timed, 4000 ns, mean 666.7, min 1,
#      max 1500.
#   goroutines: created 5 + 7, exited 3 + 7.
# (type..eq.* is how Go before 1.20 named compiler-generated functions;
# mkstats cannot write the newer "type:" names, which hold a ':'.)
mk() { # mk FILE PID BUILD CALLS_M NEWPROC GOEXIT TIME
    "$MKSTATS" "$1" --pid "$2" --build-id "$3" --go-version go1.22.5 --timing \
        --tsc 1000:0:2001000:1000000 --rows 2 --spread --time "$7" \
        --func "example.com/a/b.(*T).M:0x10:$4:/b.go:5" --func 'main.main:0x20:1:/m.go:3' \
        --func 'example.com/a/b.F[go.shape.*x.com/c.T]:0x30:0:/b.go:9' \
        --func "runtime.newproc1:0x40:$5" --func "runtime.goexit1:0x50:$6" \
        --func 'c/x%2ey.G.func1:0x60:0' --func $'evil"\e[31m.F:0x70:0' \
        --func 'type..eq.main.T:0x80:0' || fail "mkstats $1"
}
mk "$dir/gostat.app.201" 201 build1 100 5 3 0:1:2000:10:1000:3=2
mk "$dir/gostat.app.202" 202 build1 300 7 7 0:1:6000:2:3000:4=4

m=$dir/merged.json
run_ok "merge -o" merge -o "$m" "$dir/gostat.app.201" "$dir/gostat.app.202"
expect "merge summary" "merged 2 processes: 424 calls, 4 of 8 functions called, into $m" "$out"
M='f["example.com/a/b.(*T).M"]'
# Percentiles of the summed histogram (2 in bucket 3 = [128, 256) ticks, 4
# in bucket 4 = [256, 512)): p50 rank 3 is 256 + 256 * 1/4 = 320 ticks =
# 160 ns; p90 and p99, rank 6, 512 ticks = 256 ns (hist.h's rule).
expect "merged M" "400 True 6 4000 667 160 256 256 1 1500" \
    "$(json_get "$m" "' '.join(str($M[k]) for k in ['calls','timed','timed_calls','total_ns','mean_ns','p50_ns','p90_ns','p99_ns','min_ns','max_ns'])")"
expect "merged main.main" "2 /m.go 3" "$(json_get "$m" "' '.join(str(f['main.main'][k]) for k in ['calls','file','line'])")"
expect "merged top level" "424 {'created': 12, 'exited': 10, 'live': 2} [201, 202] ['build1', 'build1']" \
    "$(json_get "$m" "d['total_calls'], d['goroutines'], [p['pid'] for p in d['processes']], [p['build_id'] for p in d['processes']]" | tr -d '()' | sed 's/, {/ {/; s/}, \[/} [/; s/\], \[/] [/')"
expect "merged names sorted, hostile name escaped" \
    "['c/x%2ey.G.func1', 'evil\"\\x1b[31m.F', 'example.com/a/b.(*T).M', 'example.com/a/b.F[go.shape.*x.com/c.T]', 'main.main', 'runtime.goexit1', 'runtime.newproc1', 'type..eq.main.T']" \
    "$(json_get "$m" "[x['name'] for x in d['functions']]")"
grep -q $'\e' "$m" && fail "merged JSON holds a raw escape character"

# gostat FILE.json: a merged profile's table, its processes counted.
run_ok "table of merged JSON" "$m" --filter 'M$|^main'
expect "table of merged JSON" "\
profile $m  processes 2  calls 424  functions 8 (showing 2)
FUNCTION                CALLS   TOTAL   MEAN    P50     MIN     MAX  FILE:LINE
example.com/a/b.(*T).M    400  4.00us  667ns  160ns  1.00ns  1.50us  /b.go:5
main.main                   2       -      -      -       -       -  /m.go:3" "$out"
run_ok "table of merged JSON, --sort name --nonzero --top 3" "$m" --sort name --nonzero --top 3
expect "--sort name --nonzero --top 3" "example.com/a/b.(*T).M main.main runtime.goexit1" \
    "$(sed -n '3,$p' <<<"$out" | cut -d' ' -f1 | paste -sd' ')"
fails_with "--watch of JSON" 1 "gostat: --watch needs a stats file or PID, not JSON ($m)" --watch 1 "$m"
fails_with "--callers of JSON" 1 "gostat: --callers needs a stats file or PID: $m is JSON, which keeps callers only" --callers M "$m"

# --dir gives the same functions; stdout when no -o.
"$GOSTAT" merge --dir "$dir" >"$dir/dir.json" 2>"$dir/err" || fail "merge --dir: exit $?"
expect "merge --dir = merge FILES" "$(json_get "$m" "d['functions']")" "$(json_get "$dir/dir.json" "d['functions']")"

# Merging JSON: gostat --json of one file plus the merge (its own format).
"$GOSTAT" --json "$dir/gostat.app.201" >"$dir/one.json"
run_ok "merge json" merge "$dir/one.json" "$m"
echo "$out" >"$dir/again.json"
expect "re-merged M" "500 8 5000 625 1 1500" \
    "$(json_get "$dir/again.json" "' '.join(str($M[k]) for k in ['calls','timed_calls','total_ns','mean_ns','min_ns','max_ns'])")"
expect "re-merged processes (by source)" "[201, 202, 201]" "$(json_get "$dir/again.json" "[p['pid'] for p in d['processes']]")"

# --filter keeps matching functions only.
run_ok "merge --filter" merge --filter '^example\.com/' "$m"
echo "$out" >"$dir/filtered.json"
expect "filtered" "2 400 None" "$(json_get "$dir/filtered.json" "len(d['functions']), d['total_calls'], d['goroutines']" | tr -d '(),')"

# Different builds: refused, unless --force (then one warning).
mk "$dir/gostat.other.203" 203 build2 1 1 1 0:1:2:2:2:0=1
rm -f "$dir/out.json"
fails_with "merge two builds" 2 "gostat: merge: $dir/gostat.app.201 and $dir/gostat.other.203 come from different builds (build ids build1 and build2); --force sums them by function name" \
    merge -o "$dir/out.json" "$dir/gostat.app.201" "$dir/gostat.other.203"
[ -e "$dir/out.json" ] && fail "failed merge left $dir/out.json"
"$GOSTAT" merge --force "$dir/gostat.app.201" "$dir/gostat.other.203" >"$dir/forced.json" 2>"$dir/err"
expect "merge --force: exit" 0 $?
expect "merge --force: warning" "gostat: merge: warning: summing a different build by function name: $dir/gostat.other.203 (pid 203)" "$(cat "$dir/err")"
expect "merge --force: M" 101 "$(json_get "$dir/forced.json" "$M['calls']")"
fails_with "merge --dir, two builds" 2 "" merge --dir "$dir"

# A failed merge never leaves a partial file, nor replaces an old one.
echo old >"$dir/keep.json"
echo '{"pid":1,"functions":[{"name":"x","calls":-1}]}' >"$dir/neg.json"
fails_with "merge bad input" 2 "gostat: merge: $dir/neg.json: functions[0].calls: expected an integer >= 0" \
    merge -o "$dir/keep.json" "$m" "$dir/neg.json"
expect "old output kept" old "$(cat "$dir/keep.json")"
fails_with "merge into a missing directory" 2 "" merge -o "$dir/no/such/dir/m.json" "$m"
expect "no temporary files left" "" "$(ls -A "$dir" | grep -E '^\.|\.tmp\.' || true)"
fails_with "merge nothing" 1 "" merge
fails_with "merge empty dir" 2 "gostat: merge: no valid stats files in $dir/empty" merge --dir "$(mkdir "$dir/empty" && echo "$dir/empty")"
fails_with "merge bad regex" 1 "" merge --filter '(' "$m"

# ---------------------------------------------------------------- diff
# These check the factors on a few calls: the spread rule (tests/gostat/
# t_gostat_diff.sh) and its minimums are off, and the threshold is 2.
EXACT="--sigma 0 --min-timed 0 --min-time 0 --min-delta 0 --threshold 2"
# Counts only (no timing): base -> new
#   hot 100 -> 1000 (10x up), cold 50 -> 5 (10x down), stable 1000 -> 1500,
#   gone 20 -> absent, new absent -> 30, rare 2 -> 9 (4.5x, fewer than 10).
"$MKSTATS" "$dir/base" --pid 301 --func hot:0x10:100 --func cold:0x20:50 --func stable:0x30:1000 \
    --func gone:0x40:20 --func rare:0x50:2 || fail mkstats
"$MKSTATS" "$dir/new" --pid 302 --func hot:0x10:1000 --func cold:0x20:5 --func stable:0x30:1500 \
    --func new:0x40:30 --func rare:0x50:9 || fail mkstats
run_ok "diff x10" diff $EXACT --threshold 10 "$dir/base" "$dir/new"
expect "diff x10 table" "\
FUNCTION  BASE CALLS  NEW CALLS  CALLS  BASE TIME  NEW TIME  TIME  PER CALL  CHANGE
gone              20          0   gone          -         -     -         -  shrank
new                0         30    new          -         -     -         -  grew
cold              50          5  0.10x          -         -     -         -  shrank
hot              100       1000  10.0x          -         -     -         -  grew
4 of 6 functions changed by 10x or more (calls or time per call): 2 grew, 2 shrank" "$out"
run_ok "diff default x2" diff $EXACT "$dir/base" "$dir/new"
expect "diff x2: functions" "gone new cold hot rare" "$(sed -n '2,6p' <<<"$out" | cut -d' ' -f1 | tr '\n' ' ' | sed 's/ $//')"
run_ok "diff --min-calls 10" diff $EXACT --min-calls 10 "$dir/base" "$dir/new"
expect "diff --min-calls 10" "4 of 5 functions changed by 2x or more (calls or time per call, functions with fewer calls ignored): 2 grew, 2 shrank" "$(tail -n 1 <<<"$out")"
run_ok "diff x11" diff $EXACT --threshold 11 "$dir/base" "$dir/new"
expect "diff x11" "gone new" "$(sed -n '2,3p' <<<"$out" | cut -d' ' -f1 | tr '\n' ' ' | sed 's/ $//')"
fails_with "diff --fail-on-regression" 3 "gostat: diff: regression: new calls 0 -> 30 (new), time - -> - (-), per call - -> - (-); and 1 more function grew" \
    diff $EXACT --threshold 10 --fail-on-regression "$dir/base" "$dir/new"
"$GOSTAT" diff $EXACT --fail-on-regression --filter '^(cold|stable)$' --threshold 10 "$dir/base" "$dir/new" >/dev/null
expect "only shrinking: exit 0" 0 $?
"$GOSTAT" diff $EXACT --fail-on-regression --filter '^(hot|cold|stable)$' --threshold 10.5 "$dir/base" "$dir/new" >"$dir/o"
expect "below the threshold: exit 0" "0 0 of 3 functions changed by 10.5x or more (calls or time per call): 0 grew, 0 shrank" "$? $(cat "$dir/o")"
"$GOSTAT" diff $EXACT --json --threshold 10 "$dir/base" "$dir/new" >"$dir/diff.json" || fail "diff --json"
expect "diff --json" "10 4 2 6 ['gone' 'new' 'cold' 'hot'] 10 0.1 None None False True" \
    "$(json_get "$dir/diff.json" "d['threshold'], d['changed'], d['regressions'], d['compared'], [x['name'] for x in d['functions']], f['hot']['calls_ratio'], f['cold']['calls_ratio'], f['new']['calls_ratio'], f['hot']['time_ratio'], f['cold']['regression'], f['hot']['regression']" | tr -d '(),')"

# Time: slow's calls are the same, its total time 20x (1000 -> 20000 ticks).
"$MKSTATS" "$dir/tbase" --pid 401 --timing --tsc 1000:0:2001000:1000000 --rows 2 --spread \
    --func slow:0x10:10 --time 0:1:1000:100:100:2=10 || fail mkstats
"$MKSTATS" "$dir/tnew" --pid 402 --timing --tsc 1000:0:2001000:1000000 --rows 2 --spread \
    --func slow:0x10:10 --time 0:1:20000:2000:2000:7=10 || fail mkstats
run_ok "diff --metric calls" diff $EXACT --metric calls --fail-on-regression "$dir/tbase" "$dir/tnew"
expect "diff --metric calls" "0 of 1 function changed by 2x or more (calls): 0 grew, 0 shrank" "$out"
fails_with "diff --metric time" 3 "gostat: diff: regression: slow calls 10 -> 10 (1.00x), time 500ns -> 10.0us (20.0x), per call 50.0ns -> 1.00us (20.0x)" \
    diff $EXACT --metric time --fail-on-regression "$dir/tbase" "$dir/tnew"
expect "diff time row" "slow 10 10 1.00x 500ns 10.0us 20.0x 20.0x grew" "$(sed -n 2p "$dir/fail.out" | tr -s ' ')"
run_ok "diff of JSON and merged JSON" diff $EXACT --threshold 1.1 "$dir/one.json" "$m"
# Per call by the medians, both known now (96 ns -> 160 ns, 1.67x).
expect "diff JSON: M grew" "example.com/a/b.(*T).M 100 400 4.00x 1.00us 4.00us 4.00x 1.67x grew" "$(row 2)"

# The spread rule, on exact histograms (clock 0.5 ns per tick; bucket 6
# holds 1024-2047 ticks, 7 2048-4095, 20 2^24-2^25):
#   f: 20000 calls of 1500 ticks (750 ns, 15 ms in all) in base;
#      "tail": the same but one call of 15 ms (mean 2x, median unchanged);
#      "slow": every call 3000 ticks (2x);
#   g: 10 -> 25 calls (2.5x, but 2.5 standard errors of a count);
#   runtime.mallocgc: 1000 -> 5000 calls (the runtime's: --runtime only).
spread() { # spread FILE PID G MALLOCGC TIME
    "$MKSTATS" "$1" --pid "$2" --timing --tsc 1000:0:2001000:1000000 --rows 2 --spread \
        --func f:0x10:20000 --func "g:0x20:$3" --func "runtime.mallocgc:0x30:$4" \
        --time "$5" || fail "mkstats $1"
}
spread "$dir/sbase" 501 10 1000 0:1:30000000:1200:1800:6=20000
spread "$dir/stail" 502 25 5000 0:1:59998500:1200:30000000:6=19999,20=1
spread "$dir/sslow" 503 10 1000 0:1:60000000:2400:3600:7=20000
run_ok "spread: a tail and count noise" diff --fail-on-regression "$dir/sbase" "$dir/stail"
expect "spread: nothing changed" \
    "0 of 3 functions changed by 1.5x or more (calls or time per call, beyond the spread): 0 grew, 0 shrank" "$out"
# f's time per call is its median, which the one long call does not move
# (its mean doubles): f does not change even without the spread rule.
run_ok "spread off" diff --sigma 0 "$dir/sbase" "$dir/stail"
expect "spread off: g alone" "g 1 of 3" "$(row 2 | cut -d' ' -f1) $(row 3 | cut -d' ' -f1-3)"
run_ok "--runtime" diff --runtime "$dir/sbase" "$dir/stail"
expect "--runtime: mallocgc" "runtime.mallocgc 1000 5000 5.00x" "$(row 2 | cut -d' ' -f1-4)"
# What the runtime lends a standard package (sync.runtime_doSpin) is the
# runtime's; a module's function of that name is not.
for v in 601:1000 602:5000; do
    "$MKSTATS" "$dir/lent${v%%:*}" --pid "${v%%:*}" --func "sync.runtime_doSpin:0x10:${v#*:}" \
        --func "example.com/m.runtime_doSpin:0x20:${v#*:}" --func main.f:0x30:1000 ||
        fail "mkstats lent"
done
run_ok "lent by the runtime" diff "$dir/lent601" "$dir/lent602"
expect "lent by the runtime: the module's alone" \
    "example.com/m.runtime_doSpin 1000 5000 5.00x | 1 of 3" "$(row 2 | cut -d' ' -f1-4) | $(row 3 | cut -d' ' -f1-3)"
run_ok "lent by the runtime, --runtime" diff --runtime "$dir/lent601" "$dir/lent602"
expect "lent by the runtime, --runtime: both" "2 of 3" "$(row 4 | cut -d' ' -f1-3)"
"$GOSTAT" diff --json "$dir/sbase" "$dir/stail" >"$dir/spread.json" || fail "diff --json spread"
expect "spread JSON: the rule's settings" "1.5 5 100 1000000 100 False 0" \
    "$(json_get "$dir/spread.json" "d['threshold'], d['sigma'], d['min_timed'], d['min_time_ns'], d['min_delta_ns'], d['runtime'], d['changed']" | tr -d '(),')"
"$GOSTAT" diff --json "$dir/sbase" "$dir/sslow" >"$dir/spread.json" || fail "diff --json slow"
expect "spread JSON: f 2x slower" "['f'] 2 2 750 1500 768 1536 True 'histograms'" \
    "$(json_get "$dir/spread.json" "[x['name'] for x in d['functions']], f['f']['per_call_ratio'], f['f']['mean_ratio'], f['f']['base_mean_ns'], f['f']['new_mean_ns'], f['f']['base_median_ns'], f['f']['new_median_ns'], f['f']['time_sigma'] > 100, f['f']['spread']" | tr -d '(),')"
"$GOSTAT" diff --json --sigma 0 --threshold 1.01 "$dir/sbase" "$dir/stail" >"$dir/spread.json" ||
    fail "diff --json tail"
expect "spread JSON: the tail moves the mean, not the median" "['g'] 1" \
    "$(json_get "$dir/spread.json" "[x['name'] for x in d['functions']], d['speed']" | tr -d '(),')"
fails_with "spread: 2x slower" 3 "gostat: diff: regression: f calls 20000 -> 20000 (1.00x), time 15.0ms -> 30.0ms (2.00x), per call 768ns -> 1.54us (2.00x)" \
    diff --fail-on-regression "$dir/sbase" "$dir/sslow"
# JSON holds no histogram: min and max bound the spread; the tail's 2 ms
# maximum leaves its mean within it, the 2x slower function is out of it.
for v in sbase stail sslow; do
    "$GOSTAT" --json "$dir/$v" >"$dir/$v.json" || fail "gostat --json $v"
done
run_ok "JSON: a tail" diff --fail-on-regression "$dir/sbase.json" "$dir/stail.json"
expect "JSON: tail unchanged" \
    "0 of 3 functions changed by 1.5x or more (calls or time per call, beyond the spread): 0 grew, 0 shrank" "$out"
"$GOSTAT" diff --json "$dir/sbase.json" "$dir/sslow.json" >"$dir/jslow.json" || fail "diff JSON slow"
expect "JSON: 2x slower, bounded by min/max" "['f'] True 'min/max'" \
    "$(json_get "$dir/jslow.json" "[x['name'] for x in d['functions']], f['f']['time_changed'], f['f']['spread']" | tr -d '(),')"

fails_with "diff one argument" 1 "" diff $EXACT "$dir/base"
fails_with "diff threshold 1" 1 "gostat: diff: --threshold wants a number > 1, got '1' (see gostat diff --help)" diff $EXACT --threshold 1 "$dir/base" "$dir/new"
fails_with "diff bad metric" 1 "" diff $EXACT --metric speed "$dir/base" "$dir/new"
fails_with "diff missing file" 2 "" diff $EXACT "$dir/base" "$dir/nonexistent"

# ---------------------------------------------------------------- coverage
run_ok "coverage" coverage "$m"
expect "coverage text" "\
PACKAGE          CALLED  FUNCTIONS  COVERED
(no package)          0          1     0.0%
c/x%2ey               0          1     0.0%
evil\"?[31m            0          1     0.0%
example.com/a/b       1          2    50.0%
main                  1          1   100.0%
runtime               2          2   100.0%
total                 4          8    50.0%

(no package): 1 never called
  type..eq.main.T

c/x%2ey: 1 never called
  c/x%2ey.G.func1

evil\"?[31m: 1 never called
  evil\"?[31m.F

example.com/a/b: 1 never called
  example.com/a/b.F[go.shape.*x.com/c.T]  /b.go:9" "$out"
run_ok "coverage --package" coverage --package '^example\.' "$dir/gostat.app.201"
expect "coverage --package" "example.com/a/b 1 2 50.0%|total 1 2 50.0%|example.com/a/b: 1 never called" \
    "$(row 2)|$(row 3)|$(row 5)"
"$GOSTAT" coverage --json "$m" >"$dir/cov.json" || fail "coverage --json"
expect "coverage --json" "8 4 ['', 'c/x%2ey', 'evil\"\\x1b[31m', 'example.com/a/b', 'main', 'runtime'] [{'name': 'example.com/a/b.F[go.shape.*x.com/c.T]', 'file': '/b.go', 'line': 9}] []" \
    "$(json_get "$dir/cov.json" "d['functions'], d['called'], [p['package'] for p in d['packages']], d['packages'][3]['never_called'], d['packages'][5]['never_called']" | tr -d '()' | sed 's/, \[/ [/g; s/^\([0-9]*\), /\1 /')"
fails_with "coverage bad regex" 1 "" coverage --package '[' "$m"

# Methods of anonymous structs (names as Go 1.19 writes them, from Debian's
# rclone) belong to no package: not to "go.(*struct { *github.com/...".
"$MKSTATS" "$dir/anon" --pid 601 \
    --func 'go.(*struct { *github.com/p/promhttp.delegator; net/http.Pusher; net/http.Flusher }).Push:0x10:0' \
    --func 'go.struct { *github.com/p/promhttp.delegator; io.ReaderFrom }.ReadFrom:0x20:1' \
    --func 'github.com/p/promhttp.(*delegator).Write:0x30:1' || fail mkstats
run_ok "coverage of anonymous structs' methods" coverage "$dir/anon"
expect "anonymous structs' methods: no package" \
    "PACKAGE CALLED FUNCTIONS COVERED|(no package) 1 2 50.0%|github.com/p/promhttp 1 1 100.0%|total 2 3 66.7%" \
    "$(row 1)|$(row 2)|$(row 3)|$(row 4)"

# Invalid UTF-8 in a name still gives valid JSON (U+FFFD), which reads back.
"$MKSTATS" "$dir/utf" --pid 501 --func $'bad\xff.F:0x10:0' || fail mkstats
"$GOSTAT" merge "$dir/utf" >"$dir/utf.json" || fail "merge utf"
expect "invalid UTF-8 name" "['bad\\ufffd.F']" "$(json_get "$dir/utf.json" "[x['name'] for x in d['functions']]" | python3 -c 'import sys; print(sys.stdin.read().strip().encode("ascii","backslashreplace").decode())')"
run_ok "coverage of U+FFFD JSON" coverage --json "$dir/utf.json"

# ---------------------------------------------------------------- malformed JSON
bad_json() { # bad_json NAME CONTENT WANT_MESSAGE_AFTER_FILE
    printf '%s' "$2" >"$dir/bad.json"
    local cmd
    for cmd in merge coverage; do
        fails_with "$1 ($cmd)" 2 "gostat: $cmd: $dir/bad.json$3" "$cmd" "$dir/bad.json"
    done
    fails_with "$1 (diff)" 2 "gostat: diff: $dir/bad.json$3" diff $EXACT "$m" "$dir/bad.json"
}
bad_json "truncated" '{"pid":1,"functions":[' ":1:22: not valid JSON: ']' expected near end of file"
bad_json "no functions" '{"pid":1}' ": functions: expected an array"
bad_json "no pid" '{"functions":[]}' ": pid: expected an integer >= 0"
bad_json "calls a string" '{"pid":1,"functions":[{"name":"a","calls":"5"}]}' ": functions[0].calls: expected an integer >= 0"
bad_json "calls negative" '{"pid":1,"functions":[{"name":"a","calls":1},{"name":"b","calls":-2}]}' ": functions[1].calls: expected an integer >= 0"
bad_json "no name" '{"pid":1,"functions":[{"calls":1}]}' ": functions[0].name: expected a string"
bad_json "name a number" '{"pid":1,"functions":[{"name":7,"calls":1}]}' ": functions[0].name: expected a string"
bad_json "line too big" '{"pid":1,"functions":[{"name":"a","calls":1,"line":4294967296}]}' ": functions[0].line: expected an integer in range"
bad_json "timed_calls a bool" '{"pid":1,"functions":[{"name":"a","calls":1,"timed_calls":true}]}' ": functions[0].timed_calls: expected an integer >= 0"
bad_json "negative total" '{"pid":1,"functions":[{"name":"a","calls":1,"total_ns":-5}]}' ": functions[0].total_ns: expected a number >= 0 or null"
bad_json "min above max" '{"pid":1,"functions":[{"name":"a","calls":1,"timed_calls":1,"mean_ns":5,"min_ns":9,"max_ns":3}]}' ": functions[0].min_ns: expected a value <= max_ns"
bad_json "function not an object" '{"pid":1,"functions":[3]}' ": functions[0]: expected an object"
bad_json "processes not an array" '{"processes":{},"functions":[]}' ": processes: expected an array"
bad_json "process without pid" '{"processes":[{"exe":"x"}],"functions":[]}' ": processes[0].pid: expected an integer >= 0"
bad_json "duplicate key" '{"pid":1,"pid":2,"functions":[]}' ":1:14: not valid JSON: duplicate object key near '\"pid\"'"
bad_json "NUL in a name" '{"pid":1,"functions":[{"name":"a\u0000b","calls":1}]}' ":1:40: not valid JSON: \\u0000 is not allowed without JSON_ALLOW_NUL near '\"a\\u0000b\"'"
bad_json "top level not an object" '{"pid":1} {}' ":1:11: not valid JSON: end of file expected near '{'"
bad_json "string pid" '{"pid":"1","functions":[]}' ": pid: expected an integer >= 0"

# Call graph fields (--call-graph's JSON): self_ns adds up and callers merge
# by caller name (entry ignored: addresses differ between builds); diff
# compares the arcs of callees whose callers both profiles recorded, in a
# second table, without counting them as regressions.
cat >"$dir/cg1.json" <<'JSON'
{"pid":1,"functions":[{"name":"main.busy","calls":5,"timed_calls":5,"total_ns":500,"self_ns":400,
 "callers":[{"name":"main.a","entry":"0x10","calls":3,"total_ns":300},{"name":"main.b","entry":null,"calls":2,"total_ns":200}]},
 {"name":"main.a","calls":1,"total_ns":300,"self_ns":0,"callers":[]}]}
JSON
cat >"$dir/cg2.json" <<'JSON'
{"pid":2,"functions":[{"name":"main.busy","calls":25,"timed_calls":25,"total_ns":2500,"self_ns":2000,
 "callers":[{"name":"main.a","entry":"0x99","calls":3,"total_ns":300},{"name":"main.c","calls":22,"total_ns":2200}]},
 {"name":"main.a","calls":1,"total_ns":300,"self_ns":0,"callers":[]}]}
JSON
run_ok "merge callers" merge "$dir/cg1.json" "$dir/cg2.json" "$dir/cg1.json" -o "$dir/cgm.json"
expect "merge: self_ns, callers by name" "2800 main.a:9:900 main.b:4:400 main.c:22:2200 0 0" \
    "$(json_get "$dir/cgm.json" "' '.join([str(f['main.busy']['self_ns'])] + [f\"{c['name']}:{c['calls']}:{c['total_ns']}\" for c in f['main.busy']['callers']] + [str(f['main.a']['self_ns']), str(len(f['main.a']['callers']))])")"
run_ok "merge of a merge keeps callers" merge "$dir/cgm.json" -o "$dir/cgm2.json"
expect "merge of a merge: callers" "$(json_get "$dir/cgm.json" "f['main.busy']['callers']")" \
    "$(json_get "$dir/cgm2.json" "f['main.busy']['callers']")"
run_ok "diff with arcs" diff $EXACT "$dir/cg1.json" "$dir/cg2.json"
expect "diff: arcs table" "\
FUNCTION   BASE CALLS  NEW CALLS  CALLS  BASE TIME  NEW TIME   TIME  PER CALL  CHANGE
main.busy           5         25  5.00x      500ns    2.50us  5.00x         -  grew

CALLER -> CALLEE     BASE CALLS  NEW CALLS  CALLS  BASE TIME  NEW TIME  TIME  PER CALL  CHANGE
main.b -> main.busy           2          0   gone      200ns         -     -         -  shrank
main.c -> main.busy           0         22    new          -    2.20us     -         -  grew
1 of 2 functions changed by 2x or more (calls or time per call): 1 grew, 0 shrank
2 of 3 caller -> callee arcs changed by 2x or more (shown, not counted as regressions)" "$out"
"$GOSTAT" diff $EXACT --json "$dir/cg1.json" "$dir/cg2.json" >"$dir/cgdiff.json" || fail "diff --json with arcs"
expect "diff --json: arcs, self" "3 2 ['main.b main.busy 2 0 False' 'main.c main.busy 0 22 True'] 400 2000" \
    "$(json_get "$dir/cgdiff.json" "d['arcs_compared'], d['arcs_changed'], [f\"{a['caller']} {a['callee']} {a['base_calls']} {a['new_calls']} {a['grew']}\" for a in d['arcs']], f['main.busy']['base_self_ns'], f['main.busy']['new_self_ns']" | tr -d '(),')"
bad_json "callers not an array" '{"pid":1,"functions":[{"name":"a","calls":1,"callers":{}}]}' ": functions[0].callers: expected an array or null"
bad_json "caller without a name" '{"pid":1,"functions":[{"name":"a","calls":1,"callers":[{"calls":1}]}]}' ": functions[0].callers[0].name: expected a string"
bad_json "caller calls negative" '{"pid":1,"functions":[{"name":"a","calls":1,"callers":[{"name":"b","calls":-1}]}]}' ": functions[0].callers[0].calls: expected an integer >= 0"
bad_json "self_ns negative" '{"pid":1,"functions":[{"name":"a","calls":1,"self_ns":-1}]}' ": functions[0].self_ns: expected a number >= 0 or null"

finish t_gostat_ci
