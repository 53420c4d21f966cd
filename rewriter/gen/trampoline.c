/* trampoline.c: the code that counts and times a call.
 *
 * Each thread owns a row of counters; its address is kept in the thread's
 * m.tls[1], reached through g (R14) -> g.m (see runtime_offsets.h). Go
 * allocates every m zeroed, so a thread starts with no row. In a program
 * without runtime/cgo (plan->row_from_fs) the runtime points FS at
 * &m.tls[1] on every thread it makes, and it makes them all, so the row is
 * one load, `mov r12, fs:[0]`, in place of the two through g below (and
 * of the leaf trampoline's TLS load of g, two tests and two loads); the
 * slow path's stub (gs_row_slow) stores a claimed row there. A plain
 * (unlocked) inc is exact because only the owning thread writes its row,
 * and a signal handler on that thread cannot split one instruction.
 *
 * Entry trampoline, per instrumented function:
 *   T:  <the original stack check, re-encoded; jb/jbe still reach the
 *        function's own morestack block>
 *       [a scheduler hand-off (plan/sched_hooks.h): mov r12, <its goroutine
 *        argument>; lea r13, [rip + 1f]; jmp gs_sched_off/on; 1:]
 *       mov r12, [r14 + g.m]
 *       mov r12, [r12 + m.tls[1]]  ; this thread's row
 *       test r12, r12
 *       jz S
 *   I:  inc qword [r12 + counter]
 *       jmp back                   ; first instruction after the check
 *     or, when the function is timed (emit_time_entry), with --time-all:
 *       mov r12d, record           ; its timing record's offset in a row
 *       lea r13, [rip + back]
 *       jmp gs_time_enter          ; stubs/timing.S; continues at r13
 *     or in the default mode and with --sample N, where the counter holds
 *     calls - (the number of the next timed call):
 *       js back                    ; not yet: one instruction more than counting
 *       lea r13, [rip + D]
 *       jmp gs_sample_enter        ; draws the next gap, then gs_time_enter
 *   D:  dd back - D, counter, record
 *   S:  lea r13, [rip + C]
 *       jmp gs_claim_row           ; r12 = a new row, or 0 if none is left
 *   C:  test r12, r12
 *       jz L
 *       mov r13, [r14 + g.m]
 *       mov [r13 + m.tls[1]], r12
 *       jmp I
 *   L:  lock inc qword [row0 + counter]
 *       jmp back                   ; no row: counted, not timed
 *     or, with the row at fs:[0] (most programs), S, C and L shared:
 *   S:  lea r13, [rip + W]
 *       jmp gs_row_slow            ; claims, fs:[0] = row, on to I; or L
 *   W:  dd I - W, counter, back - W
 *     or, when also sampled (sample_takes_first), S is the lea before D:
 *     gs_sample_enter, given r12 = 0, claims, counts and decides itself.
 *
 * Leaf trampoline, per function without a stack check (leaf.c chose the
 * covered instructions):
 *   T:  <the program's TLS load of g, into r12>
 *       test r12, r12 ; jz L      ; no g: a thread Go did not create
 *       mov r12, [r12 + g.m] ; test r12, r12 ; jz L
 *       mov r12, [r12 + m.tls[1]] ; test r12, r12 ; jz S
 *   I:  inc qword [r12 + counter]
 *       [timed, sampling: js B]                         ; not this call's turn
 *       [timed: <TLS g into r13>; cmp r13, r14; je T]   ; R14 is g
 *       [timed, Go <= 1.16: <TLS g into r14>; jmp T]    ; R14 is dead
 *       [timed, row at fs:[0], register ABI, where R14 is g
 *        (emit_leaf_return): jns T when sampling, else jmp T]
 *   B:  <the covered instructions, re-encoded; before each one that can
 *        fault: lea r12, [its address]; cmp r12, 0x1000; jb F>
 *        [a final ret or tail call of a timed function: the leaf return
 *         below, inline (the covered bytes may run up to a return near
 *         the entry: plan.c)]
 *       jmp back                   ; none when they end in ret or jmp;
 *                                  ; a ret when B is not timed and the
 *                                  ; function's ret follows the covered bytes
 *   S, C: as above (C reloads g from TLS), L: lock inc; jmp B
 *       (none when S is T: sample_takes_first)
 *   T:  as the timed part above (emit_time_entry), continuing at B, or,
 *       when sampled, at B': the covered instructions again, timed, so
 *       that B, run by the calls not timed, ends in the function's own ret
 *   The branches to S and T are rel8 when they reach (emit_leaf_sized).
 *   F:  <a NOP naming the original PC (fault_pc.h): runtime.sigpanic's
 *        entry trampoline finds it after a fault at any other address>
 *       lea r13, [rip + F]; jmp <the program's nil-fault routine>
 *       dd <the instruction> - F   ; what the runtime's handler would do
 *                                  ; (nil_fault.c)
 *
 * Return trampoline, per return of a timed function (returns.c chose the
 * covered bytes), unaligned, right after the entry trampoline:
 *   X:  <the covered instructions before the ret, re-encoded>
 *       [every return but the first: jmp to the first one's part below,
 *        which depends on the function only]
 *       [<the check's TLS load of g>; mov r14, g]  ; Go <= 1.16, assembly
 *       cmp esp, dword [r14 + g.racectx] ; the marker: the innermost open
 *       jae Y                      ; timed call's RSP, low half
 *       ret                        ; deeper: this call was not timed
 *   Y:  mov r12d, record
 *       jmp gs_time_return           ; which ends with the function's ret
 *     or, for a tail call, jmp target (or jmp reg) for ret, and at Y:
 *       mov r12d, record; lea r13, [target] (or mov r13, reg)
 *       jmp gs_tail_return           ; which ends with that jump
 *   or, for a function without a check (leaf return), first:
 *       <TLS g into r12 (r14, Go <= 1.16)>; test; jz R; cmp r12, r14; jne R
 *       then the test above, R being its ret
 *                                  ; R14 is not g: counted, not timed
 *
 * Only R12 and R13 (scratch at entry and at return in Go's register ABI;
 * the linker's own large-frame check clobbers R12) and the flags (dead at
 * both) change here. Nothing is pushed: no address of ours is ever on a
 * goroutine stack. The count is taken after the check passes, so a call
 * that grows its stack or is preempted at the check (both re-run the
 * check) counts once. A signal handler that runs Go code between claim and
 * store may claim a row of its own, which the interrupted code then
 * replaces: both rows stay written by one thread only, so counts stay
 * exact. */
