/* trampoline.c: the code that counts a call.
 *
 * Each thread owns a row of counters; its address is kept in the thread's
 * m.tls[1], reached through g (R14) -> g.m (see go_runtime.h). Go
 * allocates every m zeroed, so a thread starts with no row. A plain
 * (unlocked) inc is exact because only the owning thread writes its row,
 * and a signal handler on that thread cannot split one instruction.
 *
 * Per function:
 *   T:  <the original stack check, re-encoded; jb/jbe still reach the
 *        function's own morestack block>
 *       mov r12, [r14 + g.m]
 *       mov r12, [r12 + m.tls[1]]  ; this thread's row
 *       test r12, r12
 *       jz S
 *   I:  inc qword [r12 + 8*counter]
 *       jmp back                   ; first instruction after the check
 *   S:  lea r13, [rip + C]
 *       jmp claim_row              ; r12 = a new row, or 0 if none is left
 *   C:  test r12, r12
 *       jz L
 *       mov r13, [r14 + g.m]
 *       mov [r13 + m.tls[1]], r12
 *       jmp I
 *   L:  lock inc qword [row0 + 8*counter]
 *       jmp back
 *
 * Only R12 and R13 (scratch at entry in Go's register ABI; the linker's own
 * large-frame check clobbers R12) and the flags (dead at entry) change.
 * Nothing is pushed: no address of ours is ever on a goroutine stack. The
 * count is taken after the check passes, so a call that grows its stack or
 * is preempted at the check (both re-run the check) counts once. A signal
 * handler that runs Go code between claim and store may claim a row of its
 * own, which the interrupted code then replaces: both rows stay written by
 * one thread only, so counts stay exact. */
#include "trampoline.h"

#include <string.h>

#include "go_runtime.h"

#define R12 ZYDIS_REGISTER_R12
#define R13 ZYDIS_REGISTER_R13
#define G ZYDIS_REGISTER_R14   /* the goroutine, after the check in every shape */

/* Labels inside one emitted sequence. Pass 1 emits with placeholder
 * targets to learn where the labels fall; pass 2 emits the real thing.
 * Every branch we emit is rel32 and every rip-relative operand disp32, so
 * both passes produce the same sizes. */
struct labels {
    uint64_t a, b, c, d;
};

typedef int (*emit_fn)(struct gr_codebuf *c, const void *ctx, const struct labels *in,
                       struct labels *found, struct gr_error *err);

static int emit_two_pass(struct gr_codebuf *c, emit_fn fn, const void *ctx, struct gr_error *err)
{
    size_t start = c->len;
    uint64_t here = gr_code_here(c);
    struct labels guess = {here, here, here, here}, found = guess;
    if (fn(c, ctx, &guess, &found, err) < 0)
        return -1;
    size_t len = c->len - start;
    c->len = start;
    struct labels again = found;
    if (fn(c, ctx, &found, &again, err) < 0)
        return -1;
    if (c->len - start != len || memcmp(&again, &found, sizeof found) != 0)
        return gr_fail(err, "internal error: trampoline size changed between passes");
    return 0;
}

/* Returns -1 from the enclosing emitter when an instruction fails. */
#define TRY(emit) \
    do {                      \
        if ((emit) < 0)       \
            return -1;        \
    } while (0)
#define JUMP(m, target) gr_emit_branch(c, ZYDIS_MNEMONIC_##m, (target), err)

/* in: r13 = where to continue; out: r12 = a fresh row base, or 0 when all
 * rows are taken (the caller then counts in row 0, locked). */
static int emit_claim_row(struct gr_codebuf *c, const void *ctx, const struct labels *in,
                          struct labels *found, struct gr_error *err)
{
    const struct gr_layout *l = ctx;
    TRY(GR_EMIT(c, err, MOV, GR_REG(R12), GR_IMM(1)));
    TRY(GR_EMIT_LOCKED(c, err, XADD, GR_ABS(gr_layout_rows_claimed(l)), GR_REG(R12)));
    TRY(GR_EMIT(c, err, CMP, GR_REG(R12), GR_IMM(l->max_rows - 1)));
    TRY(JUMP(JNB, in->a));                                    /* no row left */
    TRY(GR_EMIT(c, err, INC, GR_REG(R12)));                   /* thread rows start at 1 */
    TRY(GR_EMIT(c, err, IMUL, GR_REG(R12), GR_REG(R12), GR_IMM(l->row_stride)));
    TRY(GR_EMIT(c, err, ADD, GR_REG(R12), GR_ABS(gr_layout_rows_base_slot(l))));
    TRY(GR_EMIT(c, err, JMP, GR_REG(R13)));
    found->a = gr_code_here(c);
    TRY(GR_EMIT(c, err, MOV, GR_REG(R12), GR_IMM(0)));
    TRY(GR_EMIT(c, err, JMP, GR_REG(R13)));
    return 0;
}

