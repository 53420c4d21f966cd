/* timing.S: the shared run-time routines the trampolines jump to: a thread
 * claiming its counter row, and the entry and exit halves of timing a call.
 *
 * They are reached by jmp, never call, and leave by jmp or by the function's
 * own ret: no return address of ours is ever on a goroutine stack. They
 * run on the goroutine's stack with RSP exactly as at the function's entry
 * (or, at its exit, with the frame popped), and keep scratch values in the
 * 128 bytes below RSP: nothing else writes there meanwhile, because the
 * kernel skips that red zone when it delivers a signal (Go's handlers run
 * on their own stack anyway) and the Go runtime only inspects or moves a
 * goroutine's stack at its safe points, which are all in Go code.
 *
 * Registers: R12, R13 and the flags change; everything else is preserved.
 * R14 is g (the check that led here compared against it).
 *
 * Matching an exit to its entry (docs/timing.md): each goroutine has a
 * stack of open calls, found through g.racectx, which Go only uses in -race
 * builds. An entry records depth = g.stack.hi - RSP, which copystack keeps
 * the same although it moves the stack, and is unique among a goroutine's
 * live frames. Entries at the same depth or deeper than a new call belong
 * to frames that left without returning (panic, Goexit, or an earlier
 * goroutine on a reused g): they are dropped and counted as unwound. */

#include "stub_abi.h"

#define SYS_madvise 28
#define MADV_POPULATE_WRITE 23
#define EINVAL 22

    .text

/* Adds 1 to this thread's drop counter \field, if the thread has a row. */
.macro COUNT_DROP field
    mov %rbx, -48(%rsp)
    mov gs_config+GS_CFG_G_M(%rip), %rbx
    mov (%r14,%rbx), %rbx
    add gs_config+GS_CFG_M_ROW(%rip), %rbx
    mov (%rbx), %rbx
    test %rbx, %rbx
    jz 9f
    incq \field(%rbx)                   /* struct gs_drops is at the row's start */
9:  mov -48(%rsp), %rbx
.endm

/* Pops this call's entry (depth g.stack.hi - RSP, record r12d) from the
 * goroutine's timing stack at rax, dropping deeper entries (and one at the
 * same depth for another function) as unwound. Jumps to \missing when the
 * top entry is a caller's or the stack is empty; else ecx is the popped
 * entry's offset. Changes rdx, rcx. */
.macro POP_ENTRY missing
    mov gs_config+GS_CFG_G_STACK_HI(%rip), %rdx
    mov (%r14,%rdx), %rdx
    sub %rsp, %rdx                                  /* depth */
    mov GS_SLOT_TOP(%rax), %ecx
1:  test %ecx, %ecx
    jz \missing
    cmp GS_SLOT_ENTRIES-GS_ENT_SIZE+GS_ENT_DEPTH(%rax,%rcx), %edx
    jb 2f                                           /* a deeper frame's: gone */
    ja \missing                                     /* a caller's: ours is missing */
    cmp GS_SLOT_ENTRIES-GS_ENT_SIZE+GS_ENT_REC(%rax,%rcx), %r12d
    je 3f
2:  sub $GS_ENT_SIZE, %ecx
    mov %ecx, GS_SLOT_TOP(%rax)
    COUNT_DROP GS_DROP_UNWOUND
    jmp 1b
3:  sub $GS_ENT_SIZE, %ecx
    mov %ecx, GS_SLOT_TOP(%rax)
.endm

/* gs_claim_row: a thread's first counted call. in: r13 = where to continue.
 * out: r12 = the thread's own row, or 0 when none is left (the caller then
 * counts in the shared row 0, locked). The row's head (drops, page map,
 * counters) is backed with memory first, so that a full tmpfs shows up here
 * and not as SIGBUS on a counter; timing pages are backed one at a time
 * when first used (gs_time_exit). */
    .globl gs_claim_row
