#!/usr/bin/env bash
# t_layout: the description of each Go release (every runtime offset the
# rewriter or the stubs use: g.m, g.stack.hi, g.racectx, m.tls, g.goid,
# g.sched.sp, m.g0, m.curg, moduledata.text, moduledata.gofunc, the signal
# fields g.sig, g.sigcode0, g.sigcode1, g.sigpc and the creation site
# g.gopc, g.startpc) that gorewrite uses and derives from a binary equals
# what the binary's DWARF says:
#   - for every toolchain at hand ($GO_VERSIONS $GO_VERSIONS_NEWER): the
#     layout used (the release's row, checked against every source) on the
#     unstripped build and the DWARF line of --print-layout (libdwarf) must
#     equal what scripts/go_layout.py reads with objdump from its DWARF, in
#     every offset ("-" for one the release lacks), and so must the
#     moduledata's own moduledata.text; in a stripped build (-ldflags=-s -w)
#     as a static executable and as a PIE, and in a stripped cgo PIE linked
#     by gcc, the offsets `gorewrite --print-layout` reads from the
#     runtime's type descriptors (every g and m one), from runtime.rt0_go's
#     code (g.m, g.stack.hi, m.tls), from runtime.sigpanic's and
#     runtime.sighandler's (the signal fields) and from
#     runtime.firstmoduledata (moduledata.text) must equal that DWARF, and
#     so must the layout used;
#   - the npm esbuild builds of Go 1.16, 1.17, 1.18 and 1.20 (stripped, no
#     DWARF): both derivations agree with the table row ("layout verified"),
#     and the signal fields used (their rows have none) are the
#     descriptors', stated by runtime.sigpanic's code too (two sources, as
#     a release without a row needs; gorewrite -v names both);
#   - a release newer than every row (a Go 1.27 program whose build info
#     says go1.28.0): every core offset derived from the stripped binary
#     equals DWARF (moduledata.gofunc, which only DWARF states, is absent);
#     instrumented with exactly one warning line on stderr
#     naming it unverified, runs identically with the exact counts of
#     testdata/recursion/expect; --strict-release refuses it (exit 2, one
#     line, no output file);
#   - a development build (build info "devel +0..."): no row is used; its
#     layout is derived as for a newer release and equals DWARF, with one
#     warning naming it a development build; --strict-release refuses it;
#   - --version names every release from 1.15 to the newest row.
# (A row that disagrees with the binary is refused: tests/rewriter/t_reject.sh.)
# Environment: LAYOUT_GOVERS="1.25 1.27" (or 1.25,1.27) restricts the
# toolchains; the newest ($GO_VERSIONS_NEWER's last) must be among them.

. "$(dirname "$0")/../lib.sh"
require_tools

work_dir
SRC=$ROOT/testdata/recursion
CGOSRC=$ROOT/testdata/cgocall
NPM=$ROOT/build/npm
cases=0

# field LINE NAME: the value of NAME=... in a --print-layout line.
field() {
    sed -n "s/.* $2=\([^ ]*\).*/\1/p" <<<"$1"
}

# source_line REPORT LABEL: the line of a --print-layout report for LABEL.
source_line() {
    grep -m1 "^$2 " <<<"$1"
}

# compare ID REPORT LABEL FIELDS... : every FIELD of LABEL's line equals
# the DWARF value in $dwarf_* .
compare() {
    local id=$1 report=$2 label=$3 line f got want ok=1
    shift 3
    line=$(source_line "$report" "$label")
    for f in "$@"; do
        got=$(field "$line" "$f")
        want=${dwarf[$f]}
        if [ "$got" != "$want" ]; then
            echo "  $id: $label says $f=$got, DWARF says $want"
            ok=0
        fi
    done
    return $((1 - ok))
}

