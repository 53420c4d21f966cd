#!/usr/bin/env bash
# t_man.sh: the manual pages' options lists are the option tables'
# (common/opttable.h). Each list between '.\" options: PROGRAM' and
# '.\" end of options' in docs/man is exactly what `make man` generates
# from PROGRAM's table; every option the list names is a row of the
# program's --help (the same table renders both); and the program parses
# every option it documents (none is "unknown"). t_install.sh checks the
# other way: every option --help names is in the page.
cd "$(dirname "$0")/../.."
. tests/assert.sh

MANGEN=$ROOT/build/mangen

# The committed pages are the generated ones.
for page in gostat gorewrite; do
    gen=$MANGEN/${page}_man
    [ -x "$gen" ] || { fail "$gen is not built (make tools)"; continue; }
    if ! "$gen" <docs/man/$page.1 >"$dir/$page.1" 2>"$dir/gen.err"; then
        fail "$page.1: generator failed: $(cat "$dir/gen.err")"
    elif ! diff -u docs/man/$page.1 "$dir/$page.1" >"$dir/man.diff"; then
        fail "docs/man/$page.1 differs from its option tables (run make man):"
        head -40 "$dir/man.diff"
    fi
done

# programs PAGE: the PROGRAM of each options list in the page.
programs() { sed -n 's/^\.\\" options: //p' "docs/man/$1.1"; }
# heads PAGE PROGRAM: each listed option as --help shows it ("-o, --output
# FILE"), from the .TP tag lines, fonts and escapes removed.
heads() {
    awk -v want="$2" '
        /^\.\\" options: / { on = (substr($0, 14) == want); next }
        /^\.\\" end of options/ { on = 0 }
        on && tag { print; tag = 0; next }
        on && /^\.TP$/ { tag = 1 }' "docs/man/$1.1" |
        sed -e 's/\\f[BIR]//g' -e 's/\\-/-/g'
}
# value HEAD: a value the option takes: its literal word (--value calls),
# the first of calls|name|..., or 1.
value() {
    local arg=${1##* }
    [ "$arg" = "$1" ] && return
    case $arg in
        *[a-z]*) echo "${arg%%|*}" ;;
        *) echo 1 ;;
    esac
}

# check_lists PAGE PROGRAM...: each option PAGE lists for each program
# (PROGRAM: the command to run, e.g. "$GOSTAT" top) is a row of its
# --help and parsed by it.
check_lists() {
    local page=$1 program head long v args n=0
    shift
    for program in $(programs "$page" | tr ' ' '_'); do
        program=${program//_/ }
        local cmd=("$@" ${program#$page})
        local help
        help=$("${cmd[@]}" --help) || fail "$program --help exits non-zero"
        heads "$page" "$program" >"$dir/heads"
        [ -s "$dir/heads" ] || fail "$program: the manual lists no options"
        while IFS= read -r head; do
            n=$((n + 1))
            grep -qF -- "  $head" <<<"$help" || fail "$program: '$head' is in the manual, not in --help"
            long=$(grep -oE -- '--[a-z][a-z-]*' <<<"$head" | head -1)
            [ -n "$long" ] || continue
            args=("$long")
            v=$(value "$head")
            [ -n "$v" ] && args+=("$v")
            # extra operands: every command refuses them after parsing
            [ "$program $long" = "gostat --version" ] || args+=(x y z)
            (cd "$dir" && timeout 5 "${cmd[@]}" "${args[@]}" >/dev/null 2>"$dir/err")
            if grep -qE 'unknown option|needs a value' "$dir/err"; then
                fail "$program: $long is documented but not parsed: $(cat "$dir/err")"
            fi
        done <"$dir/heads"
    done
    [ $n -ge 15 ] || fail "only $n options found in $page.1's lists"
}
# The synopsis's choices ("--sort calls|name|...") are those --help gives.
synopsis_choices() {
    awk '/^\.SH SYNOPSIS/ { on = 1; next } /^\.SH / { on = 0 }
         on && /^\.RB \[ \\-\\-/ { opt = $3; next }
         on && opt && /^\.BR [a-z]+ \|/ { line = $0; sub(/^\.BR /, "", line); sub(/ \]$/, "", line)
                                           gsub(/ \| /, "|", line); print opt, line }
         { opt = "" }' "docs/man/$1.1" | sed 's/\\-/-/g'
}
n_choices=0
while read -r opt choices; do
    n_choices=$((n_choices + 1))
    offered=$("$GOSTAT" --help | awk -v o="$opt" '$1 == o { print $2; exit } $2 == o { print $3; exit }')
    expect "gostat.1 synopsis: $opt as --help offers it" "$offered" "$choices"
done < <(synopsis_choices gostat)
[ $n_choices -ge 1 ] || fail "no choices found in gostat.1's synopsis"

check_lists gostat "$GOSTAT"
check_lists gorewrite "$GOREWRITE"

finish t_man
