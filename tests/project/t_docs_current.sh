#!/usr/bin/env bash
# t_docs_current.sh: the reference says what is true now. README.md,
# BENCHMARKS.md, docs/*.md, the manual pages and every command's --help
# carry no changelog: no dated line (a date is allowed only in
# BENCHMARKS.md, where each figure names its run, and beside a link into
# docs/benchmarks/), no "this stop" or "last session", no issue numbers
# of a tracker that is not in the tree, and no folder named that the tree
# does not have.
cd "$(dirname "$0")/../.."
. tests/assert.sh

date_re='20[0-9][0-9]-[01][0-9]-[0-3][0-9]'
files=(README.md BENCHMARKS.md docs/man/gorewrite.1 docs/man/gostat.1)
files+=(docs/*.md)

# the --help texts
"$GOREWRITE" --help >"$dir/help.gorewrite" 2>&1
"$GOSTAT" --help >"$dir/help.gostat" 2>&1
for c in clean merge diff coverage pprof folded callgrind serve top goroutines trace; do
    "$GOSTAT" "$c" --help >"$dir/help.gostat-$c" 2>&1
done
files+=("$dir"/help.*)

for f in "${files[@]}"; do
    name=${f#"$dir/"}
    # a date: only BENCHMARKS.md's figures, and a pointer into the history
    if [ "$f" != BENCHMARKS.md ]; then
        grep -nE "$date_re" "$f" | grep -v '^[0-9]*:\.TH ' | grep -v 'docs/benchmarks/' |
            sed "s|^|  $name: dated: |" | cut -c1-160 >"$dir/bad"
        [ -s "$dir/bad" ] && { cat "$dir/bad"; fail "$name carries dated history"; }
    fi
    grep -niE "this stop|last stop|this session|last session|\bissue [0-9]+|\bissues? #[0-9]+" "$f" |
        sed "s|^|  $name: |" | cut -c1-160 >"$dir/bad"
    [ -s "$dir/bad" ] && { cat "$dir/bad"; fail "$name speaks of the tracker or of a stop"; }
done

# README's Layout names only folders the tree has
for d in $(sed -n '/^## Layout/,/^## /p' README.md | grep -oE '`[a-z]+/`' | tr -d '`'); do
    [ -d "$d" ] || [ -d "gostat/$d" ] || [ -d "rewriter/$d" ] || [ -d "tests/$d" ] ||
        fail "README's Layout names $d, which the tree does not have"
done
finish t_docs_current
