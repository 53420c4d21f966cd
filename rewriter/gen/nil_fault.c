/* nil_fault.c: see nil_fault.h.
 *
 * Guard, before an instruction that can fault:
 *       lea r12, [its memory operand]
 *       cmp r12, 0x1000            ; the runtime's own bound (sigpanic)
 *       jb F
 * Block F, after the run of instructions (24 bytes):
 *   F:  nop dword [rax+rax*1+disp32]   ; the marker: disp32 names the
 *                                      ; original PC (fault_pc.h)
 *       lea r13, [rip + F]
 *       jmp R
 *       dd <the relocated instruction> - F
 * Routine R, once per program (r12 = the address, r13 = F):
 *       <r12 = g, from the program's TLS load>
 *       no g (a thread Go did not create): back to the relocated
 *       instruction, which faults for real;
 *       g.sig = SIGSEGV; g.sigcode0 = SEGV_MAPERR; g.sigcode1 = the address;
 *       g.sigpc = the original PC; push it; jmp sigpanic0
 * which is what runtime/signal_unix.go sighandler and signal_amd64.go
 * preparePanic do for a SIGSEGV at the original instruction: the panic,
 * recover and the traceback (its signal line, frames and lines) are those
 * of the original fault. R keeps the address and F in the 16 bytes below
 * RSP (the kernel skips them when it delivers a signal; the push that
 * follows writes there anyway). */
#include "rewriter/gen/nil_fault.h"

#include <string.h>

#include "rewriter/gen/fault_pc.h"

#define R12 ZYDIS_REGISTER_R12
#define R13 ZYDIS_REGISTER_R13
#define RSP ZYDIS_REGISTER_RSP

enum {
    SIGSEGV_NUM = 11,
    SEGV_MAPERR_CODE = 1,
    NIL_PAGE = 0x1000,        /* the runtime's own bound for a nil dereference */
    MARKER_END = 8,           /* gr_fault_mark's NOP: the original PC is relative to its end */
    BLOCK_AT = 20,            /* the block's word: the relocated instruction, relative to F */
    SAVED_ADDR = -8,          /* below RSP, in R */
    SAVED_BLOCK = -16,
};

int gr_guard_emit(struct gr_codebuf *c, const struct gr_insn *in, struct gr_guards *gd, unsigned i,
                  struct gr_error *err)
{
    const ZydisDecodedOperand *mem = NULL;
    for (unsigned k = 0; k < in->insn.operand_count_visible; k++)
        if (in->ops[k].type == ZYDIS_OPERAND_TYPE_MEMORY && in->ops[k].mem.type == ZYDIS_MEMOP_TYPE_MEM)
            mem = &in->ops[k];
    if (!mem)
        return gr_fail_as(err, GR_ERR_INTERNAL, "internal error: no memory operand to guard at 0x%llx",
                          (unsigned long long)in->addr);
    GR_TRY(gr_emit_lea_of(c, R12, mem, err));
    GR_TRY(GR_EMIT(c, err, CMP, GR_REG(R12), GR_IMM(NIL_PAGE)));
    GR_TRY(gr_emit_branch(c, ZYDIS_MNEMONIC_JB, gr_code_here(c), err));
    gd->jb_field[i] = c->len - 4;
    return 0;
}

int gr_nil_fault_block(struct gr_codebuf *c, uint64_t routine, const struct gr_insn *in,
                       const struct gr_guards *gd, unsigned i, struct gr_error *err)
{
    gr_code_patch_rel32(c, gd->jb_field[i]);
    uint64_t block = gr_code_here(c);
    GR_TRY(gr_fault_mark(c, in->addr, err));
    GR_TRY(GR_EMIT(c, err, LEA, GR_REG(R13), GR_ABS(block)));
    GR_TRY(gr_emit_branch(c, ZYDIS_MNEMONIC_JMP, routine, err));
    if (gr_code_here(c) != block + BLOCK_AT)
        return gr_fail_as(err, GR_ERR_INTERNAL, "internal error: nil-fault block at 0x%llx is not %d bytes",
                          (unsigned long long)block, BLOCK_AT);
    int32_t at = (int32_t)(int64_t)(gd->at[i] - block);
    return gr_code_append(c, &at, sizeof at, err);
}

/* r13 = F + the dword at [F + off] (F saved below RSP). */
static int block_word(struct gr_codebuf *c, int off, struct gr_error *err)
{
    GR_TRY(GR_EMIT(c, err, MOVSXD, GR_REG(R13), GR_MEM32(R13, off)));
    return GR_EMIT(c, err, ADD, GR_REG(R13), GR_MEM(RSP, SAVED_BLOCK));
}

int gr_nil_fault_routine(struct gr_codebuf *c, const struct gr_insn *tls, unsigned ntls,
                         const struct gr_go_sigfields *sf, uint64_t sigpanic, uint64_t *routine,
                         struct gr_error *err)
{
    *routine = gr_code_here(c);
    GR_TRY(GR_EMIT(c, err, MOV, GR_MEM(RSP, SAVED_ADDR), GR_REG(R12)));
    GR_TRY(GR_EMIT(c, err, MOV, GR_MEM(RSP, SAVED_BLOCK), GR_REG(R13)));
    GR_TRY(gr_emit_tls_load(c, tls, ntls, R12, err));
    GR_TRY(GR_EMIT(c, err, TEST, GR_REG(R12), GR_REG(R12)));
    GR_TRY(gr_emit_branch(c, ZYDIS_MNEMONIC_JZ, gr_code_here(c), err));
    size_t no_g = c->len - 4;
    GR_TRY(gr_emit_store32(c, R12, sf->sig, SIGSEGV_NUM, err));
    GR_TRY(GR_EMIT(c, err, MOV, GR_MEM(R12, sf->sigcode0), GR_IMM(SEGV_MAPERR_CODE)));
    GR_TRY(GR_EMIT(c, err, MOV, GR_REG(R13), GR_MEM(RSP, SAVED_ADDR)));
    GR_TRY(GR_EMIT(c, err, MOV, GR_MEM(R12, sf->sigcode1), GR_REG(R13)));
    GR_TRY(GR_EMIT(c, err, MOV, GR_REG(R13), GR_MEM(RSP, SAVED_BLOCK)));
    GR_TRY(block_word(c, 4, err));                                  /* the marker's disp32 */
    GR_TRY(GR_EMIT(c, err, ADD, GR_REG(R13), GR_IMM(MARKER_END)));  /* the original PC */
    GR_TRY(GR_EMIT(c, err, MOV, GR_MEM(R12, sf->sigpc), GR_REG(R13)));
    GR_TRY(GR_EMIT(c, err, PUSH, GR_REG(R13)));
    GR_TRY(gr_emit_branch(c, ZYDIS_MNEMONIC_JMP, sigpanic, err));
    gr_code_patch_rel32(c, no_g);
    GR_TRY(GR_EMIT(c, err, MOV, GR_REG(R12), GR_MEM(RSP, SAVED_ADDR)));
    GR_TRY(block_word(c, BLOCK_AT, err));
    return GR_EMIT(c, err, JMP, GR_REG(R13));
}
