/* prologue.c: matching the stack-bound check at a function's entry.
 *
 * Register ABI (Go >= 1.17): g is in R14 and the check uses R12 as scratch;
 * ABI0 functions first load g into R14 from TLS. Stack ABI (Go <= 1.16):
 * every function first loads g into RCX from TLS, and the check uses RAX
 * (and RSI in the huge-frame form) as scratch. The TLS load is one of the
 * forms in enum gr_tls_form; which one depends on the link mode, and its
 * displacement on where the linker put the TLS block, so any negative
 * offset from FS is accepted. */
#include "rewriter/plan/prologue.h"

#include <string.h>

#define G_STACKGUARD0 0x10
#define G_STACKGUARD1 0x18
#define STACK_PREEMPT ((int64_t)-1314)   /* 0xfffffffffffffade */

static const char NO_CHECK[] = "no stack-bound check at entry (small leaf, NOSPLIT or assembly)";
static const char NO_JBE[] = "check not followed by jbe into the function";

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
    ZydisDecodedOperand ops[ZYDIS_MAX_OPERAND_COUNT];
    if (!ZYAN_SUCCESS(ZydisDecoderDecodeFull(&d->zy, d->code + d->off, d->size - d->off,
                                             &in->insn, ops)))
        return -1;
    memcpy(in->ops, ops, sizeof in->ops);
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

static int is_mov_to(const struct gr_insn *in, ZydisRegister r)
{
    return in->insn.mnemonic == ZYDIS_MNEMONIC_MOV && is_reg(&in->ops[0], r) &&
           in->ops[0].size == 64;
}

static int is_plain_mem(const ZydisDecodedOperand *m, ZydisRegister base)
{
    return m->type == ZYDIS_OPERAND_TYPE_MEMORY && m->mem.base == base &&
           m->mem.index == ZYDIS_REGISTER_NONE && m->size == 64 &&
           (m->mem.segment == ZYDIS_REGISTER_DS || m->mem.segment == ZYDIS_REGISTER_NONE ||
            m->mem.segment == ZYDIS_REGISTER_SS);
}

/* mov G, fs:[base + disp] with base NONE (disp < 0) or G (disp 0) */
static int is_fs_load(const struct gr_insn *in, ZydisRegister g, ZydisRegister base)
{
    const ZydisDecodedOperand *m = &in->ops[1];
    if (!is_mov_to(in, g) || m->type != ZYDIS_OPERAND_TYPE_MEMORY ||
        m->mem.segment != ZYDIS_REGISTER_FS || m->mem.base != base ||
        m->mem.index != ZYDIS_REGISTER_NONE)
        return 0;
    return base == ZYDIS_REGISTER_NONE ? m->mem.disp.value < 0 : m->mem.disp.value == 0;
}

/* The TLS offset of g into G: an immediate, or loaded from the GOT. */
static enum gr_tls_form tls_offset_form(const struct gr_insn *in, ZydisRegister g)
{
    if (!is_mov_to(in, g))
        return GR_TLS_NONE;
    if (in->ops[1].type == ZYDIS_OPERAND_TYPE_IMMEDIATE && in->ops[1].imm.value.s < 0)
        return GR_TLS_FS_IMM;
    if (in->ops[1].type == ZYDIS_OPERAND_TYPE_MEMORY && in->ops[1].mem.base == ZYDIS_REGISTER_RIP &&
        in->ops[1].mem.segment != ZYDIS_REGISTER_FS)
        return GR_TLS_FS_GOT;
    return GR_TLS_NONE;
}

/* Recognises the TLS load of g at the entry, for G = R14 or RCX; sets
 * g_reg, tls_form, tls_ninsns. Returns -1 when the bytes after a partial
 * TLS load do not decode. */
static int match_tls(struct decoder *d, struct gr_prologue *p)
{
    static const ZydisRegister gregs[] = {ZYDIS_REGISTER_R14, ZYDIS_REGISTER_RCX};
    p->g_reg = ZYDIS_REGISTER_R14;
    for (unsigned i = 0; i < 2; i++) {
        ZydisRegister g = gregs[i];
        enum gr_tls_form form;
        if (is_fs_load(last(p), g, ZYDIS_REGISTER_NONE)) {
            form = GR_TLS_FS_DISP;
        } else if ((form = tls_offset_form(last(p), g)) != GR_TLS_NONE) {
            size_t saved_off = d->off;
            if (decode_next(d, p) < 0)
                return -1;
            if (!is_fs_load(last(p), g, g)) {
                p->ninsns--;                  /* not a TLS load after all */
                d->off = saved_off;
                continue;
            }
        } else {
            continue;
        }
        p->g_reg = g;
        p->tls_form = form;
        p->tls_ninsns = p->ninsns;
        p->loads_g_from_tls = 1;
        return decode_next(d, p);
    }
    return 0;
}

