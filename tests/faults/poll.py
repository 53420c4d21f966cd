#!/usr/bin/env python3
"""poll.py GOSTAT FILE SECONDS OUTJSON: reads FILE with `gostat --json` as
fast as it can for SECONDS while the program updates it. Every snapshot
must parse, have the same header (pid, exe, build id, Go release, start
time) and the same functions as the first, and no function's count may go
below its count in the previous snapshot. Writes the last snapshot to
OUTJSON; prints the number of snapshots; exits 1 on any violation."""
import json, subprocess, sys, time

gostat, path, secs, out = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4]
HEAD = ("pid", "exe", "build_id", "go_version", "start_time_ns")
first = prev = None
n = bad = 0
end = time.time() + secs
while time.time() < end:
    p = subprocess.run([gostat, "--json", path], capture_output=True, text=True)
    if p.returncode != 0:
        print("snapshot %d: gostat exited %d: %s" % (n, p.returncode, p.stderr.strip()))
        sys.exit(1)
    d = json.loads(p.stdout)
    calls = {f["entry"]: f["calls"] for f in d["functions"]}
    if first is None:
        first = d
        firstkeys = set(calls)
    else:
        for k in HEAD:
            if d.get(k) != first.get(k):
                print("snapshot %d: header field %s changed: %r -> %r" % (n, k, first.get(k), d.get(k)))
                bad += 1
        if set(calls) != firstkeys:
            print("snapshot %d: the function list changed" % n)
            bad += 1
        for e, c in calls.items():
            if c < prev.get(e, 0):
                print("snapshot %d: function at %s went back from %d to %d" % (n, e, prev[e], c))
                bad += 1
    prev = calls
    n += 1
    if bad:
        break
json.dump(d, open(out, "w"))
print(n)
sys.exit(1 if bad or n < 5 else 0)
