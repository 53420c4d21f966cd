/* timing.S: the shared run-time routines the trampolines jump to: a thread
 * claiming its counter row, and the entry and return halves of timing a call.
 *
 * They are reached by jmp, never call, and leave by jmp or by the function's
 * own ret: no return address of ours is ever on a goroutine stack. They
 * run on the goroutine's stack with RSP exactly as at the function's entry
 * (or, at its return, with the frame popped), and keep scratch values in the
 * 128 bytes below RSP: nothing else writes there meanwhile, because the
 * kernel skips that red zone when it delivers a signal (Go's handlers run
 * on their own stack anyway) and the Go runtime only inspects or moves a
 * goroutine's stack at its safe points, which are all in Go code.
 *
 * Registers: R12, R13 and the flags change; everything else is preserved.
 * R14 is g (the check that led here compared against it).
 *
 * Matching a return to its entry (docs/timing.md): each goroutine has a
 * stack of open calls, found through g.racectx, which Go only uses in -race
 * builds. An entry records depth = g.stack.hi - RSP, which copystack keeps
 * the same although it moves the stack, and is unique among a goroutine's
 * live frames. Entries at the same depth or deeper than a new call belong
 * to frames that left without returning (panic, Goexit; on g0 calls the
 * scheduler abandoned): dropped and counted (COUNT_STALE, stub_macros.h). The
 * low half of g.racectx holds the low half of the innermost open entry's
 * RSP, so that the return trampoline of a deeper call (not timed) returns
 * without coming here; since it is an address, it is set to "unknown" (0:
 * every return comes here once) when the stack moves (gs_stack_moved) and
 * set again from the depths here (stub_abi.h, GS_SLOT_*). */

#include "format/stub_abi.h"

#include "stubs/stub_macros.h"

    .text

/* gs_claim_row: a thread's first counted call. in: r13 = where to continue.
 * out: r12 = the thread's own row, or 0 when none is left (the caller then
 * counts in the shared row 0, locked). The row's head (drops, page map,
 * counters) is backed with memory first, so that a full tmpfs shows up here
 * and not as SIGBUS on a counter; timing pages are backed one at a time
 * when first used (gs_time_return). */
    .globl gs_claim_row
gs_claim_row:
    mov %rax, -8(%rsp)
    mov %rcx, -16(%rsp)
    mov %rdx, -24(%rsp)
    mov %rsi, -32(%rsp)
    mov %rdi, -40(%rsp)
    mov %r11, -56(%rsp)
    PRIVATE_DATA
    mov $1, %r12d
    lock xadd %r12, GS_PRIV_ROWS_CLAIMED(%rax)      /* ours decides: a cut file forgets */
    lock incq GS_PAGE+GS_LIVE_ROWS_CLAIMED(%rax)    /* the readers' count */
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
    lock bts %rcx, GS_PRIV_ROWS_BACKED(%rax)        /* first: a cut file gets it back */
    lock bts %rcx, GS_PAGE+GS_LIVE_ROWS_BACKED(%rax) /* readers may look now */
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

/* gs_row_slow: gs_claim_row for a trampoline whose row is fs:[0] (a
 * program without runtime/cgo), with the rest of its slow path shared.
 * in: r13 = the function's GS_ROWSLOW_* words. A row is kept in fs:[0],
 * then on to the function's count (r12 = the row); without one, the call
 * is counted in the shared row 0 (locked) and the function goes on. */
    .globl gs_row_slow
gs_row_slow:
    mov %r13, -80(%rsp)                             /* below gs_claim_row's words */
    lea 1f(%rip), %r13
    jmp gs_claim_row
1:  mov -80(%rsp), %r13
    test %r12, %r12
    jz 2f
    mov %r12, %fs:0
    mov %r12, -88(%rsp)
    movslq GS_ROWSLOW_RESUME(%r13), %r12
    add %r12, %r13
    mov -88(%rsp), %r12                             /* the row, for the count */
    jmp *%r13
2:  mov %rax, -8(%rsp)
    PRIVATE_DATA
    mov GS_PRIV_ROWS_BASE(%rax), %rax               /* row 0 */
    mov GS_ROWSLOW_COUNTER(%r13), %r12d
    lock incq (%rax,%r12)
    mov -8(%rsp), %rax
    movslq GS_ROWSLOW_BACK(%r13), %r12
    add %r12, %r13
    jmp *%r13

/* TIME_PUSH prefix, weighted: pushes the call's entry on the goroutine's
 * timing stack and reads the TSC last (so the bookkeeping is not part of
 * the duration); the start is kept on the goroutine's compensated clock
 * (stub_abi.h GS_SLOT_COMP). Weighted: the weight is at -24(%rsp), and
 * the w - 1 untimed calls it stands for, which ran before it, add their
 * probes' cost to the clock's sum (they are in the callers' durations);
 * else the call stands for itself. In: r12d = record, r13 = where to
 * continue; rax, rdx saved. */