gs_claim_row:
    mov %rax, -8(%rsp)
    mov %rcx, -16(%rsp)
    mov %rdx, -24(%rsp)
    mov %rsi, -32(%rsp)
    mov %rdi, -40(%rsp)
    mov %r11, -56(%rsp)
    lea __blob_start(%rip), %rax
    add gs_config+GS_CFG_RW_REL(%rip), %rax         /* struct gs_private */
    mov $1, %r12d
    lock xadd %r12, GS_PAGE_SIZE+GS_LIVE_ROWS_CLAIMED(%rax)
    mov gs_config+GS_CFG_MAX_ROWS(%rip), %rcx
    dec %rcx                                        /* thread rows are 1..max-1 */
    cmp %rcx, %r12
    jae .Lclaim_none
    inc %r12
    mov %rax, -64(%rsp)
    mov %r12, -72(%rsp)                             /* the row's index */
    imul gs_config+GS_CFG_ROW_STRIDE(%rip), %r12
    add GS_PRIV_ROWS_BASE(%rax), %r12
    mov %r12, %rdi
    mov gs_config+GS_CFG_ROW_HEAD(%rip), %rsi
    mov $MADV_POPULATE_WRITE, %edx
    mov $SYS_madvise, %eax
    syscall
    cmp $-EINVAL, %rax                              /* kernel before 5.14: use it unpopulated */
    je 1f
    test %rax, %rax
    jnz .Lclaim_none
1:  mov -64(%rsp), %rax
    mov -72(%rsp), %rcx
    lock bts %rcx, GS_PAGE_SIZE+GS_LIVE_ROWS_BACKED(%rax) /* readers may look now */
    jmp .Lclaim_out
.Lclaim_none:
    xor %r12d, %r12d
.Lclaim_out:
    mov -8(%rsp), %rax
    mov -16(%rsp), %rcx
    mov -24(%rsp), %rdx
    mov -32(%rsp), %rsi
    mov -40(%rsp), %rdi
    mov -56(%rsp), %r11
    jmp *%r13

/* gs_time_enter: records the start of a call. in: r12d = the function's
 * timing record offset in a row (its identity here), r13 = where to
 * continue; RSP as at the function's entry. The TSC is read last, so the
 * bookkeeping is not part of the duration. */
    .globl gs_time_enter
gs_time_enter:
    mov %rax, -8(%rsp)
    mov %rdx, -16(%rsp)
    mov %rcx, -24(%rsp)
.Lenter_saved:
    mov gs_config+GS_CFG_G_SLOT(%rip), %rax
    mov (%r14,%rax), %rax                           /* this goroutine's stack */
    cmp $GS_SLOT_NONE, %rax
    jbe .Lenter_noslot
.Lenter_slot:
    mov gs_config+GS_CFG_G_STACK_HI(%rip), %rdx
    mov (%r14,%rdx), %rdx
    sub %rsp, %rdx                                  /* depth */
    mov GS_SLOT_TOP(%rax), %ecx
.Lenter_pop:
    test %ecx, %ecx
    jz .Lenter_push
    cmp GS_SLOT_ENTRIES-GS_ENT_SIZE+GS_ENT_DEPTH(%rax,%rcx), %edx
    ja .Lenter_push                                 /* a caller's entry: keep */
    sub $GS_ENT_SIZE, %ecx
    COUNT_DROP GS_DROP_UNWOUND
    jmp .Lenter_pop
.Lenter_push:
    cmp $GS_SLOT_CAP, %ecx
    jae .Lenter_full
    mov %edx, GS_SLOT_ENTRIES+GS_ENT_DEPTH(%rax,%rcx)
    mov %r12d, GS_SLOT_ENTRIES+GS_ENT_REC(%rax,%rcx)
    lea GS_ENT_SIZE(%rcx), %edx
    mov %edx, GS_SLOT_TOP(%rax)
    lea GS_SLOT_ENTRIES+GS_ENT_TSC(%rax,%rcx), %r12
    rdtsc
    shl $32, %rdx
    or %rdx, %rax
    mov %rax, (%r12)
.Lenter_out:
    mov -8(%rsp), %rax
    mov -16(%rsp), %rdx
    mov -24(%rsp), %rcx
    jmp *%r13
.Lenter_full:
    mov %ecx, GS_SLOT_TOP(%rax)
    COUNT_DROP GS_DROP_TOO_DEEP
    jmp .Lenter_out
