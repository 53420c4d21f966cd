/* probe_cost.S: what the start-up calibration (probe_cost.c) runs: empty
 * functions instrumented as the trampolines instrument a function
 * (rewriter/gen/trampoline.c, the shapes of a program without cgo: the
 * row in one load), and a loop that times back-to-back calls of one.
 * Nothing here runs once the program's own code starts. */

#include "format/stub_abi.h"
#include "stubs/probe_cost.h"

    .text

/* The return trampoline's test (rbp = &g.racectx stands for the
 * trampoline's [r14 + offset] operand): on to \timed when this call is at
 * or above the innermost open timed call (its RSP at or above the
 * marker). */
.macro RETURN_TEST timed
    cmp (%rbp), %esp
    jae \timed
    ret
.endm

/* The body of each: a few ns of dependent work (carried from call to
 * call in r9, as a loop's value is), so that the probe's own work runs
 * beside a function's as it does in a program: with an empty body the
 * loop would wait on the counter's increment instead. Each call starts
 * with nothing in flight (gs_cal_run's lfence): the entries' own fence
 * then waits for nothing, so the figure holds no wait that a program's
 * call may not have: too high, it clamps a parent of many short calls to 0
 * (docs/timing.md "Compensation"). */
.macro BODY
    .rept 8
    imul %r9, %r9
    .endr
.endm

/* Timed (--time-all): count, gs_time_enter, the empty body, gs_time_return.
 * rbx = the row (the trampoline's fs:[0] load). */
    .globl gs_cal_timed
gs_cal_timed:
    mov %rbx, %r12
    test %r12, %r12
    jz 2f
    incq CAL_COUNTER(%r12)
    mov $CAL_REC, %r12d
    lea 1f(%rip), %r13
    jmp gs_time_enter
1:  BODY
    RETURN_TEST 3f
2:  ret
3:  mov $CAL_REC, %r12d
    jmp gs_time_return

/* Counted, not timed (the default mode between two timed calls: the
 * counter is negative), and its return's test. */
    .globl gs_cal_untimed
gs_cal_untimed:
    mov %rbx, %r12
    test %r12, %r12
    jz 2f
    incq CAL_COUNTER+8(%r12)
    js 1f
    ret
1:  BODY
    RETURN_TEST 3f
2:  ret
3:  ud2                                             /* never timed */

/* Not instrumented: the cost of a call itself, which the original pays. */
    .globl gs_cal_plain
gs_cal_plain:
    BODY
    ret

/* uint64_t gs_cal_run(which, g, n, row, &g.stack.hi, &g.racectx): the
 * TSC ticks of n back-to-back calls of function which (0 plain, 1 timed,
 * 2 untimed: addresses taken here, where they are rip-relative), with
 * r14 = g as in Go code. */
    .globl gs_cal_run
gs_cal_run:
    lea gs_cal_plain(%rip), %rax
    lea gs_cal_timed(%rip), %r10
    cmp $1, %edi
    cmove %r10, %rax
    lea gs_cal_untimed(%rip), %r10
    cmp $2, %edi
    cmove %r10, %rax
    mov %rax, %rdi
    push %rbx
    push %rbp
    push %r12
    push %r13
    push %r14
    push %r15
    mov %rsi, %r14
    mov %rdx, %rsi
    mov %rcx, %rbx
    mov %r8, %r15
    mov %r9, %rbp
    mov $3, %r9d
    lfence
    rdtsc
    shl $32, %rdx
    or %rax, %rdx
    mov %rdx, %r8                                   /* kept by the stubs, as rdi and rsi */
1:  lfence                                          /* each call starts with nothing in flight */
    call *%rdi
    dec %rsi
    jnz 1b
    lfence
    rdtsc
    shl $32, %rdx
    or %rdx, %rax
    sub %r8, %rax
    pop %r15
    pop %r14
    pop %r13
    pop %r12
    pop %rbp
    pop %rbx
    ret

    .section .note.GNU-stack,"",@progbits
