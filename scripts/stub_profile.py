#!/usr/bin/env python3
"""stub_profile.py: where an instrumented program's time goes inside the
stub blob, instruction by instruction.

    python3 scripts/stub_profile.py [--period NS] [--top N] BINARY -- COMMAND...

BINARY is the output of this tree's bin/gorewrite (its blob must be
build/stubs/blob0.elf's code: the script checks), COMMAND runs it (a script
that runs it is fine: perf follows children). perf samples the CPU clock
(`perf record -e cpu-clock`: a timer, so it works where hardware counters do
not, as in this project's KVM guests) every NS nanoseconds of CPU. Samples
in BINARY's new executable segment are mapped to the blob's routines
(gs_path_return+0x2ac); the rest are counted as the program's or the
kernel's. A timer sample lands on the instruction after one that stalled
(skid), so each hot offset is printed with the instruction before it.

It answers what a callgrind count cannot: which of a stub's instructions
cost time (a cache miss, rdtsc) rather than how many run. Differences
between builds are better measured by interleaved runs (BENCHMARKS.md).
Needs perf (Debian: linux-perf, installed by scripts/deps.sh)."""

import argparse
import bisect
import collections
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BLOB_ELF = os.path.join(ROOT, "build/stubs/blob0.elf")
BLOB_MAGIC = struct.pack("<Q", 0x31304F4C42524721)  # stub_abi.h GS_BLOB_MAGIC


def fail(msg):
    sys.exit("stub_profile: " + msg)


def exec_segments(path):
    """[(file offset, file size)] of BINARY's executable PT_LOAD segments."""
    with open(path, "rb") as f:
        data = f.read(64)
        if data[:4] != b"\x7fELF" or data[4] != 2:
            fail("%s: not a 64-bit ELF file" % path)
        phoff, = struct.unpack_from("<Q", data, 32)
        phentsize, phnum = struct.unpack_from("<HH", data, 54)
        f.seek(phoff)
        table = f.read(phentsize * phnum)
    segs = []
    for i in range(phnum):
        p_type, p_flags, p_offset, _, _, p_filesz = struct.unpack_from("<IIQQQQ", table, i * phentsize)
        if p_type == 1 and p_flags & 1:
            segs.append((p_offset, p_filesz))
    return segs


def blob_file_offset(path, blob_text):
    """The file offset of the blob in BINARY (the last executable segment,
    after its program headers), checked against the blob ELF's code."""
    segs = exec_segments(path)
    if not segs:
        fail("%s: no executable segment" % path)
    off, size = max(segs)
    with open(path, "rb") as f:
        f.seek(off)
        seg = f.read(size)
    at = seg.find(BLOB_MAGIC)
    if at < 0:
        fail("%s: no gorewrite stub blob (is it gorewrite's output?)" % path)
    # Compare a stretch of code after the header (the config block is
    # filled per binary; the code is not).
    probe = blob_text[0x200:0x600]
    if seg[at + 0x200:at + 0x600] != probe:
        fail("%s: its blob is not %s's code: rebuild it with this tree's bin/gorewrite" % (path, BLOB_ELF))
    return off + at, off + size


def blob_symbols():
    out = subprocess.run(["nm", "-n", BLOB_ELF], capture_output=True, text=True, check=True).stdout
    syms = []
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in "tT" and not parts[2].startswith("."):
            syms.append((int(parts[0], 16), parts[2]))
    return syms


def blob_text():
    with tempfile.NamedTemporaryFile() as t:
        subprocess.run(["objcopy", "-O", "binary", BLOB_ELF, t.name], check=True)
        return open(t.name, "rb").read()


def blob_disassembly():
    """{blob offset: (instruction text, previous instruction's offset)}"""
    out = subprocess.run(["objdump", "-d", "--no-show-raw-insn", BLOB_ELF],
                         capture_output=True, text=True, check=True).stdout
    insns, prev = {}, None
    for line in out.splitlines():
        m = re.match(r"\s+([0-9a-f]+):\s+(.*)", line)
        if m:
            off = int(m.group(1), 16)
            insns[off] = (" ".join(m.group(2).split()), prev)
            prev = off
    return insns


def record(period, command):
    data = tempfile.NamedTemporaryFile(suffix=".perf", delete=False).name
    rc = subprocess.run(["perf", "record", "-q", "-e", "cpu-clock", "-c", str(period),
                         "-o", data, "--"] + command).returncode
    if rc != 0:
        print("stub_profile: the command exited %d (its samples are still read)" % rc, file=sys.stderr)
    return data


