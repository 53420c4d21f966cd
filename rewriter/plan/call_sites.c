/* call_sites.c: see call_sites.h. A linear sweep of every function,
 * lengths only (insn_quick.c, else Zydis's minimal mode), as asm_callers.c
 * does for assembly. Go puts almost no data in its text: the sweep meets
 * instructions and int3 padding, and in the few functions that hold data (the marker bytes
 * of crypto/internal/boring/sig) bytes that do not decode; such a function
 * is left out whole rather than trusted in part. */
#include "rewriter/plan/call_sites.h"

#include <stdlib.h>
#include <string.h>

#include <Zydis/Zydis.h>

#include "common/vec.h"
#include "common/x86.h"
#include "rewriter/find/insn_quick.h"

#define CALL_REL32 0xe8

/* Bytes the patches overwrite: a site overlapping one is not the
 * program's code any more (it moved into a trampoline, which calls the
 * entry as before). */
struct patched {
    struct range {
        uint64_t from, to;
    } *r;                   /* sorted by from */
    size_t n;
    uint64_t longest;
};

static int by_from(const void *a, const void *b)
{
    const struct range *x = a, *y = b;
    return x->from < y->from ? -1 : x->from > y->from;
}

static int patched_ranges(const struct gr_plan *plan, struct patched *p)
{
    p->r = malloc((plan->ninstrumented + plan->returns.n + 1) * sizeof *p->r);
    if (!p->r)
        return -1;
    p->n = 0;
    for (size_t i = 0; i < plan->nfuncs; i++) {
        const struct gr_plan_func *pf = &plan->funcs[i];
        if (!pf->skip_reason)
            p->r[p->n++] = (struct range){pf->func->entry, pf->func->entry + pf->prologue.len};
    }
    for (size_t k = 0; k < plan->returns.n; k++) {
        const struct gr_return *e = &plan->returns.items[k];
        p->r[p->n++] = (struct range){e->addr, e->addr + e->len};
    }
    qsort(p->r, p->n, sizeof *p->r, by_from);
    p->longest = 0;
    for (size_t i = 0; i < p->n; i++)
        if (p->r[i].to - p->r[i].from > p->longest)
            p->longest = p->r[i].to - p->r[i].from;
    return 0;
}

static int overlaps_patch(const struct patched *p, uint64_t addr, uint64_t len)
{
    size_t lo = 0, hi = p->n;
    while (lo < hi) {        /* the first range starting at or after addr + len */
        size_t mid = lo + (hi - lo) / 2;
        if (p->r[mid].from < addr + len)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (size_t j = lo; j-- > 0 && p->r[j].from + p->longest > addr;)
        if (p->r[j].to > addr)
            return 1;
    return 0;
}

/* The index of the instrumented function whose entry is addr, or -1. */
static long instrumented_at(const struct gr_plan *plan, uint64_t addr)
{
    size_t lo = 0, hi = plan->nfuncs;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (plan->funcs[mid].func->entry < addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (; lo < plan->nfuncs && plan->funcs[lo].func->entry == addr; lo++)
        if (!plan->funcs[lo].skip_reason)
            return (long)lo;
    return -1;
}

static int add(struct gr_call_sites *cs, struct gr_call_site site)
{
    return gr_vec_append(&cs->items, &cs->n, &cs->cap, &site, sizeof site);
}

/* The sites of f, appended in address order. */
static int sweep(const ZydisDecoder *zy, const struct gr_plan *plan, const struct patched *p,
                 const struct gr_func *f, const uint8_t *code, struct gr_call_sites *cs)
{
    size_t size = f->end - f->entry, first = cs->n;
    for (size_t off = 0; off < size;) {
        ZydisDecodedInstruction in;
        if (code[off] == GR_X86_INT3) {
            off++;
            continue;
        }
        if (!ZYAN_SUCCESS(gr_insn_quick(zy, code + off, size - off, &in))) {
            cs->n = first;
            cs->funcs_unswept++;
            return 0;
        }
        uint8_t op = code[off];
        if (in.length == 5 && (op == CALL_REL32 || op == GR_X86_JMP_REL32)) {
            uint64_t at = f->entry + off;
            int32_t rel;
            memcpy(&rel, code + off + 1, sizeof rel);
            long callee = instrumented_at(plan, at + 5 + (uint64_t)(int64_t)rel);
            if (callee >= 0 && !overlaps_patch(p, at, 5) &&
                add(cs, (struct gr_call_site){.addr = at, .callee = (uint32_t)callee, .opcode = op}) < 0)
                return -1;
        }
        off += in.length;
    }
    return 0;
}

int gr_call_sites_find(const struct gr_elf *elf, const struct gr_plan *plan,
                       struct gr_call_sites *out)
{
    memset(out, 0, sizeof *out);
    struct patched p;
    if (patched_ranges(plan, &p) < 0)
        return -1;
    ZydisDecoder zy;
    ZydisDecoderInit(&zy, ZYDIS_MACHINE_MODE_LONG_64, ZYDIS_STACK_WIDTH_64);
    ZydisDecoderEnableMode(&zy, ZYDIS_DECODER_MODE_MINIMAL, ZYAN_TRUE);
    int rc = 0;
    for (size_t i = 0; i < plan->nfuncs && rc == 0; i++) {
        const struct gr_func *f = plan->funcs[i].func;
        const uint8_t *code = f->end > f->entry && f->end - f->entry <= (1u << 24)
                                  ? gr_elf_bytes_at(elf, f->entry, f->end - f->entry)
                                  : NULL;
        if (code)
            rc = sweep(&zy, plan, &p, f, code, out);
    }
    free(p.r);
    return rc;
}

void gr_call_sites_free(struct gr_call_sites *cs)
{
    free(cs->items);
    memset(cs, 0, sizeof *cs);
}