.macro TIME_PUSH prefix, weighted
    mov %r13, -32(%rsp)                             /* where to continue */
    ENTER_SEARCH GS_ENT_SIZE, GS_SLOT_LAST, \prefix
    lea (%rax,%r13), %r13                           /* the new entry */
    mov %edx, GS_ENT_DEPTH(%r13)
    mov %r12d, GS_ENT_REC(%r13)
    mov GS_SLOT_OFF(%rax), %r12
    mov %r12, GS_ENT_OFF(%r13)                      /* off-CPU so far (stubs/oncpu.S) */
.if \weighted
    mov -24(%rsp), %r12
    mov %r12d, GS_ENT_W(%r13)                       /* the weight (< 2^32); GS_ENT_PROBE below */
    addl $GS_ENT_SIZE, GS_SLOT_TOP(%rax)
    dec %r12                                        /* the untimed calls it stands for, */
    imul GS_SLOT_UNTIMED(%rax), %r12                /* which ran before it: their probes */
    shr $GS_UNTIMED_SHIFT, %r12                     /* are in the callers' durations */
    add GS_SLOT_COMP(%rax), %r12
    mov %r12, GS_SLOT_COMP(%rax)                    /* the probes' cost so far */
.else
    movq $1, GS_ENT_W(%r13)
    addl $GS_ENT_SIZE, GS_SLOT_TOP(%rax)
    mov GS_SLOT_COMP(%rax), %r12                    /* the probes' cost so far */
.endif
    SET_INNERMOST_HERE %rax                         /* the innermost open timed call */
.if \weighted == 0
    lfence                                          /* no clock read before the caller's loads are done */
.endif
    rdtsc
    shl $32, %rdx
    or %rax, %rdx
.if \weighted
    mov %rdx, %rax
    sub -128(%rsp), %rax                            /* the probe so far (gs_sample_enter) */
    mov %eax, GS_ENT_PROBE(%r13)                    /* (a preempted one reads huge: gs_sample_return) */
.endif
    sub %r12, %rdx                                  /* the start on the compensated clock */
    mov %rdx, GS_ENT_TSC(%r13)
\prefix\()_out:
    ENTER_LEAVE
    ENTER_DROPS GS_ENT_SIZE, \prefix
    CLAIM_STACK GS_ENT_SIZE, \prefix
.endm

/* gs_time_enter: records the start of a call that stands for itself
 * (--time-all, and the calibration). in: r12d = the function's timing
 * record offset in a row (its identity here), r13 = where to continue;
 * RSP as at the function's entry. */
    .globl gs_time_enter
gs_time_enter:
    ENTER_SAVE
    TIME_PUSH .Ltime, 0

/* A sampled call (gs_sample_enter): weight at -24; rax, rdx saved. */
.Lpush:
    TIME_PUSH .Lenter, 1

/* gs_sample_enter: a call of a sampled function (the default mode and
 * --sample N) whose count reached the next timed call: the entry's
 * `inc [counter]; js back` fell through. in: r12 = the thread's row,
 * r13 = the descriptor (GS_DESC_*). The counter holds calls - next
 * (gs_timing.next): this call is number next. Draws the gap to the next
 * timed call: 1 for a function's first first_n calls in the process
 * (default mode: a counter per function that all threads add to,
 * stub_abi.h), else uniform in [1, 2m-1] with m = N (--sample N) or
 * max(calls >> GS_ADAPT_SHIFT, GS_GAP_MIN) (default; calls: this
 * thread's), from the thread's xorshift64 state,
 * so timed calls follow no period of the program's own. This call then
 * stands for the gap that led to it (the previous draw). next is written
 * before the counter: a reader that sees the new next with the counter
 * still >= 0 retries (gostat). Both are changed by one read-modify-write
 * each, by the same amount in opposite directions, so that a signal
 * handler on this thread that calls the function in between (its inc, or
 * its own pass through here) leaves next + counter exact. The loads here
 * mostly miss the cache (a function's sampled calls are far apart), and
 * rdtsc does not wait for earlier loads: .Lpush reads the clock only
 * after they are done and the stack's lines are in (docs/timing.md
 * "Sampled equals timed"). */
    .globl gs_sample_enter
gs_sample_enter:
    test %r12, %r12
    jz .Lsample_norow
    ENTER_SAVE
    rdtsc
    shl $32, %rdx
    or %rax, %rdx
    mov %rdx, -128(%rsp)                            /* the probe's start (.Lpush) */
    mov %rcx, -112(%rsp)
    mov GS_DESC_REC(%r13), %ecx
    shr $12, %ecx
    cmpb $GS_PAGE_READY, GS_ROW_PAGEMAP(%r12,%rcx)
    jne .Lsample_page
