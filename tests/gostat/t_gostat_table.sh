#!/usr/bin/env bash
# t_gostat_table.sh: gostat's per-function table: exact rows, sort orders,
# --top, --filter, --nonzero, the inlined footnote, summing counter rows
# (and ignoring unclaimed ones), and finding a file by PID.
cd "$(dirname "$0")/../.."
. tests/assert.sh


my_ticks=$(sed 's/.*) //' /proc/$$/stat | cut -d' ' -f20)
fib=$dir/gostat.fib.4242
# start ticks 1 can never match a real process 4242: it reads as exited.
"$MKSTATS" "$fib" --pid 4242 --exe /opt/fib --start-ticks 1 --rows 4 --spread \
    --func main.fib:0x480900:832040:/src/fib.go:10 \
    --func main.main:0x480a00:1:/src/fib.go:20 \
    --func runtime.add:0x401000:0 \
    --func 'main.(*T).Get:0x480b00:7:/src/t.go:5:inlined' \
    --func main.zed:0x480c00:7:/src/z.go:0 || fail "mkstats"

run_ok "table" "$fib"
expect "table, default sort by calls" "\
pid 4242  exited  exe /opt/fib  calls 832055  functions 5
FUNCTION        CALLS  FILE:LINE
main.fib       832040  /src/fib.go:10
main.(*T).Get       7  /src/t.go:5 *
main.zed            7  /src/z.go
main.main           1  /src/fib.go:20
runtime.add         0  -
* also inlined elsewhere: calls counts real calls only, not the inlined copies" "$out"

run_ok "sort name" --sort name "$fib"
expect "--sort name" "\
pid 4242  exited  exe /opt/fib  calls 832055  functions 5
FUNCTION        CALLS  FILE:LINE
main.(*T).Get       7  /src/t.go:5 *
main.fib       832040  /src/fib.go:10
main.main           1  /src/fib.go:20
main.zed            7  /src/z.go
runtime.add         0  -
* also inlined elsewhere: calls counts real calls only, not the inlined copies" "$out"

run_ok "top" "$fib" --top 2 --sort calls
expect "--top 2" "\
pid 4242  exited  exe /opt/fib  calls 832055  functions 5 (showing 2)
FUNCTION        CALLS  FILE:LINE
main.fib       832040  /src/fib.go:10
main.(*T).Get       7  /src/t.go:5 *
* also inlined elsewhere: calls counts real calls only, not the inlined copies" "$out"

run_ok "filter" --filter '^main\.[fm]' "$fib"
expect "--filter" "\
pid 4242  exited  exe /opt/fib  calls 832055  functions 5 (showing 2)
FUNCTION    CALLS  FILE:LINE
main.fib   832040  /src/fib.go:10
main.main       1  /src/fib.go:20" "$out"

run_ok "nonzero" --nonzero --filter 'add|main$' "$fib"
expect "--nonzero hides zero rows" "\
pid 4242  exited  exe /opt/fib  calls 832055  functions 5 (showing 1)
FUNCTION   CALLS  FILE:LINE
main.main      1  /src/fib.go:20" "$out"

run_ok "filter no match" --filter 'nomatch' "$fib"
expect "--filter with no match" "\
pid 4242  exited  exe /opt/fib  calls 832055  functions 5 (showing 0)
FUNCTION  CALLS  FILE:LINE
(no functions match)" "$out"

# Rows: with 2 of 4 rows claimed, the counts in rows 2..3 (stray values a
# reader must not add) are ignored: 10 calls spread 3,3,2,2 sum to 6.
"$MKSTATS" "$dir/rows" --pid 4243 --rows 4 --spread --claimed 1 --stray --func a.f:0x10:10
run_ok "claimed rows" "$dir/rows" --top 1
expect "only claimed rows are summed" "a.f 6 -" "$(row 3)"
# rows_claimed beyond max_rows-1 is clamped: all rows, no read past them.
"$MKSTATS" "$dir/clamp" --pid 4243 --rows 3 --spread --claimed 99 --func a.f:0x10:10
run_ok "clamped rows" "$dir/clamp"
expect "claimed clamped to max_rows-1" "a.f 10 -" "$(row 3)"

# Control characters in names never reach the terminal.
"$MKSTATS" "$dir/ctl" --pid 4244 --exe $'/bin/e\033[2Jvil' --func $'a\033[31mb:0x10:1'
run_ok "control chars" "$dir/ctl"
expect "control chars shown as ?" "\
pid 4244  exited  exe /bin/e?[2Jvil  calls 1  functions 1
FUNCTION  CALLS  FILE:LINE
a?[31mb       1  -" "$out"

# PID lookup: several files for one pid; the newest live one wins, else the
# newest; a dotted exe name must not be mistaken for a pid.
"$MKSTATS" "$dir/gostat.old.777" --pid 777 --start-ns 100 --func old.f:0x10:1
"$MKSTATS" "$dir/gostat.old.777.1" --pid 777 --start-ns 200 --func new.f:0x10:2
run_ok "pid newest" 777 --top 1
expect "PID picks the newest file" "new.f 2 -" "$(row 3)"

"$MKSTATS" "$dir/gostat.me.$$" --pid $$ --start-ticks "$my_ticks" --start-ns 100 --func live.f:0x10:1
"$MKSTATS" "$dir/gostat.me.$$.1" --pid $$ --start-ticks 1 --start-ns 900 --func dead.f:0x10:1
run_ok "pid live" $$
expect "PID prefers the live file" "pid $$ live" "$(row 1 | cut -d' ' -f1-3)"
expect "PID live file's function" "live.f 1 -" "$(row 3)"

"$MKSTATS" "$dir/gostat.my.app.555.7" --pid 555 --func dotted.f:0x10:3
run_ok "dotted exe" 555
expect "dotted exe name, pid from header" "dotted.f 3 -" "$(row 3)"
"$GOSTAT" 7 >/dev/null 2>"$dir/stderr"
expect "copy number is not a pid (exit)" "2" "$?"
expect "copy number is not a pid (message)" "gostat: $dir: no stats file for pid 7" "$(cat "$dir/stderr")"

finish t_gostat_table
