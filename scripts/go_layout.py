#!/usr/bin/env python3
"""go_layout.py BINARY: prints every runtime offset of a Go release's
description (rewriter/find/runtime_offsets.c: g.m, g.stack.hi, g.racectx,
m.tls, g.goid, g.sched.sp, m.g0, m.curg, moduledata.text, moduledata.gofunc,
the signal fields g.sig, g.sigcode0, g.sigcode1, g.sigpc, and g.gopc,
g.startpc), read from the binary's DWARF with objdump --dwarf=info; "-" for
a member the release does not have. Used to verify a release's row (build
any program with it, not stripped) and by tests/rewriter/t_layout.sh."""
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
stack, gobuf = members(dump, 'runtime.stack'), members(dump, 'runtime.gobuf')
md = members(dump, 'runtime.moduledata')

def at(struct, name, inner=None, member=None):
    if name not in struct or (inner is not None and member not in inner):
        return '-'
    return '%#x' % (struct[name] + (inner[member] if inner is not None else 0))

fields = [('g.m', at(g, 'm')), ('g.stack.hi', at(g, 'stack', stack, 'hi')),
          ('g.racectx', at(g, 'racectx')), ('m.tls', at(m, 'tls')),
          ('g.goid', at(g, 'goid')), ('g.sched.sp', at(g, 'sched', gobuf, 'sp')),
          ('m.g0', at(m, 'g0')), ('m.curg', at(m, 'curg')),
          ('moduledata.text', at(md, 'text')), ('moduledata.gofunc', at(md, 'gofunc'))]
fields += [('g.' + f, at(g, f)) for f in ('sig', 'sigcode0', 'sigcode1', 'sigpc', 'gopc', 'startpc')]
print(' '.join('%s=%s' % f for f in fields))
