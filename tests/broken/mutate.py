#!/usr/bin/env python3
"""mutate.py IN OUTDIR: writes broken variants of the x86-64 Go ELF IN into
OUTDIR, one file per case, and prints "name<TAB>description" per case.
Every variant is invalid in a way gorewrite must refuse (exit 2): headers
or tables pointing outside the file or overflowing, overlapping segments, a
pclntab with wrong counts or offsets. Used by tests/rewriter/t_broken.sh."""
import os
import struct
import sys

src, outdir = sys.argv[1], sys.argv[2]
base = open(src, "rb").read()
size = len(base)
E = struct.unpack_from("<16sHHIQQQIHHHHHH", base, 0)
(_, e_type, e_machine, _, e_entry, e_phoff, e_shoff, _, _, e_phentsize, e_phnum,
 e_shentsize, e_shnum, e_shstrndx) = E

def shdr(i):
    off = e_shoff + 64 * i
    return off, struct.unpack_from("<IIQQQQIIQQ", base, off)

def section(name):
    _, strtab = shdr(e_shstrndx)
    for i in range(e_shnum):
        off, s = shdr(i)
        n = base[strtab[4] + s[0]:base.index(b"\0", strtab[4] + s[0])].decode()
        if n == name:
            return i, off, s
    raise SystemExit("mutate.py: %s has no section %s" % (src, name))

def loads():
    r = []
    for i in range(e_phnum):
        off = e_phoff + 56 * i
        p = struct.unpack_from("<IIQQQQQQ", base, off)
        if p[0] == 1:
            r.append((off, p))
    return r

cases = []

def case(name, desc, edits):
    """edits: list of (offset, struct format, value)."""
    d = bytearray(base)
    for off, fmt, val in edits:
        struct.pack_into(fmt, d, off, val)
    open(os.path.join(outdir, name), "wb").write(d)
    cases.append((name, desc))

BIG = 1 << 63
# ELF header
case("phoff-huge", "e_phoff = 2^63", [(32, "<Q", BIG)])
case("phoff-end", "e_phoff near the end of the file", [(32, "<Q", size - 10)])
case("phnum-huge", "e_phnum = 65535", [(56, "<H", 0xFFFF)])
case("phnum-zero", "e_phnum = 0", [(56, "<H", 0)])
case("phentsize", "e_phentsize = 32", [(54, "<H", 32)])
case("shoff-huge", "e_shoff = 2^64-1", [(40, "<Q", (1 << 64) - 1)])
case("shoff-end", "e_shoff = file size", [(40, "<Q", size)])
case("shnum-huge", "e_shnum = 65535", [(60, "<H", 0xFFFF)])
case("shnum-zero", "e_shnum = 0", [(60, "<H", 0)])
case("shentsize", "e_shentsize = 40", [(58, "<H", 40)])
case("shstrndx-oob", "e_shstrndx = e_shnum", [(62, "<H", e_shnum)])
bss, _, _ = section(".bss")
case("shstrndx-nobits", "e_shstrndx names .bss (NOBITS, past the end)", [(62, "<H", bss)])
case("type-rel", "e_type = ET_REL", [(16, "<H", 1)])
case("entry-zero", "e_entry = 0", [(24, "<Q", 0)])
case("entry-data", "e_entry inside a data segment", [(24, "<Q", loads()[-1][1][3])])
# Section headers
for name in (".text", ".gopclntab", ".go.buildinfo", ".shstrtab", ".noptrdata"):
    i, off, s = section(name)
    case("sh%s-offset-huge" % name, "%s sh_offset = 2^63" % name, [(off + 24, "<Q", BIG)])
    case("sh%s-offset-end" % name, "%s sh_offset = file size" % name, [(off + 24, "<Q", size)])
    case("sh%s-size-huge" % name, "%s sh_size = 2^62" % name, [(off + 32, "<Q", 1 << 62)])
    case("sh%s-size-past" % name, "%s sh_size reaches 1 byte past the file" % name,
         [(off + 32, "<Q", size - s[4] + 1)])