.Lenter_noslot:
    jb .Lenter_claim                                /* 0: none claimed yet */
    COUNT_DROP GS_DROP_NO_SLOT
    jmp .Lenter_out
.Lenter_claim:
    lea __blob_start(%rip), %rax
    add gs_config+GS_CFG_RW_REL(%rip), %rax         /* struct gs_private */
    mov $1, %edx
    lock xadd %rdx, GS_PRIV_SLOTS_NEXT(%rax)
    cmp GS_PRIV_SLOTS_MAX(%rax), %rdx
    jae .Lenter_none
    imul $GS_SLOT_SIZE, %rdx, %rdx
    add GS_PRIV_SLOTS_BASE(%rax), %rdx
    mov %rdx, %rax
    jmp .Lenter_store
.Lenter_none:
    mov $GS_SLOT_NONE, %eax
.Lenter_store:
    mov gs_config+GS_CFG_G_SLOT(%rip), %rdx
    mov %rax, (%r14,%rdx)
    cmp $GS_SLOT_NONE, %rax
    ja .Lenter_slot
    COUNT_DROP GS_DROP_NO_SLOT
    jmp .Lenter_out

/* gs_time_exit: records the end of a call and returns from the function.
 * in: r12d = the function's timing record offset; the function's frame is
 * already popped (RSP points at the return address). Results in RAX, RBX,
 * RCX, RDI, RSI, R8-R11 and X0-X14 are kept; RDX is dead at a return. The
 * TSC is read first, so the bookkeeping is not part of the duration. */
    .globl gs_time_exit
gs_time_exit:
    mov %rax, -8(%rsp)
    rdtsc
    shl $32, %rdx
    or %rax, %rdx
    mov %rdx, %r13                                  /* now */
    mov %rcx, -16(%rsp)
    mov gs_config+GS_CFG_G_SLOT(%rip), %rax
    mov (%r14,%rax), %rax
    cmp $GS_SLOT_NONE, %rax
    jbe .Lexit_unmatched
    POP_ENTRY .Lexit_unmatched
    sub GS_SLOT_ENTRIES+GS_ENT_TSC(%rax,%rcx), %r13 /* duration */
    jns .Lexit_row
    xor %r13d, %r13d                                /* TSC behind on this core */
.Lexit_row:                                         /* r13 = duration */
    mov gs_config+GS_CFG_G_M(%rip), %rax
    mov (%r14,%rax), %rax
    add gs_config+GS_CFG_M_ROW(%rip), %rax
    mov (%rax), %rax                                /* this thread's row */
    test %rax, %rax
    jz .Lexit_out
    mov %r12, %rcx
    shr $12, %rcx                                   /* the record's page */
    cmpb $GS_PAGE_READY, GS_ROW_MAP(%rax,%rcx)
    jne .Lexit_page
.Lexit_record:
    add %r12, %rax                                  /* struct gs_timing */
    add %r13, GS_TIM_TOTAL(%rax)
    cmp %r13, GS_TIM_MAX(%rax)
    jae 2f
    mov %r13, GS_TIM_MAX(%rax)
2:  not %r13
    cmp %r13, GS_TIM_MIN_INV(%rax)
    jae 3f
    mov %r13, GS_TIM_MIN_INV(%rax)
3:  not %r13
    or $1 << GS_HIST_FIRST_BIT, %r13                /* floor(log2) >= FIRST_BIT */
    bsr %r13, %rcx
    mov $GS_HIST_FIRST_BIT + GS_HIST_NBUCKETS - 1, %edx
    cmp %edx, %ecx
    cmova %edx, %ecx
    incq GS_TIM_HIST - 8 * GS_HIST_FIRST_BIT(%rax,%rcx,8)
.Lexit_out:
    mov -8(%rsp), %rax
    mov -16(%rsp), %rcx
    ret
.Lexit_unmatched:
    COUNT_DROP GS_DROP_UNMATCHED
    jmp .Lexit_out
/* First use of a timing page by this thread: back it with memory, or mark
 * it failed (tmpfs full) and drop its samples, rather than touch a page
 * that would raise SIGBUS. rax = row, rcx = page index. */
