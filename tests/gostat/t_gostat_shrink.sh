#!/usr/bin/env bash
# t_gostat_shrink: gostat reading a stats file that another process keeps
# truncating (to random sizes, down to 0) and restoring. Every run of
# `gostat FILE`, `gostat --json FILE` and `gostat --watch` must end with
# exit 0 and a complete output, or exit 2 with one stderr line naming the
# file: never a signal (SIGBUS from a mapping of a shrunk file), never a
# hang, never a partial JSON document.
cd "$(dirname "$0")/../.."
. tests/assert.sh

# The file claims to be this shell's (live), so --watch keeps refreshing.
f=$dir/gostat.shrink.$$
my_ticks=$(sed 's/.*) //' /proc/$$/stat | cut -d' ' -f20)
funcs=()
for i in $(seq 200); do funcs+=(--func "pkg.f$i:$((0x1000 + 16 * i)):$i"); done
"$MKSTATS" "$f" --pid $$ --start-ticks "$my_ticks" --rows 8 "${funcs[@]}" || { fail "mkstats"; finish t_gostat_shrink; }
cp "$f" "$dir/full"

# The shrinker: truncate, pause, restore, pause, until killed.
python3 - "$f" "$dir/full" <<'PY' &
import os, random, sys, time
path, full = sys.argv[1], open(sys.argv[2], "rb").read()
rnd = random.Random(5)
while True:
    fd = os.open(path, os.O_WRONLY)
    os.ftruncate(fd, rnd.choice([0, 100, 2000, len(full) // 2, len(full) - 4096, rnd.randrange(len(full))]))
    time.sleep(0.002)
    os.pwrite(fd, full, 0)
    os.close(fd)
    time.sleep(0.002)
PY
shrinker=$!
trap 'kill $shrinker 2>/dev/null; rm -rf "$dir"' EXIT

ok=0 err=0
end=$(($(date +%s) + 6))
while [ "$(date +%s)" -lt $end ]; do
    for mode in table json; do
        if [ $mode = json ]; then
            timeout 5 "$GOSTAT" --json "$f" >"$dir/out" 2>"$dir/err"
        else
            timeout 5 "$GOSTAT" "$f" >"$dir/out" 2>"$dir/err"
        fi
        rc=$?
        if [ $rc -eq 0 ]; then
            ok=$((ok + 1))
            if [ $mode = json ] && ! python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert len(d["functions"]) == 200' "$dir/out" 2>/dev/null; then
                fail "gostat --json exited 0 with an incomplete document: $(head -c 200 "$dir/out")"
            fi
        elif [ $rc -eq 2 ]; then
            err=$((err + 1))
            [ "$(wc -l <"$dir/err")" -eq 1 ] && grep -q "^gostat: $f: " "$dir/err" ||
                fail "$mode: exit 2 without one line naming the file: $(head -3 "$dir/err")"
        else
            fail "$mode: exit status $rc (signal or hang): $(head -3 "$dir/err")"
        fi
    done
done
# --watch keeps reading the same mapping while the file shrinks under it.
timeout 10 "$GOSTAT" --watch 0.02 "$f" >/dev/null 2>"$dir/err" </dev/null &
wpid=$!
sleep 3
if kill -0 $wpid 2>/dev/null; then
    kill $wpid; wait $wpid 2>/dev/null
    echo "--watch still refreshing after 3 s"
else
    wait $wpid; rc=$?
    [ $rc -eq 2 ] && [ "$(wc -l <"$dir/err")" -eq 1 ] && grep -q "^gostat: $f: " "$dir/err" ||
        fail "--watch ended with status $rc: $(head -3 "$dir/err")"
    echo "--watch stopped with: $(cat "$dir/err")"
fi
echo "reads: $ok complete, $err refused with one line"
[ $ok -gt 0 ] || fail "no read succeeded"
[ $err -gt 0 ] || fail "no read saw the file shrink (the test did not test anything)"
finish t_gostat_shrink
