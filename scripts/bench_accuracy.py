#!/usr/bin/env python3
"""scripts/bench_accuracy.py (make bench-macro MACRO=accuracy): are the
default mode's estimated times right? The check: on the gofmt macro's
compile (scripts/bench_macro.py: `go build -a cmd/gofmt` with Go 1.22's
compile instrumented, the same build and input in both modes), the
default's estimated total of each of the TOP functions with the most
on-CPU time under --time-all (which times every call: exact) is within
TOLERANCE of --time-all's total.

The two modes' builds run interleaved, ROUNDS of each; every build's stats
files (one per compile process) are summed by `gostat merge`, and each
function's totals are the medians over the rounds. A function's total is
inclusive (its callees' time counts), summed over the processes. With two
or more rounds, the spread of --time-all's own rounds, max / min of a
function's totals, shows how much of a ratio is machine noise rather than
estimation; when its median over the judged functions exceeds the
tolerance, the verdict says it is noise-bound.

The check is judged on on-CPU totals (`oncpu_ns`, summed over the
processes): compensation takes the probes' cost out of every duration,
but not the waits on other goroutines and threads that the probes slowed
down, and --time-all's build runs about 2.5 times as long as the
default's: a function that waits (the scheduler's, the compiler's
workers' WaitGroup) reads longer in wall-clock time by that slowdown,
which is no estimation error. Wall-clock totals are printed too, not
judged. The column "share ratio" divides each mode's total by that
mode's total of the compiler's main (BASE, called once per process and
timed in every mode), i.e. compares shares of the compile's time.

Also printed, not judged: the same for the TOP functions with the most
time among those whose total the default estimates (`time_estimated`:
functions called often enough to be sampled); the first list is mostly
long calls that every mode times exactly (the compiler's main, its
phases).

usage: bench_accuracy.py [--rounds N] [--top N] [--tolerance F]
Writes build/bench/accuracy.md and prints it; exits 0 whatever the
verdict (a benchmark; the verdict is in the text).
"""
import argparse
import datetime
import json
import os
import statistics
import sys

from bench_common import OUT, gorewrite_commit, machine, run
from bench_macro import GO, TARGET, one_build, prepare

MODES = [("default", []), ("time-all", ["--time-all"])]
BASE = "cmd/compile/internal/gc.Main"


WALL, ONCPU = 1, 3   # the two totals in merged()'s tuples


def merged(stats):
    """{name: (calls, total ns or None, estimated, on-CPU ns or None)} of one
    build's stats files: calls and totals summed by gostat merge; estimated
    (`time_estimated`) and on-CPU totals from gostat --json of each process
    (merge's output has neither)."""
    estimated, oncpu = set(), {}
    for name in os.listdir(stats):
        r = run(["bin/gostat", "--json", os.path.join(stats, name)], capture_output=True, text=True)
        for f in json.loads(r.stdout)["functions"]:
            if f.get("time_estimated"):
                estimated.add(f["name"])
            if f.get("oncpu_ns") is not None:
                oncpu[f["name"]] = oncpu.get(f["name"], 0) + f["oncpu_ns"]
    r = run(["bin/gostat", "merge", "--dir", stats], capture_output=True, text=True)
    return {f["name"]: (f["calls"], f["total_ns"], f["name"] in estimated, oncpu.get(f["name"]))
            for f in json.loads(r.stdout)["functions"]}


def medians(builds, k):
    """{name: (median calls, median total ns)} over rounds of total k (WALL
    or ONCPU), functions timed in every round."""
    names = set.intersection(*(set(n for n, v in b.items() if v[k] is not None) for b in builds))
    return {n: (statistics.median(b[n][0] for b in builds),
                statistics.median(b[n][k] for b in builds)) for n in names}


def noise_ratio(builds, name, k):
    """max / min of NAME's totals k over BUILDS, or None."""
    totals = [b[name][k] for b in builds]
    return max(totals) / min(totals) if len(totals) > 1 and min(totals) > 0 else None


def noise(builds, name, k):
    r = noise_ratio(builds, name, k)
    return "-" if r is None else f"{r:.3f}"


def noise_note(builds, names, tolerance, k):
    """Whether --time-all's own rounds differ by more than the check
    allows: then a FAIL may be the machine's, not the estimate's."""
    ratios = [r for r in (noise_ratio(builds, n, k) for n in names) if r is not None]
    if not ratios:
        return "one round: no measure of the noise (use --rounds 3 or more)."
    m = statistics.median(ratios)
    if m <= 1 + tolerance:
        return f"noise: --time-all's own rounds differ by a median max/min of {m:.3f}."
    return (f"**noise-bound**: --time-all's own rounds of these functions differ by a median "
            f"max/min of {m:.3f}, more than the tolerance, so this verdict does not tell "
            f"estimation error from machine noise; run it on a quiet machine.")


