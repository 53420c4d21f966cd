#!/usr/bin/env bash
# t_select: gorewrite --only / --exclude (rewriter/plan/select.c,
# docs/selection.md).
#  - testdata/iface, Go 1.15, 1.19, 1.22 and the newest toolchain: an
#    unselected output is the reference (its gostat rows, its counts).
#    With --only '^main\.', --only 'main\.' (unanchored: runtime.main's
#    closures too), --exclude 'Area|^runtime\.', and --only '^main\.'
#    --exclude 'Scale|Name' together: gostat's rows are exactly the
#    reference's rows the rule chooses, plus runtime.newproc1 and
#    runtime.goexit1 (kept for the goroutine counts, which stay known);
#    main's counts equal the reference's and testdata/iface/expect; stdout,
#    stderr and exit status equal the original's. The left-out count agrees
#    in gorewrite's stdout, -v (its "left out" lines and summary) and the
#    layout report's functions record; every function is accounted for.
#  - Debian's restic (a real program): --only '^main\.' instruments only
#    package main; `restic version` and `restic --help` print what the
#    original prints; only main.* (and the two) in gostat, main.main
#    called once; with --only '^main\.main$', main.main alone, its
#    stats file under 1 MB (without the program's table of all names).
#  - a bad --only or --exclude pattern: exit 1, a message naming the
#    option and the pattern, no output written (an existing OUTPUT kept);
#    an --only pattern that matches no function: one warning naming it.
# Environment: GOVERS="1.22" restricts the Go versions.
. "$(dirname "$0")/../lib.sh"
require_tools

