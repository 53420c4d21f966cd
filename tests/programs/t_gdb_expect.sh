#!/usr/bin/env bash
# t_gdb_expect: the expect files stay true, checked by a tool that shares
# no code with gorewrite. testdata/gdbcount.py counts function entries with
# gdb breakpoints on the ORIGINAL program (minus re-entries after
# runtime.morestack) and compares them with testdata/<prog>/expect; here for
# panics (panic/recover, deferred calls: 9180 calls) and iface (interfaces,
# closures, reflection, generics, goroutines: 19325 calls) built with Go
# 1.22. Every applicable expect line must be compared and agree, so an
# expect file edited to match a miscounting gorewrite fails here.
. "$(dirname "$0")/../lib.sh"

work_dir
command -v gdb >/dev/null || { echo "FAIL: gdb is not installed (scripts/deps.sh installs it)"; exit 1; }
for prog in panics iface; do
    bin=$WORK/$prog
    build_go 1.22 "$ROOT/testdata/$prog" "$bin" || { fail "$prog: build failed"; continue; }
    args=()
    [ -f "$ROOT/testdata/$prog/args" ] && read -r -a args <"$ROOT/testdata/$prog/args"
    start=$(date +%s)
    python3 "$ROOT/testdata/gdbcount.py" "$(go_bin 1.22)" "$bin" "$ROOT/testdata/$prog/expect" \
        ${args[@]+"${args[@]}"} >"$WORK/$prog.gdb" 2>&1
    rc=$?
    # the lines that apply to Go 1.22: unprefixed, or selecting 1.22
    want=$(sed 's/#.*//' "$ROOT/testdata/$prog/expect" | awk 'NF == 2 || ($1 ~ /(^|,)go(1\.22|>=1\.(1[5-9]|2[0-2])):$/)' | wc -l)
    nok=$(grep -c '^ok ' "$WORK/$prog.gdb")
    if [ $rc -ne 0 ] || [ "$nok" -ne "$want" ] || [ "$want" -lt 5 ]; then
        fail "$prog: gdb counts $nok of $want expect lines alike (gdbcount.py exit $rc):"
        grep -v '^ok ' "$WORK/$prog.gdb" | head -20 | sed 's/^/    /'
    else
        echo "ok   $prog go1.22: gdb agrees with all $want expect lines ($(elapsed_since "$start")s)"
    fi
done
[ $fails -eq 0 ]