.Lexit_page:
    cmpb $GS_PAGE_FAILED, GS_ROW_MAP(%rax,%rcx)
    je .Lexit_nospace
    mov %rdi, -24(%rsp)
    mov %rsi, -32(%rsp)
    mov %r11, -40(%rsp)
    mov %rax, -56(%rsp)
    mov %rcx, -64(%rsp)
    mov %rcx, %rdi
    shl $12, %rdi
    add %rax, %rdi
    mov $GS_PAGE_SIZE, %esi
    mov $MADV_POPULATE_WRITE, %edx
    mov $SYS_madvise, %eax
    syscall
    mov %rax, %rdx
    mov -24(%rsp), %rdi
    mov -32(%rsp), %rsi
    mov -40(%rsp), %r11
    mov -56(%rsp), %rax
    mov -64(%rsp), %rcx
    test %rdx, %rdx
    jz 4f
    cmp $-EINVAL, %rdx                              /* kernel before 5.14 */
    je 4f
    movb $GS_PAGE_FAILED, GS_ROW_MAP(%rax,%rcx)
.Lexit_nospace:
    COUNT_DROP GS_DROP_NO_SPACE
    jmp .Lexit_out
4:  movb $GS_PAGE_READY, GS_ROW_MAP(%rax,%rcx)
    jmp .Lexit_record

/* Sampled timing (gorewrite --sample N): the entry trampoline counts every
 * call and decrements the thread's countdown; the call that takes it below
 * zero comes here. The next countdown is drawn uniformly from [0, 2N-2]
 * (xorshift64, per thread), so about 1 call in N is timed and which call
 * is timed does not follow any period of the program's own. */
    .globl gs_time_enter_sampled
gs_time_enter_sampled:
    mov %rax, -8(%rsp)
    mov %rdx, -16(%rsp)
    mov %rcx, -24(%rsp)
    mov gs_config+GS_CFG_G_M(%rip), %rax
    mov (%r14,%rax), %rax
    add gs_config+GS_CFG_M_ROW(%rip), %rax
    mov (%rax), %rcx                                /* this thread's row */
    mov GS_ROW_SAMPLE_RNG(%rcx), %rax
    test %rax, %rax
    jnz 1f
    mov %rcx, %rax                                  /* seed: the row's address */
1:  mov %rax, %rdx
    shl $13, %rdx
    xor %rdx, %rax
    mov %rax, %rdx
    shr $7, %rdx
    xor %rdx, %rax
    mov %rax, %rdx
    shl $17, %rdx
    xor %rdx, %rax
    mov %rax, GS_ROW_SAMPLE_RNG(%rcx)
    shr $32, %rax
    mov gs_config+GS_CFG_SAMPLE(%rip), %rdx
    lea -1(%rdx,%rdx), %rdx                         /* 2N - 1 */
    imul %rdx, %rax
    shr $32, %rax                                   /* in [0, 2N-2] */
    mov %rax, GS_ROW_SAMPLE_COUNTDOWN(%rcx)
    jmp .Lenter_saved

/* The exit of every call of a timed function, sampled or not: only a call
 * whose entry is on top is timed, and the TSC is read only then. Returns
 * of calls that were not sampled are not counted as unmatched. */
    .globl gs_time_exit_sampled
gs_time_exit_sampled:
    mov %rax, -8(%rsp)
    mov %rcx, -16(%rsp)
    mov gs_config+GS_CFG_G_SLOT(%rip), %rax
    mov (%r14,%rax), %rax
    cmp $GS_SLOT_NONE, %rax
    jbe .Lexit_out
    POP_ENTRY .Lexit_out                            /* not sampled: nothing to do */
    mov GS_SLOT_ENTRIES+GS_ENT_TSC(%rax,%rcx), %r13
    rdtsc
    shl $32, %rdx
    or %rdx, %rax
    sub %r13, %rax
    mov %rax, %r13                                  /* duration */
    jns .Lexit_row
    xor %r13d, %r13d
    jmp .Lexit_row

    .section .note.GNU-stack,"",@progbits
