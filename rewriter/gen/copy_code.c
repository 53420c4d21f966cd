/* copy_code.c: the copy engine's text (copy_module.h): verbatim copies of
 * the chosen functions, whose branches and rip-relative operands that
 * leave the function are re-aimed at their original targets. Layout is
 * kept byte for byte, so every pc-value table of the original describes
 * the copy as it is. */
#include "rewriter/gen/copy_module.h"

#include <string.h>

#include <Zydis/Zydis.h>

#include "common/x86.h"

#define GO_FUNC_ALIGN 32   /* cmd/link: functions start 32-byte aligned on amd64 */

int gr_copy_code_place(struct gr_codebuf *code, const struct gr_program *prog,
                       const struct gr_copy_set *set, struct gr_copy_module *m, struct gr_error *err)
{
    GR_TRY(gr_code_pad(code, GO_FUNC_ALIGN, GR_X86_INT3, err));
    m->text = gr_code_here(code);
    for (size_t k = 0; k < set->n; k++) {
        const struct gr_func *f = &prog->funcs[set->funcs[k]];
        GR_TRY(gr_code_pad(code, GO_FUNC_ALIGN, GR_X86_INT3, err));
        m->copy[k] = gr_code_here(code);
        GR_TRY(gr_code_append(code, gr_elf_bytes_at(prog->elf, f->entry, f->end - f->entry),
                              f->end - f->entry, err));
    }
    m->etext = gr_code_here(code);
    return 0;
}

/* Where target lands from the module: a copied function's entry at its
 * copy, anything else where it is. */
static uint64_t aim(const struct gr_program *prog, const struct gr_copy_set *set,
                    const struct gr_copy_module *m, uint64_t target)
{
    long k = gr_copy_index(prog, set, target);
    return k >= 0 ? m->copy[k] : target;
}

/* Rewrites the 32-bit relative field at field (of an instruction that
 * ends at end, in the copy) to reach target. */
static int refit(struct gr_codebuf *code, size_t field, uint64_t end, uint64_t target, const char *name,
                 struct gr_error *err)
{
    int64_t rel = (int64_t)(target - end);
    if (rel != (int32_t)rel)
        return gr_fail(err, "copy of %s: target 0x%llx out of rel32 reach", name, (unsigned long long)target);
    int32_t r = (int32_t)rel;
    memcpy(code->bytes + field, &r, 4);
    return 0;
}

static int fix_one(struct gr_codebuf *code, const ZydisDecoder *zy, const struct gr_program *prog,
                   const struct gr_copy_set *set, const struct gr_copy_module *m, size_t k,
                   struct gr_error *err)
{
    const struct gr_func *f = &prog->funcs[set->funcs[k]];
    uint64_t size = f->end - f->entry, base = m->copy[k] - code->base;
    ZydisDecodedInstruction in;
    for (uint64_t off = 0; off < size; off += in.length) {
        if (!ZYAN_SUCCESS(ZydisDecoderDecodeInstruction(zy, NULL, code->bytes + base + off, size - off, &in)))
            return gr_fail(err, "copy of %s: instruction at +0x%llx does not decode", f->name,
                           (unsigned long long)off);
        uint64_t orig_end = f->entry + off + in.length, end = m->copy[k] + off + in.length;
        uint64_t target;
        size_t field;
        if (in.raw.imm[0].is_relative && in.raw.imm[0].size == 32) {
            target = orig_end + (uint64_t)in.raw.imm[0].value.s;
            field = base + off + in.raw.imm[0].offset;
        } else if (in.attributes & ZYDIS_ATTRIB_IS_RELATIVE && in.raw.disp.size == 32) {
            target = orig_end + (uint64_t)in.raw.disp.value;
            field = base + off + in.raw.disp.offset;
        } else {
            continue;
        }
        if (target >= f->entry && target < f->end)
            continue;   /* inside: the same distance in the copy */
        GR_TRY(refit(code, field, end, aim(prog, set, m, target), f->name, err));
    }
    return 0;
}

int gr_copy_code_fix(struct gr_codebuf *code, const struct gr_program *prog,
                     const struct gr_copy_set *set, const struct gr_copy_module *m, struct gr_error *err)
{
    ZydisDecoder zy;
    ZydisDecoderInit(&zy, ZYDIS_MACHINE_MODE_LONG_64, ZYDIS_STACK_WIDTH_64);
    for (size_t k = 0; k < set->n; k++)
        GR_TRY(fix_one(code, &zy, prog, set, m, k, err));
    return 0;
}
