#!/usr/bin/env bash
# scripts/same_output.sh REV: shows that gorewrite at the work tree writes
# the same bytes as gorewrite at REV, for a refactoring that must not change
# any output. Builds REV in a temporary git worktree, then rewrites each
# input with both, in every mode, and compares sha256s. Inputs: the testdata
# programs built with every Go toolchain at hand, the large Debian Go
# programs (rclone, restic) and the npm programs in build/npm.
# Prints "same N" and exits 0, or names each differing output and exits 1.
set -euo pipefail
cd "$(dirname "$0")/.."
. tests/lib.sh
rev=${1:?usage: scripts/same_output.sh REV}
work=$ROOT/build/same-output
rm -rf "$work"; mkdir -p "$work/in" "$work/out"
git worktree remove --force "$work/base" 2>/dev/null || true
git worktree add -q --detach "$work/base" "$rev"
make -s -C "$work/base" BUILD=build bin/gorewrite >/dev/null
make -s bin/gorewrite >/dev/null
old=$work/base/bin/gorewrite new=$ROOT/bin/gorewrite

for v in $GO_VERSIONS $GO_VERSIONS_NEWER; do
    [ -x "$(go_bin "$v")" ] || continue
    for d in timing recursion iface hammer; do
        build_go "$v" "testdata/$d" "$work/in/$d-go$v" >/dev/null 2>&1 || true
    done
done
for p in /usr/bin/rclone /usr/bin/restic $(find build/npm -type f -name esbuild -perm -u+x 2>/dev/null | head -3); do
    [ -x "$p" ] && cp "$p" "$work/in/$(echo "$p" | tr / _)"
done

same=0 differ=0
for in in "$work/in"/*; do
    for mode in "" --count-only "--sample 16"; do
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
git worktree remove --force "$work/base"
echo "same $same, different $differ"
[ "$differ" -eq 0 ] && [ "$same" -gt 0 ]
