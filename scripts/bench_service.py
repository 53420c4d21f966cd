#!/usr/bin/env python3
"""scripts/bench_service.py (make bench-macro MACRO=service): what
instrumenting costs a service under load.

testdata/service (a JSON order service: net/http, encoding/json, a map
under a mutex), built with Debian's Go 1.22 and instrumented by gorewrite
in each mode, serves a fixed load from hey (Debian's hey): REQUESTS POST
requests of one order, CONCURRENCY at a time over keep-alive connections,
after WARMUP requests that are not measured. Modes run interleaved, the
order rotating every round (round 1: original, count-only, default;
round 2: count-only, default, original; ...), each server with a fresh
GOSTAT_DIR (removed afterwards). Measured per run: requests per second and
p99 latency as hey reports them (hey prints latencies to 0.1 ms), and the
server's own CPU (user+sys from /proc/PID/stat, 10 ms ticks) per request
during the measured load; calls counted per request (`gostat merge` of
the first round's run of each mode, start and warm-up included).
Reported: each mode's median, and the median of its round-by-round ratios
to the original run of the same round (paired).

usage: bench_service.py [--rounds N] [--requests N] [--warmup N] [--concurrency N]
                        [--selection] [--mode NAME=FLAGS]...
  --selection adds (to MODES or --mode's) the modes with only package
  main instrumented (--only '^main\\.', docs/selection.md); --mode
  replaces the modes.
Writes build/bench/service.md and prints it.
"""
import argparse
import datetime
import json
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile

from bench_common import (OUT, each_round, gorewrite_commit, instrument, machine, modes_of, paired,
                          pct, run, spread)

MODES = [
    ("count-only", ["--count-only"]),
    ("default", []),
]
SELECTION = [  # the program's own package only (the service is all package main)
    ("count-only, main only", ["--count-only", "--only", r"^main\."]),
    ("default, main only", ["--only", r"^main\."]),
]
ORIGINAL = "original"

GO = "/usr/lib/go-1.22/bin/go"
WORK = OUT + "/service"
ORDER = ('{"customer":"c-17","coupon":"TEN-OFF","lines":['
         '{"sku":"sku-001","qty":2},{"sku":"sku-042","qty":1},{"sku":"sku-137","qty":5},'
         '{"sku":"sku-256","qty":3},{"sku":"sku-499","qty":1}]}')
CLK_TCK = os.sysconf("SC_CLK_TCK")


def build(modes):
    """The original server and one instrumented copy per mode."""
    os.makedirs(WORK, exist_ok=True)
    env = dict(os.environ, GOTOOLCHAIN="local", GOPROXY="off", GO111MODULE="off", GOFLAGS="",
               GOCACHE=os.path.abspath("build/gocache/bench"))
    orig = os.path.abspath(WORK + "/service")
    run([GO, "build", "-o", orig, "main.go"], cwd="testdata/service", env=env)
    servers = {ORIGINAL: orig}
    for i, (name, flags) in enumerate(modes):
        servers[name] = os.path.abspath(f"{WORK}/service.{i}")
        instrument(flags, orig, servers[name])
    return servers


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLK_TCK   # utime, stime


def hey(url, requests, concurrency):
    """(requests/s, p99 s) of one hey run; every reply must be a 200."""
    r = run(["hey", "-n", str(requests), "-c", str(concurrency), "-m", "POST",
             "-T", "application/json", "-d", ORDER, url], capture_output=True, text=True)
    ok = re.search(r"\[200\]\s+(\d+) responses", r.stdout)
    if not ok or int(ok.group(1)) != requests or "Error distribution" in r.stdout:
        sys.exit(f"bench_service: not every request answered 200:\n{r.stdout}")
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", r.stdout).group(1))
    p99 = float(re.search(r"99% in ([\d.]+) secs", r.stdout).group(1))
    return rps, p99


def counted(stats):
    """Calls counted in the stats files of STATS (gostat merge)."""
    r = run(["bin/gostat", "merge", "--dir", stats], capture_output=True, text=True)
    return json.loads(r.stdout)["total_calls"]


