#!/usr/bin/env bash
# t_gostat_top.sh: gostat top as a person sees it, through a private tmux
# server (a real terminal emulator): a real instrumented Go program
# (testdata/topdemo) with exact call counts for its finished phase, a
# nonzero calls/s and a ~100% time share for its steady loop, sorting,
# filtering (a bad regex, Esc, clearing), pause, help, scrolling, a
# resize, q and SIGTERM restoring the terminal, the process exiting (the
# final numbers stay, exit 0), the no-target mode following processes that
# start and exit, TERM=vt100. Synthetic files (mkstats) give exact MEAN,
# P99 and "-" cells, control characters in names shown as '?', a file
# truncated under top (exit 2), and the non-terminal error.
cd "$(dirname "$0")/../.."
. tests/assert.sh
require_tools

V=1.22
TM=(tmux -L "gr-top-$$" -f /dev/null)
demo_pids=()
cleanup() {
    "${TM[@]}" kill-server 2>/dev/null
    for p in "${demo_pids[@]}"; do kill -9 "$p" 2>/dev/null; done
    rm -rf "$dir"
}
trap cleanup EXIT

# --- helpers -----------------------------------------------------------
pane() { "${TM[@]}" capture-pane -p -t top; }

# wait_for NAME STRING [SECONDS]: until the pane shows STRING (fixed text).
wait_for() {
    local deadline=$((SECONDS + ${3:-60}))
    until pane | grep -qF -- "$2"; do
        if [ $SECONDS -ge $deadline ]; then
            fail "$1: the pane never showed '$2'"
            pane | sed 's/^/    | /'
            return 1
        fi
        sleep 0.2
    done
}

# wait_until NAME COMMAND...: until COMMAND succeeds (60 s at most).
wait_until() {
    local name=$1 deadline=$((SECONDS + 60))
    shift
    until "$@"; do
        if [ $SECONDS -ge $deadline ]; then
            fail "$name: timed out"
            pane | sed 's/^/    | /'
            return 1
        fi
        sleep 0.2
    done
}

# type_in TEXT...: literal keystrokes; keys NAME...: tmux key names.
type_in() { "${TM[@]}" send-keys -t top -l -- "$*"; }
keys() { "${TM[@]}" send-keys -t top "$@"; }
# run_cmd CMD: clears the pane, then types a command line into its shell;
# what the pane shows next comes from CMD only.
run_cmd() {
    type_in clear
    keys Enter
    wait_until "clear" eval '[ "$(pane | grep -v "^$")" = "\$" ]'
    type_in "$1"
    keys Enter
}

# cells FUNCTION: the numeric cells of FUNCTION's row (first match), and
# the function: "CALLS/S CALLS TIME% MEAN P99 FUNCTION" (with PID first in
# the no-target mode).
cells() { pane | awk -v f="$1" '$NF == f { $1 = $1; print; exit }'; }
# functions: names of the rows on screen, in order.
functions() { pane | awk 'seen && (!NF || /^rc=/) { exit } seen { print $NF } /CALLS\/S/ { seen = 1 }' | tr '\n' ' ' | sed 's/ $//'; }
header() { pane | sed -n "${1}p" | sed 's/ *$//'; }
# The last non-empty line (the shell prompt once top has left).
last_line() { pane | grep -v '^$' | tail -1; }

# new_shell: a fresh shell in the pane (the first time, the tmux server).
shell_cmd="env PS1='$ ' GOSTAT_DIR='$dir' GOSTAT='$GOSTAT' bash --norc --noprofile"
new_shell() {
    if "${TM[@]}" has-session -t top 2>/dev/null; then
        "${TM[@]}" respawn-pane -k -t top "$shell_cmd"
    else
        "${TM[@]}" new-session -d -s top -x 150 -y 40 "$shell_cmd"
    fi || { fail "tmux: cannot start the shell"; exit 1; }
    wait_until "shell" eval 'pane | grep -q "^[$]"'
    run_cmd 'tty_before=$(stty -g)'
}
# The terminal's modes after top equal those before it.
tty_check='$([ "$tty_before" = "$(stty -g)" ] && echo same || echo changed)'

# --- non-terminal stdout -------------------------------------------------
synth=$dir/synth
mkdir -p "$synth"
"$MKSTATS" "$synth/count" --pid 4194305 --exe /bin/counted \
    --func main.a:0x10:12 --func $'evil\e[31mred:0x20:3' --func $'bad\nline:0x30:2' --func main.zero:0x40:0 \
    --func main.a:0x50:1
