/* code_walk.c: see code_walk.h. */
#include "rewriter/find/code_walk.h"

#include <string.h>

int gr_code_walk_start(struct gr_code_walk *w, const struct gr_elf *elf, const struct gr_func *f)
{
    memset(w, 0, sizeof *w);
    if (!f || f->end <= f->entry || f->end - f->entry > (1u << 20))
        return -1;
    w->code = gr_elf_bytes_at(elf, f->entry, f->end - f->entry);
    if (!w->code)
        return -1;
    w->size = f->end - f->entry;
    w->base = f->entry;
    ZydisDecoderInit(&w->zy, ZYDIS_MACHINE_MODE_LONG_64, ZYDIS_STACK_WIDTH_64);
    return 0;
}

int gr_code_walk_next(struct gr_code_walk *w)
{
    if (w->off >= w->size ||
        !ZYAN_SUCCESS(ZydisDecoderDecodeFull(&w->zy, w->code + w->off, w->size - w->off,
                                             &w->insn, w->ops)))
        return 0;
    w->addr = w->base + w->off;
    w->off += w->insn.length;
    return 1;
}

int gr_code_walk_target(const struct gr_code_walk *w, const ZydisDecodedOperand *op,
                        uint64_t *addr)
{
    int riprel = op->type == ZYDIS_OPERAND_TYPE_MEMORY && op->mem.base == ZYDIS_REGISTER_RIP &&
                 op->mem.index == ZYDIS_REGISTER_NONE;
    int branch = op->type == ZYDIS_OPERAND_TYPE_IMMEDIATE && op->imm.is_relative;
    ZyanU64 a;
    if (!(riprel || branch) || !ZYAN_SUCCESS(ZydisCalcAbsoluteAddress(&w->insn, op, w->addr, &a)))
        return -1;
    *addr = a;
    return 0;
}

ZydisRegister gr_code_gpr64(ZydisRegister r)
{
    if (ZydisRegisterGetClass(r) != ZYDIS_REGCLASS_GPR64 &&
        ZydisRegisterGetClass(r) != ZYDIS_REGCLASS_GPR32)
        return ZYDIS_REGISTER_NONE;
    return ZydisRegisterGetLargestEnclosing(ZYDIS_MACHINE_MODE_LONG_64, r);
}
