/* trace_capture.c: see trace_capture.h. Per captured word (R12 = the
 * pending record, off = where the part starts in it):
 *     mov [r12 + off + 8i], reg          ; an integer register
 *     movq [r12 + off + 8i], xmmN        ; a float register
 *     mov r13, [rsp + k]; mov [..], r13  ; a stack word
 *   with deref: mov r13, <word>; test r13, r13; jz 1f; mov r13, [r13 + 8]; 1: mov [..], r13
 * then per string or []byte (RDI, RSI, RCX kept in the red zone at
 * GS_TRACE_CAPTURE_SAVE, free at an entry and at a ret):
 *     mov rcx, [len word]; mov r13d, max; cmp rcx, r13; cmova rcx, r13
 *     mov [r12 + lens + 4j], ecx; mov rsi, [ptr word]; lea rdi, [r12 + data + j*size]
 *     rep movsb                          ; exactly min(len, max) bytes
 * An entry's capture first stores the function's index and event size
 * (one word) and is preceded by a jmp back, taken by a call without a
 * pending record. Only R12, R13, the flags and the red zone change: every
 * register the function reads or returns is as it was. */
#include "rewriter/gen/trace_capture.h"

#include <string.h>

#include "format/stub_abi.h"
#include "format/trace_format.h"

#define R12 ZYDIS_REGISTER_R12
#define R13 ZYDIS_REGISTER_R13
#define RSP ZYDIS_REGISTER_RSP

static int emit_word(struct gr_codebuf *c, const struct gr_trace_src *w, int64_t at, struct gr_error *err)
{
    if (w->kind == GR_TRACE_SRC_FLOAT_REG)
        return GR_EMIT(c, err, MOVQ, GR_MEM(R12, at), GR_REG(ZYDIS_REGISTER_XMM0 + w->reg));
    if (w->kind == GR_TRACE_SRC_INT_REG && !w->deref)
        return GR_EMIT(c, err, MOV, GR_MEM(R12, at), GR_REG(ZYDIS_REGISTER_RAX + w->reg));
    if (w->kind == GR_TRACE_SRC_INT_REG)
        GR_TRY(GR_EMIT(c, err, MOV, GR_REG(R13), GR_REG(ZYDIS_REGISTER_RAX + w->reg)));
    else
        GR_TRY(GR_EMIT(c, err, MOV, GR_REG(R13), GR_MEM(RSP, w->stack_off)));
    if (w->deref) {
        GR_TRY(GR_EMIT(c, err, TEST, GR_REG(R13), GR_REG(R13)));
        GR_TRY(gr_emit_branch(c, ZYDIS_MNEMONIC_JZ, gr_code_here(c), err));
        size_t field = c->len - 4;
        GR_TRY(GR_EMIT(c, err, MOV, GR_REG(R13), GR_MEM(R13, 8)));
        int32_t rel = (int32_t)(gr_code_here(c) - (c->base + field + 4));
        memcpy(c->bytes + field, &rel, sizeof rel);
    }
    return GR_EMIT(c, err, MOV, GR_MEM(R12, at), GR_REG(R13));
}

static int emit_copies(struct gr_codebuf *c, const struct gr_trace_capture *cap, uint32_t off,
                       uint32_t bytes_max, struct gr_error *err)
{
    static const uint8_t rep_movsb[] = {0xf3, 0xa4};
    uint32_t lens = gs_trace_lens_off(off, cap->nwords);
    uint32_t data = gs_trace_data_off(off, cap->nwords, cap->nbytes);
    GR_TRY(GR_EMIT(c, err, MOV, GR_MEM(RSP, -GS_TRACE_CAPTURE_SAVE), GR_REG(ZYDIS_REGISTER_RDI)));
    GR_TRY(GR_EMIT(c, err, MOV, GR_MEM(RSP, -GS_TRACE_CAPTURE_SAVE - 8), GR_REG(ZYDIS_REGISTER_RSI)));
    GR_TRY(GR_EMIT(c, err, MOV, GR_MEM(RSP, -GS_TRACE_CAPTURE_SAVE - 16), GR_REG(ZYDIS_REGISTER_RCX)));
    for (unsigned j = 0; j < cap->nbytes; j++) {
        const struct gr_trace_bytes *b = &cap->bytes[j];
        GR_TRY(GR_EMIT(c, err, MOV, GR_REG(ZYDIS_REGISTER_RCX), GR_MEM(R12, off + 8u * b->len_word)));
        GR_TRY(GR_EMIT(c, err, MOV, GR_REG(ZYDIS_REGISTER_R13D), GR_IMM(bytes_max)));
        GR_TRY(GR_EMIT(c, err, CMP, GR_REG(ZYDIS_REGISTER_RCX), GR_REG(R13)));
        GR_TRY(GR_EMIT(c, err, CMOVNBE, GR_REG(ZYDIS_REGISTER_RCX), GR_REG(R13)));
        GR_TRY(GR_EMIT(c, err, MOV, GR_MEM32(R12, lens + 4u * j), GR_REG(ZYDIS_REGISTER_ECX)));
        GR_TRY(GR_EMIT(c, err, MOV, GR_REG(ZYDIS_REGISTER_RSI), GR_MEM(R12, off + 8u * b->ptr_word)));
        GR_TRY(GR_EMIT(c, err, LEA, GR_REG(ZYDIS_REGISTER_RDI),
                    GR_MEM(R12, data + j * gs_trace_copy_size(bytes_max))));
        GR_TRY(gr_code_append(c, rep_movsb, sizeof rep_movsb, err));
    }
    GR_TRY(GR_EMIT(c, err, MOV, GR_REG(ZYDIS_REGISTER_RDI), GR_MEM(RSP, -GS_TRACE_CAPTURE_SAVE)));
    GR_TRY(GR_EMIT(c, err, MOV, GR_REG(ZYDIS_REGISTER_RSI), GR_MEM(RSP, -GS_TRACE_CAPTURE_SAVE - 8)));
    return GR_EMIT(c, err, MOV, GR_REG(ZYDIS_REGISTER_RCX), GR_MEM(RSP, -GS_TRACE_CAPTURE_SAVE - 16));
}

