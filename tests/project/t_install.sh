#!/usr/bin/env bash
# t_install: `make install PREFIX=... DESTDIR=...` puts gorewrite, gostat
# and their manual pages where a user looks for them; the installed
# programs work from there (the stub code is inside gorewrite, nothing else
# is needed); the pages render without groff warnings and document every
# command and every option the programs' --help texts name; `make
# uninstall` removes exactly what was installed.
cd "$(dirname "$0")/../.."
. tests/lib.sh
require_tools
work_dir
D=$WORK/dest P=/opt/gr

make -s install PREFIX=$P DESTDIR="$D" >"$WORK/make.out" 2>&1 || fail "make install: $(cat "$WORK/make.out")"
got=$(cd "$D" && find . -type f | LC_ALL=C sort | tr '\n' ' ')
[ "$got" = "./opt/gr/bin/gorewrite ./opt/gr/bin/gostat ./opt/gr/share/man/man1/gorewrite.1 ./opt/gr/share/man/man1/gostat.1 " ] ||
    fail "installed files: $got"
[ "$(stat -c %a "$D$P/bin/gostat") $(stat -c %a "$D$P/share/man/man1/gostat.1")" = "755 644" ] ||
    fail "modes: $(stat -c '%n %a' "$D$P"/bin/* "$D$P"/share/man/man1/*)"

# The installed programs, run from elsewhere, on a real program.
build_go 1.22 testdata/recursion "$WORK/rec" || fail "build"
(cd / && GOREWRITE_REAL=$D$P/bin/gorewrite "$GOREWRITE" "$WORK/rec" "$WORK/rec.instr" >/dev/null) ||
    fail "installed gorewrite"
mkdir -p "$WORK/stats"
(cd / && GOSTAT_DIR=$WORK/stats "$WORK/rec.instr" $(cat testdata/recursion/args 2>/dev/null) >/dev/null) || fail "instrumented run"
calls=$("$D$P/bin/gostat" --json "$(stats_file_for "$WORK/stats")" |
    python3 -c 'import json,sys; print([f["calls"] for f in json.load(sys.stdin)["functions"] if f["name"]=="main.fib"][0])')
[ "$calls" = 242785 ] || fail "installed gostat: main.fib calls $calls, want 242785"

# Pages render cleanly, through man itself too.
for page in gorewrite gostat; do
    w=$(groff -man -Tutf8 -ww -z "$D$P/share/man/man1/$page.1" 2>&1)
    [ -z "$w" ] || fail "$page.1: groff warnings: $w"
    LC_ALL=C MANPATH=$D$P/share/man MANWIDTH=100 man "$page" 2>"$WORK/man.err" | col -b >"$WORK/$page.txt"
    [ -s "$WORK/$page.txt" ] && [ ! -s "$WORK/man.err" ] || fail "man $page: $(cat "$WORK/man.err")"
    head -1 "$WORK/$page.txt" | grep -q "^${page^^}(1)" || fail "man $page: header $(head -1 "$WORK/$page.txt")"
done

# Every long option of every --help is in the page, and every command has
# its own section (".SS gostat NAME").
options_of() { grep -oE -- '--[a-z][a-z-]+' | LC_ALL=C sort -u; }
documented() { # PAGE-TEXT HELP-TEXT WHAT
    local o
    for o in $(options_of <<<"$2"); do
        grep -qF -- "$o" "$1" || fail "$3: option $o is not in the manual page"
    done
}
documented "$WORK/gorewrite.txt" "$("$GOREWRITE" --help)" "gorewrite --help"
documented "$WORK/gostat.txt" "$("$GOSTAT" --help)" "gostat --help"
cmds=$("$GOSTAT" --help | sed -n '/^commands:/,/^$/p' | awk '$1 == "gostat" {print $2}')
[ -n "$cmds" ] || fail "gostat --help lists no commands"
for c in $cmds; do
    help=$("$GOSTAT" "$c" --help) || fail "gostat $c --help exits non-zero"
    grep -q "^usage: gostat $c" <<<"$help" || fail "gostat $c --help: first line $(head -1 <<<"$help")"
    grep -q "^\.SS \"\?gostat $c" docs/man/gostat.1 || fail "gostat.1 has no section for $c"
    documented "$WORK/gostat.txt" "$help" "gostat $c --help"
done

make -s uninstall PREFIX=$P DESTDIR="$D" >"$WORK/make.out" 2>&1 || fail "make uninstall: $(cat "$WORK/make.out")"
left=$(find "$D" -type f)
[ -z "$left" ] || fail "left after uninstall: $left"

[ $fails -eq 0 ] && echo "PASS: t_install"
exit $((fails > 0))
