#!/usr/bin/env bash
# t_security_static_sums: what gostat sums from a file it cannot trust:
#  - a static sampling file (--sample-every 8, 2000 timed functions, 60
#    rows, every timing page marked ready with next = 1 and non-negative
#    counters: every (function, row) looks torn, forever, since nobody
#    writes the file). The old reader retried each pair 100,000 times
#    (minutes); now a live process's refresh has one budget of retries and
#    an exited one's none. Both read the exact counts (counter + next per
#    row) within a 10 s timeout (milliseconds in fact), under the pid of
#    this shell (live) and of no process (exited);
#  - call-graph sums saturate: a chain of 100 contexts through 3
#    functions, each of 2^63 calls, sums 33 of them into the arc
#    main.f0 -> main.f1: --callers and --callees show 2^64 - 1 and 100.0%
#    (they showed the wrapped 2^63 and a share that did not add up).
cd "$(dirname "$0")/../.."
. tests/assert.sh

trap 'rm -rf "$dir"' EXIT

funcs=()
for i in $(seq 0 1999); do funcs+=(--func "p.f$i:$((0x1000 + 16 * i)):600"); done
next=()
for r in $(seq 1 59); do next+=(--next "$r:1"); done
my_ticks=$(sed 's/.*) //' /proc/$$/stat | cut -d' ' -f20)
for who in live exited; do
    if [ $who = live ]; then ids=(--pid $$ --start-ticks "$my_ticks"); else ids=(--pid 4194305); fi
    "$MKSTATS" "$dir/static.$who" "${ids[@]}" --timing --tsc 1000:0:1001000:1000000 --sample-every 8 \
        --rows 60 --spread "${funcs[@]}" "${next[@]}" || fail "mkstats $who"
    s=$(date +%s%N)
    timeout 10 "$GOSTAT" --json "$dir/static.$who" >"$dir/$who.json" 2>"$dir/$who.err"
    rc=$?
    echo "static sampling file ($who): exit $rc in $(( ($(date +%s%N) - s) / 1000000 )) ms"
    expect "static file ($who): exit" 0 $rc
    # 600 calls spread over the 60 rows, plus next = 1 in each of rows 1..59
    expect "static file ($who): calls" "2000 1318000 659 659" \
        "$(python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); f=j["functions"]; print(len(f), j["total_calls"], min(x["calls"] for x in f), max(x["calls"] for x in f))' "$dir/$who.json" 2>&1)"
done

args=()
for i in 0 1 2; do args+=(--func "main.f$i:$((0x1000 + 0x100 * i)):18446744073709551615"); done
"$MKSTATS" "$dir/huge" --pid 4194305 --timing --tsc 1000:0:1001000:1000000 --rows 2 \
    --chain 100 --chain-calls 9223372036854775808 "${args[@]}" || fail "mkstats --chain-calls"
"$GOSTAT" "$dir/huge" --callers main.f1 >"$dir/callers" 2>&1 || fail "--callers: $(cat "$dir/callers")"
expect "--callers of huge counts" "18446744073709551615  100.0% main.f0" \
    "$(awk '$NF == "main.f0" { print $1, $2, $NF }' "$dir/callers" | sed 's/ /  /')"
grep -q 'no arc recorded' "$dir/callers" && fail "--callers: a wrapped arc left calls with no arc: $(cat "$dir/callers")"
"$GOSTAT" "$dir/huge" --callees main.f1 >"$dir/callees" 2>&1 || fail "--callees: $(cat "$dir/callees")"
expect "--callees of huge counts" "18446744073709551615  100.0% main.f2" \
    "$(awk '$NF == "main.f2" { print $1, $2, $NF }' "$dir/callees" | sed 's/ /  /')"

finish t_security_static_sums
