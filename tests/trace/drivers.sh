# tests/trace/drivers.sh: sourced by the trace layout tests. Sets TREE to the
# tree of the gorewrite under test (a mutant's tree under
# tests/mutants/run.sh, else this one) and builds the named drivers there
# (build/tests/NAME) if need be; exits the test when that fails.
TREE=$PWD
case ${GOREWRITE:-} in */bin/gorewrite) TREE=$(cd "$(dirname "$GOREWRITE")/.." && pwd) ;; esac
for _d in "$@"; do
    [ -x "$TREE/build/tests/$_d" ] && [ "$TREE" = "$PWD" ] && continue
    make -s -C "$TREE" "build/tests/$_d" >/dev/null 2>&1 && [ -x "$TREE/build/tests/$_d" ] ||
        { echo "FAIL: cannot build $TREE/build/tests/$_d (make tools builds it)"; exit 1; }
done