#include "rewriter/gen/trampoline.h"

#include <string.h>

#include "rewriter/find/runtime_offsets.h"
#include "rewriter/plan/sched_hooks.h"
#include "rewriter/plan/goroutine_sites.h"
#include "format/gostat_format.h"
#include "format/stub_abi.h"
#include "common/x86.h"
#include "rewriter/gen/trace_capture.h"
#include "rewriter/gen/fault_pc.h"
#include "rewriter/gen/nil_fault.h"
#include "rewriter/plan/signal_gate.h"

#define R12 ZYDIS_REGISTER_R12
#define R13 ZYDIS_REGISTER_R13
#define G ZYDIS_REGISTER_R14   /* the goroutine, after the check in every shape */

/* Where each entry trampoline starts: 16 would add 0.15 MB of padding to
 * buf's output (docs/benchmarks/history.md). */
#define ENTRY_ALIGN 8

#define JUMP(m, target) gr_emit_branch(c, ZYDIS_MNEMONIC_##m, (target), err)
/* A short forward branch, its rel8 patched once its label is placed. */
#define JUMP8(m) gr_emit_branch8(c, ZYDIS_MNEMONIC_##m, gr_code_here(c) + 2, err)

/* Labels inside the entry trampoline (the comment at the top). A branch
 * or rip-relative lea that refers to a label not yet placed is emitted
 * with a placeholder target and patched once the label is known: such a
 * branch is rel32 and a rip-relative operand disp32, both the
 * instruction's last 4 bytes, so the patch changes no size; or, where the
 * label is known to be near, a rel8 branch, its reach checked when
 * patched. */
enum label { LABEL_I, LABEL_S, LABEL_L, LABEL_T, LABEL_B, NLABELS };
#define MAX_FORWARD 6       /* to S, T, B and L (L three times in a leaf trampoline) */

struct forward {
    size_t field;           /* offset in the code buffer of the rel32/disp32 (or rel8) */
    enum label to;
    int short8;             /* a rel8: resolve checks its reach */
};

struct labels {
    uint64_t later;         /* the placeholder target (in rel32 reach) */
    uint64_t at[NLABELS];
    struct forward fwd[MAX_FORWARD];
    unsigned nfwd;
};

/* Records that the instruction just emitted, aimed at lb->later, refers to
 * label to; checks that its last 4 bytes are indeed that displacement. */
static int refer(struct labels *lb, const struct gr_codebuf *c, enum label to,
                 struct gr_error *err)
{
    size_t field = c->len - 4;
    int32_t rel;
    memcpy(&rel, c->bytes + field, sizeof rel);
    if (c->base + field + 4 + (uint64_t)(int64_t)rel != lb->later)
        return gr_fail_as(err, GR_ERR_INTERNAL, "internal error: no rel32 at the end of the instruction at 0x%llx",
                          (unsigned long long)(c->base + field));
    lb->fwd[lb->nfwd++] = (struct forward){.field = field, .to = to};
    return 0;
}

/* The same for a short branch just emitted at its own end (rel8 0). */
static void refer8(struct labels *lb, const struct gr_codebuf *c, enum label to)
{
    lb->fwd[lb->nfwd++] = (struct forward){.field = c->len - 1, .to = to, .short8 = 1};
}

static void place(struct labels *lb, const struct gr_codebuf *c, enum label l)
{
    lb->at[l] = gr_code_here(c);
}

/* Patches every forward reference; the displacement counts from the end of
 * the instruction, which is the end of the field. */
static int resolve(const struct labels *lb, struct gr_codebuf *c, struct gr_error *err)
{
    for (unsigned i = 0; i < lb->nfwd; i++) {
        const struct forward *f = &lb->fwd[i];
        if (f->short8) {
            GR_TRY(gr_code_patch_rel8(c, f->field, lb->at[f->to], err));
            continue;
        }
        int32_t rel = (int32_t)(lb->at[f->to] - (c->base + f->field + 4));
        memcpy(c->bytes + f->field, &rel, sizeof rel);
    }
    return 0;
}

/* Points the rel32 or disp32 at field (the last 4 bytes of an instruction
 * emitted earlier) at the current end of the code. */
static void patch_rel32(struct gr_codebuf *c, size_t field)
{
    gr_code_patch_rel32(c, field);
}

/* A hand-over to a stub that continues at r13: lea r13, [rip + next]; jmp
 * stub; next: what follows (the code after the call, or the words the
 * stub reads from there). */
static int emit_hand_over(struct gr_codebuf *c, uint64_t stub, struct gr_error *err)
{
    GR_TRY(GR_EMIT(c, err, LEA, GR_REG(R13), GR_ABS(gr_code_here(c))));   /* placeholder */
    size_t disp_field = c->len - 4;
    GR_TRY(JUMP(JMP, stub));
    patch_rel32(c, disp_field);
    return 0;
}

struct func_ctx;
static int stack_abi(const struct func_ctx *fc);

struct func_ctx {
    const struct gr_runtime_offsets *rt;
    const struct gr_plan_func *pf;
    const struct gr_segment_plan *seg;
    const struct gr_stub_routines *stubs;
    ZydisDecoder zy;          /* re-decodes the covered epilogue bytes */
    struct gr_insn check[GR_PROLOGUE_MAX_INSNS]; /* pf's check, decoded again */
    struct gr_insn tls[GR_PROLOGUE_MAX_INSNS];   /* the program's TLS load of g */
    unsigned ntls;
    const struct gr_plan *plan;
    struct gr_fault_fix *fix;  /* runtime.sigpanic's fix-up (fault_pc.h) */
    uint64_t nil_fault;        /* the nil-fault routine (nil_fault.h) */
};

/* The function's timing record: its offset in a row. */
static uint32_t record_offset(const struct func_ctx *fc)
{
    return (uint32_t)gs_timing_offset(fc->seg->timing_off, fc->pf->timing);
}

/* reg = g, read from TLS with the program's own load (plan->tls_entry). */
static int load_tls_g(struct gr_codebuf *c, const struct func_ctx *fc, ZydisRegister reg,
                      struct gr_error *err)
{
    return gr_emit_tls_load(c, fc->tls, fc->ntls, reg, err);
}

/* Offset in a row of fc's function counter. */
static int64_t counter_offset(const struct func_ctx *fc)
{
    return (int64_t)gr_segments_counter(fc->seg, fc->pf->counter);
}

/* With the thread's row in R12, or 0 for none (to S, the slow paths):
 * I, the count in the row. */
