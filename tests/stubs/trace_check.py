#!/usr/bin/env python3
"""trace_check.py KIND FILE [ARGS]: checks gostat trace --json output
(JSON Lines in FILE) for tests/stubs/t_trace.sh; prints what differs and
exits 1, or exits 0. Values are compared as numbers: a stripped build's
raw words ("0x..") are read as 64-bit two's complement."""
import json, sys

def num(v):
    if isinstance(v, str) and v.startswith("0x"):
        n = int(v, 16)
        return n - (1 << 64) if n >= 1 << 63 else n
    return v

def vals(part):
    return [num(x["value"]) for x in part] if part is not None else None

def load(path):
    return [json.loads(l) for l in open(path) if l.strip()]

def by_func(ev, name):
    return [e for e in ev if e["func"] == name]

errors = []
def want(cond, what):
    if not cond:
        errors.append(what)

def traceargs(ev, stripped):
    # stripped: raw words, the result among them (stack ABI: after the arguments)
    def result(e, k=0):
        r = vals(e["results"]) or []
        return r[k] if not stripped and len(r) > k else r
    def is_result(e, want_v):
        r = result(e)
        return r == want_v if not stripped else want_v in r
    add = by_func(ev, "main.add")
    want([is_result(e, v) for e, v in zip(add, [9, -5])] == [True, True] and len(add) == 2,
         "add results %s" % [e["results"] for e in add])
    if not stripped:
        want([vals(e["args"]) for e in add] == [[3, 6], [-7, 2]], "add args %s" % [e["args"] for e in add])
        want([e["args"][0]["name"] for e in add] == ["a", "a"], "add arg names")
        dm = by_func(ev, "main.divmod")
        want(len(dm) == 1 and vals(dm[0]["args"]) == [17, 5] and vals(dm[0]["results"]) == [3, 2], "divmod %s" % dm)
        gr = by_func(ev, "main.greet")
        want([vals(e["results"]) for e in gr] == [["hello gopher"], ["HELLO world"]], "greet %s" % gr)
    fact = by_func(ev, "main.fact")
    want(len(fact) == 5 and all(is_result(e, v) for e, v in zip(fact, [120, 24, 6, 2, 1])),
         "fact results %s" % [e["results"] for e in fact])
    want(all(e["caller"] == ("main.main" if i == 0 else "main.fact") for i, e in enumerate(fact)), "fact callers")
    deep = by_func(ev, "main.deep")
    want(len(deep) == 2001, "deep: %d events, not 2001 (one per call)" % len(deep))
    if not stripped:
        want(sorted(vals(e["args"])[0] for e in deep) == list(range(2001)), "deep: each n once")
        want(all(vals(e["results"])[0] == vals(e["args"])[0] for e in deep), "deep(n) = n")
    mp = by_func(ev, "main.mustPositive")
    want(len(mp) == 2, "mustPositive: %d events" % len(mp))
    if len(mp) == 2:
        want(not mp[0].get("panicked") and is_result(mp[0], 7), "mustPositive(7) %s" % mp[0])
        want(mp[1].get("panicked") is True and mp[1]["results"] is None, "mustPositive(-7) %s" % mp[1])
    want(all(e["goid"] == ev[0]["goid"] and e["tid"] > 0 for e in ev), "goroutine and thread")
    want(all(ev[i]["start_ns"] <= ev[i + 1]["start_ns"] for i in range(len(ev) - 1)), "oldest first")

def tracego(ev):
    w = by_func(ev, "main.work")
    want(len(w) == 4000, "work: %d events, not 4000" % len(w))
    keys = set((vals(e["args"])[0], vals(e["args"])[1]) for e in w)
    want(keys == set((g, i) for g in range(8) for i in range(500)), "work: each (g, i) once")
    want(all(vals(e["results"])[0] == vals(e["args"])[0] * 1000 + vals(e["args"])[1] for e in w), "work results")
    per_g = {}
    for e in w:
        per_g.setdefault(e["goid"], set()).add(vals(e["args"])[0])
    want(len(per_g) == 8 and all(len(s) == 1 for s in per_g.values()), "work: one goroutine per g")
    want(len(by_func(ev, "main.slow")) == 20, "slow: 20 events")

def slower(ev):
    s = by_func(ev, "main.slow")
    want([vals(e["args"])[0] for e in s] == [30] * 5, "slower: %s" % [(e["args"], e["dur_ns"]) for e in s])
    want(all(e["dur_ns"] > 10000000 for e in s), "slower: durations")
    want(all(e["func"] == "main.slow" for e in ev), "slower: other functions")

def ring(ev, n, lost):
    k = len(ev)
    want(k > 0 and k + lost == n, "ring: %d shown + %d lost != %d" % (k, lost, n))
    want([vals(e["args"])[1] for e in ev] == list(range(n - k, n)), "ring: not the newest %d" % k)

kind, path = sys.argv[1], sys.argv[2]
ev = load(path)
if kind == "traceargs":
    traceargs(ev, sys.argv[3] == "stripped")
elif kind == "tracego":
    tracego(ev)
elif kind == "slower":
    slower(ev)
elif kind == "ring":
    ring(ev, int(sys.argv[3]), int(sys.argv[4]))
elif kind == "follow":
    want([vals(e["args"])[1] for e in ev] == list(range(int(sys.argv[3]))), "follow: %d events" % len(ev))
for e in errors:
    print("  " + e)
sys.exit(1 if errors else 0)