"$GOSTAT" top "$synth/count" >"$dir/out" 2>"$dir/err"
expect "not a tty: exit status" 1 $?
expect "not a tty: message" "gostat: top: standard output is not a terminal (for a refreshed table in a log or pipe use gostat --watch SECONDS PID|FILE)" "$(cat "$dir/err")"
expect "not a tty: nothing on stdout" "" "$(cat "$dir/out")"
"$GOSTAT" top --help >"$dir/out" || fail "--help: exit $?"
grep -q '^usage: gostat top \[-d SECONDS\] \[PID|FILE\]$' "$dir/out" || fail "--help: no usage line"
"$GOSTAT" top -d 0 "$synth/count" 2>"$dir/err"
expect "-d 0: exit status" 1 $?
expect "-d 0: message" "gostat: top: -d wants seconds from 0.01 to 86400, not '0' (see gostat top --help)" "$(cat "$dir/err")"

# --- synthetic files: exact cells ----------------------------------------
new_shell
# A count-only file of an exited process: no rates, no timing ("-"); names
# with ESC and newline drawn with '?'; a never-called function hidden; two
# functions named main.a told apart by their entries.
run_cmd "\$GOSTAT top $synth/count; echo \"rc=\$? tty=$tty_check\""
wait_for "count-only" "rc=0 tty=same"
expect "count-only: final frame" "\
exe /bin/counted  pid 4194305  exited  up -
calls/s -  calls 18  functions 5 (4 shown)  goroutines created - exited - live -
sort calls/s