static int emit_count(struct gr_codebuf *c, const struct func_ctx *fc, struct labels *lb,
                      int near_s, struct gr_error *err)
{
    GR_TRY(GR_EMIT(c, err, TEST, GR_REG(R12), GR_REG(R12)));
    if (near_s) {            /* S within a rel8's reach (emit_function, emit_leaf_sized) */
        GR_TRY(JUMP8(JZ));
        refer8(lb, c, LABEL_S);
    } else {
        GR_TRY(JUMP(JZ, lb->later));
        GR_TRY(refer(lb, c, LABEL_S, err));
    }
    place(lb, c, LABEL_I);
    return GR_EMIT(c, err, INC, GR_MEM(R12, counter_offset(fc)));
}

/* S with the row at fs:[0]: gs_row_slow does what C and L below do, from
 * the words after its jmp (stub_abi.h GS_ROWSLOW_*). */
static int emit_row_slow(struct gr_codebuf *c, const struct func_ctx *fc, struct labels *lb,
                         uint64_t next, struct gr_error *err)
{
    GR_TRY(emit_hand_over(c, fc->stubs->row_slow, err));            /* lea r13, [rip + words] */
    uint64_t at = gr_code_here(c);
    uint8_t words[GS_ROWSLOW_SIZE];
    int32_t resume = (int32_t)(int64_t)(lb->at[LABEL_I] - at), back = (int32_t)(int64_t)(next - at);
    uint32_t counter = (uint32_t)counter_offset(fc);
    memcpy(words + GS_ROWSLOW_RESUME, &resume, 4);
    memcpy(words + GS_ROWSLOW_COUNTER, &counter, 4);
    memcpy(words + GS_ROWSLOW_BACK, &back, 4);
    return gr_code_append(c, words, sizeof words, err);
}

/* The slow paths of both entry trampolines. S: the thread has no row
 * yet: gs_claim_row returns one in R12 (0 when they are used up), which is
 * kept in m.tls[1] (g taken from R14, or from TLS when g_from_tls), and the
 * count goes to I. L: no row (or no g or m): the shared row 0, with a
 * locked increment, then on to next. */
static int emit_slow_paths(struct gr_codebuf *c, const struct func_ctx *fc, struct labels *lb,
                           int g_from_tls, uint64_t next, struct gr_error *err)
{
    uint64_t shared_counter = gr_segments_row0(fc->seg) + (uint64_t)counter_offset(fc);
    place(lb, c, LABEL_S);
    if (fc->plan->row_from_fs)
        return emit_row_slow(c, fc, lb, next, err);
    GR_TRY(emit_hand_over(c, fc->stubs->claim_row, err));           /* lea r13, [rip + C] */
    GR_TRY(GR_EMIT(c, err, TEST, GR_REG(R12), GR_REG(R12)));
    GR_TRY(JUMP8(JZ));                                  /* L: past a store and a jmp */
    refer8(lb, c, LABEL_L);
    if (g_from_tls) {
        GR_TRY(load_tls_g(c, fc, R13, err));
        GR_TRY(GR_EMIT(c, err, MOV, GR_REG(R13), GR_MEM(R13, fc->rt->g_m)));
    } else {
        GR_TRY(GR_EMIT(c, err, MOV, GR_REG(R13), GR_MEM(G, fc->rt->g_m)));
    }
    GR_TRY(GR_EMIT(c, err, MOV, GR_MEM(R13, gr_m_row_slot(fc->rt)), GR_REG(R12)));
    GR_TRY(gr_emit_branch_to(c, ZYDIS_MNEMONIC_JMP, lb->at[LABEL_I], err));
    place(lb, c, LABEL_L);
    GR_TRY(GR_EMIT_LOCKED(c, err, INC, GR_ABS(shared_counter)));
    return JUMP(JMP, next);
}

/* --time-all and --call-graph: no call is left untimed, so no sample test. */
static int every_call(const struct func_ctx *fc)
{
    return gs_mode_times_every_call(fc->seg->timing.mode);
}

/* Sampling (the default mode and --sample N): the flags of the `inc [r12
 * + counter]` just emitted decide. The counter holds calls - next
 * (gs_timing.next), negative until this call is the next one to time. */
static int emit_sample_test(struct gr_codebuf *c, const struct func_ctx *fc, uint64_t back,
                            struct gr_error *err)
{
    if (every_call(fc))
        return 0;                                   /* --time-all: every call */
    return JUMP(JS, back);
}

/* emit_time_call's back for a sampled call that goes on right after its
 * hand-over (a leaf's second copy of its covered bytes, emit_leaf). */
#define BACK_AFTER_CALL UINT64_MAX

/* The timed part of an entry trampoline, once the call is to be timed (R12
 * = the thread's row, R14 = g): gs_time_enter (--time-all), or
 * gs_sample_enter, which draws the next gap first; both continue at back. */
static int emit_time_call(struct gr_codebuf *c, const struct func_ctx *fc, uint64_t back,
                          struct gr_error *err)
{
    if (back == BACK_AFTER_CALL && (fc->pf->traced || every_call(fc)))
        return gr_fail_as(err, GR_ERR_INTERNAL, "internal error: only a sampled call goes on after its hand-over");
    if (fc->pf->traced)         /* --trace: gs_trace_enter, then the capture (trace_capture.c) */
        return gr_trace_emit_entry(c, fc->plan->trace, fc->pf->trace, record_offset(fc),
                                   fc->stubs->trace_enter, back, err);
    if (fc->seg->timing.mode == GS_MODE_CALL_GRAPH) {
        GR_TRY(GR_EMIT(c, err, MOV, GR_REG(R12), GR_IMM(GS_PATH_CALLEE_WORD(record_offset(fc)))));
        GR_TRY(GR_EMIT(c, err, LEA, GR_REG(R13), GR_ABS(back)));
        return JUMP(JMP, fc->stubs->time_enter);    /* gs_path_enter */
    }
    if (every_call(fc)) {
        GR_TRY(GR_EMIT(c, err, MOV, GR_REG(ZYDIS_REGISTER_R12D), GR_IMM(record_offset(fc))));
        GR_TRY(GR_EMIT(c, err, LEA, GR_REG(R13), GR_ABS(back)));
        return JUMP(JMP, fc->stubs->time_enter);
    }
    GR_TRY(emit_hand_over(c, fc->stubs->sample_enter, err));        /* lea r13, [rip + D] */
    uint8_t desc[GS_DESC_SIZE];
    int32_t back_rel = back == BACK_AFTER_CALL ? GS_DESC_SIZE : (int32_t)(int64_t)(back - gr_code_here(c));
    uint32_t counter = (uint32_t)counter_offset(fc);
    uint32_t rec = record_offset(fc);
    memcpy(desc + GS_DESC_BACK, &back_rel, 4);
    memcpy(desc + GS_DESC_COUNTER, &counter, 4);
    memcpy(desc + GS_DESC_REC, &rec, 4);
    return gr_code_append(c, desc, sizeof desc, err);
}

