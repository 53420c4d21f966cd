#!/usr/bin/env bash
# tests/mutants/run.sh [NAME...] (`make mutants`): shows that the tests catch
# deliberately broken variants of gorewrite and gostat. Each
# tests/mutants/NAME.patch is one mutant: a short header ("Mutant:" what is
# broken, one "Test: [VAR=value...] t_name" line per test expected to catch
# it, tests/GROUP/t_name.sh), then a patch against the tree. For each mutant
# the tree is copied to build/mutants/NAME (with the current objects, so
# that only the patched file is recompiled), patched and built; then each
# listed test runs with GOREWRITE/GOSTAT pointing at the mutant's binaries.
# A mutant is killed when at least one of its tests fails; its tests run in
# order and stop at the first that fails (MUTANT_ALL_TESTS=1 runs them all). Each test line
# must also pass with the real binaries (so a kill is the mutant's doing,
# not a test that fails anyway): it runs once with them first, unless the
# whole test already passed with these binaries in this run of tests/run.sh
# (its build/test-logs result is newer than both binaries and the script;
# a "Test:" line's variables only narrow what the test covers).
# MUTANT_JOBS (default 2) mutants run at once, each in its own tree; one
# whose tests are among tests/run.sh's SERIAL ones, or that measure
# durations (ALONE_TESTS below), runs alone.
# Prints "mutant -> killed by TEST..." per mutant; exit 1 if any survives
# (or a baseline run fails, or a mutant does not build).
# Logs: build/test-logs/mutants/.

set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 1
MDIR=$ROOT/tests/mutants
LOGS=$ROOT/build/test-logs/mutants
TEST_TIMEOUT=${TEST_TIMEOUT:-1500}
mkdir -p "$LOGS"
start_all=$(date +%s)

names=("$@")
if [ ${#names[@]} -eq 0 ]; then
    for p in "$MDIR"/*.patch; do names+=("$(basename "$p" .patch)"); done
fi

# run_test LOG GOREWRITE GOSTAT TESTLINE: runs one "Test:" line; its status.
run_test() {
    local log=$1 gr=$2 gs=$3 line=$4 envs=() t
    read -r -a words <<<"$line"
    t=${words[${#words[@]} - 1]}
    envs=("${words[@]:0:${#words[@]}-1}")
    # the test's script, in whichever group folder holds it
    local path=("$ROOT"/tests/*/"$t".sh)
    env GOREWRITE="$gr" GOSTAT="$gs" ${envs[@]+"${envs[@]}"} \
        timeout -k 10 "$TEST_TIMEOUT" bash "${path[0]}" >"$log" 2>&1
}

# test_lines NAME: the mutant's "Test:" lines.
test_lines() {
    sed -n 's/^Test: *//p' "$MDIR/$1.patch"
}

