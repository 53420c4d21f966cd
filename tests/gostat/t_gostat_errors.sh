#!/usr/bin/env bash
# t_gostat_errors.sh: every way a stats file can be missing, foreign, of
# another version, truncated or corrupt gives exit 2, nothing on stdout and
# one stderr line naming the file and the problem (never a crash); usage
# errors give exit 1; --help prints usage and exits 0.
cd "$(dirname "$0")/../.."
. tests/assert.sh

# expect_error NAME STATUS MESSAGE_PREFIX PHRASE ARGS...: gostat ARGS must exit
# STATUS, print nothing on stdout, and exactly one stderr line that starts
# with MESSAGE_PREFIX and contains PHRASE.
expect_error() {
    local name=$1 status=$2 prefix=$3 phrase=$4; shift 4
    timeout 5 "$GOSTAT" "$@" >"$dir/out" 2>"$dir/err"
    local rc=$?
    local lines; lines=$(wc -l <"$dir/err")
    local msg; msg=$(cat "$dir/err")
    [ $rc -eq "$status" ] || fail "$name: exit $rc, expected $status ($msg)"
    [ -s "$dir/out" ] && fail "$name: unexpected stdout: $(head -3 "$dir/out")"
    [ "$lines" -eq 1 ] || fail "$name: $lines stderr lines: $msg"
    [[ $msg == "$prefix"* ]] || fail "$name: message does not start with '$prefix': $msg"
    [[ $msg == *"$phrase"* ]] || fail "$name: message lacks '$phrase': $msg"
}