declare -A dwarf
LAYOUT_GOVERS=${LAYOUT_GOVERS:-$GO_VERSIONS $GO_VERSIONS_NEWER}
gm="g.m g.stack.hi g.racectx m.tls g.goid g.sched.sp m.g0 m.curg"
core="$gm moduledata.text"
sig="g.sig g.sigcode0 g.sigcode1 g.sigpc"
site="g.gopc g.startpc"
all="$core moduledata.gofunc $sig $site"
for v in ${LAYOUT_GOVERS//,/ }; do
    full=$WORK/go$v/full
    if ! build_go "$v" "$SRC" "$full"; then
        fail "go$v: build failed"
        continue
    fi
    # scripts/go_layout.py: "g.m=0x30 g.stack.hi=0x8 g.racectx=0x130 m.tls=0x80 ..."
    ref=$(python3 "$ROOT/scripts/go_layout.py" "$full") || { fail "go$v: go_layout.py failed"; continue; }
    for f in $all; do
        dwarf[$f]=$(field " $ref" "$f")
        [ -n "${dwarf[$f]}" ] || fail "go$v: go_layout.py does not state $f"
    done
    cases=$((cases + 1))
    report=$("$GOREWRITE" --print-layout "$full" 2>&1)
    if compare "go$v unstripped" "$report" DWARF $all &&
        compare "go$v unstripped" "$report" "layout verified" $all &&
        compare "go$v unstripped" "$report" runtime.firstmoduledata moduledata.text; then
        echo "ok   go$v unstripped: libdwarf and objdump agree: $ref"
    else
        fail "go$v unstripped: $report"
    fi
    for variant in exe pie cgo-extpie; do
        bin=$WORK/go$v/$variant
        case $variant in
            exe) build_go "$v" "$SRC" "$bin" "-ldflags=-s -w" ;;
            pie) build_go "$v" "$SRC" "$bin" -buildmode=pie "-ldflags=-s -w" ;;
            cgo-extpie) GO_CGO=1 build_go "$v" "$CGOSRC" "$bin" -buildmode=pie \
                "-ldflags=-s -w -linkmode=external" ;;
        esac || { fail "go$v $variant: build failed"; continue; }
        cases=$((cases + 1))
        if readelf -S "$bin" | grep -q '\.z\?debug_info'; then
            fail "go$v $variant: still has DWARF"
            continue
        fi
        report=$("$GOREWRITE" --print-layout "$bin" 2>&1)
        if compare "go$v $variant" "$report" "type descriptors" $gm $sig $site &&
            compare "go$v $variant" "$report" runtime.rt0_go g.m g.stack.hi m.tls &&
            compare "go$v $variant" "$report" runtime.sigpanic $sig &&
            compare "go$v $variant" "$report" runtime.firstmoduledata moduledata.text &&
            compare "go$v $variant" "$report" "layout verified" $all; then
            echo "ok   go$v $variant stripped: derived = DWARF"
        else
            fail "go$v $variant stripped: derived layout differs from DWARF ($ref): $report"
        fi
    done
done

