/* asm_callers.c: see asm_callers.h. A linear sweep of each assembly
 * function (a few hundred per program), lengths and immediates only. */
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

static int add(struct gr_asm_targets *t, uint64_t addr)
{
    return gr_vec_append(&t->addr, &t->n, &t->cap, &addr, sizeof addr);
}

/* The calls and jumps of f that leave it. */
static int sweep(const ZydisDecoder *zy, const struct gr_func *f, const uint8_t *code,
                 struct gr_asm_targets *t)
{
    size_t size = f->end - f->entry;
    for (size_t off = 0; off < size;) {
        ZydisDecoderContext ctx;
        ZydisDecodedInstruction in;
        if (code[off] == GR_X86_INT3 ||
            !ZYAN_SUCCESS(ZydisDecoderDecodeInstruction(zy, &ctx, code + off, size - off, &in))) {
            off++;
            continue;
        }
        off += in.length;
        if (!in.raw.imm[0].is_relative || (in.meta.category != ZYDIS_CATEGORY_CALL &&
                                           in.meta.category != ZYDIS_CATEGORY_UNCOND_BR &&
                                           in.meta.category != ZYDIS_CATEGORY_COND_BR))
            continue;
        uint64_t to = f->entry + off + (uint64_t)in.raw.imm[0].value.s;
        if ((to < f->entry || to >= f->end) && add(t, to) < 0)
            return -1;
    }
    return 0;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

int gr_asm_targets_find(const struct gr_elf *elf, const struct gr_program *prog,
                        struct gr_asm_targets *out)
{
    memset(out, 0, sizeof *out);
    ZydisDecoder zy;
    ZydisDecoderInit(&zy, ZYDIS_MACHINE_MODE_LONG_64, ZYDIS_STACK_WIDTH_64);
    ZydisDecoderEnableMode(&zy, ZYDIS_DECODER_MODE_MINIMAL, ZYAN_TRUE);
    for (size_t i = 0; i < prog->nfuncs; i++) {
        const struct gr_func *f = &prog->funcs[i];
        const uint8_t *code = f->end > f->entry && is_asm_file(f->file)
                                  ? gr_elf_bytes_at(elf, f->entry, f->end - f->entry)
                                  : NULL;
        if (code && sweep(&zy, f, code, out) < 0)
            return -1;
    }
    if (out->n > 1)
        qsort(out->addr, out->n, sizeof *out->addr, cmp_u64);
    return 0;
}

int gr_asm_targets_has(const struct gr_asm_targets *t, uint64_t addr)
{
    return t->n && bsearch(&addr, t->addr, t->n, sizeof addr, cmp_u64) != NULL;
}

void gr_asm_targets_free(struct gr_asm_targets *t)
{
    free(t->addr);
    memset(t, 0, sizeof *t);
}
