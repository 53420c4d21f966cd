#!/usr/bin/env python3
"""go_layout.py BINARY: prints the runtime.g / runtime.m member offsets that
rewriter/find/runtime_offsets.c needs (g.m, g.stack.hi, g.racectx, m.tls) and the
signal fields of go_sigpanic.c (g.sig, g.sigcode0, g.sigcode1, g.sigpc), read from
the binary's DWARF with objdump --dwarf=info. Used to verify a row of the
layout table for a Go release (build any program with it, not stripped)."""
import re, subprocess, sys

def members(dump, struct):
    out, inside, depth, cur, pending, name = {}, False, None, None, None, None
    for line in dump.splitlines():
        m = re.match(r'\s*<(\d+)><[0-9a-f]+>: Abbrev Number: \d+ \((DW_TAG_\w+)\)', line)
        if m:
            d, tag = int(m.group(1)), m.group(2)
            if inside and d <= depth:
                if out:
                    return out
                inside = False
            cur = tag if inside and d == depth + 1 else None
            if tag == 'DW_TAG_structure_type':
                pending = d
            continue
        a = re.search(r'DW_AT_name\s*:\s*(?:\(indirect string, offset: 0x[0-9a-f]+\): )?(\S+)', line)
        if a and not inside and a.group(1) == struct and pending is not None:
            inside, depth, out = True, pending, {}
            continue
        if inside and cur == 'DW_TAG_member':
            if a:
                name = a.group(1)
            o = re.search(r'DW_AT_data_member_location:\s*(\d+)', line)
            if o:
                out[name] = int(o.group(1))
    return out

dump = subprocess.run(['objdump', '--dwarf=info', sys.argv[1]], capture_output=True,
                      text=True, check=True).stdout
g, m = members(dump, 'runtime.g'), members(dump, 'runtime.m')
stack = members(dump, 'runtime.stack')
print('g.m=%#x g.stack.hi=%#x g.racectx=%#x m.tls=%#x g.sig=%#x g.sigcode0=%#x g.sigcode1=%#x g.sigpc=%#x' %
      (g['m'], g['stack'] + stack['hi'], g['racectx'], m['tls'], g['sig'], g['sigcode0'],
       g['sigcode1'], g['sigpc']))
