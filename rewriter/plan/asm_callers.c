/* asm_callers.c: see asm_callers.h. A linear sweep of each assembly
 * function (a few hundred per program): the direct calls and jumps that
 * leave it, and whether it names R12 or R13 at all. A target is kept when
 * a source names them or is itself kept (its own caller's R12 may be live
 * through it), until nothing changes. */
#include "rewriter/plan/asm_callers.h"

#include <stdlib.h>
#include <string.h>

#include <Zydis/Zydis.h>

#include "common/vec.h"
#include "common/x86.h"

static int is_asm_file(const char *file)
{
    size_t n = file ? strlen(file) : 0;
    return n >= 2 && strcmp(file + n - 2, ".s") == 0;
}

/* One call or jump from an assembly function to another address. */
struct edge {
    uint64_t from;   /* the source function's entry */
    uint64_t to;
    int scratch;     /* the source names R12 or R13 */
};

struct edges {
    struct edge *e;
    size_t n, cap;
};

static int is_scratch(ZydisRegister r)
{
    ZydisRegister big = ZydisRegisterGetLargestEnclosing(ZYDIS_MACHINE_MODE_LONG_64, r);
    return big == ZYDIS_REGISTER_R12 || big == ZYDIS_REGISTER_R13;
}

static int names_scratch(const ZydisDecodedInstruction *in, const ZydisDecodedOperand *ops)
{
    for (unsigned i = 0; i < in->operand_count; i++) {
        const ZydisDecodedOperand *op = &ops[i];
        if ((op->type == ZYDIS_OPERAND_TYPE_REGISTER && is_scratch(op->reg.value)) ||
            (op->type == ZYDIS_OPERAND_TYPE_MEMORY &&
             (is_scratch(op->mem.base) || is_scratch(op->mem.index))))
            return 1;
    }
    return 0;
}

/* The calls and jumps of f that leave it, into es (scratch filled in after). */
static int sweep(const ZydisDecoder *zy, const struct gr_func *f, const uint8_t *code,
                 struct edges *es)
{
    size_t size = f->end - f->entry, first = es->n;
    int scratch = 0;
    for (size_t off = 0; off < size;) {
        ZydisDecodedInstruction in;
        ZydisDecodedOperand ops[ZYDIS_MAX_OPERAND_COUNT];
        if (code[off] == GR_X86_INT3 ||
            !ZYAN_SUCCESS(ZydisDecoderDecodeFull(zy, code + off, size - off, &in, ops))) {
            off++;
            continue;
        }
        off += in.length;
        scratch |= names_scratch(&in, ops);
        if (!in.raw.imm[0].is_relative || (in.meta.category != ZYDIS_CATEGORY_CALL &&
                                           in.meta.category != ZYDIS_CATEGORY_UNCOND_BR &&
                                           in.meta.category != ZYDIS_CATEGORY_COND_BR))
            continue;
        struct edge e = {.from = f->entry, .to = f->entry + off + (uint64_t)in.raw.imm[0].value.s};
        if ((e.to < f->entry || e.to >= f->end) && gr_vec_append(&es->e, &es->n, &es->cap, &e, sizeof e) < 0)
            return -1;
    }
    for (size_t i = first; i < es->n; i++)
        es->e[i].scratch = scratch;
    return 0;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Adds the targets of edges whose source names R12/R13 or is a target
 * already; 1 when one was added, -1 out of memory. */
static int spread(const struct edges *es, struct gr_asm_targets *t)
{
    int added = 0;
    for (size_t i = 0; i < es->n; i++) {
        const struct edge *e = &es->e[i];
        if (!(e->scratch || gr_asm_targets_has(t, e->from)) || gr_asm_targets_has(t, e->to))
            continue;
        if (gr_vec_append(&t->addr, &t->n, &t->cap, &e->to, sizeof e->to) < 0)
            return -1;
        qsort(t->addr, t->n, sizeof *t->addr, cmp_u64);
        added = 1;
    }
    return added;
}

int gr_asm_targets_find(const struct gr_elf *elf, const struct gr_program *prog,
                        struct gr_asm_targets *out)
{
    memset(out, 0, sizeof *out);
    struct edges es = {0};
    ZydisDecoder zy;
    ZydisDecoderInit(&zy, ZYDIS_MACHINE_MODE_LONG_64, ZYDIS_STACK_WIDTH_64);
    int rc = 0;
    for (size_t i = 0; i < prog->nfuncs && rc == 0; i++) {
        const struct gr_func *f = &prog->funcs[i];
        const uint8_t *code = f->end > f->entry && is_asm_file(f->file)
                                  ? gr_elf_bytes_at(elf, f->entry, f->end - f->entry)
                                  : NULL;
        if (code)
            rc = sweep(&zy, f, code, &es);
    }
    while (rc == 0 && (rc = spread(&es, out)) == 1)
        rc = 0;
    for (size_t i = 0; i < es.n && rc == 0; i++)
        rc = gr_vec_append(&out->called, &out->ncalled, &out->called_cap, &es.e[i].to,
                           sizeof es.e[i].to);
    if (out->ncalled > 1)
        qsort(out->called, out->ncalled, sizeof *out->called, cmp_u64);
    free(es.e);
    return rc < 0 ? -1 : 0;
}

int gr_asm_targets_has(const struct gr_asm_targets *t, uint64_t addr)
{
    return t->n && bsearch(&addr, t->addr, t->n, sizeof addr, cmp_u64) != NULL;
}

int gr_asm_targets_called(const struct gr_asm_targets *t, uint64_t addr)
{
    return t->ncalled && bsearch(&addr, t->called, t->ncalled, sizeof addr, cmp_u64) != NULL;
}

void gr_asm_targets_free(struct gr_asm_targets *t)
{
    free(t->addr);
    free(t->called);
    memset(t, 0, sizeof *t);
}
