#!/usr/bin/env python3
"""image_resident.py PID EXE STATS: how many whole pages of the stats
file's prefix image (from the header's end to live_off) are resident in
PID's mapping of its executable EXE, as "resident/pages". Start-up copies
the image to STATS and drops its pages (stubs/startup.c, write_image), so
after start-up only pages read since may be resident. Used by t_startup."""
import struct, sys

pid, exe, stats = int(sys.argv[1]), sys.argv[2], sys.argv[3]
PAGE = 4096
prefix = open(stats, "rb").read(PAGE * 64)
header_size = struct.unpack_from("<I", prefix, 12)[0]
functab_off, live_off = struct.unpack_from("<Q", prefix, 64)[0], struct.unpack_from("<Q", prefix, 88)[0]
body = open(exe, "rb").read()
probe = prefix[functab_off:functab_off + 256]   # function entries: unique bytes
at = body.find(probe)
if at < 0 or body.find(probe, at + 1) >= 0:
    sys.exit("image_resident: the image is not found once in the executable")
first, end = at - functab_off + header_size, at - functab_off + live_off   # file offsets
for line in open(f"/proc/{pid}/maps"):
    f = line.split()
    lo, hi = (int(x, 16) for x in f[0].split("-"))
    off = int(f[2], 16)
    if len(f) >= 6 and f[5] == exe and off <= first and end <= off + (hi - lo):
        a = (lo + first - off + PAGE - 1) // PAGE
        b = (lo + end - off) // PAGE
        with open(f"/proc/{pid}/pagemap", "rb") as pm:
            pm.seek(a * 8)
            raw = pm.read((b - a) * 8)
        bits = struct.unpack(f"<{b - a}Q", raw)
        print(f"{sum(v >> 63 for v in bits)}/{b - a}")
        break
else:
    sys.exit("image_resident: no mapping of the executable holds the image")
