#!/usr/bin/env python3
"""gdbcount.py GO BINARY EXPECT [ARGS...]: an independent check of an expect file.

Runs BINARY (built with the go command GO, not stripped) under gdb with a
breakpoint on the entry of every function EXPECT names and on each of its
calls to runtime.morestack (a stack growth re-runs the function from its
entry, so those re-entries are subtracted), and compares the hit counts with
EXPECT. It is how the expect files were verified, and the tests keep using
it: tests/programs/t_gdb_expect.sh re-checks panics and iface with Go 1.22 on every
`make check`, tests/stubs/t_goroutines.sh counts goroutines with it. By hand:

  . tests/lib.sh; build_go 1.22 testdata/stack /tmp/stack
  python3 testdata/gdbcount.py /usr/lib/go-1.22/bin/go /tmp/stack testdata/stack/expect

Slow (each hit stops the program); signals that interrupt a breakpoint step
over-count, so programs using the CPU profiler (hammer) need a scratch copy
without it and with fewer iterations. Asynchronous preemption is turned off.
"""
import os, re, subprocess, sys

go, binary, expect = sys.argv[1:4]
args = sys.argv[4:]
# 'go version' (Go 1.15 has no GOVERSION in go env)
ver = subprocess.run([go, 'version'], capture_output=True, text=True).stdout
ver = re.search(r'go(1\.\d+)', ver).group(1)
nm = subprocess.run([go, 'tool', 'nm', binary], capture_output=True, text=True, check=True).stdout
syms = {}
for l in nm.splitlines():
    p = l.split()
    if len(p) >= 3 and p[1] in 'Tt':
        syms.setdefault(p[2], []).append(p[0])


def pcln(n):
    """The name pclntab (and so gostat) uses: Go 1.19 prints type arguments as [...]."""
    if ver == '1.19' and '[' in n:
        return n[:n.index('[')] + '[...]' + n[n.rindex(']') + 1:]
    return n


def applies(sel):
    for s in sel.split(','):
        if s.startswith('go>='):
            if tuple(map(int, ver.split('.'))) >= tuple(map(int, s[4:].split('.'))):
                return True
        elif s == 'go' + ver:
            return True
    return False


want = []
for l in open(expect):
    l = l.split('#')[0].strip()
    if not l:
        continue
    f = l.split()
    if f[0].endswith(':'):
        if not applies(f[0][:-1]):
            continue
        f = f[1:]
    want.append((f[0], int(f[1])))

cmds = ['set pagination off', 'set confirm off', 'set auto-load safe-path /nonexistent',
        'handle SIGURG nostop noprint pass', 'handle SIGPROF nostop noprint pass',
        'handle SIGPIPE nostop noprint pass']
bp = 0
bpmap = {}
for name, _ in want:
    names = [s for s in syms if pcln(s) == name]
    if not names:
        print('NO SYMBOL', name)
        continue
    for s in names:
        for a in syms[s]:
            bp += 1
            bpmap[bp] = (name, 1)
            cmds += ['break *0x' + a, 'ignore %d 2000000000' % bp]
        od = subprocess.run([go, 'tool', 'objdump', '-s', '^' + re.escape(s) + '$', binary],
                            capture_output=True, text=True).stdout
        for l in od.splitlines():
            if 'CALL runtime.morestack' in l:
                bp += 1
                bpmap[bp] = (name, -1)
                cmds += ['break *' + l.split()[1], 'ignore %d 2000000000' % bp]
cmds += ['run ' + ' '.join(args) + ' >/dev/null 2>&1', 'info breakpoints']
env = dict(os.environ, GODEBUG='asyncpreemptoff=1')
out = subprocess.run(['gdb', '-nx', '-batch'] + sum([['-ex', c] for c in cmds], []) + [binary],
                     capture_output=True, text=True, env=env).stdout
hits = {}
cur = None
for l in out.splitlines():
    m = re.match(r'^(\d+)\s+breakpoint', l)
    if m:
        cur = int(m.group(1))
        hits.setdefault(bpmap[cur][0], 0)
        continue
    m = re.search(r'breakpoint already hit (\d+) time', l)
    if m and cur:
        hits[bpmap[cur][0]] += bpmap[cur][1] * int(m.group(1))
bad = 0
for name, n in want:
    h = hits.get(name, 0)
    if h != n:
        bad += 1
    print('%-8s %s expect=%d gdb=%d' % ('ok' if h == n else 'MISMATCH', name, n, h))
sys.exit(1 if bad else 0)