def table(title, names, dflt, timed, timed_builds, tolerance, k):
    """Markdown lines for NAMES and how many are outside TOLERANCE."""
    lines = [f"### {title}", "",
             "| function | calls (time-all) | time-all total | default total | default / time-all "
             "| share ratio | time-all max/min over rounds |",
             "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
    base = dflt[BASE][1] / timed[BASE][1] if BASE in dflt and BASE in timed else None
    bad = 0
    for n in names:
        t, d = timed[n][1], dflt[n][1] if n in dflt else None
        ratio = d / t if d is not None and t > 0 else None
        ok = ratio is not None and abs(ratio - 1) <= tolerance
        bad += not ok
        share = f"{ratio / base:.3f}" if ratio is not None and base else "-"
        lines.append(f"| `{n}` | {timed[n][0]:.0f} | {t / 1e6:.1f} ms "
                     f"| {'-' if d is None else f'{d / 1e6:.1f} ms'} "
                     f"| {'-' if ratio is None else f'{ratio:.3f}'}{'' if ok else ' **out**'} "
                     f"| {share} | {noise(timed_builds, n, k)} |")
    return lines + [""], bad


def parse_args():
    p = argparse.ArgumentParser(description="make bench-macro MACRO=accuracy")
    p.add_argument("--rounds", type=int, default=int(os.environ.get("MACRO_ROUNDS", 3)))
    p.add_argument("--top", type=int, default=20)
    p.add_argument("--tolerance", type=float, default=0.10)
    a = p.parse_args()
    if a.rounds < 1 or a.top < 1 or a.tolerance <= 0:
        p.error("--rounds and --top must be at least 1, --tolerance above 0")
    return a


def main():
    os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    a = parse_args()
    wrapper, compiles = prepare(MODES)
    builds = {n: [] for n, _ in MODES}
    for r in range(a.rounds):
        for n, _ in MODES:
            cpu, _, funcs = one_build(wrapper, compiles[n], merged)
            builds[n].append(funcs)
            print(f"bench_accuracy: round {r + 1}/{a.rounds} {n}: CPU {cpu:.2f} s, "
                  f"{len(funcs)} functions", file=sys.stderr, flush=True)
    estimated = {n for b in builds["default"] for n, v in b.items() if v[2]}
    go_version = run([GO, "version"], capture_output=True, text=True).stdout.split()[2]
    lines = [f"## make bench-macro MACRO=accuracy ({datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC, {machine()})",
             "",
             f"`go build -a -o /dev/null {TARGET}`, Go {go_version}, its compile instrumented by "
             f"gorewrite {gorewrite_commit()} in the default mode and with --time-all, "
             f"{a.rounds} interleaved round{'s' if a.rounds > 1 else ''} each; per function "
             f"the median over rounds of its total (inclusive) time summed over the build's "
             f"compile processes (`gostat merge`), on-CPU (judged) and wall-clock (not judged: "
             f"waits grow with the slower mode's run).", ""]
    verdicts = []
    for k, what in ((ONCPU, "on-CPU"), (WALL, "wall-clock")):
        dflt, timed = medians(builds["default"], k), medians(builds["time-all"], k)
        by_time = sorted(timed, key=lambda n: -timed[n][1])
        judged, bad = table(f"{what}: the {a.top} functions with the most time under --time-all",
                            by_time[:a.top], dflt, timed, builds["time-all"], a.tolerance, k)
        shown, bad_est = table(f"{what}: the {a.top} with the most time among those the default "
                               f"estimates", [n for n in by_time if n in estimated][:a.top], dflt,
                               timed, builds["time-all"], a.tolerance, k)
        lines += judged + shown
        verdicts.append((what, bad, bad_est, noise_note(builds["time-all"], by_time[:a.top],
                                                         a.tolerance, k)))
    what, bad, bad_est, note = verdicts[0]
    lines += [
        f"The accuracy check ({what} totals, the first table, every ratio within "
        f"{a.tolerance * 100:.0f} %): **{'PASS' if bad == 0 else 'FAIL'}**, {bad} of {a.top} "
        f"outside; among estimated functions (not judged): {bad_est} outside; " + note, ""]
    what, bad, bad_est, note = verdicts[1]
    lines += [f"Not judged, {what} totals: {bad} of {a.top} outside, {bad_est} among estimated "
              f"functions; " + note, ""]
    text = "\n".join(lines)
    with open(OUT + "/accuracy.md", "w") as f:
        f.write(text)
    print(text, end="")


main()
