#!/usr/bin/env bash
# t_ci_example: docs/ci.md's worked CI step, run as written. Its ```sh
# blocks, in order, make one `bash -e` script, run from the repository root
# with bin/ and Go 1.22 first in PATH, in module mode (testdata/ci has a
# go.mod without dependencies; offline through go_env):
#   1. as is: builds testdata/ci's test binary, instruments it, runs two
#      test shards, merges them, shows coverage and diffs against the
#      committed testdata/ci/baseline.json: exit 0, exact counts, exactly
#      the one never-called function, and the baseline matches this run;
#   2. with GOFLAGS=-tags=regression (the hot path runs ten times per
#      word): the step fails with exit 3 and names exactly the hot path.
# `gorewrite` in PATH is tests/tools/gorewrite_checked.sh, so LIEF re-reads
# what the step writes, as in every test.
cd "$(dirname "$0")/../.."
. tests/lib.sh
require_tools
. tests/assert.sh

GOV=1.22
SRC=testdata/ci
tmp=$(mktemp_dir)
trap 'rm -rf "$tmp" "$dir"' EXIT

mkdir -p "$tmp/bin"
ln -s "$GOREWRITE" "$tmp/bin/gorewrite"
script=$tmp/ci-step.sh
awk '/^```sh$/ { on = 1; next } /^```/ { on = 0 } on' docs/ci.md >"$script"
for step in "go test -c" gorewrite "gostat merge" "gostat diff" "--fail-on-regression"; do
    grep -q -- "$step" "$script" || fail "docs/ci.md's sh blocks lack '$step'"
done

# run_step NAME [VAR=VALUE...]: the script in $tmp/NAME with its output
# in $tmp/NAME.{out,err,rc}.
run_step() {
    local name=$1
    shift
    mkdir -p "$tmp/$name"
    go_env "$GOV" env GO111MODULE=on PATH="$tmp/bin:$ROOT/bin:$(go_root "$GOV")/bin:$PATH" \
        WORK="$tmp/$name" "$@" bash -e "$script" >"$tmp/$name.out" 2>"$tmp/$name.err"
    echo $? >"$tmp/$name.rc"
}

# calls JSON: "name calls" per function, sorted.
calls() {
    python3 -c '
import json, sys
for f in json.load(open(sys.argv[1]))["functions"]:
    print(f["name"], f["calls"])' "$1"
}

EXPECTED_CALLS="example.com/cihot.CountWords 1
example.com/cihot.Normalize 101
example.com/cihot.TestCountWords 1
example.com/cihot.TestNormalize 1
example.com/cihot.normalizeWord 1035
example.com/cihot.replaceInvalid 0"

# ---- 1. the step as written passes
run_step pass
expect "step exit status" 0 "$(cat "$tmp/pass.rc")"
[ "$(cat "$tmp/pass.rc")" = 0 ] || cat "$tmp/pass.err"
expect "step's last line (gostat diff)" \
    "0 of 2 functions changed by 10x or more (calls, beyond the spread, functions with fewer calls ignored): 0 grew, 0 shrank" \
    "$(tail -n 1 "$tmp/pass.out")"
expect "merged counts (two shards)" "$EXPECTED_CALLS" "$(calls "$tmp/pass/merged.json")"
expect "baseline counts are this run's" "$EXPECTED_CALLS" "$(calls "$SRC/baseline.json")"
expect "merged processes" 2 \
    "$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["processes"]))' "$tmp/pass/merged.json")"
expect "coverage" "\
PACKAGE            CALLED  FUNCTIONS  COVERED
example.com/cihot       5          6    83.3%
total                   5          6    83.3%

example.com/cihot: 1 never called
  example.com/cihot.replaceInvalid  example.com/cihot/words.go:36" \
    "$(sed -n '/^PACKAGE/,/replaceInvalid/p' "$tmp/pass.out")"
expect "merge summary" \
    "merged 2 processes: 1139 calls, 5 of 6 functions called, into $tmp/pass/merged.json" \
    "$(grep '^merged ' "$tmp/pass.out")"

# ---- 2. the hot path called ten times as often: the step fails
run_step regression GOFLAGS=-tags=regression
expect "regression: exit status" 3 "$(cat "$tmp/regression.rc")"
expect "regression: stderr names the hot path" \
    "gostat: diff: regression: example.com/cihot.normalizeWord calls 1035 -> 10350 (10.0x)" \
    "$(tail -n 1 "$tmp/regression.err" | sed 's/, time .*//')"
out=$(sed -n '/^FUNCTION/,$p' "$tmp/regression.out")
expect "regression: table header" \
    "FUNCTION BASE CALLS NEW CALLS CALLS BASE TIME NEW TIME TIME PER CALL CHANGE" "$(row 1)"
expect "regression: the one row" "example.com/cihot.normalizeWord 1035 10350 10.0x grew" \
    "$(row 2 | awk '{ print $1, $2, $3, $4, $NF }')"
expect "regression: summary" \
    "1 of 2 functions changed by 10x or more (calls, beyond the spread, functions with fewer calls ignored): 1 grew, 0 shrank" \
    "$(row 3 | sed 's/more (/more (/')"
expect "regression: table rows" 3 "$(wc -l <<<"$out")"
expect "regression: counts" "$(sed 's/normalizeWord 1035/normalizeWord 10350/' <<<"$EXPECTED_CALLS")" \
    "$(calls "$tmp/regression/merged.json")"

finish t_ci_example