def one_run(server, a, count):
    """(requests/s, p99 s, server CPU s per request, calls counted per
    request or None) of one server."""
    stats = tempfile.mkdtemp(prefix="gorewrite-service.", dir="/dev/shm")
    proc = subprocess.Popen([server, "127.0.0.1:0"], stdout=subprocess.PIPE, text=True,
                            env=dict(os.environ, GOSTAT_DIR=stats))
    try:
        first = proc.stdout.readline()
        if not first.startswith("listening on "):
            sys.exit(f"bench_service: {server} did not start: {first!r}")
        url = f"http://{first.split()[2]}/order"
        hey(url, a.warmup, a.concurrency)
        cpu0 = cpu_seconds(proc.pid)
        rps, p99 = hey(url, a.requests, a.concurrency)
        cpu = (cpu_seconds(proc.pid) - cpu0) / a.requests
        proc.send_signal(signal.SIGTERM)
        if proc.wait(timeout=30) != 0:
            sys.exit(f"bench_service: {server} exited {proc.returncode}")
        calls = counted(stats) / (a.warmup + a.requests) if count else None
        return rps, p99, cpu, calls
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        shutil.rmtree(stats, ignore_errors=True)


def per_request(calls):
    return "-" if calls is None else f"{calls:.0f}"


def report(names, res, a, load):
    rps, p99, cpu, calls = ({n: [r[k] for r in res[n]] for n in names} for k in range(4))
    o = ORIGINAL
    lines = [
        f"## make bench-macro MACRO=service ({datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC, {machine()})",
        "",
        f"testdata/service (Go 1.22) instrumented by gorewrite {gorewrite_commit()}; hey: "
        f"{a.requests} POST requests, {a.concurrency} at a time, after {a.warmup} unmeasured; "
        f"modes interleaved, {a.rounds} rounds; medians, and medians of the round-by-round "
        f"(paired) ratios to the original; spread = (max - min) / median of a mode's rounds; "
        f"load average {load[0]:.2f} before, {load[1]:.2f} after.",
        "",
        "| server | requests/s | paired vs original | spread | p99 | paired vs original "
        "| server CPU per request | paired vs original | spread | counted calls per request |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for n in names:
        lines.append(
            f"| {n} | {statistics.median(rps[n]):.0f} | {pct(paired(rps[n], rps[o]))} "
            f"| {spread(rps[n]):.0f} % | {statistics.median(p99[n]) * 1e3:.1f} ms "
            f"| {pct(paired(p99[n], p99[o]))} | {statistics.median(cpu[n]) * 1e6:.1f} us "
            f"| {pct(paired(cpu[n], cpu[o]))} | {spread(cpu[n]):.0f} % "
            f"| {per_request(calls[n][0])} |")
    lines += ["", each_round("Each round, requests/s", names, rps, "{:.0f}"),
              each_round("Each round, server CPU per request (us)", names,
                         {n: [x * 1e6 for x in cpu[n]] for n in names}, "{:.1f}"), ""]
    return "\n".join(lines)


def parse_args():
    p = argparse.ArgumentParser(description="make bench-macro MACRO=service")
    p.add_argument("--rounds", type=int, default=int(os.environ.get("MACRO_ROUNDS", 5)))
    p.add_argument("--requests", type=int, default=100000)
    p.add_argument("--warmup", type=int, default=10000)
    p.add_argument("--concurrency", type=int, default=8)
    p.add_argument("--selection", action="store_true")
    p.add_argument("--mode", action="append", default=[], metavar="NAME=FLAGS")
    a = p.parse_args()
    if min(a.rounds, a.requests, a.warmup, a.concurrency) < 1:
        p.error("--rounds, --requests, --warmup and --concurrency must be at least 1")
    if a.requests % a.concurrency or a.warmup % a.concurrency:
        p.error("--requests and --warmup must be multiples of --concurrency (hey sends "
                "requests / concurrency from each worker)")
    a.modes = modes_of(p, a, MODES, SELECTION)
    return a


def main():
    os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    a = parse_args()
    if not shutil.which("hey"):
        sys.exit("bench_service: hey is not installed (scripts/deps.sh installs it)")
    servers = build(a.modes)
    names = [ORIGINAL] + [n for n, _ in a.modes]
    res = {n: [] for n in names}
    load0 = os.getloadavg()[0]
    for r in range(a.rounds):
        for k in range(len(names)):
            n = names[(r + k) % len(names)]
            res[n].append(one_run(servers[n], a, count=(r == 0 and n != ORIGINAL)))
            rps, p99, cpu, _ = res[n][-1]
            print(f"bench_service: round {r + 1}/{a.rounds} {n}: {rps:.0f} requests/s, "
                  f"p99 {p99 * 1e3:.1f} ms, CPU {cpu * 1e6:.1f} us/request",
                  file=sys.stderr, flush=True)
    text = report(names, res, a, (load0, os.getloadavg()[0]))
    with open(OUT + "/service.md", "w") as f:
        f.write(text)
    print(text, end="")


main()
