#!/usr/bin/env bash
# t_gostat_watch.sh: gostat --watch. A file of an exited process prints one
# table (with an empty calls/s column) and exits 0; a live one refreshes,
# shows calls/s from the difference between refreshes, stops with exit 0
# on SIGINT, and never writes the clear-screen sequence when stdout is not
# a terminal; a file truncated under it gives exit 2, not a crash.
cd "$(dirname "$0")/../.."
. tests/assert.sh

# Exited process (pid above PID_MAX_LIMIT): exactly one table.
dead=$dir/gostat.dead.4194305
"$MKSTATS" "$dead" --pid 4194305 --exe /bin/dead --func a.f:0x10:5:/a.go:3 --func b.g:0x20:0
out=$(timeout 5 "$GOSTAT" --watch 0.1 "$dead" 2>"$dir/err"); rc=$?
expect "exited: exit status" 0 $rc
expect "exited: stderr" "" "$(cat "$dir/err")"
expect "exited: one table" "\
pid 4194305  exited  exe /bin/dead  calls 5  functions 2
FUNCTION  CALLS  CALLS/S  FILE:LINE
a.f           5        -  /a.go:3
b.g           0        -  -" "$out"

# By pid, with --nonzero and --top applied to each refresh.
out=$(timeout 5 "$GOSTAT" --watch 0.1 --nonzero --top 5 4194305 2>&1); rc=$?
expect "exited by pid: exit status" 0 $rc
expect "exited by pid: rows" "a.f 5 - /a.go:3" "$(sed -n 3p <<<"$out" | tr -s ' ')"
expect "exited by pid: no other rows" 3 "$(wc -l <<<"$out")"

# Live: this shell's pid and start time. Function 1 gains 1000 calls
# between refreshes, so some refresh shows a positive calls/s for it.
my_ticks=$(sed 's/.*) //' /proc/$$/stat | cut -d' ' -f20)
live=$dir/gostat.live.$$
"$MKSTATS" "$live" --pid $$ --start-ticks "$my_ticks" --exe /bin/live --func a.f:0x10:5 --func b.g:0x20:0
"$GOSTAT" --watch 0.2 "$live" >"$dir/out" 2>"$dir/err" &
watcher=$!
sleep 0.5
"$MKSTATS" --bump "$live" 1 1000
sleep 0.7
kill -INT $watcher
wait $watcher
expect "live: exit status after SIGINT" 0 $?
expect "live: stderr" "" "$(cat "$dir/err")"
tables=$(grep -c '^FUNCTION' "$dir/out")
[ "$tables" -ge 3 ] || fail "live: only $tables refreshes in 1.2s at 0.2s"
expect "live: first table has no rate yet" "a.f 5 - -" "$(sed -n 3p "$dir/out" | tr -s ' ')"
grep -q '^pid '$$'  live  exe /bin/live' "$dir/out" || fail "live: header says live"
awk '$1 == "b.g" && $3 + 0 > 0 { found = 1 } END { exit !found }' "$dir/out" \
    || { fail "live: no positive calls/s for b.g"; cat "$dir/out"; }
expect "live: final count" "b.g 1000" "$(grep '^b.g' "$dir/out" | tail -1 | tr -s ' ' | cut -d' ' -f1-2)"
grep -q $'\033' "$dir/out" && fail "live: escape sequence written to a non-tty"

# On a terminal each refresh starts by clearing the screen ("script" gives
# gostat a pty).
if command -v script >/dev/null; then
    script -qc "$GOSTAT --watch 0.1 $dead" /dev/null >"$dir/tty" </dev/null
    [[ $(head -c 7 "$dir/tty") == $'\033[H\033[2J' ]] || fail "tty: no clear-screen sequence first"
fi

# Truncated while mapped: an error naming the file, exit 2.
"$GOSTAT" --watch 0.1 "$live" >/dev/null 2>"$dir/err" &
watcher=$!
sleep 0.3
truncate -s 4096 "$live"
timeout 5 tail --pid=$watcher -f /dev/null
wait $watcher
expect "truncated: exit status" 2 $?
expect "truncated: message" "gostat: $live: file shrank while reading its counters" "$(cat "$dir/err")"

finish t_gostat_watch
