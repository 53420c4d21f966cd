/* offsets_types.c: see offsets_types.h. A descriptor (Go 1.15-1.27):
 * a 48-byte type header (size, ptrdata, hash, tflag, align, fieldAlign,
 * kind at byte 23, equal, gcdata, str, ptrToThis); a pointer type adds
 * elem at 48; a struct adds pkgPath at 48 and the fields slice at 56
 * (pointer, length), each field 24 bytes: name, type, offset. Before Go
 * 1.19 the offset word is offset<<1 | embedded; the field stackguard0,
 * which every prologue reads at 0x10, tells which. A name is a flag
 * byte and the length: a varint since Go 1.17, two big-endian bytes
 * before (field names are never empty, so a 0 second byte means the
 * old form). Pointers are read with their relocation in PIE. */
#include "rewriter/find/offsets_types.h"

#include <string.h>

#include "rewriter/find/code_walk.h"

enum {
    KIND_INT64 = 6, KIND_UINT32 = 10, KIND_UINT64 = 11, KIND_UINTPTR = 12, KIND_ARRAY = 17, KIND_PTR = 22, KIND_STRUCT = 25, KIND_MASK = 0x1f,
    TYPE_HEADER = 48, FIELD_SIZE = 24, MAX_FIELDS = 512, MAX_NAME = 64,
    MALG_INSNS = 40, STACKGUARD0 = 0x10,
};

struct gotype {
    const struct gr_elf *elf;
    uint64_t addr;
    uint64_t fields;   /* address of the first field */
    uint64_t nfields;
    int shift;         /* 1: offset words are offset<<1 | embedded */
};

static int kind_of(const struct gr_elf *elf, uint64_t type)
{
    const uint8_t *b = gr_elf_bytes_at(elf, type, TYPE_HEADER);
    return b ? b[23] & KIND_MASK : -1;
}

static int open_struct(const struct gr_elf *elf, uint64_t type, struct gotype *t)
{
    memset(t, 0, sizeof *t);
    t->elf = elf;
    t->addr = type;
    const uint8_t *len = gr_elf_bytes_at(elf, type + TYPE_HEADER + 16, 8);
    if (kind_of(elf, type) != KIND_STRUCT || !len ||
        gr_elf_read_addr(elf, type + TYPE_HEADER + 8, &t->fields) < 0)
        return -1;
    memcpy(&t->nfields, len, 8);
    return t->nfields && t->nfields <= MAX_FIELDS ? 0 : -1;
}

/* Copies field i's name into buf ("" when unreadable). */
static void field_name(const struct gotype *t, uint64_t i, char *buf)
{
    uint64_t name;
    buf[0] = 0;
    if (gr_elf_read_addr(t->elf, t->fields + i * FIELD_SIZE, &name) < 0)
        return;
    const uint8_t *b = gr_elf_bytes_at(t->elf, name, 3);
    if (!b)
        return;
    uint64_t len = b[1], start = 2;
    if (b[1] == 0) {
        len = b[2];
        start = 3;
    } else if (b[1] & 0x80) {
        return;   /* longer than any runtime field name */
    }
    const uint8_t *s = len < MAX_NAME ? gr_elf_bytes_at(t->elf, name + start, len) : NULL;
    if (s) {
        memcpy(buf, s, len);
        buf[len] = 0;
    }
}

/* The field named name: its index, or -1. */
static int64_t find_field(const struct gotype *t, const char *name)
{
    char buf[MAX_NAME];
    for (uint64_t i = 0; i < t->nfields; i++) {
        field_name(t, i, buf);
        if (strcmp(buf, name) == 0)
            return (int64_t)i;
    }
    return -1;
}

static int field_offset(const struct gotype *t, const char *name, uint64_t *off)
{
    int64_t i = find_field(t, name);
    const uint8_t *w = i < 0 ? NULL : gr_elf_bytes_at(t->elf, t->fields + (uint64_t)i * FIELD_SIZE + 16, 8);
    if (!w)
        return -1;
    memcpy(off, w, 8);
    *off >>= t->shift;
    return *off < 0x10000 ? 0 : -1;
}

static int field_type(const struct gotype *t, const char *name, uint64_t *type)
{
    int64_t i = find_field(t, name);
    return i < 0 ? -1 : gr_elf_read_addr(t->elf, t->fields + (uint64_t)i * FIELD_SIZE + 8, type);
}

/* Whichever offset encoding puts stackguard0 at 0x10. */
static int pick_shift(struct gotype *g)
{
    uint64_t off;
    for (g->shift = 0; g->shift <= 1; g->shift++)
        if (field_offset(g, "stackguard0", &off) == 0 && off == STACKGUARD0)
            return 0;
    g->shift = 0;
    return -1;
}

/* The type malg hands to newobject: the last RIP-relative LEA before its
 * first call of runtime.newobject. */