for e in 1.16:node_modules/esbuild-linux-64 1.17:go117/node_modules/esbuild-linux-64 \
    1.18:go118/node_modules/esbuild-linux-64 1.20:go120/node_modules/@esbuild/linux-x64; do
    v=${e%%:*} bin=$NPM/${e#*:}/bin/esbuild
    cases=$((cases + 1))
    report=$("$GOREWRITE" --print-layout "$bin" 2>&1)
    rc=$?
    table=$(source_line "$report" "table row")
    ok=$rc
    types=$(source_line "$report" "type descriptors")
    code=$(source_line "$report" runtime.rt0_go)
    used=$(source_line "$report" "layout verified")
    sigcode=$(source_line "$report" runtime.sigpanic)
    for f in $sig; do   # no signal row for these releases: the descriptors' are used
        [ "$(field "$types" $f)" != - ] && [ "$(field "$used" $f)" = "$(field "$types" $f)" ] &&
            [ "$(field "$sigcode" $f)" = "$(field "$types" $f)" ] || ok=1
    done
    "$GOREWRITE" -v --count-only "$bin" "$WORK/es.out" 2>&1 | grep -q \
        '^signal fields: g.sig=0x[0-9a-f]* .*(from type descriptors, runtime.sigpanic)$' || ok=1
    rm -f "$WORK/es.out"
    module=$(source_line "$report" runtime.firstmoduledata)
    for f in $gm; do
        [ -n "$(field "$table" $f)" ] && [ "$(field "$types" $f)" = "$(field "$table" $f)" ] || ok=1
    done
    for f in g.m g.stack.hi m.tls; do
        [ "$(field "$code" $f)" = "$(field "$table" $f)" ] || ok=1
    done
    [ "$(field "$module" moduledata.text)" = "$(field "$table" moduledata.text)" ] || ok=1
    if [ $ok = 0 ] && grep -q "^$bin: go$v\." <<<"$report" && grep -q '^layout verified ' <<<"$report"; then
        echo "ok   esbuild (go$v, stripped): type descriptors, rt0_go and the moduledata agree with the row; signal fields from the descriptors and runtime.sigpanic"
    else
        fail "esbuild go$v: $report"
    fi
done

# relabel IN OUT LABEL: IN with its build info's release replaced by LABEL
# ("next": the release after IN's), padded with 0s to the same length.
relabel() {
    python3 - "$@" <<'PY'
import sys
data = bytearray(open(sys.argv[1], "rb").read())
at = data.index(b"\xff Go buildinf:") + 32
n = data[at]
old = bytes(data[at + 1:at + 1 + n])
label = sys.argv[3].encode()
if label == b"next":
    label = b"go1.%d.0" % (int(old.split(b".")[1]) + 1)
data[at + 1:at + 1 + n] = label.ljust(n, b"0")[:n]
open(sys.argv[2], "wb").write(data)
PY
    chmod +x "$2"
}

# derived_is_dwarf ID BIN WORDS: --print-layout of BIN (a relabelled
# stripped build of the newest toolchain) uses a
# layout derived from the binary ("layout unverified") equal to DWARF in
# every offset of its unstripped build but moduledata.gofunc, which it
# lacks; rewriting it warns
# with WORDS.
derived_is_dwarf() {
    local id=$1 bin=$2 words=$3 report
    cases=$((cases + 1))
    report=$("$GOREWRITE" --print-layout "$bin" 2>&1)
    ref=$(python3 "$ROOT/scripts/go_layout.py" "$WORK/go$newest/full")
    for f in $all; do
        dwarf[$f]=$(field " $ref" "$f")
    done
    dwarf[moduledata.gofunc]=-
    if compare "$id" "$report" "layout unverified" $core moduledata.gofunc $sig $site &&
        "$GOREWRITE" --count-only "$bin" "$WORK/derived.out" 2>&1 >/dev/null | grep -q "$words"; then
        echo "ok   $id: every offset derived from the stripped binary = DWARF"
    else
        fail "$id: derived layout differs from DWARF: $report"
    fi
    rm -f "$WORK/derived.out"
}

# A release newer than every row: the newest toolchain's program, relabelled.
newest=${GO_VERSIONS_NEWER##* }
orig=$WORK/go$newest/exe
next=$WORK/go1.next
devel=$WORK/go.devel
relabel "$orig" "$next" next
relabel "$orig" "$devel" "devel +"
derived_is_dwarf "newer release" "$next" "newer than the releases verified"
derived_is_dwarf "development build" "$devel" "is a development build"
cases=$((cases + 1))
mkdir -p "$WORK/strict-devel"
if ! "$GOREWRITE" --strict-release "$devel" "$WORK/strict-devel/o" 2>"$WORK/strict-devel.stderr" &&
    grep -q 'development build.*strict-release' "$WORK/strict-devel.stderr" &&
    [ -z "$(ls -A "$WORK/strict-devel")" ]; then
    echo "ok   --strict-release refuses a development build: $(cat "$WORK/strict-devel.stderr")"
else
    fail "--strict-release on a development build: $(cat "$WORK/strict-devel.stderr")"
fi
cases=$((cases + 1))
mkdir -p "$WORK/out"
"$GOREWRITE" "$next" "$WORK/out/next" >"$WORK/next.stdout" 2>"$WORK/next.stderr"
rc=$?
if [ $rc = 0 ] && [ "$(wc -l <"$WORK/next.stderr")" = 1 ] && grep -q 'unverified' "$WORK/next.stderr" &&
    grep -q 'strict-release' "$WORK/next.stderr" && run_compare "$next" "$WORK/out/next" $(cat "$SRC/args" 2>/dev/null) &&
    stats=$(stats_file_for "$RC_STATDIR") && gostat_json "$stats" "$WORK/next.json" &&
    check_counts "$WORK/next.json" "$SRC/expect" "$newest"; then
    echo "ok   newer release: instrumented with one warning ($(cat "$WORK/next.stderr" | head -c 120)...), exact counts"
else
    fail "newer release: exit $rc, stderr: $(cat "$WORK/next.stderr")"
fi
cases=$((cases + 1))
mkdir -p "$WORK/strict"
"$GOREWRITE" --strict-release "$next" "$WORK/strict/o" >"$WORK/strict.stdout" 2>"$WORK/strict.stderr"
rc=$?
if [ $rc = 2 ] && [ "$(wc -l <"$WORK/strict.stderr")" = 1 ] && [ ! -s "$WORK/strict.stdout" ] &&
    grep -q 'strict-release' "$WORK/strict.stderr" && [ -z "$(ls -A "$WORK/strict")" ]; then
    echo "ok   --strict-release refuses it: $(cat "$WORK/strict.stderr")"
else
    fail "--strict-release: exit $rc, stderr: $(cat "$WORK/strict.stderr"), output dir: $(ls -A "$WORK/strict")"
fi

cases=$((cases + 1))
first=${GO_VERSIONS%% *}
if "$GOREWRITE" --version | grep -q "Go releases: $first-$newest verified"; then
    echo "ok   --version: $("$GOREWRITE" --version | tail -n 1)"
else
    fail "--version does not list $first-$newest: $("$GOREWRITE" --version)"
fi

echo "$((cases - fails)) of $cases cases passed"
[ $fails -eq 0 ]