/* Whether the sampled call's stub (gs_sample_enter) also takes the
 * thread's first call, the row being at fs:[0]: the trampoline's `jz` for
 * no row then leads to the same hand-over as a call due to be timed, and
 * no slow path of its own follows. A leaf's R14 must be g for that (the
 * register ABI: emit_leaf_time_test). */
static int sample_takes_first(const struct func_ctx *fc)
{
    return fc->plan->row_from_fs && !every_call(fc) && !fc->pf->traced &&
           fc->pf->timing != GR_UNTIMED &&
           !(fc->pf->prologue.shape == GR_PROLOGUE_LEAF && stack_abi(fc));
}

/* The timed part of a checked function's entry trampoline, right after
 * its count. */
static int emit_time_entry(struct gr_codebuf *c, const struct func_ctx *fc, uint64_t back,
                           struct gr_error *err)
{
    if (fc->pf->traced)         /* every call: no sampling test */
        return emit_time_call(c, fc, back, err);
    GR_TRY(emit_sample_test(c, fc, back, err));
    return emit_time_call(c, fc, back, err);
}

/* Go <= 1.16: the stack ABI, where R14 is not g. */
static int stack_abi(const struct func_ctx *fc)
{
    return gr_go_stack_abi(fc->rt->minor);
}

/* A hand-off of the scheduler (plan/sched_hooks.h), before its count: r12
 * = its goroutine argument, then gs_sched_off or gs_sched_on
 * (stubs/oncpu.S), which continues right after. */
static int emit_sched_hook(struct gr_codebuf *c, const struct func_ctx *fc, struct gr_error *err)
{
    if (stack_abi(fc))
        GR_TRY(GR_EMIT(c, err, MOV, GR_REG(R12), GR_MEM(ZYDIS_REGISTER_RSP, 8)));
    else
        GR_TRY(GR_EMIT(c, err, MOV, GR_REG(R12), GR_REG(ZYDIS_REGISTER_RAX)));
    uint64_t stub = fc->pf->sched_hook == GR_HOOK_ON      ? fc->stubs->sched_on
                    : fc->pf->sched_hook == GR_HOOK_STACK ? fc->stubs->stack_moved
                                                          : fc->stubs->sched_off;
    return emit_hand_over(c, stub, err);                            /* lea r13, [rip + here] */
}

static int reload_g(struct gr_codebuf *c, const struct func_ctx *fc, struct gr_error *err);

/* At a return of newproc1 (RSP at the return address): r12 = the new g,
 * the result (RAX; Go <= 1.16: the stack slot after its five 8-byte
 * arguments), R14 = g (Go <= 1.16: from TLS, R14 is dead at a return:
 * sites by creator path read m.curg through it), then gs_site_create. */
static int emit_site_create(struct gr_codebuf *c, const struct func_ctx *fc, struct gr_error *err)
{
    if (stack_abi(fc)) {
        GR_TRY(GR_EMIT(c, err, MOV, GR_REG(R12), GR_MEM(ZYDIS_REGISTER_RSP, 48)));
        GR_TRY(reload_g(c, fc, err));
    } else
        GR_TRY(GR_EMIT(c, err, MOV, GR_REG(R12), GR_REG(ZYDIS_REGISTER_RAX)));
    return emit_hand_over(c, fc->stubs->site_create, err);
}

/* The entry trampoline in the comment at the top of this file. */
static int emit_function(struct gr_codebuf *c, const struct func_ctx *fc, struct gr_error *err)
{
    struct labels lb = {.later = gr_code_here(c)};
    const struct gr_prologue *pro = &fc->pf->prologue;
    uint64_t back = fc->pf->func->entry + pro->len;

    if (fc->plan->sig && fc->ntls && fc->pf->func->entry == fc->plan->sigpanic_go)
        GR_TRY(gr_fault_fix_emit(c, fc->tls, fc->ntls, fc->plan->sig->sigpc, fc->fix, err));
    for (unsigned i = 0; i < pro->ninsns; i++)                /* T: the check */
        GR_TRY(gr_emit_relocated(c, &fc->check[i], err));
    /* Go <= 1.16 (stack ABI): the check left g in RCX and every register
     * but RDX (closure context) and RCX (g, used by wrappers) is scratch at
     * entry; put g where the code below expects it. */
    if (pro->g_reg != G)
        GR_TRY(GR_EMIT(c, err, MOV, GR_REG(G), GR_REG(pro->g_reg)));
    if (fc->pf->sched_hook != GR_HOOK_NONE)
        GR_TRY(emit_sched_hook(c, fc, err));
    if (fc->plan->sites && fc->pf->site_role == GR_SITE_END)
        GR_TRY(emit_hand_over(c, fc->stubs->site_end, err));
    if (fc->plan->row_from_fs) {
        GR_TRY(GR_EMIT(c, err, MOV, GR_REG(R12), GR_FS(0)));
    } else {
        GR_TRY(GR_EMIT(c, err, MOV, GR_REG(R12), GR_MEM(G, fc->rt->g_m)));
        GR_TRY(GR_EMIT(c, err, MOV, GR_REG(R12), GR_MEM(R12, gr_m_row_slot(fc->rt))));
    }
    /* I to S: the count, then at most a sampling test and a hand-over
       to a stub with its descriptor (a trace capture can be longer) */
    GR_TRY(emit_count(c, fc, &lb, !fc->pf->traced, err));
    if (sample_takes_first(fc)) {            /* S is the hand-over itself */
        GR_TRY(emit_sample_test(c, fc, back, err));
        place(&lb, c, LABEL_S);
        GR_TRY(emit_time_call(c, fc, back, err));
        return resolve(&lb, c, err);
    }
    if (fc->pf->timing != GR_UNTIMED)
        GR_TRY(emit_time_entry(c, fc, back, err));
    else
        GR_TRY(JUMP(JMP, back));
    GR_TRY(emit_slow_paths(c, fc, &lb, 0, back, err));
    return resolve(&lb, c, err);
}


