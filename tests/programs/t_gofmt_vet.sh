#!/usr/bin/env bash
# t_gofmt_vet: real, stripped programs from Debian's Go 1.22 package.
#
# gofmt: `gofmt -l` over Go 1.22's whole source tree (about 6500 files; a
# few dozen are deliberately unformatted or do not parse, so stdout, stderr
# and the exit status 2 are all non-trivial) must behave identically
# instrumented, and the counts must be exact: one processFile, ParseFile and
# (*parser).parseFile per .go file, one format per file that parsed.
#
# vet: `go vet -vettool=vet.instr` on a small package with four deliberate
# findings must print the same diagnostics and exit status as with Debian's
# vet. go vet runs the tool three times (-flags, -V=full, then the package);
# each process leaves a stats file, and the analysis process must have run
# unitchecker and each analyzer that reported exactly once.

. "$(dirname "$0")/../lib.sh"
require_tools

GOV=1.22
GOFMT=/usr/lib/go-$GOV/bin/gofmt
VET=/usr/lib/go-$GOV/pkg/tool/linux_amd64/vet
# gofmt's walk does not follow a symlinked root; /usr/lib/go-1.22/src is one.
SRC=$(readlink -f "/usr/lib/go-$GOV/src")

work_dir

for f in "$GOFMT" "$VET"; do
    if [ ! -x "$f" ]; then
        echo "FAIL: $f is missing (package golang-$GOV-go)"
        exit 1
    fi
done

# ---------------------------------------------------------------- gofmt
gofmt_test() {
    local start instr stats json nfiles nbad
    start=$(date +%s)
    instr=$WORK/gofmt.instr
    instrument "$GOFMT" "$instr" || { fail "gofmt: bin/gorewrite failed"; return; }
    if ! run_compare "$GOFMT" "$instr" -l "$SRC"; then
        fail "gofmt -l $SRC: the instrumented gofmt behaves differently"
        return
    fi
    local ok=1
    if [ "$RC_STATUS" != 2 ] || [ ! -s "$RC_WORK/orig/out" ] || [ ! -s "$RC_WORK/orig/err" ]; then
        echo "  gofmt -l $SRC exited $RC_STATUS with $(wc -l <"$RC_WORK/orig/out") lines on stdout and $(wc -l <"$RC_WORK/orig/err") on stderr; expected status 2 and both non-empty"
        ok=0
    fi
    # gofmt processes every non-directory *.go entry whose name does not start with "."
    nfiles=$(find "$SRC" -name '*.go' ! -name '.*' ! -type d | wc -l)
    # files that did not parse: one or more "path:line:col: msg" lines each
    nbad=$(cut -d: -f1 "$RC_WORK/orig/err" | LC_ALL=C sort -u | wc -l)
    stats=$(stats_file_for "$RC_STATDIR") || { fail "gofmt: no single stats file"; return; }
    check_stats_name "$stats" "$instr" "$RC_PID" || ok=0
    json=$WORK/gofmt.json
    gostat_json "$stats" "$json" || { fail "gofmt: gostat --json failed"; return; }
    check_meta "$json" "$instr" "$RC_PID" 1.22 || ok=0
    cat >"$WORK/gofmt.expect" <<EOF
main.main 1
main.gofmtMain 1
main.processFile $nfiles
main.parse $nfiles
go/parser.ParseFile $nfiles
go/parser.(*parser).parseFile $nfiles
main.format $((nfiles - nbad))
go/scanner.(*Scanner).Scan >0
go/printer.(*printer).printNode >0
EOF
    check_counts "$json" "$WORK/gofmt.expect" || ok=0
    if [ $ok -eq 1 ]; then
        echo "ok   gofmt -l (${nfiles} files, ${nbad} unparsable, $(wc -l <"$RC_WORK/orig/out") listed, $(elapsed_since "$start")s)"
    else
        fail "gofmt: wrong results (above)"
        cp "$json" "$ROOT/build/test-logs/t_gofmt_vet.gofmt.json" 2>/dev/null
    fi
    rm -rf "$RC_WORK"
}