.Lsample_ready:
    mov %rsi, -40(%rsp)
    mov %rdi, -56(%rsp)
    mov GS_DESC_COUNTER(%r13), %esi
    add %r12, %rsi                                  /* the counter */
    mov GS_DESC_REC(%r13), %edi
    add %r12, %rdi                                  /* the record */
    mov (%rsi), %rcx
    mov %rcx, -120(%rsp)                            /* s, >= 0 */
    add GS_TIM_NEXT(%rdi), %rcx                     /* calls, this one included */
    mov $1, %eax
    mov gs_config+GS_CFG_SAMPLE(%rip), %rdx
    test %rdx, %rdx
    jnz .Lsample_draw                               /* --sample N: m = N */
    mov gs_config+GS_CFG_FIRST_N(%rip), %rdx
    cmp %rdx, %rcx
    ja .Lsample_adapt                               /* past the first calls on this thread alone */
    PRIVATE_DATA
    add gs_config+GS_CFG_FIRST_OFF(%rip), %rax
    mov GS_DESC_COUNTER(%r13), %edx
    shr $1, %edx
    add %rdx, %rax                                  /* the function's first-calls counter */
    mov gs_config+GS_CFG_FIRST_N(%rip), %edx        /* N < 2^31 (stub_abi.h) */
    cmp %edx, (%rax)
    jae .Lsample_adapt                              /* taken by the threads together */
    mov $1, %edx
    lock xadd %edx, (%rax)
    cmp gs_config+GS_CFG_FIRST_N(%rip), %edx
    jae .Lsample_adapt
    mov $1, %eax                                    /* one of the first calls: the next is timed too */
    jmp .Lsample_gap
.Lsample_adapt:
    mov %rcx, %rdx
    shr $GS_ADAPT_SHIFT, %rdx
    mov $GS_GAP_MIN, %eax
    cmp %rax, %rdx
    cmovb %rax, %rdx                                /* max(calls >> SHIFT, GAP_MIN) */
    mov $GS_GAP_MAX, %eax
    cmp %rax, %rdx
    cmova %rax, %rdx                                /* m */
.Lsample_draw:
    mov GS_ROW_SAMPLE_RNG(%r12), %rax
    test %rax, %rax
    jnz 1f
    mov %r12, %rax                                  /* seed: the row's address */
1:  mov %rax, -64(%rsp)
    shl $13, %rax
    xor -64(%rsp), %rax
    mov %rax, -64(%rsp)
    shr $7, %rax
    xor -64(%rsp), %rax
    mov %rax, -64(%rsp)
    shl $17, %rax
    xor -64(%rsp), %rax
    mov %rax, GS_ROW_SAMPLE_RNG(%r12)
    shr $32, %rax
    lea -1(%rdx,%rdx), %rdx                         /* 2m - 1 */
    imul %rdx, %rax
    shr $32, %rax
    inc %rax                                        /* gap in [1, 2m-1] */
.Lsample_gap:
    mov -120(%rsp), %rcx
    add %rax, %rcx                                  /* next moves by s + gap */
    add %rcx, GS_TIM_NEXT(%rdi)                     /* first: see above */
    sub %rcx, (%rsi)                                /* calls - next = -gap */
    mov GS_TIM_GAP(%rdi), %rcx
    mov %rax, GS_TIM_GAP(%rdi)
    test %rcx, %rcx
    jnz 2f
    inc %ecx                                        /* the first timed call: itself */
2:  mov %rcx, -24(%rsp)                             /* the weight */
    mov -40(%rsp), %rsi
    mov -56(%rsp), %rdi
    mov GS_DESC_REC(%r13), %r12d
    movslq GS_DESC_BACK(%r13), %rcx
    add %rcx, %r13                                  /* back: relative to the descriptor */
    mov -112(%rsp), %rcx
    STACK_TOUCH                                     /* .Lpush's stack lines, cold here */
    lfence                                          /* no clock read before the loads above are done */
    jmp .Lpush
/* The record's page is not backed yet in this row: back it, or (tmpfs
 * full) count the call without timing it; it then stays >= 0 and every
 * call of it comes here. r12 = row, rcx = page index. */
.Lsample_page:
    mov %r13, -32(%rsp)
    mov %r12, %rax
    BACK_PAGE .Lsample_nospace
    mov -32(%rsp), %r13
    mov %rax, %r12
    jmp .Lsample_ready
.Lsample_nospace:
    mov -32(%rsp), %r13
    movslq GS_DESC_BACK(%r13), %rcx
    add %rcx, %r13
    mov %r13, -32(%rsp)
    mov -112(%rsp), %rcx
    COUNT_DROP GS_DROP_NO_SPACE
    jmp .Lenter_out