CALLS/S  CALLS  TIME%  MEAN  P99  FUNCTION
      -     12      -     -    -  main.a (0x10)
      -      3      -     -    -  evil?[31mred
      -      2      -     -    -  bad?line
      -      1      -     -    -  main.a (0x50)
rc=0 tty=same" "$(pane | sed -n '/^exe \/bin\/counted/,/^rc=/p')"

# Timing data of t_gostat_timing.sh (see there for how each value follows):
# main.work mean 310ns p99 2.50us; main.slow mean 1.00ms p99 1.50ms; main.inl
# untimed; main.hidden timed but no timed call; main.never never called.
"$MKSTATS" "$synth/timed" --pid 4194305 --rows 4 --spread --timing --tsc 1000:0:2001000:1000000 \
    --func main.work:0x10:10:/src/w.go:3 --func main.slow:0x20:2:/src/s.go:9 \
    --func main.never:0x30:0 --func main.inl:0x40:5:/src/i.go:1 --func main.hidden:0x50:1 \
    --untimed '3:too short to patch' \
    --time 0:1:5300:100:5000:2=3,8=1 --time 0:2:900:130:200:3=6 \
    --time 1:1:4000000:1000000:3000000:15=1,17=1 --time 4:3:500:500:500:4=1 --pagemap 3:1:2
run_cmd "\$GOSTAT top $synth/timed; echo \"rc=\$?\""
wait_for "timed" "rc=0"
expect "timed: column names" "CALLS/S CALLS TIME% MEAN P99 FUNCTION" "$(pane | grep 'CALLS/S' | tr -s ' ' | sed 's/^ //')"
expect "timed: main.work" "- 10 - 310ns 2.50us main.work" "$(cells main.work)"
expect "timed: main.inl" "- 5 - - - main.inl" "$(cells main.inl)"
expect "timed: main.slow" "- 2 - 1.00ms 1.50ms main.slow" "$(cells main.slow)"
expect "timed: main.hidden" "- 1 - - - main.hidden" "$(cells main.hidden)"
expect "timed: order (calls, no rates yet)" "main.work main.inl main.slow main.hidden" "$(functions)"

# A live file (this shell's pid and start time): CALLS/S from the
# difference between refreshes; TIME% 0.0 once a timed function's total
# stayed put over an interval, `-` for b.g, called but never timed (its
# time is unknown); then truncated under top: exit 2. The
# bump's rate shows for one interval only: 2 s, so that polling the pane on
# a loaded machine cannot miss it (at 0.3 s it did).
my_ticks=$(sed 's/.*) //' /proc/$$/stat | cut -d' ' -f20)
live=$synth/live
"$MKSTATS" "$live" --pid $$ --start-ticks "$my_ticks" --exe /bin/live --rows 2 --spread --timing \
    --tsc 1000:0:2001000:1000000 --func a.f:0x10:6 --func b.g:0x20:1 --time 0:1:600:200:200:3=3
run_cmd "\$GOSTAT top -d 2 $live; echo \"rc=\$?\""
wait_for "live: header" "exe /bin/live  pid $$  running  up "
wait_until "live: TIME% known" eval '[ "$(cells a.f)" = "0 6 0.0 100ns 100ns a.f" ]'
"$MKSTATS" --bump "$live" 1 5000
wait_until "live: calls/s of b.g" eval 'cells b.g | awk '\''$1 > 0 && $2 == 5001 && $3 == "-" && $4 == "-" { ok = 1 } END { exit !ok }'\'''
truncate -s 4096 "$live"
wait_for "truncated" "rc=2"
expect "truncated: one error line, then the status" "gostat: $live: file shrank while reading its counters
rc=2" "$(pane | grep -v '^$' | tail -3 | head -2)"

# --- a real program --------------------------------------------------------
build_go "$V" testdata/topdemo "$dir/bin/topdemo" || exit 1
instrument "$dir/bin/topdemo" "$dir/bin/topdemo.instr" || exit 1
exe=$dir/bin/topdemo.instr
start_demo() { # N: runs demo N until $dir/stop.N exists; its pid in demo_pid
    "$exe" "$dir/stop.$1" >"$dir/demo.$1.out" 2>&1 &
    demo_pid=$!
    disown   # killed by cleanup if still running; no job report
    demo_pids+=("$demo_pid")
    wait_until "demo $1 ready" grep -q '^ready' "$dir/demo.$1.out"
}
start_demo 1
pid1=$demo_pid

new_shell
run_cmd "\$GOSTAT top $pid1; echo \"rc=\$? tty=$tty_check\""
wait_for "header" "exe $exe  pid $pid1  running  up "
expect "header line 3" "sort calls/s" "$(header 3)"
wait_until "header line 2" eval 'pane | grep -q "^calls/s [0-9]"'
pane | grep -q '^calls/s [0-9]*  calls [0-9]*  functions [0-9]* ([0-9]* shown)  goroutines created [0-9]* exited [0-9]* live [0-9]*$' \
    || fail "header line 2: $(header 2)"
expect "footer" "q quit  ? help  / filter  space pause  a uncalled  g goroutines  sort: c calls/s  n calls  t time%  m mean  9 p99  f function" "$(pane | tail -1 | sed 's/ *$//')"

# Filter: typed on the bottom line, applied by Enter.
keys /
wait_for "prompt" "filter (extended regex; Enter applies, Esc cancels):"
type_in '^main\.'
wait_for "prompt echo" 'Esc cancels): ^main\.'
keys Enter
wait_for "filter applied" 'sort calls/s  filter ^main\.'
wait_for "filter: rows" "(6 shown)"
# The finished phase: exact counts; no calls in the last interval.
wait_until "finished phase" eval '[ "$(cells main.alpha | cut -d" " -f1-3)" = "0 2000000 0.0" ]'
expect "main.beta" "0 500000 0.0" "$(cells main.beta | cut -d' ' -f1-3)"
expect "main.gamma" "0 7 0.0" "$(cells main.gamma | cut -d' ' -f1-3)"
expect "main.main" "0 1" "$(cells main.main | cut -d' ' -f1-2)"
# The steady loop: tick has a rate; nap sleeps nearly all of the time
# (the loop does little else: at least 90 % of an interval; a nap is
# credited when it returns, so an interval may hold up to one 1 ms nap
# more than its second: at most 100.2 %).
wait_until "tick's calls/s" eval 'cells main.tick | awk '\''$1 > 0 { ok = 1 } END { exit !ok }'\'''
wait_until "nap's TIME%" eval 'cells main.nap | awk '\''$3 >= 90 && $3 <= 100.2 { ok = 1 } END { exit !ok }'\'''
first_two=$(functions | cut -d' ' -f1-2)
case $first_two in
    "main.tick main.nap" | "main.nap main.tick") ;;
    *) fail "sort calls/s: first rows are '$first_two'" ;;
esac

