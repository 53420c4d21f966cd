#!/usr/bin/env python3
"""tests/coverage_check.py GOREWRITE BINARY: no function that gorewrite -v
skips may call runtime.morestack* (that call is the stack check's slow
path: a function that has it has a check, which gorewrite must instrument).
Needs symbols (not stripped): objdump names the calls. The parse is
asserted: the skip lines must add up to gorewrite's summary line, there
must be some (every Go binary has assembly without a check), and objdump
must find every skipped function, so that a change of either output format
fails here instead of checking nothing. Prints the offenders and a summary;
exit 1 if there are any."""
import re
import subprocess
import sys

gorewrite, binary = sys.argv[1], sys.argv[2]
res = subprocess.run([gorewrite, "-v", binary, binary + ".coverage-instr"],
                     capture_output=True, text=True)
subprocess.run(["rm", "-f", binary + ".coverage-instr"])
if res.returncode != 0:
    print("gorewrite -v %s failed: %s" % (binary, res.stderr[-500:]))
    sys.exit(1)
skipped = {}
summary = None
nlines = 0   # several names may share one address (-race's C code)
for line in res.stderr.splitlines():
    m = re.match(r"skip\s+(0x[0-9a-f]+) (.*?): (.*)", line)
    if m:
        skipped[int(m.group(1), 16)] = (m.group(2), m.group(3))
        nlines += 1
    m = re.match(r"summary: (\d+) instrumented \(.*\), (\d+) skipped$", line)
    if m:
        summary = (int(m.group(1)), int(m.group(2)))
if summary is None or summary[0] == 0 or summary[1] == 0 or summary[1] != nlines:
    print("cannot parse gorewrite -v %s: summary %r, %d skip lines" % (binary, summary, nlines))
    sys.exit(1)
dis = subprocess.run(["objdump", "-d", "--no-show-raw-insn", binary],
                     capture_output=True, text=True, check=True).stdout
cur, bad, seen = None, [], set()
for line in dis.splitlines():
    m = re.match(r"^([0-9a-f]+) <(.*)>:", line)
    if m:
        cur = int(m.group(1), 16)
        if cur in skipped:
            seen.add(cur)
        continue
    if cur in skipped and re.search(r"call.*<runtime\.morestack", line):
        bad.append(cur)
        skipped.pop(cur)
missing = set(skipped) - seen - set(bad)
if missing:
    print("objdump -d %s lists no symbol at %d skipped entries, e.g. %s" % (
        binary, len(missing), ", ".join("%#x %s" % (a, skipped[a][0]) for a in sorted(missing)[:5])))
    sys.exit(1)
for a in bad:
    print("  skipped but has a stack check (calls runtime.morestack*): %#x" % a)
print("%d skipped functions, %d with a stack check" % (len(skipped) + len(bad), len(bad)))
sys.exit(1 if bad else 0)
