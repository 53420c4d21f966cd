#!/usr/bin/env python3
"""merge_race.py: runs an instrumented testdata/mergecli many times with
GOSTAT_MERGE=1, PAR at a time, killing about one run in ten with SIGKILL,
and renames the merged file away once half-way (t_merge_race.sh).

usage: merge_race.py PROGRAM DIR RUNS PAR MODE
MODE sleep: a killed run sleeps 300 ms and is killed within its first
  200 ms (before its exit: its counts must not land anywhere);
MODE any: every run is plain, a killed run is killed at a random moment
  of its life, its exit and merge included.
Prints "normal N killed K renamed NAME" (NAME "-" when no merged file
existed half-way)."""
import os
import random
import signal
import subprocess
import sys
import threading
import time

prog, d, runs, par, mode = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
env = dict(os.environ, GOSTAT_MERGE="1", GOSTAT_DIR=d)
rng = random.Random(int(os.environ.get("MERGE_RACE_SEED", "0")) or None)
lock = threading.Lock()
normal = killed = 0
renamed = "-"
started = 0


def one(i):
    global normal, killed
    kill = rng.random() < 0.1
    args = [prog, "sleep", "300"] if kill and mode == "sleep" else [prog]
    p = subprocess.Popen(args, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if kill:
        time.sleep(rng.uniform(0, 0.2) if mode == "sleep" else rng.uniform(0, 0.03))
        p.send_signal(signal.SIGKILL)
    rc = p.wait()
    with lock:
        if rc == 0:
            normal += 1
        elif rc == -signal.SIGKILL:
            killed += 1
        else:
            sys.exit(f"run {i}: status {rc}")


def worker():
    global started, renamed
    while True:
        with lock:
            if started == runs:
                return
            i = started
            started += 1
            if i == runs // 2:
                merged = [n for n in os.listdir(d) if ".merged-" in n and not n.startswith(".") and ".tmp" not in n]
                if merged:
                    os.rename(os.path.join(d, merged[0]), os.path.join(d, "renamed-away"))
                    renamed = merged[0]
        one(i)


threads = [threading.Thread(target=worker) for _ in range(par)]
for t in threads:
    t.start()
for t in threads:
    t.join()
print(f"normal {normal} killed {killed} renamed {renamed}")