/* The thread's first counted call, in a program whose row is fs:[0] (the
 * trampoline's `test r12, r12; jz` leads here with r12 = 0): gs_row_slow's
 * work, the count, then the count's sign decides as the trampoline's `js
 * back` would. No row left: counted in the shared row 0, locked, not
 * timed. */
.Lsample_norow:
    mov %r13, -80(%rsp)                             /* below gs_claim_row's words */
    lea 1f(%rip), %r13
    jmp gs_claim_row
1:  mov -80(%rsp), %r13
    mov %rax, -8(%rsp)
    test %r12, %r12
    jz 2f
    mov %r12, %fs:0
    mov GS_DESC_COUNTER(%r13), %eax
    incq (%r12,%rax)
    mov -8(%rsp), %rax
    jns gs_sample_enter                             /* due: r12 = the row now */
    jmp 3f
2:  PRIVATE_DATA
    mov GS_PRIV_ROWS_BASE(%rax), %rax               /* row 0 */
    mov GS_DESC_COUNTER(%r13), %r12d
    lock incq (%rax,%r12)
    mov -8(%rsp), %rax
3:  movslq GS_DESC_BACK(%r13), %r12
    add %r12, %r13
    jmp *%r13

/* gs_stack_moved: at the entry of runtime.copystack(gp, newsize), which
 * moves gp's stack (growth, or shrinking by the GC while gp is stopped):
 * gp's marker names the old stack, so it becomes 0, which sends gp's next
 * return here to be set again from the depths. A goroutine without a
 * timing stack has no call open and keeps its marker. in: r12 = gp, r13 =
 * where to continue. */
    .globl gs_stack_moved
gs_stack_moved:
    mov %rax, -8(%rsp)
    mov gs_config+GS_CFG_G_SLOT(%rip), %rax
    add %rax, %r12                                  /* &gp.racectx */
    mov 4(%r12), %eax                               /* its stack >> SHIFT */
    test %eax, %eax
    jz 1f
    cmp $GS_SLOT_NONE, %eax
    je 1f
    movl $0, (%r12)
1:  mov -8(%rsp), %rax
    jmp *%r13

/* gs_time_return: a return whose depth is at or above the innermost open
 * timed call's (the return trampoline checked g.racectx): records the end
 * of the call if its entry is on top, and returns from the function.
 * in: r12d = the function's timing record offset; the function's frame is
 * already popped (RSP points at the return address). Results in RAX, RBX,
 * RCX, RDI, RSI, R8-R11 and X0-X14 are kept; RDX is dead at a return. The
 * TSC is read first, so the bookkeeping is not part of the duration.
 * Entries deeper than this return, or at its depth for another function,
 * belong to frames that left without returning: dropped as unwound. No
 * entry of its own (a caller's on top): a call that was not sampled, or
 * with every call timed one that could not be (unmatched). Either way the
 * marker in g.racectx is set to the new innermost entry. */
    .globl gs_time_return
gs_time_return:
    RETURN_POP GS_ENT_SIZE, .Lret
    RETURN_ONCPU
/* gs_time_record: the rest of a return, from gs_trace_return/commit too:
 * r12 = record offset, r13 = duration, rdx = weight, rax and rcx at -8
 * and -16(%rsp), the on-CPU ticks at -24(%rsp). */
    .globl gs_time_record
gs_time_record:
    RECORD_PAGE %rcx, .Lret_out, .Lret_page
.Lret_record:                  /* rax = row, r13 = duration, rdx = weight, -24(%rsp) = on-CPU */
    RECORD_CALL
.Lret_out:
    RETURN_LEAVE
    RETURN_COLD .Lret

/* gs_sample_return: gs_time_return for the sampled modes, whose timed calls
 * are far apart: their probes' lines and predictions are cold and cost
 * several times the calibration's warm figure, in their callers' time.
 * So the callers get the probe as this call measured it (SAMPLE_PROBE_DONE;
 * docs/timing.md "Compensation"). */
    .globl gs_sample_return
gs_sample_return:
    RETURN_POP GS_ENT_SIZE, .Lsret, 1
    RETURN_ONCPU
    RECORD_PAGE %rcx, .Lsret_norow, .Lsret_page
.Lsret_record:
    RECORD_CALL
    mov %rax, %rcx
    sub %r12, %rcx                                  /* the row */
    SAMPLE_PROBE_DONE
.Lsret_out:
    RETURN_LEAVE
.Lsret_norow:                  /* a thread without a row: the calibrated probe */
    mov -56(%rsp), %rax
    mov GS_SLOT_PROBE(%rax), %rdx
    add %rdx, GS_SLOT_COMP(%rax)
    jmp .Lsret_out
    RETURN_COLD .Lsret

    .section .note.GNU-stack,"",@progbits