struct func_ctx {
    const struct gr_go_layout *rt;
    const struct gr_plan_func *pf;
    const struct gr_layout *layout;
    uint64_t claim_row;
};

/* The sequence in the comment at the top of this file. Labels: a = I,
 * b = S, c = C, d = L. */
static int emit_function(struct gr_codebuf *c, const void *ctx, const struct labels *in,
                         struct labels *found, struct gr_error *err)
{
    const struct func_ctx *fc = ctx;
    const struct gr_prologue *pro = &fc->pf->prologue;
    uint64_t back = fc->pf->func->entry + pro->len;
    int64_t counter = 8 * (int64_t)fc->pf->counter;
    uint64_t shared_counter = gr_layout_row0(fc->layout) + (uint64_t)counter;

    for (unsigned i = 0; i < pro->ninsns; i++)                /* T: the check */
        TRY(gr_emit_relocated(c, &pro->insns[i], err));
    /* Go <= 1.16 (stack ABI): the check left g in RCX and every register
     * but RDX (closure context) and RCX (g, used by wrappers) is scratch at
     * entry; put g where the code below expects it. */
    if (pro->g_reg != G)
        TRY(GR_EMIT(c, err, MOV, GR_REG(G), GR_REG(pro->g_reg)));
    TRY(GR_EMIT(c, err, MOV, GR_REG(R12), GR_MEM(G, fc->rt->g_m)));
    TRY(GR_EMIT(c, err, MOV, GR_REG(R12), GR_MEM(R12, gr_m_row_slot(fc->rt))));
    TRY(GR_EMIT(c, err, TEST, GR_REG(R12), GR_REG(R12)));
    TRY(JUMP(JZ, in->b));
    found->a = gr_code_here(c);                               /* I */
    TRY(GR_EMIT(c, err, INC, GR_MEM(R12, counter)));
    TRY(JUMP(JMP, back));
    found->b = gr_code_here(c);                               /* S */
    TRY(GR_EMIT(c, err, LEA, GR_REG(R13), GR_ABS(in->c)));
    TRY(JUMP(JMP, fc->claim_row));
    found->c = gr_code_here(c);                               /* C */
    TRY(GR_EMIT(c, err, TEST, GR_REG(R12), GR_REG(R12)));
    TRY(JUMP(JZ, in->d));
    TRY(GR_EMIT(c, err, MOV, GR_REG(R13), GR_MEM(G, fc->rt->g_m)));
    TRY(GR_EMIT(c, err, MOV, GR_MEM(R13, gr_m_row_slot(fc->rt)), GR_REG(R12)));
    TRY(JUMP(JMP, in->a));
    found->d = gr_code_here(c);                               /* L */
    TRY(GR_EMIT_LOCKED(c, err, INC, GR_ABS(shared_counter)));
    TRY(JUMP(JMP, back));
    return 0;
}

int gr_trampolines_generate(const struct gr_plan *plan, const struct gr_layout *l,
                            struct gr_codebuf *code, uint64_t *tramp_addr, struct gr_error *err)
{
    struct func_ctx fc = {.rt = plan->rt, .layout = l, .claim_row = gr_code_here(code)};
    if (emit_two_pass(code, emit_claim_row, l, err) < 0)
        return -1;
    for (size_t i = 0; i < plan->nfuncs; i++) {
        tramp_addr[i] = 0;
        if (plan->funcs[i].skip_reason)
            continue;
        if (gr_code_pad(code, 16, 0xcc, err) < 0)
            return -1;
        fc.pf = &plan->funcs[i];
        tramp_addr[i] = gr_code_here(code);
        if (emit_two_pass(code, emit_function, &fc, err) < 0)
            return -1;
    }
    return 0;
}