# ---------------------------------------------------------------- go vet
vet_test() {
    local start instr pkg ok=1
    start=$(date +%s)
    instr=$WORK/vet.instr
    instrument "$VET" "$instr" || { fail "vet: bin/gorewrite failed"; return; }
    pkg=$WORK/vetme
    mkdir -p "$pkg"
    cat >"$pkg/vetme.go" <<'EOF'
// Package vetme has deliberate vet findings and imports nothing, so go vet
// runs the vet tool on this package alone.
package vetme

// Self assigns a variable to itself (assign).
func Self(x int) int {
	x = x
	return x
}

// Redundant has a redundant condition (bools).
func Redundant(a int) bool {
	return a == 1 || a == 1
}

// Shift shifts an int32 by more than its width (shift).
func Shift(x int32) int32 {
	return x >> 40
}

// Unreachable has code after a return (unreachable).
func Unreachable() int {
	return 1
	println("never")
	return 2
}
EOF
    local t
    for t in orig instr; do
        local tool=$VET
        [ $t = instr ] && tool=$instr
        {
            echo '#!/usr/bin/env bash'
            echo ". $(printf %q "$ROOT/tests/lib.sh")"
            echo "cd $(printf %q "$pkg") || exit 99"
            echo "go_env $GOV $(printf %q "$(go_bin $GOV)") vet -vettool=$(printf %q "$tool") ."
        } >"$WORK/vet-$t.sh"
        chmod +x "$WORK/vet-$t.sh"
    done
    if ! run_compare "$WORK/vet-orig.sh" "$WORK/vet-instr.sh"; then
        fail "go vet: the instrumented vet behaves differently"
        return
    fi
    local nfind
    nfind=$(grep -c 'vetme.go:' "$RC_WORK/orig/err")
    if [ "$RC_STATUS" != 1 ] || [ "$nfind" != 4 ]; then
        echo "  go vet exited $RC_STATUS with $nfind findings; expected status 1 and 4 findings:"
        sed 's/^/    /' "$RC_WORK/orig/err"
        ok=0
    fi
    # one stats file per vet.instr process; each must be complete, not live,
    # name vet.instr, and have called main.main once
    local f n=0 analysis=0
    for f in "$RC_STATDIR"/gostat.*; do
        [ -e "$f" ] || continue
        n=$((n + 1))
        local json=$WORK/vet.$n.json
        gostat_json "$f" "$json" || { ok=0; continue; }
        local pid=${f##*/gostat.vet.instr.}
        pid=${pid%%.*}
        check_meta "$json" "$instr" "$pid" 1.22 || ok=0
        printf 'main.main 1\n' >"$WORK/vet.main.expect"
        check_counts "$json" "$WORK/vet.main.expect" || ok=0
        local x=cmd/vendor/golang.org/x/tools/go/analysis
        if python3 -c 'import json,sys; sys.exit(0 if any(f["name"] == sys.argv[2] and f["calls"] > 0 for f in json.load(open(sys.argv[1]))["functions"]) else 1)' \
            "$json" "$x/unitchecker.Run"; then
            analysis=$((analysis + 1))
            cat >"$WORK/vet.expect" <<EOF
$x/unitchecker.Run 1
$x/unitchecker.run 1
$x/passes/assign.run 1
$x/passes/bools.run 1
$x/passes/shift.run 1
$x/passes/unreachable.run 1
$x/passes/printf.run 1
EOF
            check_counts "$json" "$WORK/vet.expect" || ok=0
        fi
    done
    if [ $n -ne 3 ]; then
        echo "  $n stats files from vet.instr, expected 3 (-flags, -V=full, the package): $(ls "$RC_STATDIR" | tr '\n' ' ')"
        ok=0
    fi
    if [ $analysis -ne 1 ]; then
        echo "  $analysis stats files show the package analysis (unitchecker.Run called), expected 1"
        ok=0
    fi
    if [ $ok -eq 1 ]; then
        echo "ok   go vet -vettool (4 findings, $n processes, $(elapsed_since "$start")s)"
    else
        fail "vet: wrong results (above)"
    fi
    rm -rf "$RC_WORK"
}

gofmt_test
vet_test
[ $fails -eq 0 ]
