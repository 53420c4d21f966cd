/* trace.S: the routines of a traced call (gorewrite --trace): its entry
 * (gs_trace_enter: timed as gs_time_enter does, plus a pending record
 * with the caller and start, into which the trampoline's own code then
 * stores the function and the arguments), its return (gs_trace_return: timed as
 * gs_time_return, then, when kept, on to the trampoline's capture of the
 * results and gs_trace_commit, which copies the record into the thread's
 * ring) and a call unwound by a panic or Goexit (gs_trace_unwound, from
 * the timing routines' DROP_STALE: an event without results).
 *
 * Rules as in timing.S: reached by jmp, left by jmp or the function's own
 * ret, scratch in the red zone (or, from inside another routine, in the
 * goroutine's timing-stack header, GS_SLOT_TSAVE), R12/R13/flags change.
 *
 * A goroutine's pending records lie beside its timing stack, one per
 * timing entry position (stub_abi.h GS_CFG_TRACE_M), so the entry that
 * the timing routines pop or drop names its record (a traced entry's
 * weight is GS_ENT_W_TRACED; one position has one open entry at a time,
 * so only its call is committed from it). format/trace_format.h has the
 * layouts, docs/trace.md the design. */

#include "format/stub_abi.h"
#include "format/trace_format.h"

#include "stubs/stub_macros.h"

#define SYS_gettid 186

#if GS_TRACE_CAPTURE_SAVE - 16 <= 32
#error "a capture's saves must lie below gs_trace_return's -8..-24(%rsp), which gs_trace_commit reuses"
#endif

    .text

/* rbx = this thread's ring (on to \none without a row). */
.macro THREAD_RING none
    THREAD_ROW %rbx
    test %rbx, %rbx
    jz \none
    add gs_config+GS_CFG_TRACE_RING(%rip), %rbx
.endm

/* Counts an event that never reached a ring; rbx overwritten. */
.macro COUNT_TRACE_DROP
    THREAD_RING 1f
    incq GS_RING_DROPPED(%rbx)
    jmp 2f
1:  lea __blob_start(%rip), %rbx
    add gs_config+GS_CFG_RW_REL(%rip), %rbx
    mov GS_PRIV_ROWS_BASE(%rbx), %rbx
    add gs_config+GS_CFG_TRACE_RING(%rip), %rbx
    lock incq GS_RING_DROPPED(%rbx)                 /* no row: the shared row 0's ring */
2:
.endm

/* Copies the pending record at rsi into the thread's ring as its newest
 * event, with the goroutine's id. Clobbers rbx, rcx, rdx, rdi, rsi, r13
 * and the flags; keeps rax, r11, r12 (across the thread's first event's
 * system call: r11 at \r11_save and rax at \rax_save, private memory; no
 * \rax_save: rax is the goroutine's timing stack, found again). The slot's
 * seq is 0 while it is written and the event's number after
 * (trace_format.h). The ring's next slot is read back from the shared
 * file: one out of the ring starts it again at its first slot. */
.macro COMMIT_EVENT r11_save, rax_save=
    mov gs_config+GS_CFG_G_GOID(%rip), %rdx
    mov (%r14,%rdx), %rdx
    mov %rdx, GS_EV_GOID(%rsi)
    THREAD_RING 5f
    cmpq $0, GS_RING_TID(%rbx)
    jne 2f
    .ifnb \rax_save
    mov %rax, \rax_save                             /* the thread's first event */
    .endif
    mov %r11, \r11_save
    mov $SYS_gettid, %eax
    syscall
    mov %rax, GS_RING_TID(%rbx)
    .ifnb \rax_save
    mov \rax_save, %rax
    .else
    STACK_WORD
    shl $GS_SLOT_SHIFT, %rax
    .endif
    mov \r11_save, %r11
    movq $GS_RING_SLOTS, GS_RING_NEXT(%rbx)
2:  mov GS_RING_NEXT(%rbx), %rdx
    mov gs_config+GS_CFG_TRACE_END(%rip), %rcx
    sub gs_config+GS_CFG_TRACE_EVENT(%rip), %rcx    /* the last slot */
    cmp %rcx, %rdx
    jbe 4f
    mov $GS_RING_SLOTS, %edx                        /* beyond it (or negative): the first */
4:  mov GS_RING_HEAD(%rbx), %r13
    inc %r13
    movq $0, (%rbx,%rdx)
    lea 8(%rbx,%rdx), %rdi
    mov GS_EV_USED(%rsi), %ecx
    add $8, %rsi
    sub $8, %ecx
    shr $3, %ecx
    rep movsq
    sfence                                          /* the copy before its number */
    mov %r13, (%rbx,%rdx)
    mov %r13, GS_RING_HEAD(%rbx)
    add gs_config+GS_CFG_TRACE_EVENT(%rip), %rdx
    cmp gs_config+GS_CFG_TRACE_END(%rip), %rdx
    jb 3f
    mov $GS_RING_SLOTS, %edx                        /* full: overwrite the oldest */
3:  mov %rdx, GS_RING_NEXT(%rbx)
    jmp 6f
