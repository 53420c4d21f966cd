#!/usr/bin/env bash
# t_goroutines: gostat's goroutine counts (created = calls of
# runtime.newproc1, exited = calls of runtime.goexit1, live = the
# difference) with every Go of the tests. testdata/goroutines starts an
# exact number of goroutines that end and that stay blocked; with GOGC=off
# the runtime's own goroutines are the same in every run, so between a run
# starting none and one starting 1000 + 7, created grows by exactly 1007,
# exited by 1000 and live by 7. Both functions must be instrumented (count
# or count+time) on every release, the table must show the same numbers as
# JSON, and with Go 1.22 gdb breakpoints on the original program count the
# same absolute numbers. The files are of processes that ended, so the
# table counts the goroutines still running at the end.
cd "$(dirname "$0")/../.."
. tests/lib.sh
require_tools
work_dir
export GOGC=off

# goroutines_of STATDIR: "created exited live" from gostat --json.
goroutines_of() {
    local f
    f=$(stats_file_for "$1") && gostat_json "$f" "$WORK/g.json" || return 1
    python3 -c 'import json,sys; g=json.load(open(sys.argv[1]))["goroutines"]; print(g["created"], g["exited"], g["live"])' "$WORK/g.json"
}

# table_line STATDIR: the goroutines part of the table's summary line.
table_line() {
    "$GOSTAT" "$(stats_file_for "$1")" | head -1 | grep -o 'goroutines [^)]*)'
}

check_release() {
    local v=$1 bin=$WORK/g$v
    build_go "$v" testdata/goroutines "$bin" || { fail "go$v: build"; return; }
    "$GOREWRITE" -v "$bin" "$bin.instr" >"$WORK/v.txt" 2>&1 || { fail "go$v: gorewrite: $(tail -1 "$WORK/v.txt")"; return; }
    local fn
    for fn in runtime.newproc1 runtime.goexit1; do
        grep -Eq "^count(\+time)? +0x[0-9a-f]+ $fn " "$WORK/v.txt" ||
            fail "go$v: $fn not instrumented: $(grep " $fn[ :]" "$WORK/v.txt" | tr '\n' ';')"
    done

    run_compare "$bin" "$bin.instr" 0 0 || { fail "go$v: 0 0 differs"; return; }
    local base
    base=$(goroutines_of "$RC_STATDIR") || { fail "go$v: no goroutines in JSON"; return; }
    run_compare "$bin" "$bin.instr" 1000 7 || { fail "go$v: 1000 7 differs"; return; }
    local after line
    after=$(goroutines_of "$RC_STATDIR") || { fail "go$v: no goroutines in JSON"; return; }
    line=$(table_line "$RC_STATDIR")
    read -r c0 e0 l0 <<<"$base"
    read -r c1 e1 l1 <<<"$after"
    [ "$((c1 - c0)) $((e1 - e0)) $((l1 - l0))" = "1007 1000 7" ] ||
        fail "go$v: created/exited/live grew by $((c1 - c0))/$((e1 - e0))/$((l1 - l0)), want 1007/1000/7 (before: $base, after: $after)"
    # the process has ended: its live goroutines are those still running then
    [ "$line" = "goroutines $l1 running at exit ($c1 created, $e1 exited)" ] ||
        fail "go$v: table says '$line', JSON says $after"
    echo "go$v: before $base, after $after"
    if [ "$v" = 1.22 ]; then
        after_122=$after
        printf 'runtime.newproc1 %s\nruntime.goexit1 %s\n' "$c1" "$e1" >"$WORK/expect"
        python3 testdata/gdbcount.py "$(go_bin 1.22)" "$bin" "$WORK/expect" 1000 7 >"$WORK/gdb.txt" 2>&1 ||
            fail "go1.22: gdb on the original disagrees: $(cat "$WORK/gdb.txt")"
    fi
}

for v in $GO_VERSIONS $GO_VERSIONS_NEWER; do
    check_release "$v"
done

# A --count-only build counts goroutines the same way.
"$GOREWRITE" --count-only "$WORK/g1.22" "$WORK/g1.22.count" >/dev/null 2>&1 || fail "--count-only rewrite"
run_compare "$WORK/g1.22" "$WORK/g1.22.count" 1000 7 || fail "--count-only run differs"
got=$(goroutines_of "$RC_STATDIR")
[ "$got" = "${after_122:-}" ] || fail "--count-only: goroutines $got, timed build: ${after_122:-}"

[ $fails -eq 0 ] && echo "PASS: t_goroutines"
exit $((fails > 0))
