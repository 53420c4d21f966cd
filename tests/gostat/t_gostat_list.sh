#!/usr/bin/env bash
# t_gostat_list.sh: "gostat" with no target lists $GOSTAT_DIR: exact
# columns, LIVE for a file whose pid and start time are this shell's, EXITED
# for a dead pid or a reused one; symlinks, FIFOs, directories, other
# users' files (unless named by path) and other names are skipped; an invalid file is listed as
# INVALID with its reason on stderr; an empty or missing dir.
cd "$(dirname "$0")/../.."
. tests/assert.sh
outside=$(mktemp -d)
trap 'rm -rf "$dir" "$outside"' EXIT
# Above the kernel's PID_MAX_LIMIT (2^22): never a running process.
dead=4194305

# Empty directory.
out=$("$GOSTAT" 2>&1); rc=$?
expect "empty dir exit" 0 $rc
expect "empty dir message" "no stats files in $dir" "$out"

# Exact layout with fixed pids.
"$MKSTATS" "$dir/gostat.a.$dead" --pid $dead --exe /bin/a --func a.f:0x10:10 --func a.g:0x20:2
"$MKSTATS" "$dir/gostat.bbb.4194399" --pid 4194399 --exe /usr/bin/bbb --func b.f:0x10:3
out=$("$GOSTAT" 2>"$outside/err"); rc=$?
expect "listing exit" 0 $rc
expect "exact listing" "\
    PID  STATUS  FUNCS  CALLS  EXE           FILE
4194305  EXITED      2     12  /bin/a        $dir/gostat.a.4194305
4194399  EXITED      1      3  /usr/bin/bbb  $dir/gostat.bbb.4194399" "$out"
expect "listing stderr" "" "$(cat "$outside/err")"
rm -f "$dir"/gostat.*

# Live and exited, and everything that must be skipped.
my_ticks=$(sed 's/.*) //' /proc/$$/stat | cut -d' ' -f20)
"$MKSTATS" "$dir/gostat.me.$$" --pid $$ --start-ticks "$my_ticks" --exe /bin/me --func m.f:0x10:4
"$MKSTATS" "$dir/gostat.reused.$$.1" --pid $$ --start-ticks $((my_ticks + 1)) --exe /bin/reused --func r.f:0x10:1
"$MKSTATS" "$dir/gostat.dead.$dead" --pid $dead --exe /bin/dead --func d.f:0x10:5
"$MKSTATS" "$outside/gostat.target.4194301" --pid 4194301 --exe /bin/linked --func l.f:0x10:1
ln -s "$outside/gostat.target.4194301" "$dir/gostat.link.4194301"
mkfifo "$dir/gostat.fifo.4194302"
mkdir "$dir/gostat.dir.4194303"
"$MKSTATS" "$dir/notgostat.x.4194304" --pid 4194304 --func n.f:0x10:1
"$MKSTATS" "$dir/gostat.bad.1" --pid 1 --func x.f:0x10:1 --corrupt bad-magic
if [ "$(id -u)" = 0 ]; then
    "$MKSTATS" "$dir/gostat.other.4194300" --pid 4194300 --exe /bin/other --func o.f:0x10:1
    chown 65534 "$dir/gostat.other.4194300"
fi

out=$(timeout 5 "$GOSTAT" 2>"$outside/err"); rc=$?
expect "mixed listing exit" 0 $rc
expect "mixed listing rows" "\
PID STATUS FUNCS CALLS EXE FILE
$$ LIVE 1 4 /bin/me $dir/gostat.me.$$
$$ EXITED 1 1 /bin/reused $dir/gostat.reused.$$.1
$dead EXITED 1 5 /bin/dead $dir/gostat.dead.$dead
- INVALID - - - $dir/gostat.bad.1" "$(tr -s ' ' <<<"$out" | sed 's/^ //')"
expect "invalid file reason on stderr" \
    "gostat: $dir/gostat.bad.1: not a stats file (no GOSTATv6 magic; still being written?)" \
    "$(cat "$outside/err")"

# PID lookup does not follow the symlink or read other users' files either.
"$GOSTAT" 4194301 >/dev/null 2>"$outside/err"
expect "pid via symlink: exit" 2 $?
expect "pid via symlink: message" "gostat: $dir: no stats file for pid 4194301" "$(cat "$outside/err")"
if [ "$(id -u)" = 0 ]; then
    "$GOSTAT" 4194300 >/dev/null 2>"$outside/err"
    expect "other user's file: exit" 2 $?
    # ... unless asked for it by path.
    out=$("$GOSTAT" --json "$dir/gostat.other.4194300" 2>"$outside/err"); rc=$?
    expect "other user's file by path: exit" 0 $rc
    [[ $out == *'"name":"o.f"'* ]] || fail "other user's file by path: $out $(cat "$outside/err")"
fi

# Missing directory.
GOSTAT_DIR=$dir/missing "$GOSTAT" >/dev/null 2>"$outside/err"
expect "missing dir exit" 2 $?
expect "missing dir message" "gostat: $dir/missing: cannot open directory: No such file or directory" \
    "$(cat "$outside/err")"

finish t_gostat_list