# Sorting keys.
keys n
wait_for "sort n" "sort calls  filter"
expect "sort calls: first rows" "main.alpha main.beta" "$(functions | cut -d' ' -f1-2)"
keys f
wait_for "sort f" "sort function  filter"
expect "sort name" "main.alpha main.beta main.gamma main.main main.nap main.tick" "$(functions)"
keys m
wait_for "sort m" "sort mean  filter"
expect "sort mean: first row" "main.nap" "$(functions | cut -d' ' -f1)"
keys t
wait_for "sort t" "sort time%  filter"
expect "sort time%: first row" "main.nap" "$(functions | cut -d' ' -f1)"
keys 9
wait_for "sort 9" "sort p99  filter"
keys c
wait_for "sort c" "sort calls/s  filter"

# The goroutines view (g): sites, most live first; the main goroutine
# (started by the runtime) is live; g again: the functions are back.
keys g
wait_for "goroutines view" "CREATOR (go statement) -> START"
wait_until "goroutines: runtime.main live" eval 'pane | grep -qE "^ +1 +1 +0 +[0-9.]+[mun]?s +- +runtime\.newproc .* -> runtime\.main"'
keys g
wait_for "functions again" "sort calls/s  filter"
wait_until "functions rows again" eval '[ -n "$(functions)" ]'

# A bad regex: the error on the bottom line, the filter unchanged.
keys /
wait_for "prompt again" 'Esc cancels): ^main\.'
keys C-u
type_in 'main.(alpha'
keys Enter
wait_for "bad regex" "filter: bad regular expression 'main.(alpha': Unmatched ( or \\("
expect "bad regex: filter kept" "sort calls/s  filter ^main\\." "$(header 3)"
# Esc cancels what was typed.
keys /
type_in 'zzz'
wait_for "typing" 'Esc cancels): ^main\.zzz'
keys Escape
wait_for "esc" "q quit  ? help"
sleep 0.5
expect "esc: filter kept" "sort calls/s  filter ^main\\." "$(header 3)"
# A narrower filter hides rows.
keys /
keys C-u
type_in 'main\.(alpha|gamma)$'
keys Enter
wait_for "narrow filter" "(2 shown)"
expect "narrow filter: rows" "main.alpha main.gamma" "$(functions | tr ' ' '\n' | sort | tr '\n' ' ' | sed 's/ $//')"

# Pause: PAUSED in the header, and the numbers stop changing.
keys /
keys C-u
type_in 'main\.tick'
keys Enter
wait_for "tick only" "(1 shown)"
keys Space
wait_for "paused" "  PAUSED"
header 1 | grep -q "^exe $exe  pid $pid1  running  up [0-9:]*  PAUSED\$" || fail "paused header: $(header 1)"
before=$(cells main.tick)
sleep 2.5
expect "paused: tick's row frozen" "$before" "$(cells main.tick)"
keys p
wait_until "resumed" eval '! pane | grep -qF PAUSED'
wait_until "resumed: tick counts again" eval '[ "$(cells main.tick)" != "$before" ]'

# Help, and any key but q back (q from the help quits: at the end).
keys '?'
wait_for "help" "gostat top: keys"
pane | grep -qF "  /        filter function names by an extended regular expression" || fail "help: no filter line"
pane | grep -qxF "Press q to quit, any other key to return." || fail "help: no line on leaving it"
keys x
wait_for "help left" "sort calls/s  filter main\\.tick"

# Empty filter: everything called again; a resize re-layouts.
keys /
keys C-u
keys Enter
wait_until "filter cleared" eval '[ "$(header 3)" = "sort calls/s" ]'
"${TM[@]}" resize-window -t top -x 80 -y 20
footer="q quit  ? help  / filter  space pause  a uncalled  g goroutines  sort: c calls/s  n calls  t time%  m mean  9 p99  f function"
wait_until "resized footer" eval '[ "$(pane | tail -1)" = "$(sed "s/ *$//" <<<"${footer:0:79}")" ]'
expect "resized: 20 lines, rows fill the screen" 20 "$(pane | wc -l)"
expect "resized: last row on line 19" 1 "$(pane | sed -n 19p | grep -c '[a-z]')"
# Scrolling (by name: a stable order): End shows the last rows, Home the
# first again, Down moves by one.
keys f
wait_for "sort f again" "sort function"
names=$(functions)
keys Down
wait_until "down" eval '[ "$(functions | cut -d" " -f1)" = "$(cut -d" " -f2 <<<"$names")" ]'
keys End
wait_until "end" eval '[ "$(functions | cut -d" " -f1)" \> "$(cut -d" " -f2 <<<"$names")" ]'
keys Home
wait_until "home" eval '[ "$(functions | cut -d" " -f1)" = "$(cut -d" " -f1 <<<"$names")" ]'
"${TM[@]}" resize-window -t top -x 150 -y 40
keys '/'
type_in '^main\.'
keys Enter
wait_for "filter again" "(6 shown)"

