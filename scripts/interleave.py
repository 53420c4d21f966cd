#!/usr/bin/env python3
"""interleave.py RUNS CALLS LABEL ORIG NAME=INSTR... -- ARGS...: times ORIG
and each instrumented build alternately (so machine noise hits all alike) and
prints one markdown row per instrumented build with the medians, their
ratio, and the extra nanoseconds per counted call."""
import statistics
import subprocess
import sys
import time


def timed(cmd):
    start = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, check=True)
    return time.perf_counter() - start


def main():
    sep = sys.argv.index("--")
    runs, calls, label, orig = sys.argv[1:5]
    builds = [b.split("=", 1) for b in sys.argv[5:sep]]
    args = sys.argv[sep + 1:]
    runs, calls = int(runs), int(calls)
    cmds = [[orig] + args] + [[path] + args for _, path in builds]
    for c in cmds:  # warm the page cache
        timed(c)
    times = [[] for _ in cmds]
    for _ in range(runs):
        for k, c in enumerate(cmds):
            times[k].append(timed(c))
    o = statistics.median(times[0])
    for k, (name, _) in enumerate(builds, 1):
        i = statistics.median(times[k])
        print(f"| {label} | {name} | {o*1e3:.1f} ms | {i*1e3:.1f} ms | {i/o:.3f} | {calls} | {(i-o)*1e9/calls:.2f} |")


main()
