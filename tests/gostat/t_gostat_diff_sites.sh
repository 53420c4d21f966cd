#!/usr/bin/env bash
# t_gostat_diff_sites: gostat diff catches a goroutine leak between two
# builds (docs/goroutines.md). testdata/leakdemo handles 100 requests; the
# build with -X main.leak=yes leaves one goroutine more per request (its
# functions are called exactly as often as the fixed build's). Two runs of
# the fixed build: no goroutine site grew, --fail-on-regression exits 0.
# The leaky build against the fixed one: exactly one site grew, handle's
# `go watch(done)` with 100 more live, --fail-on-regression exits 3 naming
# it, and no function counts as changed; the same through gostat merge's
# JSON (which keeps goroutine_sites); at 80 columns every line fits. Run
# with Go 1.15 and 1.22.
cd "$(dirname "$0")/../.."
. tests/lib.sh
require_tools
work_dir
export GOGC=off
LINE=$(grep -nF 'go watch(done)' testdata/leakdemo/main.go | cut -d: -f1)

# stats NAME BIN: runs BIN 100 with its own GOSTAT_DIR, prints its stats file.
stats() {
    local d=$WORK/$1.stats
    mkdir -p "$d"
    GOSTAT_DIR=$d "$2" 100 >"$WORK/$1.out" 2>&1 || { echo "run $1 failed: $(cat "$WORK/$1.out")" >&2; return 1; }
    stats_file_for "$d"
}

for v in 1.15 1.22; do
    build_go "$v" testdata/leakdemo "$WORK/fixed$v" || { fail "go$v: build"; continue; }
    build_go "$v" testdata/leakdemo "$WORK/leaky$v" -ldflags=-X=main.leak=yes || { fail "go$v: build leaky"; continue; }
    instrument "$WORK/fixed$v" "$WORK/fixed$v.instr" && instrument "$WORK/leaky$v" "$WORK/leaky$v.instr" ||
        { fail "go$v: gorewrite"; continue; }
    base=$(stats base$v "$WORK/fixed$v.instr") && again=$(stats again$v "$WORK/fixed$v.instr") &&
        leaky=$(stats leaky$v "$WORK/leaky$v.instr") || { fail "go$v: runs"; continue; }

    "$GOSTAT" diff --fail-on-regression "$base" "$again" >"$WORK/same.txt" 2>&1 ||
        fail "go$v: two runs of the fixed build: exit $?: $(cat "$WORK/same.txt")"
    grep -q 'GOROUTINE SITE' "$WORK/same.txt" && fail "go$v: two runs of the fixed build: a site grew: $(cat "$WORK/same.txt")"

    "$GOSTAT" diff --fail-on-regression "$base" "$leaky" >"$WORK/leak.txt" 2>"$WORK/leak.err"
    rc=$?
    [ $rc -eq 3 ] || fail "go$v: leaky build: exit $rc, want 3: $(cat "$WORK/leak.txt" "$WORK/leak.err")"
    grep -q "regression: live goroutines from main.handle (.*testdata/leakdemo/main.go:$LINE) -> main\.\(watch\|handle\.gowrap[0-9]*\): 0 -> 100$" "$WORK/leak.err" ||
        fail "go$v: leaky build: stderr $(cat "$WORK/leak.err")"
    # At 80 columns the site's line (its go statement's full path) is cut
    # in the middle: the numbers and both ends stay.
    COLUMNS=80 "$GOSTAT" diff "$base" "$leaky" >"$WORK/leak80.txt"
    python3 -c 'import sys; sys.exit(max(len(l) for l in open(sys.argv[1]).read().splitlines()) > 80)' \
        "$WORK/leak80.txt" || fail "go$v: diff at 80 columns: a line is longer: $(cat "$WORK/leak80.txt")"
    grep -q "^         0        100  main.handle (.*….*main\.\(watch\|handle\.gowrap[0-9]*\)$" "$WORK/leak80.txt" ||
        fail "go$v: diff at 80 columns: the site's line: $(cat "$WORK/leak80.txt")"
    "$GOSTAT" diff --json "$base" "$leaky" >"$WORK/leak.json" || fail "go$v: diff --json"
    python3 - "$WORK/leak.json" "$LINE" <<'PY' || fail "go$v: diff --json: $(cat "$WORK/leak.json" | head -c 600)"
import json, sys
d = json.load(open(sys.argv[1]))
g = d["goroutine_sites_grew"]
ok = (d["regressions"] == 0 and len(g) == 1 and g[0]["creator"] == "main.handle"
      and g[0]["line"] == int(sys.argv[2]) and (g[0]["base_live"], g[0]["new_live"]) == (0, 100))
sys.exit(0 if ok else 1)
PY
    "$GOSTAT" merge -o "$WORK/base$v.json" "$base" || fail "go$v: merge"
    "$GOSTAT" diff --fail-on-regression "$WORK/base$v.json" "$leaky" >/dev/null 2>"$WORK/leak2.err"
    rc=$?
    [ $rc -eq 3 ] && grep -q "main.handle" "$WORK/leak2.err" ||
        fail "go$v: merged JSON baseline vs leaky: exit $rc: $(cat "$WORK/leak2.err")"
    "$GOSTAT" diff --fail-on-regression "$WORK/base$v.json" "$again" >/dev/null 2>&1 ||
        fail "go$v: merged JSON baseline vs fixed: exit $?"
    echo "go$v: fixed vs fixed 0, leaky vs fixed 3 ($(cat "$WORK/leak.err"))"
done

[ $fails -eq 0 ] && echo "PASS: t_gostat_diff_sites"
exit $((fails > 0))
