/* offsets_code.c: replays runtime.rt0_go straight through (see
 * offsets_code.h), tracking which registers hold a known address (a
 * RIP-relative LEA or an immediate), and notes the stores into memory at
 * known addresses. Calls forget every register: Go assembly keeps none. */
#include "rewriter/find/offsets_code.h"

#include <string.h>

#include "rewriter/find/code_walk.h"

enum { MAX_INSNS = 400, MAX_STORES = 32, NREGS = 16 };

struct store {
    uint64_t base;     /* the known address in the base register */
    int64_t disp;
    uint64_t value;    /* the known address stored */
};

struct replay {
    int known[NREGS];
    uint64_t val[NREGS];
    int have_sp_store, have_tls;
    uint64_t g0;       /* base of the first MOVQ SP, off(reg) */
    int64_t stack_hi;
    uint64_t tls_arg;  /* DI at CALL settls */
    struct store stores[MAX_STORES];
    size_t nstores;
};

static int reg_index(ZydisRegister r)
{
    ZydisRegister r64 = gr_code_gpr64(r);
    if (r64 == ZYDIS_REGISTER_NONE)
        return -1;
    return (int)(r64 - ZYDIS_REGISTER_RAX);
}

static void forget_written(struct replay *rp, const struct gr_code_walk *w)
{
    for (unsigned i = 0; i < w->insn.operand_count; i++) {
        const ZydisDecodedOperand *op = &w->ops[i];
        if (op->type == ZYDIS_OPERAND_TYPE_REGISTER && (op->actions & ZYDIS_OPERAND_ACTION_MASK_WRITE)) {
            int k = reg_index(op->reg.value);
            if (k >= 0)
                rp->known[k] = 0;
        }
    }
}

/* LEAQ sym(SB), R or MOV $imm, R: R holds an address from now on. */
static int note_load(struct replay *rp, const struct gr_code_walk *w)
{
    const ZydisDecodedOperand *dst = &w->ops[0], *src = &w->ops[1];
    if (w->insn.operand_count_visible != 2 || dst->type != ZYDIS_OPERAND_TYPE_REGISTER)
        return 0;
    int k = reg_index(dst->reg.value);
    uint64_t v;
    if (k < 0)
        return 0;
    if (w->insn.mnemonic == ZYDIS_MNEMONIC_LEA && gr_code_walk_target(w, src, &v) == 0)
        ;
    else if (w->insn.mnemonic == ZYDIS_MNEMONIC_MOV && src->type == ZYDIS_OPERAND_TYPE_IMMEDIATE)
        v = dst->size == 32 ? (uint32_t)src->imm.value.u : src->imm.value.u;
    else
        return 0;
    rp->known[k] = 1;
    rp->val[k] = v;
    return 1;
}

/* MOVQ R, off(B) with B holding a known address. */
static void note_store(struct replay *rp, const struct gr_code_walk *w)
{
    const ZydisDecodedOperand *dst = &w->ops[0], *src = &w->ops[1];
    if (w->insn.mnemonic != ZYDIS_MNEMONIC_MOV || w->insn.operand_count_visible != 2 ||
        dst->type != ZYDIS_OPERAND_TYPE_MEMORY || src->type != ZYDIS_OPERAND_TYPE_REGISTER ||
        dst->size != 64 || dst->mem.index != ZYDIS_REGISTER_NONE ||
        dst->mem.segment != ZYDIS_REGISTER_DS)
        return;
    int b = reg_index(dst->mem.base), s = reg_index(src->reg.value);
    if (b < 0 || !rp->known[b])
        return;
    if (src->reg.value == ZYDIS_REGISTER_RSP && !rp->have_sp_store) {
        rp->have_sp_store = 1;
        rp->g0 = rp->val[b];
        rp->stack_hi = dst->mem.disp.value;
    } else if (s >= 0 && rp->known[s] && rp->nstores < MAX_STORES) {
        rp->stores[rp->nstores++] =
            (struct store){.base = rp->val[b], .disp = dst->mem.disp.value, .value = rp->val[s]};
    }
}

static void note_call(struct replay *rp, const struct gr_code_walk *w, uint64_t settls)
{
    uint64_t target;
    int di = ZYDIS_REGISTER_RDI - ZYDIS_REGISTER_RAX;
    if (settls && gr_code_walk_target(w, &w->ops[0], &target) == 0 && target == settls &&
        rp->known[di] && !rp->have_tls) {
        rp->have_tls = 1;
        rp->tls_arg = rp->val[di];
    }
    memset(rp->known, 0, sizeof rp->known);
}

static int small_offset(int64_t v)
{
    return v >= 0 && v < 0x1000;
}

/* m0 is the address stored into g0 (g0.m = m0) that itself receives g0
 * at offset 0 (m0.g0 = g0). */
static void conclude(const struct replay *rp, struct gr_go_found *out)
{
    if (!rp->have_sp_store || !small_offset(rp->stack_hi))
        return;
    gr_go_found_set(out, GR_G_STACK_HI, (uint32_t)rp->stack_hi);
    for (size_t i = 0; i < rp->nstores; i++) {
        const struct store *gm = &rp->stores[i];
        if (gm->base != rp->g0 || gm->value == rp->g0 || !small_offset(gm->disp))
            continue;
        for (size_t j = 0; j < rp->nstores; j++) {
            const struct store *mg = &rp->stores[j];
            if (mg->base != gm->value || mg->disp != 0 || mg->value != rp->g0)
                continue;
            gr_go_found_set(out, GR_G_M, (uint32_t)gm->disp);
            if (rp->have_tls && rp->tls_arg > gm->value && small_offset((int64_t)(rp->tls_arg - gm->value)))
                gr_go_found_set(out, GR_M_TLS, (uint32_t)(rp->tls_arg - gm->value));
            return;
        }
    }
}

void gr_offsets_from_code(const struct gr_elf *elf, const struct gr_program *prog,
                         struct gr_go_found *out)
{
    const struct gr_func *settls = gr_program_func_named(prog, "runtime.settls");
    struct gr_code_walk w;
    struct replay rp;
    memset(&rp, 0, sizeof rp);
    if (gr_code_walk_start(&w, elf, gr_program_func_named(prog, "runtime.rt0_go")) < 0)
        return;
    for (int n = 0; n < MAX_INSNS && gr_code_walk_next(&w); n++) {
        if (w.insn.mnemonic == ZYDIS_MNEMONIC_CALL) {
            note_call(&rp, &w, settls ? settls->entry : 0);
            continue;
        }
        note_store(&rp, &w);
        if (!note_load(&rp, &w))
            forget_written(&rp, &w);
    }
    conclude(&rp, out);
}
