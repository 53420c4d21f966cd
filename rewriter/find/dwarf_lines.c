/* dwarf_lines.c: the DWARF line-program decoder (see dwarf_lines.h).
 * Decoded here rather than with libdwarf's dwarf_srclines_b, which
 * allocates and tracks every row: far slower on a large Go program.
 * The input is untrusted: every read is checked against the end of its
 * unit, and each step consumes at least one byte, so a run ends. */
#include "rewriter/find/dwarf_lines.h"

#include <libdwarf/dwarf.h>

static uint64_t read_fixed(struct gr_dwarf_cursor *c, size_t size)
{
    if (!c->ok || size > 8 || (size_t)(c->end - c->p) < size) {
        c->ok = 0;
        return 0;
    }
    uint64_t v = 0;
    for (size_t i = 0; i < size; i++)
        v |= (uint64_t)c->p[i] << (8 * i);
    c->p += size;
    return v;
}

static uint64_t read_uleb(struct gr_dwarf_cursor *c)
{
    uint64_t v = 0;
    for (unsigned shift = 0;; shift += 7) {
        uint8_t byte = (uint8_t)read_fixed(c, 1);
        if (!c->ok)
            return 0;
        if (shift < 64)
            v |= (uint64_t)(byte & 0x7f) << shift;
        if (!(byte & 0x80))
            return v;
    }
}

static int64_t read_sleb(struct gr_dwarf_cursor *c)
{
    uint64_t v = 0;
    unsigned shift = 0;
    uint8_t byte = 0;
    do {
        byte = (uint8_t)read_fixed(c, 1);
        if (!c->ok)
            return 0;
        if (shift < 64)
            v |= (uint64_t)(byte & 0x7f) << shift;
        shift += 7;
    } while (byte & 0x80);
    if (shift < 64 && (byte & 0x40))
        v |= ~(uint64_t)0 << shift;
    return (int64_t)v;
}

static void skip_bytes(struct gr_dwarf_cursor *c, uint64_t n)
{
    if (!c->ok || (uint64_t)(c->end - c->p) < n) {
        c->ok = 0;
        return;
    }
    c->p += n;
}

int gr_dwarf_lines_open(const uint8_t *sec, size_t size, uint64_t offset,
                        struct gr_dwarf_lines *lp)
{
    if (offset >= size)
        return -1;
    struct gr_dwarf_cursor c = {sec + offset, sec + size, 1};
    size_t offset_size = 4;
    uint64_t length = read_fixed(&c, 4);
    if (length == 0xffffffff) {
        offset_size = 8;
        length = read_fixed(&c, 8);
    }
    if (!c.ok || length > (uint64_t)(c.end - c.p))
        return -1;
    c.end = c.p + length;
    lp->version = (unsigned)read_fixed(&c, 2);
    if (lp->version < 2 || lp->version > 5)
        return -1;
    if (lp->version >= 5)
        skip_bytes(&c, 2); /* address_size, segment_selector_size */
    uint64_t header_length = read_fixed(&c, offset_size);
    if (!c.ok || header_length > (uint64_t)(c.end - c.p))
        return -1;
    const uint8_t *program = c.p + header_length;
    lp->min_inst_length = (uint8_t)read_fixed(&c, 1);
    lp->max_ops_per_inst = lp->version >= 4 ? (uint8_t)read_fixed(&c, 1) : 1;
    skip_bytes(&c, 1); /* default_is_stmt */
    lp->line_base = (int8_t)read_fixed(&c, 1);
    lp->line_range = (uint8_t)read_fixed(&c, 1);
    lp->opcode_base = (uint8_t)read_fixed(&c, 1);
    lp->std_opcode_lengths = c.p;
    skip_bytes(&c, lp->opcode_base > 0 ? lp->opcode_base - 1u : 0);
    if (!c.ok || c.p > program || lp->line_range == 0 || lp->opcode_base == 0)
        return -1;
    lp->ops = (struct gr_dwarf_cursor){program, c.end, 1};
    return 0;
}

static void reset_state(struct gr_dwarf_row *s)
{
    *s = (struct gr_dwarf_row){.addr = 0, .file = 1, .line = 1};
}

static void run_extended(struct gr_dwarf_lines *lp, struct gr_dwarf_row *s)
{
    uint64_t len = read_uleb(&lp->ops);
    if (len == 0 || !lp->ops.ok)
        return;
    const uint8_t *next = lp->ops.p;
    skip_bytes(&lp->ops, len); /* validates len before we read inside it */
    if (!lp->ops.ok)
        return;
    struct gr_dwarf_cursor arg = {next + 1, next + len, 1};
    switch (next[0]) {
    case DW_LNE_end_sequence:
        reset_state(s);
        break;
    case DW_LNE_set_address:
        s->addr = read_fixed(&arg, len - 1);
        break;
    default: /* define_file, set_discriminator, vendor ops: no row */
        break;
    }
}

/* A standard opcode; 1 when it emits a row. */
static int run_standard(struct gr_dwarf_lines *lp, uint8_t op, struct gr_dwarf_row *s)
{
    struct gr_dwarf_cursor *c = &lp->ops;
    switch (op) {
    case DW_LNS_copy:
        return 1;
    case DW_LNS_advance_pc:
        s->addr += read_uleb(c) * lp->min_inst_length;
        break;
    case DW_LNS_advance_line:
        s->line += (uint64_t)read_sleb(c);
        break;
    case DW_LNS_set_file:
        s->file = read_uleb(c);
        break;
    case DW_LNS_const_add_pc:
        s->addr += (uint64_t)((255 - lp->opcode_base) / lp->line_range) * lp->min_inst_length;
        break;
    case DW_LNS_fixed_advance_pc:
        s->addr += read_fixed(c, 2);
        break;
    default: /* set_column, negate_stmt, prologue_end, ...: skip operands */
        for (uint8_t i = 0; i < lp->std_opcode_lengths[op - 1] && c->ok; i++)
            read_uleb(c);
        break;
    }
    return 0;
}

static void run_special(const struct gr_dwarf_lines *lp, uint8_t op, struct gr_dwarf_row *s)
{
    unsigned adjusted = (unsigned)(op - lp->opcode_base);
    s->addr += (uint64_t)(adjusted / lp->line_range) * lp->min_inst_length;
    s->line += (uint64_t)(int64_t)(lp->line_base + (int)(adjusted % lp->line_range));
}

int gr_dwarf_lines_run(struct gr_dwarf_lines *lp,
                       void (*row)(void *ctx, const struct gr_dwarf_row *r), void *ctx)
{
    struct gr_dwarf_row s;
    reset_state(&s);
    while (lp->ops.ok && lp->ops.p < lp->ops.end) {
        uint8_t op = (uint8_t)read_fixed(&lp->ops, 1);
        if (op >= lp->opcode_base) {
            run_special(lp, op, &s);
            row(ctx, &s);
        } else if (op == 0) {
            run_extended(lp, &s);
        } else if (run_standard(lp, op, &s)) {
            row(ctx, &s);
        }
    }
    return lp->ops.ok ? 0 : -1;
}
