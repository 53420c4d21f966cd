#!/usr/bin/env bash
# t_gostat_clean_pidns: "gostat clean" keeps the file of a program running
# in another pid namespace (a container sharing the directory), where the
# pid in its header names some other process or none. testdata/poked,
# instrumented, runs under `unshare --pid --fork --mount-proc` (as pid 1
# there) and waits; gostat clean runs outside meanwhile: the file stays,
# counted as a running process's, and the listing (gostat) shows it LIVE. After the
# program ends its counts are exact, and clean then removes the file.
# Needs root (unshare of a pid namespace).
. "$(dirname "$0")/../lib.sh"
require_tools
work_dir
SRC=$ROOT/testdata/poked
v=${CLEAN_GO:-1.27}
[ "$(id -u)" -eq 0 ] || { echo "FAIL: t_gostat_clean_pidns must run as root (unshare --pid)"; exit 1; }

build_go "$v" "$SRC" "$WORK/p" || { echo "FAIL go$v: build"; exit 1; }
"$GOREWRITE" "$WORK/p" "$WORK/inst" >/dev/null 2>&1 || { echo "FAIL go$v: gorewrite"; exit 1; }

sd=$WORK/sd
mkdir -p "$sd"
mkfifo "$WORK/in"
exec 3<>"$WORK/in"
GOSTAT_DIR=$sd timeout -k 5 120 unshare --pid --fork --mount-proc "$WORK/inst" \
    <"$WORK/in" >"$WORK/out" 2>"$WORK/err" &
pid=$!
for i in $(seq 600); do
    grep -q '^ready$' "$WORK/out" 2>/dev/null && break
    sleep 0.05
done
grep -q '^ready$' "$WORK/out" || fail "the program never got ready: $(head -3 "$WORK/err")"
f=$(stats_file_for "$sd") || fail "no stats file"
case ${f:-} in
    *.1) ;;
    *) fail "the program is not pid 1 of its namespace: ${f:-none}" ;;
esac

out=$(GOSTAT_DIR=$sd "$GOSTAT" clean 2>&1)
rc=$?
expect_line="removed 0 files in $sd; kept 1 of running processes"
[ $rc -eq 0 ] && [ "$out" = "$expect_line" ] ||
    fail "clean beside a running program: exit $rc, '$out' (want '$expect_line')"
[ -e "${f:-none}" ] || fail "clean removed the running program's file"
list=$(GOSTAT_DIR=$sd "$GOSTAT" 2>&1)
grep -q 'LIVE' <<<"$list" || fail "gostat does not show the program as live: $list"

echo >&3
exec 3>&-
wait $pid
rc=$?
[ $rc -eq 0 ] || fail "the program exited $rc: $(head -3 "$WORK/err")"
if f=$(stats_file_for "$sd") && gostat_json "$f" "$WORK/c.json"; then
    check_counts "$WORK/c.json" "$SRC/expect" || fail "counts differ (above)"
else
    fail "no readable stats file after the program ended"
fi

out=$(GOSTAT_DIR=$sd "$GOSTAT" clean 2>&1)
expect_line="removed 1 file in $sd; kept 0 of running processes"
[ "$(tail -1 <<<"$out")" = "$expect_line" ] ||
    fail "clean after the program ended: '$out' (want '$expect_line')"

[ $fails -eq 0 ] && echo "ok   go$v: a running program in another pid namespace keeps its file; counts exact; removed once it ended"
[ $fails -eq 0 ]
