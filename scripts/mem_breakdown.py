#!/usr/bin/env python3
"""scripts/mem_breakdown.py PID: where a running instrumented program's
resident memory is, as one JSON line: VmHWM/VmRSS (KiB), the stats file's
pages resident in this process by table (from /proc/PID/pagemap over its
MAP_SHARED mapping, classified with the file's header: live page, per-row
head = drops+page map+counters, timing pages, path and arc tables, sites),
the timing stacks' resident pages (the NORESERVE anonymous range of 8 MiB
slots) and the program's text/data mappings. Used by scripts/bench_memory.sh.
Needs root (pagemap's present bit)."""
import json, os, re, struct, sys

PAGE = 4096
SLOT = 1 << 23  # GS_SLOT_SIZE (format/stub_abi.h)


def status(pid):
    out = {}
    for line in open(f"/proc/{pid}/status"):
        k, _, v = line.partition(":")
        if k in ("VmHWM", "VmRSS", "RssAnon", "RssFile", "RssShmem", "Threads"):
            out[k] = int(v.split()[0])
    return out


def mappings(pid):
    """(start, end, offset, path, rss_kib) of every mapping, from smaps."""
    maps, cur = [], None
    head = re.compile(r"^([0-9a-f]+)-([0-9a-f]+) \S+ ([0-9a-f]+) \S+ \d+\s*(.*)$")
    for line in open(f"/proc/{pid}/smaps"):
        m = head.match(line)
        if m:
            cur = [int(m[1], 16), int(m[2], 16), int(m[3], 16), m[4].strip(), 0]
            maps.append(cur)
        elif line.startswith("Rss:") and cur:
            cur[4] = int(line.split()[1])
        elif line.startswith("VmFlags:") and cur:
            cur.append(line.split()[1:])
    return maps


def resident(pid, start, npages):
    """Present bits of npages pages from start."""
    with open(f"/proc/{pid}/pagemap", "rb") as f:
        f.seek(start // PAGE * 8)
        raw = f.read(npages * 8)
    return [(v >> 63) & 1 for v in struct.unpack(f"<{len(raw) // 8}Q", raw)]


def header(path):
    with open(path, "rb") as f:
        h = f.read(1784)
    u64 = lambda o: struct.unpack_from("<Q", h, o)[0]
    u32 = lambda o: struct.unpack_from("<I", h, o)[0]
    return dict(nfuncs=u32(56), flags=u32(60), live_off=u64(88), rows_off=u64(96),
                row_stride=u64(104), max_rows=u32(112), ntimed=u32(1304),
                counts_off=u64(1312), timing_off=u64(1320), paths_off=u64(1424),
                arcs_off=u64(1432), sites_off=u64(1480), file_size=u64(16))


def classify(h, off):
    """Which table file offset off belongs to."""
    if off < h["rows_off"]:
        return "live"
    if h["sites_off"] and off >= h["sites_off"]:
        return "sites"
    r, inrow = divmod(off - h["rows_off"], h["row_stride"])
    if r >= h["max_rows"]:
        return "other"
    ends = [("head", h["timing_off"] or h["row_stride"]), ("timing", h["paths_off"] or h["row_stride"]),
            ("paths", h["arcs_off"] or h["row_stride"]), ("arcs", h["row_stride"])]
    for name, end in ends:
        if inrow < end:
            return name
    return "other"


def breakdown(pid):
    out = status(pid)
    stats = dict(live=0, head=0, timing=0, paths=0, arcs=0, sites=0, other=0)
    rows, stacks, text = set(), 0, 0
    exe = os.readlink(f"/proc/{pid}/exe")
    for start, end, off, path, rss, *flags in mappings(pid):
        base = os.path.basename(path)
        if base.startswith("gostat.") and path.startswith("/"):
            h = header(path)
            for i, p in enumerate(resident(pid, start, (end - start) // PAGE)):
                if p:
                    fo = off + i * PAGE
                    kind = classify(h, fo)
                    stats[kind] += PAGE // 1024
                    if kind in ("head", "timing", "paths", "arcs"):
                        rows.add((fo - h["rows_off"]) // h["row_stride"])
            out["ntimed"], out["nfuncs"] = h["ntimed"], h["nfuncs"]
            # tmpfs blocks: memory the file holds, mapped here or not
            out["stats_file_blocks"] = os.stat(path).st_blocks // 2
        elif path == exe:
            text += rss
        elif not path and end - start >= 64 * SLOT and "nr" in (flags[0] if flags else []):
            stacks += rss
    out.update({f"stats_{k}": v for k, v in stats.items()})
    out["stats_total"] = sum(stats.values())
    out["rows_touched"] = len(rows)
    out["timing_stacks"] = stacks
    out["exe_mapped"] = text
    return out


if __name__ == "__main__":
    print(json.dumps(breakdown(int(sys.argv[1]))))