/* After a leaf's count (r12 = the row, TLS g known not nil): on to T, the
 * timed path, when this call is to be timed (emit_sample_test, whose flags
 * come from the count) and R14 is g. Register ABI: R14 must equal TLS g,
 * which compiled Go keeps there but a signal handler or a C caller need
 * not. Stack ABI: R14 is dead at entry (as every register but RSP and
 * RDX), so it is loaded from TLS, as the checked functions' trampolines
 * do. Not timed when due for a sample: the counter stays >= 0 and the
 * function's next call is due instead. */
static int emit_leaf_time_test(struct gr_codebuf *c, const struct func_ctx *fc, struct labels *lb,
                               int near, struct gr_error *err)
{
    if (fc->plan->row_from_fs && !stack_abi(fc)) {  /* R14 is g: emit_leaf_return says why */
        int due = sample_takes_first(fc);           /* due: to T; else on to B, right after */
        if (near) {
            GR_TRY(due ? JUMP8(JNS) : JUMP8(JMP));
            refer8(lb, c, LABEL_T);
            return 0;
        }
        GR_TRY(due ? JUMP(JNS, lb->later) : JUMP(JMP, lb->later));
        return refer(lb, c, LABEL_T, err);
    }
    if (!every_call(fc) && !fc->pf->traced) { /* emit_sample_test, to B not yet placed */
        GR_TRY(JUMP(JS, lb->later));
        GR_TRY(refer(lb, c, LABEL_B, err));
    }
    if (stack_abi(fc)) {
        GR_TRY(load_tls_g(c, fc, G, err));
        GR_TRY(JUMP(JMP, lb->later));
    } else {
        GR_TRY(load_tls_g(c, fc, R13, err));
        GR_TRY(GR_EMIT(c, err, CMP, GR_REG(R13), GR_REG(G)));
        GR_TRY(JUMP(JZ, lb->later));
    }
    return refer(lb, c, LABEL_T, err);
}

/* How a function leaves at one of its returns: by its ret, or by its tail
 * call's jmp to another function (to) or through a register (reg). */
struct leave {
    uint64_t to;
    ZydisRegister reg;
};

#define LEAVE_RET ((struct leave){0, ZYDIS_REGISTER_NONE})

static int is_tail(struct leave lv)
{
    return lv.to || lv.reg != ZYDIS_REGISTER_NONE;
}

/* The function's own way out at a return. */
static int emit_leave(struct gr_codebuf *c, struct leave lv, struct gr_error *err)
{
    if (lv.to)
        return JUMP(JMP, lv.to);
    if (lv.reg != ZYDIS_REGISTER_NONE)
        return GR_EMIT(c, err, JMP, GR_REG(lv.reg));
    return gr_emit(c, ZYDIS_MNEMONIC_RET, 0, 0, NULL, err);
}

/* The end of every timed return (R14 = g, RSP at the return address): a
 * call deeper than the goroutine's innermost open timed call (RSP below
 * the marker in g.racectx, the low half of that call's RSP: stub_abi.h)
 * was not timed and just returns, as do the branches in to_ret; the
 * others go to gs_time_return, which ends with the ret. A
 * tail call leaves by its jmp instead, through gs_tail_return
 * (stubs/tail_return.S), which gets the target in R13 (returns.c leaves a
 * jump through R12, which Y overwrites, untimed). */
static int emit_timed_return(struct gr_codebuf *c, const struct func_ctx *fc, const size_t *to_ret,
                             unsigned nto_ret, struct leave lv, struct gr_error *err)
{
    GR_TRY(GR_EMIT(c, err, CMP, GR_REG(ZYDIS_REGISTER_ESP), GR_MEM32(G, fc->rt->g_racectx)));
    GR_TRY(JUMP8(JNB));
    size_t jae_field = c->len - 1;
    for (unsigned k = 0; k < nto_ret; k++)
        patch_rel32(c, to_ret[k]);
    GR_TRY(emit_leave(c, lv, err));
    GR_TRY(gr_code_patch_rel8(c, jae_field, gr_code_here(c), err));   /* jae Y, over the leave */
    if (fc->pf->traced)
        return gr_trace_emit_return(c, fc->plan->trace, fc->pf->trace, record_offset(fc),
                                  fc->stubs->trace_return, fc->stubs->trace_commit, err);
    GR_TRY(GR_EMIT(c, err, MOV, GR_REG(ZYDIS_REGISTER_R12D), GR_IMM(record_offset(fc))));
    if (!is_tail(lv))
        return JUMP(JMP, fc->stubs->time_return);
    if (lv.to)
        GR_TRY(GR_EMIT(c, err, LEA, GR_REG(R13), GR_ABS(lv.to)));
    else if (lv.reg != R13)
        GR_TRY(GR_EMIT(c, err, MOV, GR_REG(R13), GR_REG(lv.reg)));
    return JUMP(JMP, fc->stubs->tail_return);
}

/* The return of a timed leaf (RSP at the return address): timed only when
 * R14 is TLS g and not nil (so the entry was timed too, and the routine
 * can read the goroutine), else a plain ret. R12 and the flags are dead at
 * a return in both ABIs; Go <= 1.16 reloads R14 (dead there too).
 * Register ABI in a program without runtime/cgo (the row read as fs:[0]):
 * every thread is Go's, and a timed leaf is compiled Go outside the
 * runtime's packages (leaf_timing.c), which always runs with R14 = TLS g
 * (ABI wrappers reload it; only cgo callbacks and the runtime's own
 * transitions have it otherwise), as its checked callers' returns assume:
 * no test, five instructions less on every return. */
static int emit_leaf_return(struct gr_codebuf *c, const struct func_ctx *fc, struct leave lv,
                          struct gr_error *err)
{
    if (fc->plan->row_from_fs && !stack_abi(fc))
        return emit_timed_return(c, fc, NULL, 0, lv, err);
    size_t to_ret[2];
    unsigned n = 0;
    ZydisRegister g = stack_abi(fc) ? G : R12;
    GR_TRY(load_tls_g(c, fc, g, err));
    GR_TRY(GR_EMIT(c, err, TEST, GR_REG(g), GR_REG(g)));
    GR_TRY(JUMP(JZ, gr_code_here(c)));
    to_ret[n++] = c->len - 4;
    if (!stack_abi(fc)) {
        GR_TRY(GR_EMIT(c, err, CMP, GR_REG(R12), GR_REG(G)));
        GR_TRY(JUMP(JNZ, gr_code_here(c)));
        to_ret[n++] = c->len - 4;
    }
    return emit_timed_return(c, fc, to_ret, n, lv, err);
}

