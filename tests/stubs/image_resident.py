#!/usr/bin/env python3
"""image_resident.py PID EXE STATS: how many whole pages of the stats
file's prefix image are resident in PID's mapping of its executable EXE,
as "resident/pages": the image embedded in the executable, from the
header's end to where the file's bytes stop matching it. Start-up copies
it to STATS and drops its pages (stubs/startup.c, write_image), so after
start-up only pages read since may be resident (start-up also marks them
MADV_RANDOM, a mapping of their own, so that the kernel's fault-around
does not map them back from the trampolines before them). Where the image leaves
the function names to the program's own table (Go >= 1.16), the file's
strings must go on with that table's bytes; its pages are not counted:
start-up drops them too, but the kernel maps them back around the
runtime's reads of the tables next to them (fault-around), as it does
in the original program. Used by t_startup."""
import struct, sys

pid, exe, stats = int(sys.argv[1]), sys.argv[2], sys.argv[3]
PAGE = 4096
header_size = struct.unpack_from("<I", open(stats, "rb").read(16), 12)[0]
head = open(stats, "rb").read(PAGE)
functab_off, strtab_off, strtab_size, live_off = (struct.unpack_from("<Q", head, o)[0] for o in (64, 72, 80, 88))
prefix = open(stats, "rb").read(live_off)
body = open(exe, "rb").read()
probe = prefix[functab_off:functab_off + 256]   # function entries: unique bytes
at = body.find(probe)
if at < 0 or body.find(probe, at + 1) >= 0:
    sys.exit("image_resident: the image is not found once in the executable")
base = at - functab_off                          # the image's offset in the executable
end = header_size
while end < live_off:                            # where the embedded image ends
    n = min(PAGE, live_off - end)
    if body[base + end:base + end + n] == prefix[end:end + n]:
        end += n
        continue
    while body[base + end] == prefix[end]:
        end += 1
    break
spans = [(base + header_size, base + end)]
strtab_end = strtab_off + strtab_size
if end < strtab_end:                             # the names, from the program's table
    names = prefix[end:strtab_end]
    n_at = body.find(names[:PAGE])
    if n_at < 0 or body[n_at:n_at + len(names)] != names:
        sys.exit("image_resident: the strings after the image (%d bytes) are not in the executable" % len(names))

maps = []
for line in open(f"/proc/{pid}/maps"):
    f = line.split()
    if len(f) >= 6 and f[5] == exe:
        lo, hi = (int(x, 16) for x in f[0].split("-"))
        maps.append((lo, hi, int(f[2], 16)))
# start-up may give the image's pages a mapping of their own (MADV_RANDOM:
# stubs/startup.c keep_apart), next to the one holding the bytes before them
resident = pages = 0
with open(f"/proc/{pid}/pagemap", "rb") as pm:
    for first, last in spans:
        for off in range((first + PAGE - 1) // PAGE * PAGE, last // PAGE * PAGE, PAGE):
            m = next(((lo, off0) for lo, hi, off0 in maps if off0 <= off < off0 + (hi - lo)), None)
            if m is None:
                sys.exit("image_resident: no mapping of the executable holds file offset %#x" % off)
            pm.seek((m[0] + off - m[1]) // PAGE * 8)
            resident += struct.unpack("<Q", pm.read(8))[0] >> 63
            pages += 1
print(f"{resident}/{pages}")
