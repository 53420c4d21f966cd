/* oncpu.S: the scheduler's hand-offs, for on-CPU time (docs/timing.md
 * "On-CPU time"). The trampolines of the runtime functions that take a
 * goroutine off its thread (park_m, goschedImpl, preemptPark, ...: the
 * runtime functions that hand it to runtime.schedule, found in the
 * program's code by rewriter/plan/sched_hooks.c; their argument is that
 * goroutine) jump to gs_sched_off first, that of
 * runtime.execute (which runs one again) to gs_sched_on. They run on g0,
 * on behalf of another goroutine, gp: the time from the first to the
 * second is added to gp's off-CPU sum, GS_SLOT_OFF in its timing stack,
 * which a timed call's entry copies and its return subtracts (timing.S).
 * A goroutine without a timing stack has no open timed call: nothing to do.
 *
 * in: r12 = gp, r13 = where to continue. R12, R13 and the flags change;
 * the red zone holds rax and rdx (g0's stack: nothing else writes there
 * meanwhile, as on a goroutine's). */

#include "format/stub_abi.h"

#include "stubs/stub_macros.h"

    .text

/* r12 = gp's timing stack; on to \none when it has none. rax overwritten. */
.macro GP_STACK none
    mov gs_config+GS_CFG_G_SLOT(%rip), %rax
    mov (%r12,%rax), %r12
    shr $32, %r12
    jz \none
    cmp $GS_SLOT_NONE, %r12d
    je \none
    shl $GS_SLOT_SHIFT, %r12
.endm

/* rdx = the TSC; rax overwritten. */
.macro NOW
    rdtsc
    shl $32, %rdx
    or %rax, %rdx
.endm

    .globl gs_sched_off
gs_sched_off:
    mov %rax, -8(%rsp)
    mov %rdx, -16(%rsp)
    GP_STACK .Loff_out
    NOW
    mov %rdx, GS_SLOT_OFF_SINCE(%r12)
.Loff_out:
    mov -8(%rsp), %rax
    mov -16(%rsp), %rdx
    jmp *%r13

/* A goroutine that runs again: off-CPU since it was taken off (none
 * recorded: its first run, or it was switched to directly by a coroutine
 * switch, which is not a hand-off here). A TSC behind on this core adds 0. */
    .globl gs_sched_on
gs_sched_on:
    mov %rax, -8(%rsp)
    mov %rdx, -16(%rsp)
    GP_STACK .Lon_out
    cmpq $0, GS_SLOT_OFF_SINCE(%r12)
    je .Lon_out
    NOW
    sub GS_SLOT_OFF_SINCE(%r12), %rdx
    jb 1f
    add %rdx, GS_SLOT_OFF(%r12)
1:  movq $0, GS_SLOT_OFF_SINCE(%r12)
.Lon_out:
    mov -8(%rsp), %rax
    mov -16(%rsp), %rdx
    jmp *%r13

    .section .note.GNU-stack,"",@progbits
