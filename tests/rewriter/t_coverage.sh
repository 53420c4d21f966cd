#!/usr/bin/env bash
# t_coverage: every function with a stack check is instrumented. For
# testdata/callers built with every Go of the tests, as an executable, with
# cgo linked by gcc, and with -race, no function that gorewrite -v skips
# may call runtime.morestack* (tests/coverage_check.py); gorewrite -v must
# give a reason for every skip and a summary per reason.

. "$(dirname "$0")/../lib.sh"
require_tools

work_dir
cases=0
for v in ${GOVERS:-$GO_VERSIONS}; do
    for variant in exe cgo-ext race; do
        cases=$((cases + 1))
        id="callers go$v $variant"
        src=$ROOT/testdata/callers
        flags=()
        cgo=0
        case $variant in
            cgo-ext) flags=("-ldflags=-linkmode=external"); cgo=1 ;;
            race) flags=(-race); cgo=1 ;;
        esac
        if [ $cgo = 1 ]; then
            src=$WORK/src
            rm -rf "$src" && mkdir -p "$src" && cp "$ROOT"/testdata/callers/*.go "$src/"
            printf 'package main\n\nimport _ "runtime/cgo"\n' >"$src/zz_cgo.go"
        fi
        bin=$WORK/$v-$variant
        if ! GO_CGO=$cgo build_go "$v" "$src" "$bin" ${flags[@]+"${flags[@]}"}; then
            fail "$id: build failed"
            continue
        fi
        if ! out=$(python3 "$ROOT/tests/coverage_check.py" "$GOREWRITE" "$bin"); then
            printf '%s\n' "$out"
            fail "$id: a function with a stack check is not instrumented"
            continue
        fi
        # every skip line has a reason, and the summary counts them all
        "$GOREWRITE" -v "$bin" "$WORK/x" 2>"$WORK/v.log" >/dev/null
        nskip=$(grep -c '^skip ' "$WORK/v.log")
        nreason=$(grep -cE '^skip +0x[0-9a-f]+ .*: .+' "$WORK/v.log")
        nsum=$(sed -n 's/^  skipped *\([0-9]*\): .*/\1/p' "$WORK/v.log" | python3 -c "import sys; print(sum(int(x) for x in sys.stdin))")
        if [ "$nskip" != "$nreason" ] || [ "$nskip" != "${nsum:-0}" ]; then
            fail "$id: $nskip skip lines, $nreason with a reason, summary adds up to $nsum"
            continue
        fi
        echo "ok   $id ($out)"
    done
done
echo "$((cases - fails)) of $cases cases passed"
[ $fails -eq 0 ]
