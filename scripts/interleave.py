#!/usr/bin/env python3
"""interleave.py RUNS CALLS LABEL ORIG INSTR -- ARGS...: times ORIG and INSTR
alternately (so machine noise hits both alike) and prints one markdown row
with the medians, their ratio, and the extra nanoseconds per counted call."""
import statistics
import subprocess
import sys
import time


def timed(cmd):
    start = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, check=True)
    return time.perf_counter() - start


def main():
    runs, calls, label, orig, instr = sys.argv[1:6]
    args = sys.argv[sys.argv.index("--") + 1:]
    runs, calls = int(runs), int(calls)
    timed([orig] + args), timed([instr] + args)  # warm the page cache
    t_orig, t_instr = [], []
    for _ in range(runs):
        t_orig.append(timed([orig] + args))
        t_instr.append(timed([instr] + args))
    o, i = statistics.median(t_orig), statistics.median(t_instr)
    print(f"| {label} | {o*1e3:.1f} ms | {i*1e3:.1f} ms | {i/o:.3f} | {calls} | {(i-o)*1e9/calls:.2f} |")


main()