static int emit_capture(struct gr_codebuf *c, const struct gr_trace_capture *cap, uint32_t off,
                        uint32_t bytes_max, struct gr_error *err)
{
    for (unsigned i = 0; i < cap->nwords; i++)
        GR_TRY(emit_word(c, &cap->words[i], off + 8 * i, err));
    return cap->nbytes ? emit_copies(c, cap, off, bytes_max, err) : 0;
}

/* lea r13, [rip + the code after the jmp (and after the jmp to skip, if
 * any)]; jmp to; [jmp skip]. */
static int emit_call_with_capture(struct gr_codebuf *c, uint64_t to, const uint64_t *skip,
                                  struct gr_error *err)
{
    uint64_t at = gr_code_here(c);
    GR_TRY(GR_EMIT(c, err, LEA, GR_REG(R13), GR_ABS(at)));        /* placeholder */
    size_t field = c->len - 4;
    GR_TRY(gr_emit_branch(c, ZYDIS_MNEMONIC_JMP, to, err));
    size_t skip_at = c->len;
    if (skip && gr_emit_branch(c, ZYDIS_MNEMONIC_JMP, *skip, err) < 0)
        return -1;
    if (skip && c->len - skip_at != GS_TRACE_NO_RECORD)
        return gr_fail(err, "trace: the jmp past an entry capture is not %d bytes", GS_TRACE_NO_RECORD);
    int32_t rel = (int32_t)(gr_code_here(c) - (c->base + field + 4));
    memcpy(c->bytes + field, &rel, sizeof rel);
    return 0;
}

/* gs_trace_enter goes on to the capture with r12 = the pending record,
 * or, when the call has none, to the jmp back just before it. */
int gr_trace_emit_entry(struct gr_codebuf *c, const struct gr_trace_plan *tp, uint32_t trace,
                        uint32_t record, uint64_t trace_enter, uint64_t back, struct gr_error *err)
{
    const struct gr_trace_func *tf = &tp->funcs[trace];
    uint64_t which = (uint64_t)trace | (uint64_t)tf->used << 32;    /* GS_EV_TFUNC, GS_EV_USED */
    GR_TRY(GR_EMIT(c, err, MOV, GR_REG(ZYDIS_REGISTER_R12D), GR_IMM((int32_t)record)));
    GR_TRY(emit_call_with_capture(c, trace_enter, &back, err));
    GR_TRY(GR_EMIT(c, err, MOV, GR_REG(R13), GR_IMM(which)));
    GR_TRY(GR_EMIT(c, err, MOV, GR_MEM(R12, GS_EV_TFUNC), GR_REG(R13)));
    GR_TRY(emit_capture(c, &tf->layout.entry, tf->entry_off, tp->bytes_max, err));
    return gr_emit_branch(c, ZYDIS_MNEMONIC_JMP, back, err);
}

int gr_trace_emit_return(struct gr_codebuf *c, const struct gr_trace_plan *tp, uint32_t trace,
                       uint32_t record, uint64_t trace_return, uint64_t trace_commit,
                       struct gr_error *err)
{
    const struct gr_trace_func *tf = &tp->funcs[trace];
    GR_TRY(GR_EMIT(c, err, MOV, GR_REG(ZYDIS_REGISTER_R12D), GR_IMM((int32_t)record)));
    GR_TRY(emit_call_with_capture(c, trace_return, NULL, err));
    GR_TRY(emit_capture(c, &tf->layout.ret, tf->return_off, tp->bytes_max, err));
    return gr_emit_branch(c, ZYDIS_MNEMONIC_JMP, trace_commit, err);
}
