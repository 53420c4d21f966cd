#!/usr/bin/env bash
# t_trace_generics: gorewrite --trace on generic code (docs/trace.md,
# "Values and ABIs"): testdata/tracegeneric built with every release of the
# tests that has generics ($GO_VERSIONS and $GO_VERSIONS_NEWER but 1.15),
# its Max[T] for int, float64 and string and the methods Swap and Zero of
# Box[T] for int and string traced; the program must exit 0, and every
# traced call's arguments (the receiver too), results and their types must
# be exactly what the program prints for that call, in call order. A shaped
# function takes a hidden dictionary pointer (first on Go 1.19, after a
# method's receiver from 1.20): not counted, each argument would be read
# from its neighbour's register. Stripped (no DWARF: raw words from
# FUNCDATA_ArgInfo, docs/trace.md) the integer words must be exact too:
# int arguments and results, the receiver, k, a string's length (ArgInfo
# does not say which pieces are floats, so float64 calls are only counted).
# GOVERS="1.19 1.22" restricts the releases.
cd "$(dirname "$0")/../.."
. tests/lib.sh
require_tools
work_dir
fails=0

for v in ${GOVERS:-$GO_VERSIONS $GO_VERSIONS_NEWER}; do
    if [ "$v" = 1.15 ]; then
        echo "go1.15: skipped: it has no generics (cannot compile testdata/tracegeneric)"
        continue
    fi
  for kind in normal stripped; do
    flags=()
    [ $kind = stripped ] && flags=('-ldflags=-s -w')
    build_go "$v" testdata/tracegeneric "$WORK/g" "${flags[@]}" || { fail "go$v $kind build"; continue; }
    "$GOREWRITE" --trace '^main\.(Max|\(\*Box)' "$WORK/g" "$WORK/g.i" >/dev/null 2>"$WORK/g.rw" ||
        { fail "go$v $kind: gorewrite: $(cat "$WORK/g.rw")"; continue; }
    rm -rf "$WORK/s" && mkdir -p "$WORK/s"
    GOSTAT_DIR=$WORK/s "$WORK/g.i" >"$WORK/g.out" 2>"$WORK/g.err"
    rc=$?
    [ $rc -eq 0 ] || { fail "go$v $kind: the traced program exited $rc: $(head -3 "$WORK/g.err")"; continue; }
    f=$(stats_file_for "$WORK/s") || { fail "go$v $kind: no stats file"; continue; }
    "$GOSTAT" trace --json "$f" >"$WORK/g.json" 2>"$WORK/g.gerr" ||
        { fail "go$v $kind: gostat trace: $(cat "$WORK/g.gerr")"; continue; }
    python3 - "$WORK/g.out" "$WORK/g.json" $kind <<'PY' || fail "go$v $kind: traced values"
import json, re, sys

def value(tok):
    """A printed value: a quoted string, a pointer (0x...) or a number."""
    return int(tok, 16) if tok.startswith("0x") else json.loads(tok)

calls = []
for line in open(sys.argv[1]):
    if line.startswith("CALL "):
        toks = re.findall(r'"(?:[^"\\]|\\.)*"|\S+', line)
        name, typ, rest = toks[1], toks[2], toks[3:]
        calls.append((name, typ, [value(t) for t in rest[:rest.index("->")]], value(rest[-1])))

def traced(v):
    return int(v, 16) if isinstance(v, str) and v.startswith("0x") else v

events = sorted((json.loads(l) for l in open(sys.argv[2]) if l.strip()), key=lambda e: e["start_ns"])
errors = []
if len(events) != len(calls) or len(calls) != 18:
    errors.append("%d traced calls, %d printed (18 expected)" % (len(events), len(calls)))
for i, (e, (name, typ, args, result)) in enumerate(zip(events, calls)):
    fn = e["func"]
    kind = "Max" if fn.startswith("main.Max[") else re.sub(r"^main\.\(\*Box\[.*\]\)\.", "", fn)
    names = ["a", "b"] if name == "Max" else ["b", "k", "nv"]
    shaped = [0, 1] if name == "Max" else [2]  # the arguments of type T
    got = [(a["name"], traced(a["value"])) for a in e["args"] or []]
    res = [(r["type"], traced(r["value"])) for r in e["results"] or []]
    types = [e["args"][k]["type"] for k in shaped if k < len(e["args"] or [])]
    if sys.argv[3] == "stripped":
        # raw words: an int as 64-bit two's complement, a string as its data
        # word and length; the result is RAX
        words = [] if typ == "float64" else [w for a in args for w in
                 ([None, len(a)] if isinstance(a, str) else [a % (1 << 64)])]
        got = [traced(a["value"]) for a in e["args"] or []]
        ok = kind == name and (typ == "float64" or (len(got) == len(words) and all(
            w is None or g == w for g, w in zip(got, words))))
        if typ == "int":
            ok = ok and [traced(r["value"]) for r in e["results"] or []] == [result % (1 << 64)]
    else:
        ok = (kind == name and got == list(zip(names, args)) and res == [(typ, result)] and
              types == [typ] * len(shaped))
    if not ok:
        errors.append("call %d: printed %s[%s](%s) = %r, traced %s %s = %s" %
                      (i, name, typ, args, result, fn, e["args"], e["results"]))
for m in errors[:6]:
    print(m)
sys.exit(1 if errors else 0)
PY
  done
done

[ $fails -eq 0 ] && echo "t_trace_generics: PASS" || { echo "t_trace_generics: $fails failures"; exit 1; }
