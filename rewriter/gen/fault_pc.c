/* fault_pc.c: see fault_pc.h. The guard before a relocated instruction
 * that can fault ends in `jb F` (0f 82 rel32, the 6 bytes right before
 * the instruction), F being its nil-fault block, which starts with the
 * marker `nop dword [rax+rax*1+disp32]` (0f 1f 84 00, then the original
 * PC relative to the marker's end). The marker runs only on the nil path. */
#include "rewriter/gen/fault_pc.h"

#include <string.h>

#define R12 ZYDIS_REGISTER_R12
#define R13 ZYDIS_REGISTER_R13
#define RSP ZYDIS_REGISTER_RSP

enum {
    JB_REL32 = 0x820f,        /* the guard's jb, read as a little-endian word */
    JB_LEN = 6,
    MARKER = 0x00841f0f,      /* the NOP's first 4 bytes, little-endian */
    MARKER_LEN = 8,
    MAX_BLOCK_DIST = 4096,    /* a guard's jb reaches its block within one trampoline */
};

int gr_fault_mark(struct gr_codebuf *c, uint64_t orig_pc, struct gr_error *err)
{
    uint8_t nop[MARKER_LEN] = {0x0f, 0x1f, 0x84, 0x00};
    int32_t rel = (int32_t)(orig_pc - (gr_code_here(c) + MARKER_LEN));
    memcpy(nop + 4, &rel, 4);
    return gr_code_append(c, nop, sizeof nop, err);
}

/* A conditional branch to the end of the fix-up, patched there. */
static int to_done(struct gr_codebuf *c, ZydisMnemonic m, size_t *fields, unsigned *n,
                   struct gr_error *err)
{
    GR_TRY(gr_emit_branch(c, m, gr_code_here(c), err));
    fields[(*n)++] = c->len - 4;
    return 0;
}

/* r13 = g.sigpc when it is a guarded instruction of ours (the bytes before
 * it are a guard's jb whose block starts with a marker), r12 = that
 * block; else to done. */
static int find_block(struct gr_codebuf *c, const struct gr_insn *tls, unsigned ntls,
                      uint32_t sigpc, struct gr_fault_fix *fix, size_t *done, unsigned *ndone,
                      struct gr_error *err)
{
    GR_TRY(gr_emit_tls_load(c, tls, ntls, R13, err));
    GR_TRY(GR_EMIT(c, err, TEST, GR_REG(R13), GR_REG(R13)));
    GR_TRY(to_done(c, ZYDIS_MNEMONIC_JZ, done, ndone, err));
    GR_TRY(GR_EMIT(c, err, MOV, GR_REG(R13), GR_MEM(R13, sigpc)));
    GR_TRY(GR_EMIT(c, err, LEA, GR_REG(R12), GR_ABS(fix->lo + JB_LEN)));
    GR_TRY(GR_EMIT(c, err, CMP, GR_REG(R13), GR_REG(R12)));
    GR_TRY(to_done(c, ZYDIS_MNEMONIC_JB, done, ndone, err));
    GR_TRY(GR_EMIT(c, err, LEA, GR_REG(R12), GR_ABS(gr_code_here(c))));   /* the end: patched */
    fix->hi_field = c->len - 4;
    GR_TRY(GR_EMIT(c, err, CMP, GR_REG(R13), GR_REG(R12)));
    GR_TRY(to_done(c, ZYDIS_MNEMONIC_JNB, done, ndone, err));
    GR_TRY(GR_EMIT(c, err, MOV, GR_REG(ZYDIS_REGISTER_R12D), GR_MEM32(R13, -JB_LEN)));
    GR_TRY(GR_EMIT(c, err, AND, GR_REG(ZYDIS_REGISTER_R12D), GR_IMM(0xffff)));
    GR_TRY(GR_EMIT(c, err, CMP, GR_REG(ZYDIS_REGISTER_R12D), GR_IMM(JB_REL32)));
    GR_TRY(to_done(c, ZYDIS_MNEMONIC_JNZ, done, ndone, err));
    GR_TRY(GR_EMIT(c, err, MOVSXD, GR_REG(R12), GR_MEM32(R13, -4)));
    GR_TRY(GR_EMIT(c, err, CMP, GR_REG(R12), GR_IMM(MAX_BLOCK_DIST)));
    GR_TRY(to_done(c, ZYDIS_MNEMONIC_JNB, done, ndone, err));   /* unsigned: forward and near */
    GR_TRY(GR_EMIT(c, err, ADD, GR_REG(R12), GR_REG(R13)));
    GR_TRY(GR_EMIT(c, err, CMP, GR_MEM32(R12, 0), GR_IMM(MARKER)));
    return to_done(c, ZYDIS_MNEMONIC_JNZ, done, ndone, err);
}

/* Then: r13 = the original PC. If the handler pushed g.sigpc (the word
 * at [rsp] before the fault was no Go PC), that word becomes the original
 * PC; else it is pushed, as the handler pushes a Go PC. g.sigpc = it. */
int gr_fault_fix_emit(struct gr_codebuf *c, const struct gr_insn *tls, unsigned ntls,
                      uint32_t sigpc, struct gr_fault_fix *fix, struct gr_error *err)
{
    size_t done[8], to_store;
    unsigned ndone = 0;
    GR_TRY(find_block(c, tls, ntls, sigpc, fix, done, &ndone, err));
    GR_TRY(GR_EMIT(c, err, MOVSXD, GR_REG(R13), GR_MEM32(R12, 4)));
    GR_TRY(GR_EMIT(c, err, ADD, GR_REG(R13), GR_REG(R12)));
    GR_TRY(GR_EMIT(c, err, ADD, GR_REG(R13), GR_IMM(MARKER_LEN)));
    GR_TRY(gr_emit_tls_load(c, tls, ntls, R12, err));
    GR_TRY(GR_EMIT(c, err, MOV, GR_REG(R12), GR_MEM(R12, sigpc)));
    GR_TRY(GR_EMIT(c, err, CMP, GR_MEM(RSP, 0), GR_REG(R12)));
    GR_TRY(gr_emit_branch(c, ZYDIS_MNEMONIC_JNZ, gr_code_here(c), err));
    size_t to_push = c->len - 4;
    GR_TRY(GR_EMIT(c, err, MOV, GR_MEM(RSP, 0), GR_REG(R13)));
    GR_TRY(gr_emit_branch(c, ZYDIS_MNEMONIC_JMP, gr_code_here(c), err));
    to_store = c->len - 4;
    gr_code_patch_rel32(c, to_push);
    GR_TRY(GR_EMIT(c, err, PUSH, GR_REG(R13)));
    gr_code_patch_rel32(c, to_store);
    GR_TRY(gr_emit_tls_load(c, tls, ntls, R12, err));
    GR_TRY(GR_EMIT(c, err, MOV, GR_MEM(R12, sigpc), GR_REG(R13)));
    for (unsigned i = 0; i < ndone; i++)
        gr_code_patch_rel32(c, done[i]);
    fix->emitted = 1;
    return 0;
}

void gr_fault_fix_close(struct gr_codebuf *c, const struct gr_fault_fix *fix)
{
    if (fix->emitted)
        gr_code_patch_rel32(c, fix->hi_field);
}
