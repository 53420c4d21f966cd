/* prologue.c: matching the register-ABI stack-bound check (Go >= 1.17),
 * with R14 as g, or g loaded from TLS first in ABI0 functions. The Go <= 1.16
 * forms (g in RCX from TLS) will be added here as further shapes. */
#include "prologue.h"

#include <string.h>

#define G_STACKGUARD0 0x10
#define G_STACKGUARD1 0x18

static const char NO_CHECK[] = "no stack-bound check at entry (small leaf, NOSPLIT or assembly)";

struct decoder {
    ZydisDecoder zy;
    const uint8_t *code;
    size_t size;
    uint64_t entry;
    size_t off;
};

static int decode_next(struct decoder *d, struct gr_prologue *p)
{
    if (p->ninsns == GR_PROLOGUE_MAX_INSNS || d->off >= d->size)
        return -1;
    struct gr_insn *in = &p->insns[p->ninsns];
    if (!ZYAN_SUCCESS(ZydisDecoderDecodeFull(&d->zy, d->code + d->off, d->size - d->off,
                                             &in->insn, in->ops)))
        return -1;
    in->addr = d->entry + d->off;
    d->off += in->insn.length;
    p->ninsns++;
    return 0;
}

static const struct gr_insn *last(const struct gr_prologue *p)
{
    return &p->insns[p->ninsns - 1];
}

static int is_reg(const ZydisDecodedOperand *op, ZydisRegister r)
{
    return op->type == ZYDIS_OPERAND_TYPE_REGISTER && op->reg.value == r;
}

static int is_mov_g_from_tls(const struct gr_insn *in)
{
    const ZydisDecodedOperand *src = &in->ops[1];
    return in->insn.mnemonic == ZYDIS_MNEMONIC_MOV && is_reg(&in->ops[0], ZYDIS_REGISTER_R14) &&
           src->type == ZYDIS_OPERAND_TYPE_MEMORY && src->mem.segment == ZYDIS_REGISTER_FS &&
           src->mem.base == ZYDIS_REGISTER_NONE && src->mem.index == ZYDIS_REGISTER_NONE &&
           src->mem.disp.value == -8;
}

/* cmp REG, qword [r14 + 0x10 or 0x18] */
static int is_guard_cmp(const struct gr_insn *in, ZydisRegister reg, struct gr_prologue *p)
{
    const ZydisDecodedOperand *m = &in->ops[1];
    if (in->insn.mnemonic != ZYDIS_MNEMONIC_CMP || !is_reg(&in->ops[0], reg) ||
        m->type != ZYDIS_OPERAND_TYPE_MEMORY || m->mem.base != ZYDIS_REGISTER_R14 ||
        m->mem.index != ZYDIS_REGISTER_NONE || m->size != 64 ||
        (m->mem.segment != ZYDIS_REGISTER_DS && m->mem.segment != ZYDIS_REGISTER_NONE))
        return 0;
    if (m->mem.disp.value != G_STACKGUARD0 && m->mem.disp.value != G_STACKGUARD1)
        return 0;
    p->stackguard1 = m->mem.disp.value == G_STACKGUARD1;
    return 1;
}

/* A conditional branch whose target lies inside the function, after the
 * check: the morestack block. */
static int is_branch_in_func(const struct gr_insn *in, ZydisMnemonic m, const struct decoder *d)
{
    uint64_t target;
    if (in->insn.mnemonic != m || in->ops[0].type != ZYDIS_OPERAND_TYPE_IMMEDIATE ||
        !ZYAN_SUCCESS(ZydisCalcAbsoluteAddress(&in->insn, &in->ops[0], in->addr, &target)))
        return 0;
    return target >= d->entry + d->off && target < d->entry + d->size;
}

static const char *match_small(struct decoder *d, struct gr_prologue *p)
{
    if (decode_next(d, p) < 0 || !is_branch_in_func(last(p), ZYDIS_MNEMONIC_JBE, d))
        return "check not followed by jbe into the function";
    p->shape = GR_PROLOGUE_SMALL;
    return NULL;
}

static const char *match_large(struct decoder *d, struct gr_prologue *p)
{
    const ZydisDecodedOperand *m = &last(p)->ops[1];
    if (!is_reg(&last(p)->ops[0], ZYDIS_REGISTER_R12) || m->type != ZYDIS_OPERAND_TYPE_MEMORY ||
        m->mem.base != ZYDIS_REGISTER_RSP || m->mem.index != ZYDIS_REGISTER_NONE)
        return NO_CHECK;
    if (decode_next(d, p) < 0 || !is_guard_cmp(last(p), ZYDIS_REGISTER_R12, p))
        return "lea r12 not followed by cmp r12,[r14+guard]";
    if (decode_next(d, p) < 0 || !is_branch_in_func(last(p), ZYDIS_MNEMONIC_JBE, d))
        return "check not followed by jbe into the function";
    p->shape = GR_PROLOGUE_LARGE;
    return NULL;
}

static const char *match_huge(struct decoder *d, struct gr_prologue *p)
{
    if (!is_reg(&last(p)->ops[0], ZYDIS_REGISTER_R12) || !is_reg(&last(p)->ops[1], ZYDIS_REGISTER_RSP))
        return NO_CHECK;
    if (decode_next(d, p) < 0 || last(p)->insn.mnemonic != ZYDIS_MNEMONIC_SUB ||
        !is_reg(&last(p)->ops[0], ZYDIS_REGISTER_R12) ||
        last(p)->ops[1].type != ZYDIS_OPERAND_TYPE_IMMEDIATE)
        return "mov r12,rsp not followed by sub r12,N";
    if (decode_next(d, p) < 0 || !is_branch_in_func(last(p), ZYDIS_MNEMONIC_JB, d))
        return "sub r12,N not followed by jb into the function";
    if (decode_next(d, p) < 0 || !is_guard_cmp(last(p), ZYDIS_REGISTER_R12, p))
        return "huge-frame check lacks cmp r12,[r14+guard]";
    if (decode_next(d, p) < 0 || !is_branch_in_func(last(p), ZYDIS_MNEMONIC_JBE, d))
        return "check not followed by jbe into the function";
    p->shape = GR_PROLOGUE_HUGE;
    return NULL;
}

const char *gr_prologue_match(const uint8_t *code, size_t size, uint64_t entry,
                              struct gr_prologue *out)
{
    struct decoder d = {.code = code, .size = size, .entry = entry};
    memset(out, 0, sizeof *out);
    ZydisDecoderInit(&d.zy, ZYDIS_MACHINE_MODE_LONG_64, ZYDIS_STACK_WIDTH_64);
    if (decode_next(&d, out) < 0)
        return "first instruction does not decode";
    if (is_mov_g_from_tls(last(out))) {
        out->loads_g_from_tls = 1;
        if (decode_next(&d, out) < 0)
            return "nothing decodes after loading g from TLS";
    }
    const char *reason;
    const struct gr_insn *first = last(out);
    if (is_guard_cmp(first, ZYDIS_REGISTER_RSP, out))
        reason = match_small(&d, out);
    else if (first->insn.mnemonic == ZYDIS_MNEMONIC_LEA)
        reason = match_large(&d, out);
    else if (first->insn.mnemonic == ZYDIS_MNEMONIC_MOV)
        reason = match_huge(&d, out);
    else
        reason = NO_CHECK;
    if (!reason)
        out->len = (unsigned)d.off;
    return reason;
}

const char *gr_prologue_shape_name(const struct gr_prologue *p)
{
    static const char *names[] = {"small", "large", "huge"};
    return names[p->shape];
}