i, off, s = section(".text")
case("sh-name-oob", ".text sh_name past the section name table", [(off, "<I", 0xFFFFFFF0)])
# Program headers
L = loads()
off0, p0 = L[0]
off1, p1 = L[1]
case("load-offset-huge", "first PT_LOAD p_offset = 2^63", [(off0 + 8, "<Q", BIG)])
case("load-filesz-huge", "first PT_LOAD p_filesz = p_memsz = 2^62",
     [(off0 + 32, "<Q", 1 << 62), (off0 + 40, "<Q", 1 << 62)])
case("load-memsz-huge", "last PT_LOAD p_memsz = 2^63 (wraps)", [(L[-1][0] + 40, "<Q", BIG)])
case("load-vaddr-kernel", "last PT_LOAD at a kernel address",
     [(L[-1][0] + 16, "<Q", 0xffff800000000000), (L[-1][0] + 24, "<Q", 0xffff800000000000)])
# p: type, flags, offset, vaddr, paddr, filesz, memsz, align
case("load-filesz-gt-memsz", "PT_LOAD p_filesz above p_memsz", [(off1 + 40, "<Q", p1[5] - 1)])
case("load-overlap-same", "second PT_LOAD at the first one's address",
     [(off1 + 16, "<Q", p0[3]), (off1 + 24, "<Q", p0[4])])
case("load-overlap-part", "second PT_LOAD overlaps the first by one page",
     [(off1 + 16, "<Q", p0[3] + p0[6] - 0x1000), (off1 + 24, "<Q", p0[4] + p0[6] - 0x1000)])
# pclntab (Go 1.20+ layout: magic, pad, minLC, ptrSize, then 8-byte words
# nfunc, nfiles, textStart, funcnameOffset, cuOffset, filetabOffset,
# pctabOffset, pclnOffset)
_, off, s = section(".gopclntab")
pt = s[4]
magic, = struct.unpack_from("<I", base, pt)
assert magic == 0xfffffff1, hex(magic)
nfunc, = struct.unpack_from("<Q", base, pt + 8)
W = lambda k: pt + 8 + 8 * k
case("pcln-magic", "pclntab magic unknown", [(pt, "<I", 0xfffffffe)])
case("pcln-nfunc-huge", "pclntab nfunc = 2^60", [(W(0), "<Q", 1 << 60)])
case("pcln-nfunc-zero", "pclntab nfunc = 0", [(W(0), "<Q", 0)])
case("pcln-nfunc-double", "pclntab nfunc doubled (past the function table)", [(W(0), "<Q", nfunc * 2)])
for k, field in ((3, "funcnameOffset"), (4, "cuOffset"), (5, "filetabOffset"),
                 (6, "pctabOffset"), (7, "pclnOffset")):
    case("pcln-%s-huge" % field, "pclntab %s = 2^63" % field, [(W(k), "<Q", BIG)])
    case("pcln-%s-end" % field, "pclntab %s one past the table" % field, [(W(k), "<Q", s[5] + 1)])
functab = pt + struct.unpack_from("<Q", base, W(7))[0]
e1, f1 = struct.unpack_from("<II", base, functab + 8)
# (equal entries are legal: aliases, as -race builds list some C functions)
case("pcln-entry-order", "functab entry 0 after entry 1", [(functab + 0, "<I", e1 + 16)])
case("pcln-entry-back", "functab entry 2 before entry 1", [(functab + 16, "<I", e1 - 1)])
case("pcln-funcoff-huge", "functab entry 1 func offset = 2^32-1", [(functab + 12, "<I", 0xFFFFFFFF)])
# _func (at functab + funcoff): entryOff, nameOff, ...
case("pcln-nameoff-huge", "function 1's name offset = 2^31", [(functab + f1 + 4, "<I", 0x80000000)])
# .go.buildinfo: version length that runs past the section
_, off, s = section(".go.buildinfo")
case("buildinfo-len", ".go.buildinfo version length 127 (past the section)",
     [(s[4] + 32, "<B", 127)])
for name, desc in cases:
    print("%s\t%s" % (name, desc))
