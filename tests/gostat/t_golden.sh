#!/usr/bin/env bash
# t_golden: every output format of gostat (table, JSON, pprof as go tool
# pprof -raw text, callgrind, folded, OpenMetrics and Prometheus text,
# trace lines, goroutines, diff, merge, coverage) on synthetic stats files,
# byte for byte against the expected files tests/golden/*.txt, which
# tests/golden/make_golden.sh writes (`make golden` regenerates them after
# an intended change). Any difference fails, with its diff; so does a
# golden file that is no longer made, or an output without one.
cd "$(dirname "$0")/../.."
. tests/lib.sh
work_dir

if ! bash tests/golden/make_golden.sh "$WORK/got" >"$WORK/make.log" 2>&1; then
    fail "tests/golden/make_golden.sh failed:"
    cat "$WORK/make.log"
fi
got=$(cd "$WORK/got" && ls -- *.txt 2>/dev/null)
want=$(cd tests/golden && ls -- *.txt 2>/dev/null)
[ "$(wc -l <<<"$want")" -ge 30 ] || fail "only $(wc -l <<<"$want") golden files in tests/golden (make golden)"
for name in $want; do
    if [ ! -f "$WORK/got/$name" ]; then
        fail "tests/golden/$name: no longer made by make_golden.sh"
    elif ! cmp -s "tests/golden/$name" "$WORK/got/$name"; then
        fail "tests/golden/$name differs (expected, then got; 'make golden' if intended):"
        diff -u --label "tests/golden/$name" --label "gostat now" "tests/golden/$name" "$WORK/got/$name" | head -60
    fi
done
for name in $got; do
    [ -f "tests/golden/$name" ] || fail "$name: made but not in tests/golden (make golden, then commit it)"
done
[ $fails -eq 0 ] && echo "PASS: t_golden ($(wc -l <<<"$want") golden files)"
exit $((fails > 0))
