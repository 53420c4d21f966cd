#!/usr/bin/env python3
"""callgraph_threads_check.py JSON TABLE CALLS HANDLER... [--flagged NAME...]:
the call paths of
a server loaded with concurrent requests (gostat --json and the table of
one --call-graph stats file) kept every duration: each HANDLER function
has CALLS calls or more, all of them timed, and a timed function all of
whose calls returned has a CUM (cum_ns) at most its TOTAL (total_ns; the
slack is the rounding of every node's self time to whole ns), flagged by
neither the JSON (cum_exceeds_total) nor the table's "!" CUM. Each
--flagged NAME (a function whose paths hold time of a call that never
returned) is flagged by both, with no cum_ns. Prints each violation;
exits 1 if any."""
import json
import sys

path, table, want = sys.argv[1], sys.argv[2], int(sys.argv[3])
rest = sys.argv[4:]
handlers = rest[:rest.index("--flagged")] if "--flagged" in rest else rest
flagged = rest[len(handlers) + 1:]
d = json.load(open(path))
funcs = d["functions"]
by_name = {}
for f in funcs:
    by_name.setdefault(f["name"], []).append(f)
bad = []
for h in handlers:
    fs = by_name.get(h)
    if not fs:
        bad.append(f"{h}: not in the file")
        continue
    calls = sum(f["calls"] for f in fs)
    timed = sum(f.get("timed_calls") or 0 for f in fs)
    if calls < want or timed != calls:
        bad.append(f"{h}: {calls} calls (at least {want} expected), {timed} of them timed")
slack = d["call_paths"]["nodes"] / 2
returned = [f for f in funcs if f.get("timed") and f["calls"] and f.get("timed_calls") == f["calls"]]
for f in returned:
    if f.get("cum_exceeds_total"):
        bad.append(f"{f['name']}: CUM flagged above TOTAL {f['total_ns']} ns, all {f['calls']} calls returned")
    elif f.get("cum_ns") is not None and f["cum_ns"] > f["total_ns"] + slack:
        bad.append(f"{f['name']}: cum_ns {f['cum_ns']} above total_ns {f['total_ns']}, all {f['calls']} calls returned")
names = {f["name"] for f in returned}
for line in open(table):
    cols = line.split()
    if len(cols) > 6 and cols[0] in names and "!" in cols[1:8]:
        bad.append(f"table: {cols[0]}: CUM shown as a defect: {line.strip()[:160]}")
rows = {}
for line in open(table):
    cols = line.split()
    if cols:
        rows.setdefault(cols[0], cols)
for name in flagged:
    fs = by_name.get(name, [])
    if not fs or any(not f.get("cum_exceeds_total") or f.get("cum_ns") is not None for f in fs):
        bad.append(f"{name}: not flagged as CUM above TOTAL in the JSON: {fs}")
    if "!" not in rows.get(name, [])[1:8]:
        bad.append(f"table: {name}: CUM not shown as a defect: {rows.get(name)}")
for b in bad[:40]:
    print(b)
if len(bad) > 40:
    print(f"... {len(bad) - 40} more")
if not returned:
    print("no timed function had all its calls return")
    sys.exit(1)
print(f"{len(returned)} functions with every call returned; handlers {', '.join(handlers)}")
sys.exit(1 if bad else 0)