work_dir
DIR=$ROOT/testdata/iface
NEWEST=${GO_VERSIONS_NEWER##* }
GOVERS=${GOVERS:-1.15 1.19 1.22 $NEWEST}
# kept whatever the patterns say (docs/selection.md): the goroutine counts'
# two, the scheduler's hand-offs that on-CPU time needs, runtime.copystack
# (a stack moves: the timing marker) and runtime.sigpanic (its entry puts
# a relocated leaf's faulting PC back), syscall.Exec's runtime_BeforeExec
# and runtime_AfterExec (the file finished before an exec) (those the
# program has: each list
# is cut to the reference run's rows)
INFRA='runtime.newproc1 runtime.goexit1 runtime.execute runtime.park_m runtime.goschedImpl runtime.gosched_m
    runtime.goschedguarded_m runtime.gopreempt_m runtime.preemptPark runtime.goyield_m
    runtime.exitsyscall0 runtime.exitsyscallNoP runtime.copystack runtime.sigpanic
    syscall.runtime_BeforeExec syscall.runtime_AfterExec'
TAB=$'\t'
export LC_ALL=C   # sort, join and the rows in one byte order

# rows JSON: "name<TAB>calls" per gostat row, sorted by name (same-named
# rows added; names may hold spaces: Go 1.27's generic shapes).
rows() {
    python3 - "$1" <<'PY'
import json, sys
calls = {}
for f in json.load(open(sys.argv[1]))["functions"]:
    calls[f["name"]] = calls.get(f["name"], 0) + int(f["calls"])
for n in sorted(calls):
    print("%s\t%d" % (n, calls[n]))
PY
}

# instrument TAG ORIG ARGS...: gorewrite -v ARGS ORIG $WORK/TAG; leaves
# $WORK/TAG.{out,v,layout}. Returns 1 on failure.
instrument_sel() {
    local tag=$1 orig=$2
    shift 2
    # the LIEF-checked wrapper writes a report of its own (and copies it);
    # a bare gorewrite (tests/mutants/run.sh) is asked for one
    local report=(--layout-report "$WORK/$tag.layout")
    [ "$GOREWRITE" = "$ROOT/tests/tools/gorewrite_checked.sh" ] && report=()
    GOREWRITE_REPORT_COPY=$WORK/$tag.layout "$GOREWRITE" -v "${report[@]}" "$@" "$orig" \
        "$WORK/$tag" >"$WORK/$tag.out" 2>"$WORK/$tag.v" && return 0
    fail "$tag: gorewrite $* exited non-zero: $(grep -v '^\(count\|skip\|left out\)' "$WORK/$tag.v" | head -5)"
    return 1
}

# run_rows TAG ORIG ARGS...: runs ORIG and $WORK/TAG with ARGS, compares;
# leaves $WORK/TAG.{json,rows}. Returns 1 on failure.
run_rows() {
    local tag=$1 orig=$2 f
    shift 2
    run_compare "$orig" "$WORK/$tag" "$@" || { fail "$tag $*: output differs from the original's"; return 1; }
    f=$(stats_file_for "$RC_STATDIR") && gostat_json "$f" "$WORK/$tag.json" ||
        { fail "$tag: no stats"; return 1; }
    rows "$WORK/$tag.json" >"$WORK/$tag.rows"
}

# instrument_run TAG ORIG ARGS...: both of the above (the program run without arguments).
instrument_run() {
    instrument_sel "$@" && run_rows "$1" "$2"
}

# check_selected TAG REF ONLY EXCLUDE: TAG's rows are REF's rows whose name
# matches ONLY (empty: any) and not EXCLUDE (empty: none), plus the
# infrastructure functions; main.* counts equal REF's; the goroutine
# counts are known.
check_selected() {
    local tag=$1 ref=$2 only=$3 exclude=$4 want got
    want=$(cut -f1 "$WORK/$ref.rows" |
        { if [ -n "$only" ]; then grep -E -- "$only"; else cat; fi; } |
        { if [ -n "$exclude" ]; then grep -vE -- "$exclude"; else cat; fi; } |
        { cat; printf '%s\n' $INFRA | grep -xF -f <(cut -f1 "$WORK/$ref.rows"); } | sort -u)
    got=$(cut -f1 "$WORK/$tag.rows")
    if [ "$want" != "$got" ]; then
        fail "$tag: gostat rows are not the chosen functions:"
        diff <(printf '%s\n' "$want") <(printf '%s\n' "$got") | head -20
    fi
    [ "$(echo "$got" | wc -l)" -ge 3 ] || fail "$tag: only $(echo "$got" | wc -l) rows"
    # main's counts: exactly the unselected run's
    local bad
    bad=$(join -t "$TAB" <(grep '^main\.' "$WORK/$ref.rows") <(grep '^main\.' "$WORK/$tag.rows") |
        awk -F "$TAB" '$2 != $3')
    [ -z "$bad" ] || fail "$tag: main counts differ from the unselected run's: $bad"
    grep -q '"goroutines":{"created":[1-9]' "$WORK/$tag.json" ||
        fail "$tag: goroutine counts unknown: $(grep -o '"goroutines":[^}]*' "$WORK/$tag.json")"
}

# check_accounted TAG: the left-out count agrees everywhere, and left out +
# instrumented + skipped = all functions.
check_accounted() {
    local tag=$1 lines stdout_n total instr layout_left summary rows
    lines=$(grep -c '^left out ' "$WORK/$tag.v")
    read -r total instr layout_left < <(sed -n 's/^functions //p' "$WORK/$tag.layout")
    stdout_n=$(sed -n 's/.* \([0-9]*\) left out by --only\/--exclude.*/\1/p' "$WORK/$tag.out")
    summary=$(grep '^summary:' "$WORK/$tag.v")
    rows=$(python3 -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["functions"]))' \
        "$WORK/$tag.json")
    [ "$lines" -gt 0 ] && [ "$lines" = "$layout_left" ] && [ "$lines" = "$stdout_n" ] ||
        fail "$tag: left out: $lines -v lines, layout '$layout_left', stdout '$stdout_n'"
    [[ $summary == *", $lines left out by --only/--exclude" ]] ||
        fail "$tag: -v summary does not say $lines left out: $summary"
    local skipped
    skipped=$(sed -n 's/^summary: .*), \([0-9]*\) skipped.*/\1/p' "$WORK/$tag.v")
    [ $((lines + instr + skipped)) = "$total" ] ||
        fail "$tag: $lines left out + $instr instrumented + $skipped skipped != $total functions"
    [ "$instr" = "$rows" ] || fail "$tag: layout says $instr instrumented, gostat has $rows functions"
    grep -q "^count\(+time\)\? .* runtime.newproc1 " "$WORK/$tag.v" ||
        fail "$tag: runtime.newproc1 not instrumented"
}