# The process exits: final numbers marked exited, printed to the shell's
# screen after top restored it; exit 0.
touch "$dir/stop.1"
wait_for "exited: status" "rc=0 tty=same"
pane | grep -qF "exe $exe  pid $pid1  exited  up " || fail "exited: header not left on screen"
expect "exited: alpha" "2000000 main.alpha" "$(cells main.alpha | cut -d' ' -f2,6)"
expect "exited: gamma" "7 main.gamma" "$(cells main.gamma | cut -d' ' -f2,6)"
expect "exited: prompt" '$' "$(last_line | sed 's/ *$//')"

# q and SIGTERM give the terminal back (the alternate screen closes: the
# header is gone), exit 0.
start_demo 2
pid2=$demo_pid
new_shell
run_cmd "\$GOSTAT top $pid2; echo \"rc=\$? tty=$tty_check\""
wait_for "q: running" "pid $pid2  running"
keys q
wait_for "q: status" "rc=0 tty=same"
pane | grep -qF "pid $pid2" && fail "q: the screen was not restored"
run_cmd "bash -c 'echo \$\$ >$dir/top.pid; exec \$GOSTAT top $pid2'; echo \"rc=\$? tty=$tty_check\""
wait_for "term: running" "pid $pid2  running"
kill -TERM "$(cat "$dir/top.pid")"
wait_for "term: status" "rc=0 tty=same"
pane | grep -qF "pid $pid2" && fail "SIGTERM: the screen was not restored"

# TERM=vt100 (no colour, no alternate screen).
run_cmd "TERM=vt100 \$GOSTAT top $pid2; echo \"rc=\$?\""
wait_for "vt100: running" "exe $exe  pid $pid2  running"
keys /
type_in 'main\.alpha'
keys Enter
wait_until "vt100: row" eval '[ "$(cells main.alpha | cut -d" " -f2)" = 2000000 ]'
keys '?'
wait_for "vt100: help" "Press q to quit, any other key to return."
keys q   # from the help, as it says
wait_for "vt100: status" "rc=0"

# No target: every live process in $GOSTAT_DIR (the exited demo 1's file
# is left out); a process that starts appears, one that exits leaves.
start_demo 3
pid3=$demo_pid
new_shell
run_cmd "\$GOSTAT top; echo \"rc=\$?\""
wait_for "all: header" "processes 2 in $dir"
keys /
type_in 'main\.alpha$'
keys Enter
wait_until "all: rates known" eval 'cells main.alpha | grep -q "^[0-9]* 0 2000000 0.0 "'
expect "all: column names" "PID CALLS/S CALLS TIME% MEAN P99 FUNCTION" "$(pane | grep 'CALLS/S' | tr -s ' ' | sed 's/^ //')"
# ties are broken by pid, numerically (pid3 < pid2 when pids wrapped
# around between the two starts, seen on a busy machine)
read -r lo_pid hi_pid < <(printf '%s\n' "$pid2" "$pid3" | sort -n | paste -sd' ')
expect "all: rows" "$lo_pid 0 2000000 main.alpha|$hi_pid 0 2000000 main.alpha" \
    "$(pane | awk '$NF == "main.alpha" { print $1, $2, $3, $NF }' | paste -sd'|')"
start_demo 4
pid4=$demo_pid
wait_for "all: started" "processes 3 in $dir"
wait_until "all: new row" eval 'pane | grep -q "^ *$pid4 .* main.alpha"'
touch "$dir/stop.2" "$dir/stop.3"
wait_for "all: exited ones left" "processes 1 in $dir"
expect "all: one row" "$pid4 main.alpha" "$(pane | awk '$NF == "main.alpha" { print $1, $NF }')"
keys q
wait_for "all: q" "rc=0"
touch "$dir/stop.4"

finish t_gostat_top
