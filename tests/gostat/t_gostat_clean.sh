#!/usr/bin/env bash
# t_gostat_clean: "gostat clean" removes the stats files of exited
# processes and header-less files whose pid is not running, and nothing
# else: live processes' files, a header-less file of a running pid (a
# program starting up), symlinks, other users' files and files not named
# gostat.* stay; -n only reports.
cd "$(dirname "$0")/../.."
. tests/assert.sh

my_ticks=$(sed 's/.*) //' /proc/$$/stat | cut -d' ' -f20)
"$MKSTATS" "$dir/gostat.dead.4194305" --pid 4194305 --exe /bin/dead --func a.f:0x10:5
"$MKSTATS" "$dir/gostat.dead.4194306.2" --pid 4194306 --exe /bin/dead --func a.f:0x10:5
"$MKSTATS" "$dir/gostat.live.$$" --pid $$ --start-ticks "$my_ticks" --exe /bin/live --func a.f:0x10:5
: >"$dir/gostat.starting.$$"                 # no header yet, its pid runs
printf 'junk' >"$dir/gostat.killed.4194307"  # no header, pid not running
printf 'junk' >"$dir/gostat.a.b.4194308"     # dotted exe, not running
printf 'junk' >"$dir/gostat.a.4194312.1"     # pid 4194312 copy 1, or pid 1: kept
ln -s "$dir/gostat.live.$$" "$dir/gostat.link.4194309"
"$MKSTATS" "$dir/other.4194310" --pid 4194310 --exe /bin/x --func a.f:0x10:5
"$MKSTATS" "$dir/gostat.nobody.4194311" --pid 4194311 --exe /bin/x --func a.f:0x10:5
chown nobody "$dir/gostat.nobody.4194311"

listing() { (cd "$dir" && ls -A | grep -vx stderr | LC_ALL=C sort | tr '\n' ' '); }
before=$(listing)

run_ok "dry run" clean -n
expect "dry run: lines" "would remove $dir/gostat.a.b.4194308 (invalid, and no process has its pid)
would remove $dir/gostat.dead.4194305 (pid 4194305 exited)
would remove $dir/gostat.dead.4194306.2 (pid 4194306 exited)
would remove $dir/gostat.killed.4194307 (invalid, and no process has its pid)
would remove 4 files in $dir; kept 3 of running processes (2 still starting)" "$(LC_ALL=C sort <<<"$out" | sed -n '1,4p'; tail -1 <<<"$out")"
expect "dry run removes nothing" "$before" "$(listing)"

run_ok "clean" clean
expect "clean: summary" "removed 4 files in $dir; kept 3 of running processes (2 still starting)" "$(tail -1 <<<"$out")"
expect "clean: what is left" "gostat.a.4194312.1 gostat.link.4194309 gostat.live.$$ gostat.nobody.4194311 gostat.starting.$$ other.4194310 " "$(listing)"

run_ok "clean again: nothing to do" clean
expect "clean again" "removed 0 files in $dir; kept 3 of running processes (2 still starting)" "$out"

out=$("$GOSTAT" clean extra 2>&1); rc=$?
expect "clean: extra argument exit" 1 $rc
expect "clean: extra argument message" "gostat: clean: unexpected argument 'extra' (see gostat clean --help)" "$out"
out=$(GOSTAT_DIR=$dir/missing "$GOSTAT" clean 2>&1); rc=$?
expect "clean: missing dir exit" 2 $rc
run_ok "clean --help" clean --help
expect "clean --help" "usage: gostat clean [-n|--dry-run] [--older-than DURATION]" "$(row 1)"

finish t_gostat_clean