static uint64_t g_type(const struct gr_elf *elf, const struct gr_program *prog)
{
    const struct gr_func *newobject = gr_program_func_named(prog, "runtime.newobject");
    struct gr_code_walk w;
    uint64_t lea = 0, target;
    if (!newobject || gr_code_walk_start(&w, elf, gr_program_func_named(prog, "runtime.malg")) < 0)
        return 0;
    for (int n = 0; n < MALG_INSNS && gr_code_walk_next(&w); n++) {
        if (w.insn.mnemonic == ZYDIS_MNEMONIC_LEA && gr_code_walk_target(&w, &w.ops[1], &target) == 0)
            lea = target;
        if (w.insn.mnemonic == ZYDIS_MNEMONIC_CALL)
            return gr_code_walk_target(&w, &w.ops[0], &target) == 0 &&
                   target == newobject->entry ? lea : 0;
    }
    return 0;
}

/* The offset of member name (of kind want) inside the struct that
 * outer's field field is (deref 0) or points to (deref 1). */
static int sub_field(const struct gotype *outer, const char *field, int deref, const char *name,
                     int want, uint64_t *off)
{
    uint64_t type;
    struct gotype inner;
    if (field_type(outer, field, &type) < 0)
        return -1;
    if (deref && (kind_of(outer->elf, type) != KIND_PTR ||
                  gr_elf_read_addr(outer->elf, type + TYPE_HEADER, &type) < 0))
        return -1;
    if (open_struct(outer->elf, type, &inner) < 0)
        return -1;
    inner.shift = outer->shift;
    uint64_t ftype;
    if (field_offset(&inner, name, off) < 0 || field_type(&inner, name, &ftype) < 0 ||
        kind_of(outer->elf, ftype) != want)
        return -1;
    return 0;
}

/* g.sig (uint32), g.sigcode0, g.sigcode1 and g.sigpc (uintptr): what
 * the runtime's signal handler stores before sigpanic (go_sigpanic.h);
 * g.gopc and g.startpc (uintptr): the goroutine's creation site. */
static void sig_from_types(const struct gotype *g, struct gr_go_found *out)
{
    static const struct {
        const char *name;
        int kind, field;
    } sig[] = {{"sig", KIND_UINT32, GR_G_SIG},
               {"sigcode0", KIND_UINTPTR, GR_G_SIGCODE0},
               {"sigcode1", KIND_UINTPTR, GR_G_SIGCODE1},
               {"sigpc", KIND_UINTPTR, GR_G_SIGPC},
               {"gopc", KIND_UINTPTR, GR_G_GOPC},
               {"startpc", KIND_UINTPTR, GR_G_STARTPC}};
    for (size_t i = 0; i < sizeof sig / sizeof sig[0]; i++) {
        uint64_t off, type;
        if (field_offset(g, sig[i].name, &off) == 0 && field_type(g, sig[i].name, &type) == 0 &&
            kind_of(g->elf, type) == sig[i].kind)
            gr_go_found_set(out, sig[i].field, (uint32_t)off);
    }
}

/* g.goid (int64 before Go 1.20, uint64 since), g.sched.sp (gobuf.sp, a
 * uintptr), m.g0 and m.curg (pointers to g). */
static void sched_from_types(const struct gotype *g, struct gr_go_found *out)
{
    uint64_t off, base, type;
    int kind = field_type(g, "goid", &type) == 0 ? kind_of(g->elf, type) : -1;
    if ((kind == KIND_INT64 || kind == KIND_UINT64) && field_offset(g, "goid", &off) == 0)
        gr_go_found_set(out, GR_G_GOID, (uint32_t)off);
    if (field_offset(g, "sched", &base) == 0 && sub_field(g, "sched", 0, "sp", KIND_UINTPTR, &off) == 0)
        gr_go_found_set(out, GR_G_SCHED_SP, (uint32_t)(base + off));
    if (sub_field(g, "m", 1, "g0", KIND_PTR, &off) == 0)
        gr_go_found_set(out, GR_M_G0, (uint32_t)off);
    if (sub_field(g, "m", 1, "curg", KIND_PTR, &off) == 0)
        gr_go_found_set(out, GR_M_CURG, (uint32_t)off);
}

void gr_offsets_from_types(const struct gr_elf *elf, const struct gr_program *prog,
                          struct gr_go_found *out)
{
    struct gotype g;
    uint64_t type = g_type(elf, prog), off, base, rtype;
    if (!type || open_struct(elf, type, &g) < 0 || pick_shift(&g) < 0)
        return;
    if (field_offset(&g, "m", &off) == 0 && sub_field(&g, "m", 1, "g0", KIND_PTR, &base) == 0 &&
        base == 0)
        gr_go_found_set(out, GR_G_M, (uint32_t)off);
    if (sub_field(&g, "m", 1, "tls", KIND_ARRAY, &off) == 0)
        gr_go_found_set(out, GR_M_TLS, (uint32_t)off);
    if (field_offset(&g, "stack", &base) == 0 &&
        sub_field(&g, "stack", 0, "hi", KIND_UINTPTR, &off) == 0)
        gr_go_found_set(out, GR_G_STACK_HI, (uint32_t)(base + off));
    if (field_offset(&g, "racectx", &off) == 0 && field_type(&g, "racectx", &rtype) == 0 &&
        kind_of(elf, rtype) == KIND_UINTPTR && off % 8 == 0)
        gr_go_found_set(out, GR_G_RACECTX, (uint32_t)off);
    sched_from_types(&g, out);
    sig_from_types(&g, out);
}