/* How in leaves when it is a tail call (a jmp to another function, or
 * through a register: a return, returns.c); LEAVE_RET otherwise. */
static struct leave tail_leave(const struct func_ctx *fc, const struct gr_insn *in)
{
    const struct gr_func *f = fc->pf->func;
    if (in->insn.meta.category != ZYDIS_CATEGORY_UNCOND_BR)
        return LEAVE_RET;
    if (in->ops[0].type == ZYDIS_OPERAND_TYPE_REGISTER)
        return (struct leave){0, in->ops[0].reg.value};
    if (!in->insn.raw.imm[0].is_relative)
        return LEAVE_RET;
    uint64_t t = in->addr + in->insn.length + (uint64_t)in->insn.raw.imm[0].value.s;
    return (struct leave){t < f->entry || t >= f->end ? t : 0, ZYDIS_REGISTER_NONE};
}

/* The covered instructions of a leaf, each that can fault behind its
 * guard (gd), then the way on: for a timed copy, a final ret or tail call
 * as the leaf return and else the jmp back, whose original return is the
 * return trampoline; for one not timed, the function's own ret when it
 * follows (one taken branch and the return's test less), else the jmp back. */
static int emit_leaf_body(struct gr_codebuf *c, const struct func_ctx *fc, int timed,
                          struct gr_guards *gd, struct gr_error *err)
{
    const struct gr_prologue *pro = &fc->pf->prologue;
    for (unsigned i = 0; i < pro->ninsns; i++) {
        if (pro->guard_mask & (1u << i))
            GR_TRY(gr_guard_emit(c, &fc->check[i], gd, i, err));
        gd->at[i] = gr_code_here(c);
        struct leave lv = tail_leave(fc, &fc->check[i]);
        if (timed && i + 1 == pro->ninsns &&
            (fc->check[i].insn.meta.category == ZYDIS_CATEGORY_RET || is_tail(lv)))
            GR_TRY(emit_leaf_return(c, fc, lv, err));     /* the function's own return or tail call, timed */
        else
            GR_TRY(gr_emit_relocated(c, &fc->check[i], err));
    }
    if (pro->ret_follows && !timed)
        return gr_emit(c, ZYDIS_MNEMONIC_RET, 0, 0, NULL, err);
    if (!pro->ends_flow)
        return JUMP(JMP, fc->pf->func->entry + pro->len);
    return 0;
}

/* The nil-fault blocks of one copy of the covered instructions. */
static int emit_leaf_faults(struct gr_codebuf *c, const struct func_ctx *fc,
                            const struct gr_guards *gd, struct gr_error *err)
{
    const struct gr_prologue *pro = &fc->pf->prologue;
    for (unsigned i = 0; i < pro->ninsns; i++)
        if (pro->guard_mask & (1u << i))
            GR_TRY(gr_nil_fault_block(c, fc->nil_fault, &fc->check[i], gd, i, err));
    return 0;
}

/* The entry trampoline of a function without a stack check (the comment at
 * the top, for leaf functions): g comes from TLS, since such a function can
 * run where R14 is not g (a signal handler, a C thread before needm); no g
 * (a thread Go did not create) or no m counts in row 0, locked. The count
 * comes first, then the covered instructions run (emit_leaf_body). A
 * sampled leaf whose covered bytes run up to its return has them twice: B
 * for the calls not timed, after the count, and B' for the timed ones,
 * after T. Nothing here can re-run for one
 * call: no branch lands on the entry or inside the covered bytes
 * (plan.c). */
static int emit_leaf(struct gr_codebuf *c, const struct func_ctx *fc, int near,
                     struct gr_error *err)
{
    struct labels lb = {.later = gr_code_here(c)};
    int timed = fc->pf->timing != GR_UNTIMED;
    const struct gr_prologue *pro = &fc->pf->prologue;
    int twice = timed && !every_call(fc) && !fc->pf->traced &&   /* B and B': worth it */
                (pro->ret_follows || pro->ends_flow);                  /* when B can return */

    if (fc->plan->row_from_fs) {
        GR_TRY(GR_EMIT(c, err, MOV, GR_REG(R12), GR_FS(0)));   /* every thread is Go's */
    } else {
        GR_TRY(load_tls_g(c, fc, R12, err));
        GR_TRY(GR_EMIT(c, err, TEST, GR_REG(R12), GR_REG(R12)));
        GR_TRY(JUMP(JZ, lb.later));
        GR_TRY(refer(&lb, c, LABEL_L, err));
        GR_TRY(GR_EMIT(c, err, MOV, GR_REG(R12), GR_MEM(R12, fc->rt->g_m)));
        GR_TRY(GR_EMIT(c, err, TEST, GR_REG(R12), GR_REG(R12)));
        GR_TRY(JUMP(JZ, lb.later));
        GR_TRY(refer(&lb, c, LABEL_L, err));
        GR_TRY(GR_EMIT(c, err, MOV, GR_REG(R12), GR_MEM(R12, gr_m_row_slot(fc->rt))));
    }
    GR_TRY(emit_count(c, fc, &lb, near, err));
    if (timed)
        GR_TRY(emit_leaf_time_test(c, fc, &lb, near, err));
    uint64_t body = gr_code_here(c);              /* B: the covered instructions */
    place(&lb, c, LABEL_B);
    struct gr_guards gd = {0}, gd_timed = {0};
    GR_TRY(emit_leaf_body(c, fc, timed && !twice, &gd, err));
    if (sample_takes_first(fc))
        place(&lb, c, LABEL_S);                   /* S is T */
    else
        GR_TRY(emit_slow_paths(c, fc, &lb, 1, body, err));
    if (timed) {
        place(&lb, c, LABEL_T);
        GR_TRY(emit_time_call(c, fc, twice ? BACK_AFTER_CALL : body, err));
        if (twice)                                /* B', right after the hand-over */
            GR_TRY(emit_leaf_body(c, fc, 1, &gd_timed, err));
    }
    GR_TRY(resolve(&lb, c, err));
    GR_TRY(emit_leaf_faults(c, fc, &gd, err));
    return twice ? emit_leaf_faults(c, fc, &gd_timed, err) : 0;
}

/* A leaf trampoline whose branches from the count to S and T (past the
 * covered instructions) are short when they reach, as for most leaves;
 * else emitted again with near ones. */
