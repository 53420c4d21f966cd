"""scripts/bench_common.py: what the macro benchmarks share
(scripts/bench_macro.py, bench_service.py, bench_accuracy.py): running a
command, the machine and its rdtsc cost for every report's header, the
commit measured, and medians of paired ratios."""
import os
import statistics
import subprocess

OUT = "build/bench"


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, **kw)


def rdtsc_ns():
    """One rdtsc's cost here in ns (scripts/rdtsc_cost.c, in CPU time), as
    a string: the least of 3 runs (a loaded machine's cache and frequency
    noise only ever add)."""
    os.makedirs(OUT, exist_ok=True)
    exe = OUT + "/rdtsc_cost"
    run(["cc", "-O2", "-o", exe, "scripts/rdtsc_cost.c"])
    runs = [float(run([exe], capture_output=True, text=True).stdout) for _ in range(3)]
    return f"{min(runs):.1f}"


def machine():
    model = "unknown CPU"
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    return f"{os.cpu_count()} cores, {model}, rdtsc {rdtsc_ns()} ns"


def gorewrite_commit():
    r = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    return r.stdout.strip() if r.returncode == 0 else "unknown"


def instrument(flags, binary, out):
    """bin/gorewrite FLAGS BINARY OUT, quietly."""
    run(["bin/gorewrite"] + flags + [binary, out], stdout=subprocess.DEVNULL)


def paired(xs, base):
    """The median of the round-by-round ratios xs[i] / base[i]: the round's
    machine noise hits both alike, so it cancels better than in the ratio
    of the medians."""
    return statistics.median(x / b for x, b in zip(xs, base))


def pct(ratio):
    return f"{ratio:.3f} ({(ratio - 1) * 100:+.1f} %)"


def spread(xs):
    """Noise of one mode's rounds: (max - min) / median, in percent."""
    return (max(xs) - min(xs)) / statistics.median(xs) * 100


def each_round(label, names, values, form):
    """The line listing every round's VALUES[name] of each of NAMES."""
    return f"{label}: " + "; ".join(
        f"{n} " + " ".join(form.format(x) for x in values[n]) for n in names)


def modes_of(parser, args, modes, selection):
    """The (name, gorewrite flags) measured: MODES, or those of --mode
    NAME=FLAGS (FLAGS split on blanks), and SELECTION's with --selection."""
    if args.mode:
        modes = []
        for m in args.mode:
            if "=" not in m:
                parser.error(f"--mode {m!r}: expected NAME=FLAGS")
            name, flags = m.split("=", 1)
            modes.append((name, flags.split()))
    return modes + (selection if args.selection else [])