5:  COUNT_TRACE_DROP
6:
.endm

/* \rec = the pending record of the entry at offset \rec in the stack at
 * rax (below GS_SLOT_TLIMIT). */
.macro PENDING_RECORD rec
    imul gs_config+GS_CFG_TRACE_M(%rip), \rec
    add GS_SLOT_TRACE(%rax), \rec
.endm

/* gs_trace_enter: in: r12d = timing record offset; r13 =
 * the trampoline's entry capture, which gets r12 = the pending record and
 * every other register as at the function's entry (a call without one
 * goes to r13 - GS_TRACE_NO_RECORD instead, the trampoline's jmp back). The record gets the caller and the start here; the
 * capture writes the function's index, size and arguments; the rest is
 * written at the return (gs_trace_return, COMMIT_EVENT). */
    .globl gs_trace_enter
gs_trace_enter:
    ENTER_SAVE
    mov %r13, -32(%rsp)
    ENTER_SEARCH GS_ENT_SIZE, GS_SLOT_LAST, .Ltenter
    mov %edx, GS_ENT_DEPTH(%rax,%r13)
    mov %r12d, GS_ENT_REC(%rax,%r13)
    movq $GS_ENT_W_TRACED, GS_ENT_W(%rax,%r13)
    addl $GS_ENT_SIZE, GS_SLOT_TOP(%rax)
    SET_INNERMOST_HERE %r12
    mov GS_SLOT_OFF(%rax), %rdx
    mov %rdx, GS_ENT_OFF(%rax,%r13)                 /* off-CPU so far (stubs/oncpu.S) */
    mov GS_SLOT_COMP(%rax), %rdx
    mov %rdx, -24(%rsp)                             /* the probes' cost so far, past rdtsc */
    cmp GS_SLOT_TLIMIT(%rax), %r13
    jae .Ltenter_tslot
    mov %r13, %r12
    PENDING_RECORD %r12
.Ltenter_have:                  /* rax = stack, r13 = entry offset, r12 = record */
    add %rax, %r13                                  /* the entry */
    mov (%rsp), %rdx
    mov %rdx, GS_EV_CALLER(%r12)
    rdtsc
    shl $32, %rdx
    or %rax, %rdx
    mov %rdx, GS_EV_START(%r12)
    sub -24(%rsp), %rdx                             /* the start on the compensated clock */
    mov %rdx, GS_ENT_TSC(%r13)
.Ltenter_leave:
    ENTER_LEAVE
.Ltenter_out:                   /* not timed: no stack, or it is full */
    mov %rbx, -48(%rsp)
    COUNT_TRACE_DROP
    mov -48(%rsp), %rbx
    subq $GS_TRACE_NO_RECORD, -32(%rsp)
    jmp .Ltenter_leave
.Ltenter_deep:                  /* timed, but no room for its record (r13 = entry offset) */
    mov %rbx, -48(%rsp)
    COUNT_TRACE_DROP
    mov -48(%rsp), %rbx
    subq $GS_TRACE_NO_RECORD, -32(%rsp)
    add %rax, %r13
    rdtsc
    shl $32, %rdx
    or %rax, %rdx
    sub -24(%rsp), %rdx
    mov %rdx, GS_ENT_TSC(%r13)
    jmp .Ltenter_leave
/* At or beyond GS_SLOT_TLIMIT: too deep, or the goroutine's first traced
 * call, whose records are those of its timing stack's index (none beyond
 * the records mapped). r13 = the entry's offset. */
.Ltenter_tslot:
    cmpq $0, GS_SLOT_TRACE(%rax)
    jne .Ltenter_deep
    mov %rbx, -48(%rsp)
    lea __blob_start(%rip), %rbx
    add gs_config+GS_CFG_RW_REL(%rip), %rbx
    mov %rax, %r12
    sub GS_PRIV_SLOTS_BASE(%rbx), %r12
    shr $GS_SLOT_SHIFT, %r12
    cmp GS_PRIV_TRACE_SLOTS(%rbx), %r12
    jae 1f
    imul gs_config+GS_CFG_TRACE_SLOT(%rip), %r12
    add GS_PRIV_TRACE_BASE(%rbx), %r12
    imul $GS_SLOT_ENTRIES, gs_config+GS_CFG_TRACE_M(%rip), %rdx
    sub %rdx, %r12
    mov %r12, GS_SLOT_TRACE(%rax)
    mov gs_config+GS_CFG_TRACE_LIMIT(%rip), %rdx
    mov %rdx, GS_SLOT_TLIMIT(%rax)
    jmp 2f
1:  movq $1, GS_SLOT_TRACE(%rax)                    /* none: TLIMIT stays 0 */
2:  mov GS_PRIV_TRACE_MIN(%rbx), %rdx
    mov %rdx, GS_SLOT_TMIN(%rax)
    mov -48(%rsp), %rbx
    cmp GS_SLOT_TLIMIT(%rax), %r13
    jae .Ltenter_deep
    mov %r13, %r12
    PENDING_RECORD %r12
    jmp .Ltenter_have
    ENTER_DROPS GS_ENT_SIZE, .Ltenter
    CLAIM_STACK GS_ENT_SIZE, .Ltenter

