#!/usr/bin/env python3
"""scripts/bench_macro.py (make bench-macro): what instrumenting costs a real
program.

`go build -a -o /dev/null cmd/gofmt` with Debian's Go 1.22, its compile
tool replaced through -toolexec (scripts/toolexec_compile.c, a bare exec,
used in every mode) by a copy that gorewrite instrumented with each mode's
flags. Modes run interleaved (round 1: every mode once, round 2: ...), each
build with a fresh GOCACHE and GOSTAT_DIR (both removed afterwards), so
nothing is cached and machine noise hits every mode alike. Measured per
build: user+sys CPU of the whole build (RUSAGE_CHILDREN deltas: go and every
tool it ran) and wall time. Calls counted: `gostat --json` on the stats
files of the first round's build of each mode.

usage: bench_macro.py [--rounds N] [--selection] [--mode NAME=FLAGS]...
  --selection adds (to MODES or --mode's) the modes with only the
  compiler's own packages instrumented (SELECTION below, docs/selection.md); --mode replaces MODES
  below (the original compile is always measured first); FLAGS are
  gorewrite's, split on blanks, e.g.
  --mode count-only=--count-only --mode default= --mode "sample16=--sample 16"
Writes build/bench/macro.md and prints it.
"""
import argparse
import datetime
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

from bench_common import (OUT, each_round, gorewrite_commit, instrument, machine, modes_of, paired,
                          pct, run)

# The modes measured, in order, as (name, gorewrite flags). Edit here.
MODES = [
    ("count-only", ["--count-only"]),
    ("count-only-via-entry", ["--count-only", "--keep-call-sites"]),
    ("default", []),
    ("time-all", ["--time-all"]),
    ("call-graph", ["--call-graph"]),
]
# --selection: the compiler's own code only (cmd/compile/internal/...,
# cmd/internal/..., its package main), not runtime/... or the standard
# library; the infrastructure functions stay (docs/selection.md).
OWN = ["--only", "^cmd/", "--only", r"^main\."]
SELECTION = [
    ("count-only, own packages", ["--count-only"] + OWN),
    ("default, own packages", OWN),
]
ORIGINAL = "original"

GOROOT = "/usr/lib/go-1.22"
GO = GOROOT + "/bin/go"
COMPILE = GOROOT + "/pkg/tool/linux_amd64/compile"
TARGET = "cmd/gofmt"
WORK = OUT + "/macro"


def resolve_modes(modes):
    """Without --time-all (a build from before the default mode sampled)
    gorewrite's default times every call: the time-all row then uses the
    default."""
    help_text = subprocess.run(["bin/gorewrite", "--help"], capture_output=True, text=True).stdout
    notes, out = [], []
    for name, flags in modes:
        if "--time-all" in flags and "--time-all" not in help_text:
            flags = [f for f in flags if f != "--time-all"]
            notes.append(f"bin/gorewrite has no --time-all: the {name} row is gorewrite's default "
                         f"({' '.join(flags) or 'no flags'}), which times every call")
        out.append((name, flags))
    return out, notes


def prepare(modes):
    """The wrapper and one instrumented compile per mode."""
    os.makedirs(WORK, exist_ok=True)
    wrapper = os.path.abspath(WORK + "/toolexec_compile")
    run(["cc", "-O2", "-std=c11", "-Wall", "-Wextra", "-Werror", "-o", wrapper,
         "scripts/toolexec_compile.c"])
    compiles = {ORIGINAL: None}
    for name, flags in modes:
        path = os.path.abspath(WORK + "/compile." + re.sub(r"[^\w.-]+", "-", name))
        instrument(flags, COMPILE, path)
        compiles[name] = path
    return wrapper, compiles


def build_env(cache, stats, compile_path):
    env = dict(os.environ)
    for k in ("GOROOT", "GOPATH", "GOOS", "GOARCH", "GOAMD64", "CGO_ENABLED"):
        env.pop(k, None)
    env.update(GOFLAGS="", GOTOOLCHAIN="local", GOPROXY="off", GOENV="off",
               GOCACHE=cache, GOSTAT_DIR=stats)
    env.pop("GOREWRITE_COMPILE", None)
    if compile_path:
        env["GOREWRITE_COMPILE"] = compile_path
    return env