# kind, and the phrase its message must contain
kinds=(
    "truncate|truncated: 20480 bytes, header says 24576"
    "short|truncated: 100 bytes, shorter than the"
    "empty|empty file"
    "bad-magic|not a stats file (no GOSTATv6 magic"
    "no-magic|still being written"
    "bad-version|unsupported format version 99"
    "header-size|corrupt: header_size 8"
    "bad-pid|corrupt: pid -5"
    "huge-nfuncs|corrupt: 4294967295 functions (at most 4194304)"
    "strtab-oob|corrupt: string table"
    "name-oob|corrupt: function 0: name offset"
    "no-nul|not NUL-terminated inside the string table"
    "rows-oob|corrupt: max_rows 1000000 (must be 1..4096)"
    "zero-rows|corrupt: max_rows 0 (must be 1..4096)"
    "small-counter|corrupt: counter_size 4"
    "bad-stride|corrupt: row_stride 100"
    "live-oob|corrupt: live_off"
    "exe-no-nul|corrupt: exe is not NUL-terminated"
    "counts-oob|corrupt: counts_off 4088 (2 counters of 8 bytes must fit in a 4096-byte row"
    "timing:timing-size|corrupt: timing_size 64 (expected 320)"
    "timing:timing-index|corrupt: function 0: timing record 1 (the file has 1)"
    "timing:timing-oob|corrupt: 24 timing records at row offset 4096 (must be page aligned, after the counters, inside the 8192-byte row)"
    "timing:pagemap-overlap|corrupt: the 2-byte page map at row offset 128 overlaps the counters at 128"
    "timing:untimed-oob|corrupt: function 0: untimed reason offset"
)
for entry in "${kinds[@]}"; do
    kind=${entry%%|*}
    phrase=${entry#*|}
    timing=()
    # timing:KIND: a file built for timing (function c.d timed, a.b not).
    if [[ $kind == timing:* ]]; then
        kind=${kind#timing:}
        timing=(--timing --untimed 0:inlined)
    fi
    f=$dir/gostat.bad.$kind
    "$MKSTATS" "$f" --pid 4194305 --func a.b:0x10:3 --func c.d:0x20:4:/src/c.go:9 ${timing[@]+"${timing[@]}"} \
        --corrupt "$kind" || { fail "mkstats --corrupt $kind"; continue; }
    expect_error "$kind (table)" 2 "gostat: $f: " "$phrase" "$f"
    expect_error "$kind (json)" 2 "gostat: $f: " "$phrase" --json "$f"
    expect_error "$kind (watch)" 2 "gostat: $f: " "$phrase" --watch 0.1 "$f"
done

expect_error "missing file" 2 "gostat: $dir/nope: " "cannot open: No such file or directory" "$dir/nope"
expect_error "directory" 2 "gostat: $dir: " "not a regular file" "$dir"
mkfifo "$dir/fifo"
expect_error "fifo does not hang" 2 "gostat: $dir/fifo: " "not a regular file" "$dir/fifo"
expect_error "no file for pid" 2 "gostat: $dir: " "no stats file for pid 4194306" 4194306
# A pid whose only file is corrupt: the reason, not just "not found".
"$MKSTATS" "$dir/gostat.x.4194307" --pid 4194307 --func a.b:0x10:1 --corrupt bad-version
expect_error "corrupt file for pid" 2 "gostat: $dir/gostat.x.4194307: " "unsupported format version" 4194307

good=$dir/good
"$MKSTATS" "$good" --pid 4194305 --func a.b:0x10:3
expect_error "bad --top" 1 "gostat: " "--top needs a positive whole number, not 'x'" --top x "$good"
expect_error "zero --top" 1 "gostat: " "--top needs a positive whole number" --top 0 "$good"
expect_error "bad --sort" 1 "gostat: " "--sort takes 'calls', 'name', 'time', 'self', 'cum' or 'oncpu', not 'size'" --sort size "$good"
expect_error "bad --filter" 1 "gostat: " "--filter: bad regular expression '('" --filter '(' "$good"
expect_error "bad --watch" 1 "gostat: " "--watch needs a number of seconds" --watch 0 "$good"
expect_error "missing value" 1 "gostat: " "--top needs a value" "$good" --top
expect_error "unknown option" 1 "gostat: " "unknown option '--bogus'" --bogus "$good"
expect_error "two targets" 1 "gostat: " "unexpected argument" "$good" "$good"
expect_error "--json without target" 1 "gostat: " "--json needs a PID or FILE" --json
expect_error "--watch with --json" 1 "gostat: " "cannot be combined" --watch 1 --json "$good"
expect_error "pid out of range" 1 "gostat: " "'99999999999' is not a valid pid" 99999999999

out=$("$GOSTAT" --help 2>&1); rc=$?
[ $rc -eq 0 ] || fail "--help exit $rc"
[[ $out == "usage: gostat [PID|FILE] [options]"* ]] || fail "--help output: $out"
for opt in --top --sort --filter --nonzero --watch --json; do
    [[ $out == *"$opt"* ]] || fail "--help does not mention $opt"
done

# Every command words its usage errors alike (gostat/cmd/cmdline.c) and exits 1.
cmds=$(sed -n '/^commands:/,/^$/p' <<<"$out" | awk '$1 == "gostat" {print $2}')
[ "$(wc -w <<<"$cmds")" -eq 11 ] || fail "--help lists commands: $cmds"
for c in $cmds; do
    got=$("$GOSTAT" "$c" --bogus 2>&1); rc=$?
    expect "$c --bogus" "1 gostat: $c: unknown option '--bogus' (see gostat $c --help)" "$rc $got"
    got=$("$GOSTAT" "$c" -Z 2>&1); rc=$?
    expect "$c -Z" "1 gostat: $c: unknown option '-Z' (see gostat $c --help)" "$rc $got"
done
got=$("$GOSTAT" merge -o 2>&1); rc=$?
expect "merge -o without a value" "1 gostat: merge: -o needs a value (see gostat merge --help)" "$rc $got"
got=$("$GOSTAT" diff --threshold 2>&1); rc=$?
expect "diff --threshold without a value" "1 gostat: diff: --threshold needs a value (see gostat diff --help)" "$rc $got"
got=$("$GOSTAT" goroutines --older-than 5 x 2>&1); rc=$?
expect "goroutines --older-than without a unit" "1 gostat: goroutines: --older-than takes a Go duration above 0 (300ms, 1m30s, 2h), not '5' (see gostat goroutines --help)" "$rc $got"
got=$("$GOSTAT" top $'\e[2J' x 2>&1); rc=$?
expect "escapes in arguments are shown harmless" "1 gostat: top: unexpected argument 'x' (see gostat top --help)" "$rc $got"
got=$("$GOSTAT" clean $'\e[2J' 2>&1); rc=$?
expect "escape in an argument" "1 gostat: clean: unexpected argument '?[2J' (see gostat clean --help)" "$rc $got"

finish t_gostat_errors