/* gs_trace_return: in: r12d = record offset, r13 = the
 * trampoline's return capture; RSP at the return address. Pops and times
 * as gs_time_return; a call slow enough (GS_SLOT_TMIN: compared first, so
 * a fast call under --trace-slower-than touches no record) whose record
 * is there goes on to the capture with r12 = the record and every
 * register as at the ret; the capture ends in gs_trace_commit. */
    .globl gs_trace_return
gs_trace_return:
    mov %r13, -112(%rsp)
    RETURN_POP GS_ENT_SIZE, .Ltret
    mov %rcx, %rax
    and $-GS_SLOT_SIZE, %rax                        /* the stack (RETURN_POP's marker took rax) */
    mov GS_ENT_OFF(%rcx), %rdx
    sub GS_SLOT_OFF(%rax), %rdx                     /* -(off-CPU during the call) */
    add %r13, %rdx                                  /* on-CPU */
    jns 1f
    xor %edx, %edx                                  /* the clocks' residuals */
1:  mov %rdx, -24(%rsp)                             /* for gs_time_record */
    cmp GS_SLOT_TMIN(%rax), %r13
    jb .Ltret_untraced                             /* --trace-slower-than: not kept */
    sub %rax, %rcx
    cmp GS_SLOT_TLIMIT(%rax), %rcx
    jae .Ltret_untraced
    PENDING_RECORD %rcx
    mov %r13, GS_EV_DUR(%rcx)
    mov %rdx, GS_EV_ONCPU(%rcx)
    shl $32, %r12
    mov %r12, GS_EV_FLAGS(%rcx)                     /* no flags; GS_EV_REC */
    mov %rcx, %r12
    mov -8(%rsp), %rax
    mov -16(%rsp), %rcx
    jmp *-112(%rsp)
.Ltret_untraced:
    mov $1, %edx
    jmp gs_time_record
.Ltret_out:
    RETURN_LEAVE
    RETURN_DROPS GS_ENT_SIZE, .Ltret
    jmp .Ltret_out

/* gs_trace_commit: in: r12 = the record, results captured; RSP at the
 * return address. Commits the event, then records the call's time and
 * returns for the function (gs_time_record). rax and rcx are still at -8
 * and -16(%rsp), where gs_trace_return's RETURN_POP left them (the capture
 * keeps them and writes only below GS_TRACE_CAPTURE_SAVE). */
    .globl gs_trace_commit
gs_trace_commit:
    mov %rbx, -32(%rsp)                             /* -24: gs_trace_return's on-CPU ticks */
    mov %rsi, -40(%rsp)
    mov %rdi, -48(%rsp)
    mov %r12, %rsi
    COMMIT_EVENT -64(%rsp), -56(%rsp)
    mov -32(%rsp), %rbx
    mov -40(%rsp), %rsi
    mov -48(%rsp), %rdi
    mov GS_EV_DUR(%r12), %r13
    mov GS_EV_REC(%r12), %r12d
    mov $1, %edx
    jmp gs_time_record

/* gs_trace_unwound: from DROP_STALE (stub_macros.h TRACE_STALE) when the
 * dropped entry, at rax + GS_SLOT_TOP(rax), is traced: commits its record
 * as panicked. Every register is kept (rbx is in GS_SLOT_TSAVE and the
 * way back in GS_SLOT_TSAVE + 8, both of rax's header; r11 in its last
 * word while a system call runs). */
    .globl gs_trace_unwound
gs_trace_unwound:
    mov GS_SLOT_TOP(%rax), %ebx
    cmp GS_SLOT_TLIMIT(%rax), %rbx
    jae .Lunw_back                                  /* no record */
    mov %rcx, GS_SLOT_TSAVE+16(%rax)
    mov %rdx, GS_SLOT_TSAVE+24(%rax)
    mov %rsi, GS_SLOT_TSAVE+32(%rax)
    mov %rdi, GS_SLOT_TSAVE+40(%rax)
    mov %r13, GS_SLOT_TSAVE+48(%rax)
    mov GS_ENT_REC(%rax,%rbx), %edx
    shl $32, %rdx
    or $GS_EVF_PANICKED, %rdx
    mov %rbx, %rsi
    PENDING_RECORD %rsi
    mov %rdx, GS_EV_FLAGS(%rsi)                     /* panicked; GS_EV_REC */
    movq $0, GS_EV_DUR(%rsi)
    COMMIT_EVENT GS_SLOT_TSAVE+56(%rax)
.Lunw_restore:
    mov GS_SLOT_TSAVE+16(%rax), %rcx
    mov GS_SLOT_TSAVE+24(%rax), %rdx
    mov GS_SLOT_TSAVE+32(%rax), %rsi
    mov GS_SLOT_TSAVE+40(%rax), %rdi
    mov GS_SLOT_TSAVE+48(%rax), %r13
.Lunw_back:
    jmp *GS_SLOT_TSAVE+8(%rax)

    .section .note.GNU-stack,"",@progbits