def counted(stats):
    """(stats files, calls counted in them)."""
    files = sorted(os.listdir(stats))
    calls = 0
    for f in files:
        r = run(["bin/gostat", "--json", os.path.join(stats, f)], capture_output=True, text=True)
        calls += sum(fn["calls"] for fn in json.loads(r.stdout)["functions"])
    return len(files), calls


def one_build(wrapper, compile_path, inspect=None):
    """(cpu s, wall s, inspect(stats dir) or None) of one build from
    nothing."""
    tmp = tempfile.mkdtemp(prefix="gorewrite-macro.")
    stats = tempfile.mkdtemp(prefix="gorewrite-macro.", dir="/dev/shm")
    try:
        env = build_env(os.path.join(tmp, "gocache"), stats, compile_path)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        run([GO, "build", "-a", "-toolexec", wrapper, "-o", "/dev/null", TARGET], env=env, cwd=tmp)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        return cpu, wall, inspect(stats) if inspect and compile_path else None
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
        shutil.rmtree(stats, ignore_errors=True)


def report(names, cpu, wall, counts, rounds, notes, load):
    go_version = run([GO, "version"], capture_output=True, text=True).stdout.split()[2]
    o_cpu, o_wall = statistics.median(cpu[ORIGINAL]), statistics.median(wall[ORIGINAL])
    lines = [
        f"## make bench-macro ({datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC, {machine()})",
        "",
        f"`go build -a -o /dev/null {TARGET}`, Go {go_version}, its compile instrumented by "
        f"gorewrite {gorewrite_commit()} and substituted through -toolexec; modes interleaved, "
        f"{rounds} round{'s' if rounds > 1 else ''}, medians and the median of the round-by-round "
        f"(paired) ratios to the original; CPU = user+sys of the whole build; "
        f"load average {load[0]:.2f} before, {load[1]:.2f} after.",
        "",
    ]
    lines += [f"Note: {n}." for n in notes] + ([""] if notes else [])
    lines += ["| compile | CPU | CPU vs original | CPU paired | wall | wall vs original "
              "| compile runs | counted calls |",
              "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for n in names:
        c, w = statistics.median(cpu[n]), statistics.median(wall[n])
        files, calls = counts.get(n, ("-", None))
        calls_s = f"{calls / 1e6:.1f} million" if calls is not None else "-"
        lines.append(f"| {n} | {c:.2f} s | {pct(c / o_cpu)} | {pct(paired(cpu[n], cpu[ORIGINAL]))} "
                     f"| {w:.2f} s | {pct(w / o_wall)} "
                     f"| {files} | {calls_s} |")
    lines += ["", each_round("CPU of each round (s)", names, cpu, "{:.2f}"), ""]
    return "\n".join(lines)


def parse_args():
    p = argparse.ArgumentParser(description="make bench-macro")
    p.add_argument("--rounds", type=int, default=int(os.environ.get("MACRO_ROUNDS", 5)))
    p.add_argument("--selection", action="store_true")
    p.add_argument("--mode", action="append", default=[], metavar="NAME=FLAGS")
    a = p.parse_args()
    if a.rounds < 1:
        p.error("--rounds must be at least 1")
    modes = modes_of(p, a, MODES, SELECTION)
    return a.rounds, modes


def main():
    os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    rounds, modes = parse_args()
    modes, notes = resolve_modes(modes)
    for n in notes:
        print(f"bench_macro: {n}", file=sys.stderr)
    wrapper, compiles = prepare(modes)
    names = [ORIGINAL] + [n for n, _ in modes]
    cpu, wall, counts = {n: [] for n in names}, {n: [] for n in names}, {}
    load0 = os.getloadavg()[0]
    for r in range(rounds):
        for n in names:
            c, w, cnt = one_build(wrapper, compiles[n], counted if r == 0 else None)
            cpu[n].append(c)
            wall[n].append(w)
            if cnt:
                counts[n] = cnt
            print(f"bench_macro: round {r + 1}/{rounds} {n}: CPU {c:.2f} s, wall {w:.2f} s",
                  file=sys.stderr, flush=True)
    text = report(names, cpu, wall, counts, rounds, notes, (load0, os.getloadavg()[0]))
    with open(OUT + "/macro.md", "w") as f:
        f.write(text)
    print(text, end="")


if __name__ == "__main__":
    main()
