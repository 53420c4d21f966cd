#!/usr/bin/env python3
"""tests/coverage_check.py GOREWRITE BINARY: no function that gorewrite -v
skips may call runtime.morestack* (that call is the stack check's slow
path: a function that has it has a check, which gorewrite must instrument).
Needs symbols (not stripped): objdump names the calls. Prints the offenders
and a summary; exit 1 if there are any."""
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
for line in res.stderr.splitlines():
    m = re.match(r"skip\s+(0x[0-9a-f]+) (.*?): (.*)", line)
    if m:
        skipped[int(m.group(1), 16)] = (m.group(2), m.group(3))
dis = subprocess.run(["objdump", "-d", "--no-show-raw-insn", binary],
                     capture_output=True, text=True, check=True).stdout
cur, bad, checked = None, [], 0
for line in dis.splitlines():
    m = re.match(r"^([0-9a-f]+) <(.*)>:", line)
    if m:
        cur = int(m.group(1), 16)
        continue
    if cur in skipped and re.search(r"call.*<runtime\.morestack", line):
        bad.append(cur)
        skipped.pop(cur)
for a in bad:
    print("  skipped but has a stack check (calls runtime.morestack*): %#x" % a)
print("%d skipped functions, %d with a stack check" % (len(skipped) + len(bad), len(bad)))
sys.exit(1 if bad else 0)
