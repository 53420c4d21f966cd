#!/usr/bin/env bash
# tests/run.sh [FILTER...]: runs every tests/GROUP/t_*.sh (sorted by name;
# GROUP is rewriter, programs, stubs, gostat, security or project, see
# docs/testing.md) from the repository root, each under a time limit, and prints
#   PASS name (Ns)      or      FAIL name (Ns) followed by the test's output
# and finally the line "N passed, N failed". Exit status 1 if any failed (or
# if no test matched the filters).
#
# FILTER: a substring of the test name (e.g. "stdlib" or "t_reject") or of
# its path under tests/ (e.g. "gostat/" for a whole group); with several
# filters a test runs if it matches any of them. TEST_LIST=1 prints the
# matching tests' paths instead of running them.
# TEST_TIMEOUT: seconds allowed per test script (default 1500).
# TEST_JOBS: tests run at once (default 2, the machine's cores); tests that
# measure time or poll a running program (SERIAL below) run alone, after
# the others.
# Logs are kept in build/test-logs/<name>.log.
# Every output gorewrite writes in a test is re-read by LIEF
# (tests/tools/gorewrite_checked.sh); each check is one line of
# build/test-logs/<name>.lief, and the last lines say how many there were.

set -u

ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT" || exit 1
TEST_TIMEOUT=${TEST_TIMEOUT:-1500}
LOGDIR=$ROOT/build/test-logs
mkdir -p "$LOGDIR"

# A test is named by its file name without .sh; names are unique across
# the groups, so logs and the SERIAL and LONGEST lists use the bare name.
tests=()
declare -A script
for t in $(cd tests && ls -- */t_*.sh 2>/dev/null); do
    name=$(basename "$t" .sh)
    if [ -n "${script[$name]+x}" ]; then
        echo "two tests named $name: ${script[$name]} and tests/$t"
        exit 1
    fi
    script[$name]=tests/$t
done
for name in $(printf '%s\n' "${!script[@]}" | LC_ALL=C sort); do
    if [ $# -gt 0 ]; then
        match=0
        for f in "$@"; do
            case ${script[$name]#tests/} in *"$f"*.sh) match=1 ;; esac
        done
        [ $match -eq 1 ] || continue
    fi
    tests+=("$name")
done
if [ "${TEST_LIST:-0}" = 1 ]; then
    for name in ${tests[@]+"${tests[@]}"}; do echo "${script[$name]}"; done
    echo "${#tests[@]} tests"
    exit 0
fi

passed=0
failed=0
failed_names=()
if [ ${#tests[@]} -eq 0 ]; then
    echo "no tests match: $*"
fi
TEST_JOBS=${TEST_JOBS:-2}
SERIAL=" t_timing t_sampling t_compensation t_oncpu_crowd t_gostat_diff t_hugo t_gostat_watch t_faults t_faults_rows t_gostat_shrink t_mutants "
# the longest first, so that the two jobs end together
LONGEST="t_stdlib t_testdata t_stdlib40 t_stdlib40_new t_gofmt_vet t_dwarf_info t_realprogs t_coverage t_cgo"

# children_cpu: sets cpu_now to the CPU seconds (user + system) this
# shell's finished children have used so far (run in this shell, not in
# $(...), whose subshell has no children of its own).
children_cpu() {
    local f=$LOGDIR/.times.$BASHPID
    { times; } >"$f"
    cpu_now=$(tail -n 1 "$f" | awk '{ s = 0; for (i = 1; i <= 2; i++) { split($i, a, "m"); s += a[1] * 60 + a[2] } printf "%.0f", s }')
    rm -f "$f"
}

# run_test NAME: runs one test script; its log and "status seconds
# cpu-seconds" go to build/test-logs (the CPU figure tells which tests
# mostly wait: what TEST_JOBS can be weighed by).
run_test() {
    local name=$1 start rc cpu cpu_now
    start=$(date +%s)
    children_cpu
    cpu=$cpu_now
    rm -f "$LOGDIR/$name.lief"
    LIEF_CHECK_LOG=$LOGDIR/$name.lief timeout -k 10 "$TEST_TIMEOUT" bash "${script[$name]}" \
        >"$LOGDIR/$name.log" 2>&1
    rc=$?
    children_cpu
    echo "$rc $(($(date +%s) - start)) $((cpu_now - cpu))" >"$LOGDIR/$name.result"
}

# report NAME: PASS or FAIL (with the log) for a test that has run.
# A missing or unreadable result file (the runner itself was killed) is a
# failure, so that the summary line is still printed.
report() {
    local name=$1 rc= secs= cpu=
    read -r rc secs cpu <"$LOGDIR/$name.result" 2>/dev/null
    case $rc in
        '' | *[!0-9]*)
            echo "FAIL $name: no result (build/test-logs/$name.result missing or unreadable)"
            [ -f "$LOGDIR/$name.log" ] && sed 's/^/    /' "$LOGDIR/$name.log"
            failed=$((failed + 1))
            failed_names+=("$name")
            return ;;
    esac
    if [ "$rc" -eq 0 ]; then
        echo "PASS $name (${secs}s${cpu:+, ${cpu}s CPU})"
        passed=$((passed + 1))
        return
    fi
    if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
        echo "FAIL $name (${secs}s): timed out after ${TEST_TIMEOUT}s"
    else
        echo "FAIL $name (${secs}s): exit status $rc"
    fi
    sed 's/^/    /' "$LOGDIR/$name.log"
    failed=$((failed + 1))
    failed_names+=("$name")
}

parallel=()
serial=()
ordered=()
for name in $LONGEST; do
    case " ${tests[*]-} " in *" $name "*) ordered+=("$name") ;; esac
done
for name in ${tests[@]+"${tests[@]}"}; do
    case " $LONGEST " in *" $name "*) ;; *) ordered+=("$name") ;; esac
done
for name in ${ordered[@]+"${ordered[@]}"}; do
    rm -f "$LOGDIR/$name.result"
    case $SERIAL in *" $name "*) serial+=("$name") ;; *) parallel+=("$name") ;; esac
done
for name in ${parallel[@]+"${parallel[@]}"}; do
    while [ "$(jobs -rp | wc -l)" -ge "$TEST_JOBS" ]; do
        wait -n
    done
    run_test "$name" &
done
wait
for name in ${parallel[@]+"${parallel[@]}"}; do
    report "$name"
done
for name in ${serial[@]+"${serial[@]}"}; do
    run_test "$name"
    report "$name"
done

# lief_summary: how many outputs LIEF re-read, in all and per test.
lief_summary() {
    local name ok bad total=0 totalbad=0 per=""
    for name in ${ordered[@]+"${ordered[@]}"}; do
        [ -f "$LOGDIR/$name.lief" ] || continue
        ok=$(grep -c '^ok ' "$LOGDIR/$name.lief")
        bad=$(grep -c '^FAIL ' "$LOGDIR/$name.lief")
        total=$((total + ok + bad))
        totalbad=$((totalbad + bad))
        per+=" $name $((ok + bad))"
        [ "$bad" -eq 0 ] || per+=" ($bad differed)"
        per+=","
    done
    echo "LIEF re-read $total gorewrite outputs ($totalbad differed from gorewrite's report):${per%,}"
}

lief_summary
if [ $failed -gt 0 ]; then
    echo "failed: ${failed_names[*]}"
fi
echo "$passed passed, $failed failed"
if [ $failed -gt 0 ] || [ ${#tests[@]} -eq 0 ]; then
    exit 1
fi
exit 0
