#!/usr/bin/env bash
# t_file_cut: a stats file cut short while its program runs (its owner's
# `truncate`) is made whole again, never a signal (stubs/file_cut.c, the
# gate before runtime.sigtramp). testdata/poked runs its calls on four
# threads, prints "ready" and waits; meanwhile the file is cut:
#  - to 0 bytes, to 4096 (the header kept, the tables not), to live_off
#    (the tables kept: the live page and every row lost): the program
#    exits 0 with the original's output and says once on stderr what
#    happened; gostat reads the file, and every main.r* and main.victim
#    count is exactly the second phase's (half of the expect file's: what
#    was counted before the cut starts again from zero);
#  - to sites_off (only the goroutine sites lost): every count of the
#    expect file, exact;
#  - through a descriptor after the file was removed (it cannot be made
#    whole): the program goes on in memory and exits 0 with its output and
#    one line saying so.
# In the default mode and with --call-graph (cut to 0 with GOSTAT_MERGE=1
# too: the merged file holds the second phase). Go 1.15 and the newest
# (FILE_CUT_GO to choose others): runtime.sigtramp's frame differs.
. "$(dirname "$0")/../lib.sh"
require_tools
work_dir
SRC=$ROOT/testdata/poked
LAYOUT=$ROOT/build/tests/header_layout
[ -x "$LAYOUT" ] || { echo "FAIL: $LAYOUT missing: run 'make tools'"; exit 1; }
"$LAYOUT" >"$WORK/layout" || { echo "FAIL: header_layout"; exit 1; }
awk '$1 ~ /^main\.(r[0-9]|victim)$/ {print $1, $2 / 2}' "$SRC/expect" >"$WORK/expect.half"

# header FILE FIELD: a 64-bit field of FILE's header, found by name.
header() {
    local off
    off=$(awk -v f="$2" '$3 == f {print $1}' "$WORK/layout")
    python3 -c 'import struct,sys; f=open(sys.argv[1],"rb"); f.seek(int(sys.argv[2])); print(struct.unpack("<Q", f.read(8))[0])' "$1" "$off"
}

# cut_run NAME BIN HOW EXPECT [ENV...]: runs BIN, cuts its file while it
# waits (HOW: a header field, a byte count, or "removed"), then checks.
cut_run() {
    local name=$1 bin=$2 how=$3 expect=$4 d=$WORK/run.$RANDOM$RANDOM
    shift 4
    mkdir -p "$d/sd"
    mkfifo "$d/in"
    exec 3<>"$d/in"
    env GOSTAT_DIR="$d/sd" "$@" timeout -k 5 120 "$bin" <"$d/in" >"$d/out" 2>"$d/err" &
    local pid=$! i f size
    for i in $(seq 600); do
        grep -q '^ready$' "$d/out" 2>/dev/null && break
        sleep 0.05
    done
    f=$(stats_file_for "$d/sd") || { fail "$name: no stats file"; exec 3>&-; wait $pid; return; }
    case $how in
    removed) python3 -c 'import os,sys; fd=os.open(sys.argv[1], os.O_RDWR); os.unlink(sys.argv[1]); os.ftruncate(fd, 0)' "$f" ;;
    [0-9]*) truncate -s "$how" "$f" ;;
    *) size=$(header "$f" "$how") && truncate -s "$size" "$f" ;;
    esac
    echo >&3
    exec 3>&-
    wait $pid
    local rc=$?
    [ $rc -eq 0 ] || fail "$name: exited $rc: $(head -3 "$d/err")"
    cmp -s "$d/out" "$WORK/want.out" || fail "$name: output differs: $(diff "$WORK/want.out" "$d/out" | head -5)"
    local want='^gostat: the stats file .* was cut to [0-9]+ bytes while the program ran: it is whole again'
    [ "$how" = removed ] && want='^gostat: the stats file .* was cut short while the program ran and cannot be made whole'
    [ "$(wc -l <"$d/err")" -eq 1 ] && grep -Eq "$want" "$d/err" ||
        fail "$name: stderr is not one line saying so: $(head -3 "$d/err")"
    if [ "$expect" != none ]; then
        f=$(stats_file_for "$d/sd") && gostat_json "$f" "$d/c.json" &&
            { check_counts "$d/c.json" "$expect" || fail "$name: counts differ (above)"; }
    fi
    rm -rf "$d"
}

for v in ${FILE_CUT_GO:-1.15 1.27}; do
    build_go "$v" "$SRC" "$WORK/p$v" || { fail "go$v: build"; continue; }
    echo | "$WORK/p$v" >"$WORK/want.out" || fail "go$v: the original failed"
    "$GOREWRITE" "$WORK/p$v" "$WORK/def$v" >/dev/null 2>&1 || fail "go$v: gorewrite"
    "$GOREWRITE" --call-graph "$WORK/p$v" "$WORK/cg$v" >/dev/null 2>&1 || fail "go$v: gorewrite --call-graph"
    for how in 0 4096 live_off; do
        cut_run "go$v default cut to $how" "$WORK/def$v" $how "$WORK/expect.half"
    done
    cut_run "go$v default cut to sites_off" "$WORK/def$v" sites_off "$SRC/expect"
    cut_run "go$v default removed, then cut" "$WORK/def$v" removed none
    cut_run "go$v call-graph cut to 0" "$WORK/cg$v" 0 "$WORK/expect.half"
    cut_run "go$v call-graph merged, cut to 0" "$WORK/cg$v" 0 "$WORK/expect.half" GOSTAT_MERGE=1
    rm -f "$WORK/want.out"
done
[ $fails -eq 0 ] && echo "ok   a stats file cut short under its program: made whole, no signal, counts after the cut exact"
[ $fails -eq 0 ]
