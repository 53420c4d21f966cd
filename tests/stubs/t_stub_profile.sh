#!/usr/bin/env bash
# t_stub_profile: scripts/stub_profile.py maps perf's CPU-clock samples of
# an instrumented program onto the stub blob. testdata/bench `loop`
# (Go 1.22) built with --time-all, where every call of main.step runs
# gs_time_enter and gs_time_return:
#  - the profile lists both routines, and more samples in the blob than
#    in the program's own code (a timed call costs tens of ns, step one);
#  - every hot offset names a routine and the instruction at that offset
#    and the one before it (the offsets resolve to instruction starts);
#  - the program's own output is unchanged under perf;
#  - the original binary (no blob) and a binary whose blob is not this
#    tree's are refused with a message naming the file.
. "$(dirname "$0")/../lib.sh"
require_tools
work_dir
export GOSTAT_DIR=$WORK/stats GOSTAT_QUIET=1
mkdir -p "$GOSTAT_DIR"

V=1.22
build_go "$V" "$ROOT/testdata/bench" "$WORK/bench" || { fail "build"; exit 1; }
"$GOREWRITE" --time-all "$WORK/bench" "$WORK/bench.timed" >/dev/null || { fail "gorewrite"; exit 1; }
"$WORK/bench" loop 3000000 >"$WORK/want" || fail "original run"

python3 "$ROOT/scripts/stub_profile.py" --period 20000 --top 10 "$WORK/bench.timed" -- \
    sh -c "'$WORK/bench.timed' loop 3000000 >'$WORK/got'" >"$WORK/profile" 2>"$WORK/err" ||
    fail "stub_profile.py exited $?: $(head -c 400 "$WORK/err")"
cmp -s "$WORK/want" "$WORK/got" || fail "the program's output differs under perf"
python3 - "$WORK/profile" <<'PY' || fail "the profile (above)"
import re, sys
text = open(sys.argv[1]).read()
print(text)
bad = []
parts = dict((m.group(2), float(m.group(1))) for m in re.finditer(r"^\s+([\d.]+) %  (\w+)$", text, re.M))
if not {"program", "blob", "trampolines", "kernel", "other"} <= parts.keys():
    bad.append("missing parts: %s" % sorted(parts))
elif abs(sum(parts[p] for p in ("program", "blob", "trampolines", "kernel", "other")) - 100) > 0.1:
    bad.append("the parts do not add up to 100 %")
elif not parts["blob"] > parts["program"]:
    bad.append("blob %.2f %% not above the program's %.2f %%" % (parts["blob"], parts["program"]))
routines = text.split("blob routines:")[1].split("hot blob offsets")[0]
for r in ("gs_time_enter", "gs_time_return"):
    if r not in routines:
        bad.append("routine %s not listed" % r)
hot = re.findall(r"^\s+[\d.]+ %  (\S+)\s+after: (.*?)\s+at: (.*)$", text, re.M)
if not hot:
    bad.append("no hot offsets")
for where, before, at in hot:
    if not re.match(r"gs_\w+\+0x[0-9a-f]+$", where) or before == "?" or at.strip() == "?":
        bad.append("unresolved hot offset: %s / %s / %s" % (where, before, at))
for b in bad:
    print("  " + b)
sys.exit(1 if bad else 0)
PY

# Refusals: no blob; a blob that is not this tree's (one code byte changed).
if python3 "$ROOT/scripts/stub_profile.py" "$WORK/bench" -- true >/dev/null 2>"$WORK/err1"; then
    fail "the original binary was accepted"
else
    grep -q "bench: no gorewrite stub blob" "$WORK/err1" || fail "no-blob message: $(cat "$WORK/err1")"
fi
python3 - "$WORK/bench.timed" "$WORK/bench.other" <<'PY' || fail "making a foreign blob"
import struct, sys
data = bytearray(open(sys.argv[1], "rb").read())
at = data.rfind(struct.pack("<Q", 0x31304F4C42524721))
data[at + 0x300] ^= 0xff
open(sys.argv[2], "wb").write(data)
PY
if python3 "$ROOT/scripts/stub_profile.py" "$WORK/bench.other" -- true >/dev/null 2>"$WORK/err2"; then
    fail "a foreign blob was accepted"
else
    grep -q "bench.other: its blob is not .*blob0.elf's code" "$WORK/err2" || fail "foreign-blob message: $(cat "$WORK/err2")"
fi
[ $fails -eq 0 ]
