#!/usr/bin/env bash
# scripts/same_output.sh REV: shows that gorewrite at the work tree writes
# the same bytes as gorewrite at REV, for a refactoring that must not change
# any output. Builds REV in a temporary git worktree, then rewrites each
# input with both, in every mode, and compares sha256s. Inputs: the testdata
# programs built with every Go toolchain at hand, the large Debian Go
# programs (rclone, restic) and the npm programs in build/npm; every mode.
# Then gostat at REV and at the work tree read the same stats files (one
# per timing mode, from testdata/callgraph, and merged JSON) and every
# command's output and --help is compared likewise.
# Prints "same N" and exits 0, or names each differing output and exits 1.
set -euo pipefail
cd "$(dirname "$0")/.."
. tests/lib.sh
rev=${1:?usage: scripts/same_output.sh REV}
work=$ROOT/build/same-output
rm -rf "$work"; mkdir -p "$work/in" "$work/out"
git worktree remove --force "$work/base" 2>/dev/null || true
git worktree add -q --detach "$work/base" "$rev"
make -s -C "$work/base" BUILD=build bin/gorewrite bin/gostat >/dev/null
make -s bin/gorewrite bin/gostat >/dev/null
old=$work/base/bin/gorewrite new=$ROOT/bin/gorewrite
oldstat=$work/base/bin/gostat newstat=$ROOT/bin/gostat

for v in $GO_VERSIONS $GO_VERSIONS_NEWER; do
    [ -x "$(go_bin "$v")" ] || continue
    for d in timing recursion iface hammer; do
        build_go "$v" "testdata/$d" "$work/in/$d-go$v" >/dev/null 2>&1 || true
    done
done
for p in /usr/bin/rclone /usr/bin/restic $(find build/npm -type f -name esbuild -perm -u+x 2>/dev/null | head -3); do
    [ -x "$p" ] && cp "$p" "$work/in/$(echo "$p" | tr / _)"
done

same=0 differ=0 unstable=0
for in in "$work/in"/*; do
    for mode in "" --count-only "--sample 16" "--sample 1" --time-all --call-graph "--call-graph --max-paths 0"; do
        name=$(basename "$in")${mode// /}
        "$old" $mode "$in" "$work/out/$name.old" >/dev/null 2>&1 || echo "refused" >"$work/out/$name.old"
        "$new" $mode "$in" "$work/out/$name.new" >/dev/null 2>&1 || echo "refused" >"$work/out/$name.new"
        if cmp -s "$work/out/$name.old" "$work/out/$name.new"; then
            same=$((same + 1))
        else
            echo "DIFFERENT $name"; differ=$((differ + 1))
        fi
        rm -f "$work/out/$name.old" "$work/out/$name.new"
    done
done
# compare NAME ARGS...: gostat at REV and at the work tree, run with ARGS
# in $work/out, write the same standard output, error, status and files.
# gostat refines a file's TSC rate with the clock read now when the file
# comes from this boot; both run with another boot id (a private mount
# namespace), so they use the file's own calibration and read no clock.
# REV runs twice: an output that still differs between its own two runs is
# counted as unstable and not compared.
echo 00000000-0000-0000-0000-000000000000 >"$work/boot_id"
unshare -m sh -c 'mount --bind "$0" /proc/sys/kernel/random/boot_id && cat /proc/sys/kernel/random/boot_id' \
    "$work/boot_id" | grep -q '^00000000-' || { echo "same_output.sh: needs root (unshare -m)" >&2; exit 2; }
compare() {
    local name=$1 side
    shift
    for side in old again new; do
        local bin=$oldstat
        [ $side = new ] && bin=$newstat
        rm -rf "$work/out/$side"; mkdir -p "$work/out/$side"
        (set +e; cd "$work/out/$side" && GOSTAT_DIR=$work/stats unshare -m sh -c \
            'mount --bind "$0" /proc/sys/kernel/random/boot_id && exec "$@"' "$work/boot_id" \
            "$bin" "$@" >stdout 2>stderr; echo $? >status)
    done
    if ! diff -r "$work/out/old" "$work/out/again" >/dev/null; then
        echo "unstable gostat $name"; unstable=$((unstable + 1))
    elif diff -r "$work/out/old" "$work/out/new" >/dev/null; then
        same=$((same + 1))
    else
        echo "DIFFERENT gostat $name"; differ=$((differ + 1))
    fi
}

mkdir -p "$work/stats"
build_go 1.22 testdata/callgraph "$work/cg" >/dev/null
files=()
for mode in "" --count-only --time-all --call-graph; do
    "$new" $mode "$work/cg" "$work/cg.instr$mode" >/dev/null
    GOSTAT_DIR=$work/stats GOSTAT_QUIET=1 "$work/cg.instr$mode" >/dev/null
    f=$(ls -t "$work/stats"/gostat.* | head -1)
    mv "$f" "$work/stats/cg$mode"; files+=("$work/stats/cg$mode")
done
"$newstat" merge -o "$work/stats/merged.json" "${files[@]}"
cmds=("" "clean" "merge" "diff" "coverage" "pprof" "folded" "callgrind" "serve" "top")
for c in "${cmds[@]}"; do compare "$c --help" $c --help; done
compare "--version" --version
for f in "${files[@]}" "$work/stats/merged.json"; do
    n=$(basename "$f")
    for args in "" "--json" "--sort name" "--sort time" "--sort self" "--top 5 --filter main"; do
        compare "$n $args" $args "$f"
    done
    compare "$n callers" --callers 'main\.' --callees 'main\.' "$f"
    compare "$n coverage" coverage "$f"
    compare "$n coverage json" coverage --json "$f"
    compare "$n merge" merge "$f" "${files[0]}"
    compare "$n diff" diff --metric both "${files[0]}" "$f"
    compare "$n diff json" diff --json --threshold 1.5 "$f" "${files[2]}"
    compare "$n pprof" pprof -o p.pb.gz "$f"
    compare "$n callgrind" callgrind -o cg.out "$f"
    for v in self calls time; do compare "$n folded $v" folded --value $v "$f"; done
done
compare "serve once" serve --once
compare "serve once openmetrics" serve --once --openmetrics
compare "list" ""

git worktree remove --force "$work/base"
echo "same $same, different $differ, unstable $unstable"
[ "$differ" -eq 0 ] && [ "$same" -gt 0 ]