static int emit_leaf_sized(struct gr_codebuf *c, const struct func_ctx *fc, struct gr_error *err)
{
    size_t start = c->len;
    if (emit_leaf(c, fc, 1, NULL) == 0)
        return 0;
    c->len = start;
    return emit_leaf(c, fc, 0, err);
}

/* R14 = g again at a return of a function whose check loaded g from TLS
 * (Go <= 1.16, and assembly): its body need not have kept g in R14, so the
 * check's TLS load is replayed. All it writes is dead at such a return:
 * results are on the stack in ABI0, and callers reload R14 themselves. */
static int reload_g(struct gr_codebuf *c, const struct func_ctx *fc, struct gr_error *err)
{
    const struct gr_prologue *pro = &fc->pf->prologue;
    for (unsigned i = 0; i < pro->tls_ninsns; i++)
        GR_TRY(gr_emit_relocated(c, &fc->check[i], err));
    if (pro->tls_ninsns && pro->g_reg != G)
        GR_TRY(GR_EMIT(c, err, MOV, GR_REG(G), GR_REG(pro->g_reg)));
    return 0;
}

/* The end of a return trampoline, after the replayed instructions. */
static int emit_return_end(struct gr_codebuf *c, const struct func_ctx *fc, struct leave lv,
                         struct gr_error *err)
{
    if (fc->plan->sites && fc->pf->site_role == GR_SITE_CREATE)
        GR_TRY(emit_site_create(c, fc, err));
    if (fc->pf->timing == GR_UNTIMED)
        return emit_leave(c, lv, err);        /* hooked for sites only */
    if (fc->pf->prologue.shape == GR_PROLOGUE_LEAF)
        return emit_leaf_return(c, fc, lv, err);
    GR_TRY(reload_g(c, fc, err));
    return emit_timed_return(c, fc, NULL, 0, lv, err);
}

/* X: replays the covered instructions (those that can fault behind a
 * guard, as in a leaf trampoline: a nil one faults as at its original
 * PC, with the function's frame as it was there), then hands over to
 * gs_time_return. What follows the replay of a ret depends on the function
 * only: its first such return emits it (*tail = its address) and every later
 * one jumps there; a tail call's leaves by its own jmp. */
static int emit_return(struct gr_codebuf *c, const struct gr_elf *elf, const struct func_ctx *fc,
                     const struct gr_return *e, uint64_t *tail, struct gr_error *err)
{
    const uint8_t *bytes = gr_elf_bytes_at(elf, e->addr, e->len);
    if (!bytes)
        return gr_fail_as(err, GR_ERR_INTERNAL, "internal error: return at 0x%llx is not in the file",
                          (unsigned long long)e->addr);
    struct gr_insn ins[GR_PROLOGUE_MAX_INSNS];
    struct gr_guards gd = {0};
    unsigned n = 0;
    for (unsigned off = 0; off < e->ret_off; n++) {       /* up to the ret */
        if (n == GR_PROLOGUE_MAX_INSNS)
            return gr_fail_as(err, GR_ERR_INTERNAL, "internal error: too many instructions before the return at 0x%llx",
                              (unsigned long long)e->addr);
        struct gr_insn *in = &ins[n];
        in->addr = e->addr + off;
        ZydisDecodedOperand ops[ZYDIS_MAX_OPERAND_COUNT];
        if (!ZYAN_SUCCESS(ZydisDecoderDecodeFull(&fc->zy, bytes + off, e->ret_off - off, &in->insn, ops)))
            return gr_fail_as(err, GR_ERR_INTERNAL, "internal error: cannot decode epilogue at 0x%llx",
                              (unsigned long long)in->addr);
        memcpy(in->ops, ops, sizeof in->ops);             /* the visible ones */
        if (e->guard_mask & (1u << n))
            GR_TRY(gr_guard_emit(c, in, &gd, n, err));
        gd.at[n] = gr_code_here(c);
        GR_TRY(gr_emit_relocated(c, in, err));
        off += in->insn.length;
    }
    struct leave lv = {e->tail_to, e->tail_reg};
    if (is_tail(lv) || !*tail) {
        if (!is_tail(lv))
            *tail = gr_code_here(c);
        GR_TRY(emit_return_end(c, fc, lv, err));
    } else {
        GR_TRY(gr_emit_branch_to(c, ZYDIS_MNEMONIC_JMP, *tail, err));
    }
    for (unsigned k = 0; k < n; k++)
        if (e->guard_mask & (1u << k))
            GR_TRY(gr_nil_fault_block(c, fc->nil_fault, &ins[k], &gd, k, err));
    return 0;
}

static int emit_returns(struct gr_codebuf *c, const struct gr_elf *elf, const struct func_ctx *fc,
                      const struct gr_return_list *returns, uint64_t *return_addr, struct gr_error *err)
{
    uint64_t tail = 0;
    for (size_t k = fc->pf->first_return; k < fc->pf->first_return + fc->pf->nreturns; k++) {
        return_addr[k] = gr_code_here(c);
        if (emit_return(c, elf, fc, &returns->items[k], &tail, err) < 0)
            return -1;
    }
    return 0;
}

/* fc->check = the instructions of fc->pf's stack check. */
static int decode_check(const struct gr_elf *elf, struct func_ctx *fc, struct gr_error *err)
{
    const struct gr_prologue *pro = &fc->pf->prologue;
    uint64_t entry = fc->pf->func->entry;
    const uint8_t *code = gr_elf_bytes_at(elf, entry, pro->len);
    if (!code || gr_prologue_decode(code, pro->len, entry, pro->ninsns, fc->check) < 0)
        return gr_fail_as(err, GR_ERR_INTERNAL, "internal error: cannot decode the check at 0x%llx again",
                          (unsigned long long)entry);
    return 0;
}

/* tls = the program's TLS load of g that plan found, if any. */
static int decode_tls(const struct gr_elf *elf, const struct gr_plan *plan,
                      struct gr_insn tls[GR_PROLOGUE_MAX_INSNS], struct gr_error *err)
{
    if (plan->tls_ninsns == 0)
        return 0;
    size_t size = GR_PROLOGUE_MAX_INSNS * ZYDIS_MAX_INSTRUCTION_LENGTH;
    const uint8_t *code = gr_elf_bytes_at(elf, plan->tls_entry, size);
    if (!code)
        code = gr_elf_bytes_at(elf, plan->tls_entry, size = 2 * ZYDIS_MAX_INSTRUCTION_LENGTH);
    if (!code || gr_prologue_decode(code, size, plan->tls_entry, plan->tls_ninsns, tls) < 0)
        return gr_fail_as(err, GR_ERR_INTERNAL, "internal error: cannot decode the TLS load of g at 0x%llx again",
                          (unsigned long long)plan->tls_entry);
    return 0;
}

