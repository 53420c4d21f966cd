/* trace_abi.c: the argument and result assignment of trace_abi.h, as
 * cmd/compile/abi-internal.md states it (read in Go 1.22's source; the
 * stack ABI is the same stack sequence with no registers: each value
 * aligned to its type, results after a pointer-alignment field). */
#include "rewriter/find/trace_abi.h"
#include "format/trace_desc.h"

/* Registers T takes when register-assigned: 0, or -1 when it cannot be
 * (an array longer than 1). */
static int reg_need(const struct gr_tv_type *t, unsigned *ni, unsigned *nf, unsigned depth)
{
    if (depth > GTD_MAX_DEPTH)
        return -1;
    switch (t->kind) {
    case GTD_K_FLOAT: *nf += 1; return 0;
    case GTD_K_COMPLEX: *nf += 2; return 0;
    case GTD_K_STRING: case GTD_K_IFACE: case GTD_K_EFACE: *ni += 2; return 0;
    case GTD_K_SLICE: *ni += 3; return 0;
    case GTD_K_STRUCT:
        for (size_t i = 0; i < t->nfields; i++)
            if (reg_need(t->fields[i].type, ni, nf, depth + 1) < 0)
                return -1;
        return 0;
    case GTD_K_ARRAY:
        if (t->len == 0)
            return 0;
        return t->len == 1 ? reg_need(t->elem, ni, nf, depth + 1) : -1;
    default: *ni += 1; return 0;
    }
}

static uint32_t align_up(uint32_t off, unsigned align)
{
    return align > 1 ? (off + align - 1) / align * align : off;
}

struct assigner {
    int regabi;
    unsigned ni, nf;
    uint32_t off;
};

static void assign_one(struct assigner *a, const struct gr_tv_type *t, struct gr_abi_place *p)
{
    unsigned ni = a->ni, nf = a->nf;
    *p = (struct gr_abi_place){0};
    if (a->regabi && t->byte_size && reg_need(t, &ni, &nf, 0) == 0 && ni <= GR_ABI_INT_REGS &&
        nf <= GR_ABI_FLOAT_REGS) {
        p->int_reg = (uint8_t)a->ni;
        p->float_reg = (uint8_t)a->nf;
        a->ni = ni;
        a->nf = nf;
        return;
    }
    a->off = align_up(a->off, t->align);
    p->on_stack = 1;
    p->stack_off = a->off;
    a->off += (uint32_t)t->byte_size;
}

void gr_abi_assign(const struct gr_tv_param *params, size_t n, int regabi, struct gr_abi_place *out)
{
    struct assigner a = {.regabi = regabi};
    int in_results = 0;
    for (size_t i = 0; i < n; i++) {
        if (params[i].result && !in_results) {
            in_results = 1;
            a.off = align_up(a.off, 8);
            a.ni = a.nf = 0;
        }
        assign_one(&a, params[i].type, &out[i]);
    }
}

uint8_t gr_abi_int_reg(unsigned i)
{
    static const uint8_t enc[GR_ABI_INT_REGS] = {0, 3, 1, 7, 6, 8, 9, 10, 11};
    return i < GR_ABI_INT_REGS ? enc[i] : 0xff;
}
