# gdb_capture.py: run inside gdb (tests/rewriter/t_trace_values_gdb.sh). Takes
# each traced function's layout as trace_layout_dump prints it (file named
# by $TRACE_LAYOUTS; their addresses: `go tool nm` in $TRACE_SYMS), stops at each entry and after each return, reads the
# words and byte copies the layout names from the real registers and
# stack, as the --trace capture does, and writes them ($TRACE_CAPTURES) for
# trace_values_render. An independent capture: gdb, not our stubs.
import os, re
import gdb

MAXB = 64
layouts = {}   # entry address -> (name, entry srcs, entry bytes, exit srcs, exit bytes)
out = open(os.environ['TRACE_CAPTURES'], 'w')

def parse_srcs(text):
    srcs, pairs = [], []
    for tok in text.split():
        m = re.match(r'bytes\(w(\d+),w(\d+)\)', tok)
        if m:
            pairs.append((int(m.group(1)), int(m.group(2))))
            continue
        deref = tok.endswith('->8')
        tok = tok[:-3] if deref else tok
        m = re.match(r'\[rsp\+(\d+)\]', tok)
        srcs.append((('stack', int(m.group(1))) if m else ('reg', tok), deref))
    return srcs, pairs

def u64(addr):
    return int.from_bytes(bytes(gdb.selected_inferior().read_memory(addr, 8)), 'little')

def read_src(src, rsp_at_ret_or_entry):
    (kind, where), deref = src
    if kind == 'stack':
        v = u64(rsp_at_ret_or_entry + where)
    elif where.startswith('x'):
        v = int(gdb.parse_and_eval('$%s.v2_int64[0]' % where.replace('x', 'xmm'))) & (2**64 - 1)
    else:
        v = int(gdb.parse_and_eval('$' + where)) & (2**64 - 1)
    if deref and v:
        v = u64(v + 8)
    return v

def capture(tag, srcs, pairs, rsp):
    words = [read_src(s, rsp) for s in srcs]
    out.write('%s %s\n' % (tag, ' '.join('%x' % w for w in words)))
    for p, l in pairs:
        n = min(words[l], MAXB)
        data = bytes(gdb.selected_inferior().read_memory(words[p], n)) if n else b''
        out.write('%sB %d %s\n' % (tag, words[l], data.hex() or '-'))

class Ret(gdb.Breakpoint):
    """At the caller's return address (taken at entry): a stack copied
    meanwhile (growth) does not move it, unlike a frame-based finish."""
    def __init__(self, layout, ret):
        super().__init__('*0x%x' % ret, internal=True, temporary=True)
        self.layout = layout
        self.done = False
    def stop(self):
        # a breakpoint that does not stop stays: fire once
        if self.done:
            return False
        self.done = True
        rsp = int(gdb.parse_and_eval('$rsp')) - 8   # RSP as it was at the ret
        capture('X', self.layout[3], self.layout[4], rsp)
        out.flush()
        return False

class Entry(gdb.Breakpoint):
    def __init__(self, addr, layout):
        super().__init__('*0x%x' % addr, internal=True)
        self.layout = layout
    def stop(self):
        out.write('CALL %s\n' % self.layout[0])
        rsp = int(gdb.parse_and_eval('$rsp'))
        capture('E', self.layout[1], self.layout[2], rsp)
        Ret(self.layout, u64(rsp))
        return False

# `go tool nm` output: ADDRESS T NAME
addrs = {}
for line in open(os.environ['TRACE_SYMS']):
    p = line.split(None, 2)
    if len(p) == 3 and p[1] in 'Tt':
        addrs.setdefault(p[2].strip(), int(p[0], 16))

name = None
for line in open(os.environ['TRACE_LAYOUTS']):
    if not line.startswith(' '):
        name = line.strip()
        cur = [name]
    elif line.startswith('  entry:'):
        cur += list(parse_srcs(line.split(':', 1)[1]))
    elif line.startswith('  exit:'):
        cur += list(parse_srcs(line.split(':', 1)[1]))
        addr = addrs[name]
        layouts[addr] = cur
        Entry(addr, cur)
gdb.execute('run')
out.close()