for v in $GOVERS; do
    prog=$WORK/iface$v
    build_go "$v" "$DIR" "$prog" || { fail "go$v: build"; continue; }
    instrument_run "ref$v" "$prog" || continue
    grep -q '^left out ' "$WORK/ref$v.v" && fail "go$v: functions left out with no selection"
    grep -q 'left out' "$WORK/ref$v.out" && fail "go$v: stdout mentions left out with no selection"
    grep -q '^functions [0-9]* [0-9]* 0$' "$WORK/ref$v.layout" ||
        fail "go$v: layout functions record: $(grep '^functions' "$WORK/ref$v.layout")"
    if instrument_run "only$v" "$prog" --only '^main\.'; then
        check_selected "only$v" "ref$v" '^main\.' ''
        check_accounted "only$v"
        check_counts "$WORK/only$v.json" "$DIR/expect" "$v" || fail "go$v --only: counts differ from expect"
    fi
    if instrument_run "unanchored$v" "$prog" --only 'main\.'; then
        check_selected "unanchored$v" "ref$v" 'main\.' ''
        grep -q "^runtime\\.main\\.func1$TAB" "$WORK/unanchored$v.rows" ||
            fail "go$v: --only 'main\\.' left out runtime.main.func1"
    fi
    if instrument_run "exclude$v" "$prog" --exclude 'Area' --exclude '^runtime\.'; then
        check_selected "exclude$v" "ref$v" '' 'Area|^runtime\.'
        check_accounted "exclude$v"
        grep -q "^main\\.totalArea$TAB" "$WORK/exclude$v.rows" && fail "go$v: --exclude Area kept main.totalArea"
    fi
    if instrument_run "both$v" "$prog" --only '^main\.' --exclude 'Scale|Name'; then
        check_selected "both$v" "ref$v" '^main\.' 'Scale|Name'
        check_accounted "both$v"
    fi
    echo "go$v: $(wc -l <"$WORK/ref$v.rows") rows unselected, $(wc -l <"$WORK/only$v.rows") with --only '^main\\.', $(wc -l <"$WORK/both$v.rows") with both"
    rm -f "$WORK"/*"$v" "$WORK"/*"$v".json
done

# A real program: restic, package main only.
RESTIC=/usr/bin/restic
if [ -x "$RESTIC" ]; then
    if instrument_sel restic "$RESTIC" --only '^main\.'; then
        for args in version --help; do
            run_rows restic "$RESTIC" "$args" || continue
            other=$(cut -f1 "$WORK/restic.rows" | grep -v '^main\.' |
                grep -vxF "$(printf '%s\n' $INFRA)")
            [ -z "$other" ] || fail "restic $args: rows outside main: $(echo "$other" | head -5 | tr '\n' ' ')"
            grep -qx "main\\.main${TAB}1" "$WORK/restic.rows" || fail "restic $args: main.main not called once"
            nmain=$(grep -c '^main\.' "$WORK/restic.rows")
            [ "$nmain" -gt 100 ] || fail "restic: only $nmain main functions instrumented"
            echo "restic $args: $nmain main functions, $(awk -F "$TAB" '$2 > 0' "$WORK/restic.rows" | wc -l) rows called"
        done
        check_accounted restic
    fi
    # A few functions of a large program: the stats file holds their names,
    # not the program's 1 MB table of all names, and gostat reads it.
    if instrument_sel restic1 "$RESTIC" --only '^main\.main$'; then
        run_rows restic1 "$RESTIC" version &&
            expect "restic --only '^main\.main\$': rows" "main.main${TAB}1" \
                "$(grep -vxF "$(printf '%s\n' $INFRA)" "$WORK/restic1.rows" | cut -f1,2)"
        size=$(stat -c %s "$(stats_file_for "$RC_STATDIR")")
        [ "$size" -lt 1000000 ] || fail "restic --only '^main\.main\$': a $size-byte stats file"
    fi
else
    fail "$RESTIC is not installed"
fi

# Bad patterns: a usage error naming the option and the pattern; nothing written.
prog=$WORK/bad
build_go 1.22 "$DIR" "$prog" || fail "build for the bad patterns"
for opt in --only --exclude; do
    for pat in '(' 'a[b' 'x{2,1}'; do
        rm -f "$WORK/badout"
        err=$("$GOREWRITE" --only '^main\.' "$opt" "$pat" "$prog" "$WORK/badout" 2>&1 >/dev/null)
        rc=$?
        [ $rc = 1 ] || fail "$opt '$pat': exit $rc, want 1"
        [[ $err == "gorewrite: $opt: bad regular expression '$pat': "?* ]] ||
            fail "$opt '$pat': message '$err'"
        [ ! -e "$WORK/badout" ] || fail "$opt '$pat': output written"
    done
done
echo keep >"$WORK/badout"
"$GOREWRITE" --exclude '(' "$prog" "$WORK/badout" >/dev/null 2>&1
[ "$(cat "$WORK/badout")" = keep ] || fail "a bad pattern changed an existing OUTPUT"
echo "bad patterns: $("$GOREWRITE_REAL" --only '(' "$prog" "$WORK/badout" 2>&1)"

# A pattern that names no function: one warning line naming it, the output
# written as usual; a pattern that does match: no warning.
err=$("$GOREWRITE" --only '^main\.' --only 'main\.NoSuch' "$prog" "$WORK/nomatch" 2>&1 >/dev/null)
rc=$?
[ $rc = 0 ] && [ -x "$WORK/nomatch" ] || fail "--only matching nothing: exit $rc or no output"
[ "$(grep -c 'warning' <<<"$err")" = 1 ] && grep -Fqx "gorewrite: warning: --only 'main\\.NoSuch' matches no function" <<<"$err" ||
    fail "--only matching nothing: stderr '$err'"

[ $fails -eq 0 ]