def samples(data, binary, blob_start, blob_end, seg_end):
    """Counter of ('blob', file offset) / ('trampolines', '') / ('program',
    symbol) / ('kernel', symbol) / ('other', dso) over the recorded samples.
    perf names an address it has no symbol for by its file offset: the
    blob's, the trampolines' after it, or a stripped program's."""
    out = subprocess.run(["perf", "report", "-i", data, "--stdio", "--sort", "dso,sym", "-F",
                          "sample,dso,sym", "--percent-limit", "0"],
                         capture_output=True, text=True, check=True).stdout
    name = os.path.basename(binary)
    counts = collections.Counter()
    for line in out.splitlines():
        m = re.match(r"\s*(\d+)\s+(\S+)\s+\[(.)\]\s+(.*)", line)
        if not m:
            continue
        n, dso, kind, sym = int(m.group(1)), m.group(2), m.group(3), m.group(4).strip()
        if kind == "k":
            counts["kernel", "(kernel)"] += n
        elif dso == name and sym.startswith("0x") and blob_start <= int(sym, 16) < blob_end:
            counts["blob", int(sym, 16)] += n
        elif dso == name and sym.startswith("0x") and blob_end <= int(sym, 16) < seg_end:
            counts["trampolines", ""] += n
        elif dso == name and sym.startswith("0x"):
            counts["program", "(no symbol)"] += n
        elif dso == name:
            counts["program", sym] += n
        else:
            counts["other", dso] += n
    return counts


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--period", type=int, default=100000, help="ns of CPU between samples (default 100000)")
    ap.add_argument("--top", type=int, default=25, help="hot blob offsets to list (default 25)")
    ap.add_argument("binary")
    ap.add_argument("command", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    command = a.command[1:] if a.command[:1] == ["--"] else a.command
    if not command:
        ap.error("no COMMAND after --")
    if not os.path.exists(BLOB_ELF):
        fail("%s missing: run make first" % BLOB_ELF)
    if not os.path.isfile(a.binary):
        fail("%s: no such file" % a.binary)
    if not shutil.which("perf"):
        fail("perf not found: install linux-perf (scripts/deps.sh does)")
    text = blob_text()
    base, seg_end = blob_file_offset(a.binary, text)
    syms = blob_symbols()
    starts = [s for s, _ in syms]
    insns = blob_disassembly()
    data = record(a.period, command)
    try:
        counts = samples(data, a.binary, base, base + len(text), seg_end)
    finally:
        os.unlink(data)
    total = sum(counts.values())
    if not total:
        fail("no samples")

    def where(off):
        i = bisect.bisect_right(starts, off) - 1
        return "%s+0x%x" % (syms[i][1], off - syms[i][0]) if i >= 0 else "0x%x" % off

    def routine(off):
        i = bisect.bisect_right(starts, off) - 1
        return syms[i][1] if i >= 0 else "?"

    by_part = collections.Counter()
    by_routine = collections.Counter()
    hot = collections.Counter()
    for (part, what), n in counts.items():
        by_part[part] += n
        if part == "blob":
            off = what - base
            by_routine[routine(off)] += n
            hot[off] += n
    print("%d samples, one per %d ns of CPU" % (total, a.period))
    for part in ("program", "blob", "trampolines", "kernel", "other"):
        print("  %6.2f %%  %s" % (100.0 * by_part[part] / total, part))
    print("\nthe program's hottest functions:")
    progs = collections.Counter({w: n for (p, w), n in counts.items() if p == "program"})
    for f, n in progs.most_common(5):
        print("  %6.2f %%  %s" % (100.0 * n / total, f))
    print("\nblob routines:")
    for r, n in by_routine.most_common():
        print("  %6.2f %%  %s" % (100.0 * n / total, r))
    print("\nhot blob offsets (a sample lands after the instruction that waited):")
    for off, n in hot.most_common(a.top):
        insn, prev = insns.get(off, ("?", None))
        before = insns[prev][0] if prev is not None else "?"
        print("  %6.2f %%  %-24s after: %-40s at: %s" % (100.0 * n / total, where(off), before[:40], insn[:40]))


if __name__ == "__main__":
    main()