# passed_in_this_run TEST: tests/run.sh ran TEST with the current binaries
# and script, and it passed.
passed_in_this_run() {
    local result=$ROOT/build/test-logs/$1.result rc secs cpu path=("$ROOT"/tests/*/"$1".sh)
    [ -f "$result" ] && read -r rc secs cpu <"$result" && [ "$rc" = 0 ] &&
        [ "$result" -nt "$ROOT/bin/gorewrite" ] && [ "$result" -nt "$ROOT/bin/gostat" ] &&
        [ "$result" -nt "${path[0]}" ] && [ "$result" -nt "$ROOT/tests/lib.sh" ]
}

bad=0
# Baseline: every distinct test line passes with the real binaries.
declare -A baseline_ok
for name in "${names[@]}"; do
    [ -f "$MDIR/$name.patch" ] || { echo "no mutant $name"; bad=1; continue; }
    while IFS= read -r line; do
        [ -n "${baseline_ok[$line]+x}" ] && continue
        if passed_in_this_run "${line##* }"; then
            baseline_ok[$line]=1
            echo "baseline ok   $line (${line##* } passed in this run)"
            continue
        fi
        s=$(date +%s)
        log=$LOGS/baseline.$(echo "$line" | tr -c 'A-Za-z0-9_.=-' _).log
        if run_test "$log" "$ROOT/bin/gorewrite" "$ROOT/bin/gostat" "$line"; then
            baseline_ok[$line]=1
            echo "baseline ok   $line ($(($(date +%s) - s))s)"
        else
            baseline_ok[$line]=0
            echo "baseline FAIL $line ($(($(date +%s) - s))s): see $log"
            bad=1
        fi
    done < <(test_lines "$name")
done

# build_mutant NAME: the patched tree in build/mutants/NAME, built.
build_mutant() {
    local name=$1 dst=$ROOT/build/mutants/$1
    rm -rf "$dst"
    mkdir -p "$dst/build"
    tar -C "$ROOT" --exclude=./build --exclude=./bin --exclude=./.git -cf - . | tar -C "$dst" -xf - || return 1
    # the current objects (timestamps kept): only what the patch touches
    # is compiled again
    local d
    for d in common elf rewriter gostat stubs gen; do
        [ -d "$ROOT/build/$d" ] && cp -a "$ROOT/build/$d" "$dst/build/"
    done
    [ -d "$ROOT/bin" ] && cp -a "$ROOT/bin" "$dst/"
    patch -d "$dst" -p1 <"$MDIR/$name.patch" >"$LOGS/$name.build.log" 2>&1 &&
        make -C "$dst" bin/gorewrite bin/gostat >>"$LOGS/$name.build.log" 2>&1
}

# run_mutant NAME: builds and tests one mutant; its progress lines go to
# $LOGS/NAME.out, its summary line to $LOGS/NAME.summary.
run_mutant() {
    local name=$1 s dst line log killers=()
    s=$(date +%s)
    dst=$ROOT/build/mutants/$name
    exec >"$LOGS/$name.out"
    if ! build_mutant "$name"; then
        echo "mutant $name: does not build (see $LOGS/$name.build.log)"
        echo "$name -> NOT BUILT" >"$LOGS/$name.summary"
        return
    fi
    if cmp -s "$dst/bin/gorewrite" "$ROOT/bin/gorewrite" && cmp -s "$dst/bin/gostat" "$ROOT/bin/gostat"; then
        echo "mutant $name: its binaries equal the real ones (the patch changed nothing)"
        echo "$name -> NOT BUILT (unchanged)" >"$LOGS/$name.summary"
        return
    fi
    while IFS= read -r line; do
        [ "${baseline_ok[$line]:-0}" = 1 ] || continue
        log=$LOGS/$name.$(echo "$line" | tr -c 'A-Za-z0-9_.=-' _).log
        if run_test "$log" "$dst/bin/gorewrite" "$dst/bin/gostat" "$line"; then
            echo "  $name: survives $line"
        else
            killers+=("${line##* }")
            echo "  $name: killed by $line: $(grep -m1 -E 'FAIL|^  ' "$log" | head -c 200)"
            [ "${MUTANT_ALL_TESTS:-0}" = 1 ] || break
        fi
    done < <(test_lines "$name")
    if [ ${#killers[@]} -eq 0 ]; then
        echo "$name -> SURVIVED" >"$LOGS/$name.summary"
    else
        echo "$name -> killed by ${killers[*]} ($(($(date +%s) - s))s)" >"$LOGS/$name.summary"
    fi
    rm -rf "$dst"
}

# finish_mutant NAME: prints what run_mutant left.
finish_mutant() {
    cat "$LOGS/$1.out"
    local line
    line=$(cat "$LOGS/$1.summary" 2>/dev/null) || line="$1 -> NOT RUN (the runner died)"
    summary+=("$line")
    case $line in *" -> killed by "*) ;; *) bad=1 ;; esac
}

# Tests that run alone: tests/run.sh's SERIAL ones, and those that kill
# their mutants by a measured duration (a second test beside them could
# blur the difference they rest on).
ALONE_TESTS="$(sed -n 's/^SERIAL="\(.*\)"$/\1/p' "$ROOT/tests/run.sh") t_oncpu t_callgraph_fit"
# alone NAME: one of the mutant's tests must run alone.
alone() {
    local line
    while IFS= read -r line; do
        case " $ALONE_TESTS " in *" ${line##* } "*) return 0 ;; esac
    done < <(test_lines "$1")
    return 1
}

summary=()
shared=()
solo=()
for name in "${names[@]}"; do
    [ -f "$MDIR/$name.patch" ] || continue
    rm -f "$LOGS/$name.summary" "$LOGS/$name.out"
    if alone "$name"; then solo+=("$name"); else shared+=("$name"); fi
done
# reap: finishes the running mutants that have ended (running: "pid:name").
reap() {
    local job left=()
    for job in ${running[@]+"${running[@]}"}; do
        if kill -0 "${job%%:*}" 2>/dev/null; then
            left+=("$job")
        else
            finish_mutant "${job#*:}"
        fi
    done
    running=(${left[@]+"${left[@]}"})
}

MUTANT_JOBS=${MUTANT_JOBS:-2}
running=()
for name in ${shared[@]+"${shared[@]}"}; do
    while [ ${#running[@]} -ge "$MUTANT_JOBS" ]; do
        sleep 0.5
        reap
    done
    run_mutant "$name" &
    running+=("$!:$name")
done
wait
reap
for name in ${solo[@]+"${solo[@]}"}; do
    (run_mutant "$name")
    finish_mutant "$name"
done

echo "mutants:"
printf '  %s\n' "${summary[@]}"
for line in "${!baseline_ok[@]}"; do
    [ "${baseline_ok[$line]}" = 1 ] || echo "  baseline failed (its mutants were not run against it): $line"
done
echo "$(printf '%s\n' "${summary[@]}" | grep -c ' -> killed by ') of ${#names[@]} mutants killed in $(($(date +%s) - start_all))s"
exit $bad
