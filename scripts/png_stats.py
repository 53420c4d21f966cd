#!/usr/bin/env python3
"""png_stats.py PNG: what a screenshot shows, for checking that a page
really rendered (scripts/speedscope_shot.sh, tests/gostat/t_flamegraph_clients.sh).
Prints one JSON object: width, height, distinct colours, the fraction
of "coloured" pixels (channels differing by at least COLOURED: a flame
graph's frames are coloured; a blank or landing page is white, grey and
black) and widest_row, the largest share of one pixel row that is coloured
(a flame graph's root frames span its whole width). Decodes 8-bit, non-interlaced RGB/RGBA PNG (what Chromium writes)
with the standard library alone, so any python3 runs it.

As a module: decode(path) -> (width, height, rows of (r, g, b) tuples),
colour_extents(row) -> {colour: (first x, last x)} of a row's coloured
pixels."""
import json
import struct
import sys
import zlib

COLOURED = 24


def _chunks(data):
    pos = 8
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        yield kind, data[pos + 8:pos + 8 + length]
        pos += 12 + length


def _paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def _unfilter(raw, width, height, bpp):
    stride = width * bpp
    rows, prev, pos = [], bytearray(stride), 0
    for _ in range(height):
        ftype, line = raw[pos], bytearray(raw[pos + 1:pos + 1 + stride])
        pos += 1 + stride
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if ftype == 1:
                line[i] = (line[i] + a) & 255
            elif ftype == 2:
                line[i] = (line[i] + b) & 255
            elif ftype == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif ftype == 4:
                line[i] = (line[i] + _paeth(a, b, c)) & 255
        rows.append(line)
        prev = line
    return rows


def decode(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError(f"{path}: not a PNG file")
    idat, hdr = b"", None
    for kind, body in _chunks(data):
        if kind == b"IHDR":
            hdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
    if hdr is None:
        raise ValueError(f"{path}: no IHDR chunk")
    width, height, depth, ctype, _, _, interlace = hdr
    if depth != 8 or ctype not in (2, 6) or interlace:
        raise ValueError(f"{path}: only 8-bit non-interlaced RGB/RGBA is read "
                         f"(depth {depth}, colour type {ctype}, interlace {interlace})")
    bpp = 3 if ctype == 2 else 4
    lines = _unfilter(zlib.decompress(idat), width, height, bpp)
    rows = [[tuple(l[x * bpp:x * bpp + 3]) for x in range(width)] for l in lines]
    return width, height, rows


def coloured(px):
    return max(px) - min(px) >= COLOURED


def colour_extents(row):
    ext = {}
    for x, px in enumerate(row):
        if coloured(px):
            first, _ = ext.get(px, (x, x))
            ext[px] = (first, x)
    return ext


def stats(path):
    width, height, rows = decode(path)
    colours, n, widest = set(), 0, 0
    for row in rows:
        colours.update(row)
        k = sum(1 for px in row if coloured(px))
        n += k
        widest = max(widest, k)
    return {"width": width, "height": height, "colours": len(colours),
            "coloured_fraction": round(n / (width * height), 4),
            "widest_row": round(widest / width, 4)}


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: png_stats.py PNG")
    try:
        print(json.dumps(stats(sys.argv[1])))
    except (OSError, ValueError, zlib.error) as e:
        sys.exit(f"png_stats.py: {e}")