/* Where runtime.exit's entry jumps: R14 = the exiting thread's g, read
 * from TLS with the program's own load (the caller may be assembly, or
 * Go <= 1.16, where R14 is not g), then gs_exit, which closes the calls
 * that goroutine still has open. Without a TLS load the register ABI's
 * R14 is g already; the stack ABI's is not, and 0 says so. */
static int emit_exit_gate(struct gr_codebuf *c, const struct func_ctx *fc, uint64_t *gate,
                          struct gr_error *err)
{
    GR_TRY(gr_code_pad(c, ENTRY_ALIGN, GR_X86_INT3, err));
    *gate = gr_code_here(c);
    if (fc->ntls)
        GR_TRY(load_tls_g(c, fc, G, err));
    else if (stack_abi(fc))
        GR_TRY(GR_EMIT(c, err, XOR, GR_REG(ZYDIS_REGISTER_R14D), GR_REG(ZYDIS_REGISTER_R14D)));
    return JUMP(JMP, fc->stubs->exit);
}

/* Where syscall.runtime_BeforeExec's (AfterExec's) entry and the direct
 * calls of it go: R14 = the thread's g as for the exit gate, R13 = the
 * function's own trampoline, then the stub (gs_exec_before, gs_exec_after:
 * stubs/exit.S), which continues there with every other register as it
 * was. *entry becomes the gate. */
static int emit_exec_gate(struct gr_codebuf *c, const struct func_ctx *fc, uint64_t stub, uint64_t *entry,
                          struct gr_error *err)
{
    GR_TRY(gr_code_pad(c, ENTRY_ALIGN, GR_X86_INT3, err));
    uint64_t gate = gr_code_here(c);
    if (fc->ntls)
        GR_TRY(load_tls_g(c, fc, G, err));
    else if (stack_abi(fc))
        GR_TRY(GR_EMIT(c, err, XOR, GR_REG(ZYDIS_REGISTER_R14D), GR_REG(ZYDIS_REGISTER_R14D)));
    GR_TRY(GR_EMIT(c, err, LEA, GR_REG(R13), GR_ABS(*entry)));
    GR_TRY(JUMP(JMP, stub));
    *entry = gate;
    return 0;
}

/* Where runtime.sigtramp's entry goes (signal_gate.h): R11 = the copy of
 * its covered instructions below, then the stub (gs_signal_gate,
 * stubs/signal_gate.S), which either ends the handler itself or goes on
 * at R11 with every argument as it came. */
static int emit_signal_gate(struct gr_codebuf *c, const struct gr_elf *elf, uint64_t sigtramp, uint64_t stub,
                            uint64_t *gate, struct gr_error *err)
{
    const uint8_t *covered = gr_elf_bytes_at(elf, sigtramp, GR_SIGTRAMP_COVERED);
    if (!covered)
        return gr_fail(err, "%s: runtime.sigtramp's entry is not in the file", elf->path);
    GR_TRY(gr_code_pad(c, ENTRY_ALIGN, GR_X86_INT3, err));
    *gate = gr_code_here(c);
    GR_TRY(GR_EMIT(c, err, LEA, GR_REG(ZYDIS_REGISTER_R11), GR_ABS(*gate)));   /* aimed below */
    size_t field = c->len - 4;
    GR_TRY(JUMP(JMP, stub));
    gr_code_patch_rel32(c, field);
    GR_TRY(gr_code_append(c, covered, GR_SIGTRAMP_COVERED, err));   /* position-independent */
    return JUMP(JMP, sigtramp + GR_SIGTRAMP_COVERED);
}

int gr_trampolines_generate(const struct gr_elf *elf, const struct gr_plan *plan,
                            const struct gr_segment_plan *seg, const struct gr_stub_routines *stubs,
                            struct gr_codebuf *code, struct gr_tramp_addrs *out,
                            struct gr_error *err)
{
    struct gr_fault_fix fix = {.lo = gr_code_here(code)};
    struct func_ctx fc = {.rt = plan->rt, .seg = seg, .stubs = stubs, .ntls = plan->tls_ninsns,
                          .plan = plan, .fix = &fix};
    ZydisDecoderInit(&fc.zy, ZYDIS_MACHINE_MODE_LONG_64, ZYDIS_STACK_WIDTH_64);
    if (decode_tls(elf, plan, fc.tls, err) < 0)
        return -1;
    if (plan->sig && fc.ntls &&
        gr_nil_fault_routine(code, fc.tls, fc.ntls, plan->sig, plan->sigpanic, &fc.nil_fault, err) < 0)
        return -1;
    for (size_t i = 0; i < plan->nfuncs; i++) {
        out->entry[i] = 0;
        if (plan->funcs[i].skip_reason)
            continue;
        if (gr_code_pad(code, ENTRY_ALIGN, GR_X86_INT3, err) < 0)
            return -1;
        fc.pf = &plan->funcs[i];
        if (decode_check(elf, &fc, err) < 0)
            return -1;
        out->entry[i] = gr_code_here(code);
        int leaf = fc.pf->prologue.shape == GR_PROLOGUE_LEAF;
        if ((leaf ? emit_leaf_sized(code, &fc, err) : emit_function(code, &fc, err)) < 0)
            return -1;
        if ((fc.pf->timing != GR_UNTIMED || fc.pf->site_role == GR_SITE_CREATE) &&
            emit_returns(code, elf, &fc, &plan->returns, out->returns, err) < 0)
            return -1;
    }
    gr_fault_fix_close(code, &fix);
    if (plan->exit_hook && stubs->exit && emit_exit_gate(code, &fc, &out->exit_stub, err) < 0)
        return -1;
    if (plan->exit_hook && stubs->exit && plan->exec_before != SIZE_MAX && plan->exec_after != SIZE_MAX &&
        out->entry[plan->exec_before] && out->entry[plan->exec_after] &&
        (emit_exec_gate(code, &fc, stubs->exec_before, &out->entry[plan->exec_before], err) < 0 ||
         emit_exec_gate(code, &fc, stubs->exec_after, &out->entry[plan->exec_after], err) < 0))
        return -1;
    if (plan->signal_gate && stubs->signal_gate &&
        emit_signal_gate(code, elf, plan->signal_gate, stubs->signal_gate, &out->signal_gate, err) < 0)
        return -1;
    return 0;
}
