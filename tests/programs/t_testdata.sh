#!/usr/bin/env bash
# t_testdata: every testdata program, built with every Go version (as a plain
# executable, and as a stripped PIE), is instrumented with bin/gorewrite and
# run next to the original: stdout, stderr and exit status must be
# identical, and the counts gostat --json reports must equal the program's
# expect file exactly. gostat must also say "live": false after the exit,
# name the instrumented executable and the run's pid.
#
# testdata/<prog>/ holds package main, "expect" (see check_counts in
# lib.sh), optionally "args" (command-line arguments), "status" (the
# program's exit status, default 0) and "cgo" (the program uses cgo: built
# only in the cgo variants).
# Go: every release of the tests ($GO_VERSIONS in lib.sh) and, in the
# default variants, also Go 1.25, 1.26 and 1.27 ($GO_VERSIONS_NEWER); the
# stripped PIE there with 1.15, 1.19, 1.22 and 1.27 only (below).
# Environment: PROGS="recursion stack" / GOVERS="1.22" restrict the matrix;
# VARIANTS picks build variants (default "exe pie-stripped"; tests/programs/t_cgo.sh
# and tests/programs/t_race.sh run this script with theirs):
#   exe                  static executable (Go's internal linker)
#   pie-stripped         -buildmode=pie -ldflags=-s -w
#   cgo-ext              cgo, linked by gcc (-linkmode=external): libc's
#                        _start, the dynamic loader, C code in .text
#   cgo-extpie-stripped  the same as a stripped PIE (no .gopclntab section)
#   race                 -race (ThreadSanitizer's C code in pclntab)
# In the cgo variants a program without cgo of its own gets a file importing
# runtime/cgo (so that every Go release links it with gcc).

. "$(dirname "$0")/../lib.sh"
require_tools

versions=${GOVERS:-$GO_VERSIONS}
# the default run (no GOVERS, no VARIANTS) also covers the newer releases
if [ -z "${GOVERS:-}" ] && [ -z "${VARIANTS:-}" ]; then
    versions="$GO_VERSIONS $GO_VERSIONS_NEWER"
fi
read -r -a variants <<<"${VARIANTS:-exe pie-stripped}"
# The default run builds the stripped PIE with one release of each pclntab
# layout (1.15: Go 1.2's, 1.19: 1.18's, 1.22: 1.20's) and the newest: what
# it changes (the tables found without section headers, the text and data
# relocated) follows the layout and the linker, not each release.
pie_versions=" $versions "
if [ -z "${GOVERS:-}" ] && [ -z "${VARIANTS:-}" ]; then
    pie_versions=" 1.15 1.19 1.22 ${GO_VERSIONS_NEWER##* } "
fi
is_cgo_run=0
for variant in "${variants[@]}"; do
    case $variant in cgo-* | race) is_cgo_run=1 ;; esac
done
progs=${PROGS:-$(cd "$ROOT/testdata" && for d in */; do
    [ -f "$d/expect" ] && { [ ! -f "$d/cgo" ] || [ $is_cgo_run = 1 ]; } && echo "${d%/}"; done)}

work_dir
BIN=$ROOT/build/testbin

cases=0

for v in $versions; do
    for prog in $progs; do
        dir=$ROOT/testdata/$prog
        args=()
        if [ -f "$dir/args" ]; then
            read -r -a args <"$dir/args"
        fi
        want_status=0
        [ -f "$dir/status" ] && want_status=$(tr -d ' \n' <"$dir/status")
        for variant in "${variants[@]}"; do
            [ "$variant" = pie-stripped ] && [[ $pie_versions != *" $v "* ]] && continue
            cases=$((cases + 1))
            id="$prog go$v $variant"
            orig=$BIN/go$v/$variant/$prog
            vflags=()
            src=$dir
            cgo=0
            case $variant in
                pie-stripped) vflags=(-buildmode=pie "-ldflags=-s -w") ;;
                cgo-ext) vflags=("-ldflags=-linkmode=external"); cgo=1 ;;
                cgo-extpie-stripped) vflags=(-buildmode=pie "-ldflags=-linkmode=external -s -w"); cgo=1 ;;
                race) vflags=(-race); cgo=1 ;;
                exe) ;;
                *) fail "$id: unknown variant"; continue ;;
            esac
            if [ $cgo = 0 ] && [ -f "$dir/cgo" ]; then
                cases=$((cases - 1))
                continue
            fi
            if [ $cgo = 1 ] && [ ! -f "$dir/cgo" ]; then
                src=$WORK/src/$prog
                rm -rf "$src"
                mkdir -p "$src"
                cp "$dir"/*.go "$src/"
                printf 'package main\n\nimport _ "runtime/cgo"\n' >"$src/zz_cgo.go"
            fi
            if ! GO_CGO=$cgo build_go "$v" "$src" "$orig" ${vflags[@]+"${vflags[@]}"}; then
                fail "$id: build failed"
                continue
            fi
            instr=$WORK/go$v-$variant/$prog.instr
            mkdir -p "$(dirname "$instr")"
            if ! instrument "$orig" "$instr"; then
                fail "$id: bin/gorewrite failed"
                continue
            fi
            start=$(date +%s)
            if ! run_compare "$orig" "$instr" ${args[@]+"${args[@]}"}; then
                fail "$id: the instrumented program behaves differently"
                rm -rf "$RC_WORK"
                continue
            fi
            secs=$(elapsed_since "$start")
            ok=1
            if [ "$RC_STATUS" != "$want_status" ]; then
                echo "  exit status $RC_STATUS, the program should exit $want_status"
                ok=0
            fi
            if ! stats=$(stats_file_for "$RC_STATDIR"); then
                fail "$id: no single stats file"
                rm -rf "$RC_WORK"
                continue
            fi
            check_stats_name "$stats" "$instr" "$RC_PID" || ok=0
            json=$RC_WORK/stats.json
            if ! gostat_json "$stats" "$json"; then
                fail "$id: gostat --json failed"
                rm -rf "$RC_WORK"
                continue
            fi
            check_meta "$json" "$instr" "$RC_PID" "$v" || ok=0
            check_counts "$json" "$dir/expect" "$v" || ok=0
            if [ $ok -eq 1 ]; then
                echo "ok   $id (run ${secs}s)"
            else
                fail "$id: wrong stats (above)"
                cp "$json" "$ROOT/build/test-logs/t_testdata.$prog.go$v.$variant.json" 2>/dev/null
            fi
            rm -rf "$RC_WORK"
        done
    done
done

echo "$((cases - fails)) of $cases cases passed"
[ $fails -eq 0 ]
