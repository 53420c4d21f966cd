#!/usr/bin/env bash
# t_trace_realprog: gorewrite --trace on a program nobody here wrote:
# Debian's rclone (Go 1.19, stripped) hashing a generated tree, with its
# hot path crypto/md5.(*digest).Write traced. The instrumented run's output
# must equal the original's (lines sorted: rclone hashes files
# concurrently), and gostat trace must give exactly one event per call of
# the function (its count in the same stats file), each with its result
# (the bytes written: over all calls, the files' bytes plus MD5's padding
# and length, 9 to 72 bytes a file).
cd "$(dirname "$0")/../.."
. tests/lib.sh
require_tools
work_dir
fails=0
RCLONE=${RCLONE:-/usr/bin/rclone}
[ -x "$RCLONE" ] || { echo "FAIL: $RCLONE missing"; exit 1; }
FUNC='crypto/md5.(*digest).Write'
mkdir -p "$WORK/data" "$WORK/s"
python3 - "$WORK/data" <<'PY'
import os, random, sys
rnd = random.Random(30)
for i in range(40):
    with open(os.path.join(sys.argv[1], "f%02d" % i), "wb") as f:
        f.write(bytes(rnd.getrandbits(8) for _ in range(rnd.randrange(1, 90000))))
PY
"$GOREWRITE" --trace '^crypto/md5\.\(\*digest\)\.Write$' --trace-buffer 1M "$RCLONE" "$WORK/rclone.i" >/dev/null 2>&1 ||
    { echo "FAIL: gorewrite --trace rclone"; exit 1; }
# rclone's log lines (stderr) start with the wall-clock time: compared without it.
untimed() { sed -E 's#^[0-9]{4}/[0-9]{2}/[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2} ##' | LC_ALL=C sort; }
"$RCLONE" md5sum "$WORK/data" 2>&1 | untimed >"$WORK/ref"
GOSTAT_DIR=$WORK/s "$WORK/rclone.i" md5sum "$WORK/data" 2>&1 | untimed >"$WORK/out"
cmp -s "$WORK/ref" "$WORK/out" || fail "rclone md5sum output differs: $(diff "$WORK/ref" "$WORK/out" | head -5)"
f=$(stats_file_for "$WORK/s") || exit 1
"$GOSTAT" trace --json "$f" >"$WORK/trace.json" 2>"$WORK/trace.err" || fail "gostat trace: $(cat "$WORK/trace.err")"
[ -s "$WORK/trace.err" ] && fail "gostat trace says: $(cat "$WORK/trace.err")"
gostat_json "$f" "$WORK/stats.json" || fail "gostat --json"
size=$(find "$WORK/data" -type f -printf '%s\n' | awk '{s += $1} END {print s}')
python3 - "$WORK/trace.json" "$WORK/stats.json" "$FUNC" "$size" <<'PY' || fail "events do not match the calls"
import json, sys
ev = [json.loads(l) for l in open(sys.argv[1])]
calls = [f["calls"] for f in json.load(open(sys.argv[2]))["functions"] if f["name"] == sys.argv[3]]
w = [e for e in ev if e["func"] == sys.argv[3]]
ok = len(calls) == 1 and calls[0] == len(w) == len(ev) and len(w) > 40
written = sum(int(str(e["results"][0]["value"]), 0) for e in w)
# each file's bytes, plus MD5's padding and length (checkSum: 9 to 72 bytes a file)
ok = ok and int(sys.argv[4]) + 40 * 9 <= written <= int(sys.argv[4]) + 40 * 72
print("events %d, calls %s, bytes written %d, tree %s" % (len(w), calls, written, sys.argv[4]))
sys.exit(0 if ok else 1)
PY
[ $fails -eq 0 ] && echo "t_trace_realprog: PASS" || { echo "t_trace_realprog: $fails failures"; exit 1; }