/* cmp REG, qword [g + 0x10 or 0x18] */
static int is_guard_cmp(const struct gr_insn *in, ZydisRegister reg, struct gr_prologue *p)
{
    const ZydisDecodedOperand *m = &in->ops[1];
    if (in->insn.mnemonic != ZYDIS_MNEMONIC_CMP || !is_reg(&in->ops[0], reg) ||
        !is_plain_mem(m, p->g_reg))
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

static int next_is_branch(struct decoder *d, struct gr_prologue *p, ZydisMnemonic m)
{
    return decode_next(d, p) == 0 && is_branch_in_func(last(p), m, d);
}

static int next_is(struct decoder *d, struct gr_prologue *p, ZydisMnemonic m, ZydisRegister dst)
{
    return decode_next(d, p) == 0 && last(p)->insn.mnemonic == m && is_reg(&last(p)->ops[0], dst);
}

/* The scratch register of the large and huge checks. */
static ZydisRegister scratch(const struct gr_prologue *p)
{
    return p->g_reg == ZYDIS_REGISTER_RCX ? ZYDIS_REGISTER_RAX : ZYDIS_REGISTER_R12;
}

static const char *match_small(struct decoder *d, struct gr_prologue *p)
{
    if (!next_is_branch(d, p, ZYDIS_MNEMONIC_JBE))
        return NO_JBE;
    p->shape = GR_PROLOGUE_SMALL;
    return NULL;
}

static const char *match_large(struct decoder *d, struct gr_prologue *p)
{
    const ZydisDecodedOperand *m = &last(p)->ops[1];
    if (!is_reg(&last(p)->ops[0], scratch(p)) || m->type != ZYDIS_OPERAND_TYPE_MEMORY ||
        m->mem.base != ZYDIS_REGISTER_RSP || m->mem.index != ZYDIS_REGISTER_NONE)
        return NO_CHECK;
    if (decode_next(d, p) < 0 || !is_guard_cmp(last(p), scratch(p), p))
        return "lea not followed by cmp with [g+guard]";
    if (!next_is_branch(d, p, ZYDIS_MNEMONIC_JBE))
        return NO_JBE;
    p->shape = GR_PROLOGUE_LARGE;
    return NULL;
}

static const char *match_huge(struct decoder *d, struct gr_prologue *p)
{
    if (!is_reg(&last(p)->ops[0], ZYDIS_REGISTER_R12) || !is_reg(&last(p)->ops[1], ZYDIS_REGISTER_RSP))
        return NO_CHECK;
    if (!next_is(d, p, ZYDIS_MNEMONIC_SUB, ZYDIS_REGISTER_R12) ||
        last(p)->ops[1].type != ZYDIS_OPERAND_TYPE_IMMEDIATE)
        return "mov r12,rsp not followed by sub r12,N";
    if (!next_is_branch(d, p, ZYDIS_MNEMONIC_JB))
        return "sub r12,N not followed by jb into the function";
    if (decode_next(d, p) < 0 || !is_guard_cmp(last(p), ZYDIS_REGISTER_R12, p))
        return "huge-frame check lacks cmp r12,[r14+guard]";
    if (!next_is_branch(d, p, ZYDIS_MNEMONIC_JBE))
        return NO_JBE;
    p->shape = GR_PROLOGUE_HUGE;
    return NULL;
}

/* Go <= 1.16, frames above StackBig (obj6.go): the first instruction,
 * mov rsi,[rcx+guard], is already decoded. */
static const char *match_huge_old(struct decoder *d, struct gr_prologue *p)
{
    static const char BAD[] = "huge-frame check (stack ABI) does not match";
    const ZydisDecodedOperand *m = &last(p)->ops[1];
    if (!is_plain_mem(m, ZYDIS_REGISTER_RCX) ||
        (m->mem.disp.value != G_STACKGUARD0 && m->mem.disp.value != G_STACKGUARD1))
        return NO_CHECK;
    p->stackguard1 = m->mem.disp.value == G_STACKGUARD1;
    if (!next_is(d, p, ZYDIS_MNEMONIC_CMP, ZYDIS_REGISTER_RSI) ||
        last(p)->ops[1].type != ZYDIS_OPERAND_TYPE_IMMEDIATE ||
        last(p)->ops[1].imm.value.s != STACK_PREEMPT || !next_is_branch(d, p, ZYDIS_MNEMONIC_JZ))
        return BAD;
    if (!next_is(d, p, ZYDIS_MNEMONIC_LEA, ZYDIS_REGISTER_RAX) ||
        last(p)->ops[1].mem.base != ZYDIS_REGISTER_RSP ||
        !next_is(d, p, ZYDIS_MNEMONIC_SUB, ZYDIS_REGISTER_RAX) ||
        !is_reg(&last(p)->ops[1], ZYDIS_REGISTER_RSI) ||
        !next_is(d, p, ZYDIS_MNEMONIC_CMP, ZYDIS_REGISTER_RAX) ||
        last(p)->ops[1].type != ZYDIS_OPERAND_TYPE_IMMEDIATE)
        return BAD;
    if (!next_is_branch(d, p, ZYDIS_MNEMONIC_JBE))
        return NO_JBE;
    p->shape = GR_PROLOGUE_HUGE_OLD;
    return NULL;
}

static const char *match_check(struct decoder *d, struct gr_prologue *p)
{
    const struct gr_insn *first = last(p);
    int stack_abi = p->g_reg == ZYDIS_REGISTER_RCX;
    if (is_guard_cmp(first, ZYDIS_REGISTER_RSP, p))
        return match_small(d, p);
    if (first->insn.mnemonic == ZYDIS_MNEMONIC_LEA)
        return match_large(d, p);
    if (first->insn.mnemonic == ZYDIS_MNEMONIC_MOV && stack_abi && is_reg(&first->ops[0], ZYDIS_REGISTER_RSI))
        return match_huge_old(d, p);
    if (first->insn.mnemonic == ZYDIS_MNEMONIC_MOV && !stack_abi)
        return match_huge(d, p);
    return p->loads_g_from_tls ? "loads g from TLS but no stack-bound check follows (NOSPLIT wrapper)"
                               : NO_CHECK;
}

const char *gr_prologue_match(const uint8_t *code, size_t size, uint64_t entry,
                              struct gr_insn scratch[GR_PROLOGUE_MAX_INSNS],
                              struct gr_prologue *out)
{
    struct decoder d = {.code = code, .size = size, .entry = entry};
    memset(out, 0, sizeof *out);
    out->insns = scratch;
    ZydisDecoderInit(&d.zy, ZYDIS_MACHINE_MODE_LONG_64, ZYDIS_STACK_WIDTH_64);
    if (decode_next(&d, out) < 0)
        return "first instruction does not decode";
    if (match_tls(&d, out) < 0)
        return "nothing decodes after loading g from TLS";
    const char *reason = match_check(&d, out);
    if (!reason)
        out->len = (unsigned)d.off;
    return reason;
}

int gr_prologue_decode(const uint8_t *code, size_t size, uint64_t entry, unsigned ninsns,
                       struct gr_insn out[GR_PROLOGUE_MAX_INSNS])
{
    struct decoder d = {.code = code, .size = size, .entry = entry};
    struct gr_prologue p = {.insns = out};
    ZydisDecoderInit(&d.zy, ZYDIS_MACHINE_MODE_LONG_64, ZYDIS_STACK_WIDTH_64);
    while (p.ninsns < ninsns)                 /* the check is contiguous from entry */
        if (decode_next(&d, &p) < 0)
            return -1;
    return 0;
}

const char *gr_prologue_shape_name(const struct gr_prologue *p)
{
    static const char *names[] = {"small", "large", "huge", "huge", "no"};
    return names[p->shape];
}

const char *gr_prologue_tls_name(const struct gr_prologue *p)
{
    static const char *names[] = {"", "TLS g, ", "TLS g (PIE), ", "TLS g (GOT), "};
    return names[p->tls_form];
}
