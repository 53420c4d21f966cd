/* stub_macros.h: assembler macros shared by the timing routines
 * (timing.S and paths.S): finding a goroutine's timing stack, opening and
 * closing its entries, counting a drop in the thread's row and backing a
 * row page with memory on first use. Their instruction order is part of
 * the routines' design (when the clock is read, which red-zone slot holds
 * what: timing.S's header, docs/timing.md). Included by .S files only. */
#ifndef GS_STUB_MACROS_H
#define GS_STUB_MACROS_H

#include "format/trace_format.h"

#define SYS_madvise 28
#define MADV_POPULATE_WRITE 23
#define EINVAL 22

/* The two entry layouts (stub_abi.h GS_ENT_*, GS_PENT_*) begin alike, so
 * the macros below read depth, record and start as GS_ENT_* in both and
 * take only the entry's size. */
#if GS_PENT_DEPTH != GS_ENT_DEPTH || GS_PENT_REC != GS_ENT_REC || GS_PENT_TSC != GS_ENT_TSC
#error "timing and path entries must share depth, record and start"
#endif

/* The entry halves keep the caller's rax and rdx at -8 and -16(%rsp)
 * and go on at the address stored at -32(%rsp). */
.macro ENTER_SAVE
    mov %rax, -8(%rsp)
    mov %rdx, -16(%rsp)
.endm

.macro ENTER_LEAVE
    mov -8(%rsp), %rax
    mov -16(%rsp), %rdx
    jmp *-32(%rsp)
.endm

/* The return halves keep rax and rcx (results) at -8 and -16(%rsp)
 * (RETURN_POP saves them) and return for the function. */
.macro RETURN_LEAVE
    mov -8(%rsp), %rax
    mov -16(%rsp), %rcx
    ret
.endm

/* rax = struct gs_private, the RW segment's first page. */
.macro PRIVATE_DATA
    lea __blob_start(%rip), %rax
    add gs_config+GS_CFG_RW_REL(%rip), %rax
.endm

/* \reg = this thread's row (m.tls[1]), 0 when it has none. */
.macro THREAD_ROW reg
    mov gs_config+GS_CFG_G_M(%rip), \reg
    mov (%r14,\reg), \reg
    add gs_config+GS_CFG_M_ROW(%rip), \reg
    mov (\reg), \reg
.endm

/* Adds 1 to this thread's drop counter \field, if the thread has a row. */
.macro COUNT_DROP field
    mov %rbx, -48(%rsp)
    THREAD_ROW %rbx
    test %rbx, %rbx
    jz 9f
    incq \field(%rbx)                   /* struct gs_drops is at the row's start */
9:  mov -48(%rsp), %rbx
.endm

/* rax = the high half of g.racectx: this goroutine's stack >> SHIFT, 0
 * (none claimed yet: ZF set) or GS_SLOT_NONE. */
.macro STACK_WORD
    mov gs_config+GS_CFG_G_SLOT(%rip), %rax
    mov (%r14,%rax), %rax
    shr $32, %rax
.endm

/* Loads the top entry of the goroutine's timing stack, if it has one, so
 * that ENTER_SEARCH finds its lines in the cache (rax, rdx overwritten). */
.macro STACK_TOUCH
    STACK_WORD
    jz 7f
    cmp $GS_SLOT_NONE, %eax
    je 7f
    shl $GS_SLOT_SHIFT, %rax
    mov GS_SLOT_TOP(%rax), %edx
    mov GS_ENT_DEPTH-GS_ENT_SIZE(%rax,%rdx), %edx
7:
.endm

/* rdx = this call's depth, g.stack.hi - RSP. */
.macro CALL_DEPTH
    mov gs_config+GS_CFG_G_STACK_HI(%rip), %rdx
    mov (%r14,%rdx), %rdx
    sub %rsp, %rdx
.endm

/* The marker, the low half of g.racectx = edx: the low half of the
 * innermost open timed call's RSP (stub_abi.h); \scratch is overwritten. */
.macro SET_INNERMOST scratch
    mov gs_config+GS_CFG_G_SLOT(%rip), \scratch
    mov %edx, (%r14,\scratch)
.endm

/* The marker = this RSP's low half: a timed call's entry, RSP as at the
 * function's. */
.macro SET_INNERMOST_HERE scratch
    mov gs_config+GS_CFG_G_SLOT(%rip), \scratch
    mov %esp, (%r14,\scratch)
.endm

/* Counts a stale entry: on an M's g0 (g == g.m.g0) the scheduler left it
 * open (the runtime resets g0's stack at every mcall and gogo, and a panic
 * there is fatal), elsewhere a panic or Goexit unwound it. */
.macro COUNT_STALE
    mov %rbx, -48(%rsp)
    mov gs_config+GS_CFG_G_M(%rip), %rbx
    mov (%r14,%rbx), %rbx                           /* g.m */
    cmp %r14, GS_M_G0(%rbx)
    mov -48(%rsp), %rbx
    je .Lstale_g0\@
    COUNT_DROP GS_DROP_UNWOUND
    jmp .Lstale_out\@
.Lstale_g0\@:
    COUNT_DROP GS_DROP_ABANDONED
.Lstale_out\@:
.endm

/* A traced call's entry being dropped (at rax + GS_SLOT_TOP; its weight
 * GS_ENT_W_TRACED): its event, panicked, goes to the ring (stubs/trace.S
 * gs_trace_unwound). Keeps every register. */
.macro TRACE_STALE
    mov %rbx, GS_SLOT_TSAVE(%rax)
    mov GS_SLOT_TOP(%rax), %ebx
    cmpq $GS_ENT_W_TRACED, GS_ENT_W(%rax,%rbx)
    jne 6f
    lea 6f(%rip), %rbx
    mov %rbx, GS_SLOT_TSAVE+8(%rax)
    jmp gs_trace_unwound
6:  mov GS_SLOT_TSAVE(%rax), %rbx
.endm

/* An entry below this call's depth belongs to a frame that left without
 * returning: pops it (\top = the stack's top offset) and searches on. */
.macro DROP_STALE size, top, prefix
\prefix\()_stale:
    sub $\size, \top
    mov \top, GS_SLOT_TOP(%rax)
.if \size == GS_ENT_SIZE                           /* --trace excludes call paths */
    TRACE_STALE
.endif
    COUNT_STALE
    jmp \prefix\()_pop
.endm

/* The entry half's search, for entries of \size bytes (the stack is full
 * when its top is above \last): rax = the stack, rdx = depth, r13 = the
 * new entry's offset, once the entries at this depth or deeper are dropped.
 * Defines \prefix_slot and _pop; goes to \prefix_claim, _noslot, _stale
 * and _full (ENTER_DROPS, CLAIM_STACK). */
.macro ENTER_SEARCH size, last, prefix
\prefix\()_slot:
    STACK_WORD
    jz \prefix\()_claim
    cmp $GS_SLOT_NONE, %eax
    je \prefix\()_noslot
    shl $GS_SLOT_SHIFT, %rax
    CALL_DEPTH
    mov GS_SLOT_TOP(%rax), %r13d
\prefix\()_pop:
    cmp GS_ENT_DEPTH-\size(%rax,%r13), %edx
    jbe \prefix\()_stale                            /* at our depth or deeper: gone */
    cmp $\last, %r13d
    ja \prefix\()_full
.endm

/* ENTER_SEARCH's ways out: a stale entry, a full stack, no stack left
 * (the last two count the call as dropped and go on to \prefix_out). */
.macro ENTER_DROPS size, prefix
    DROP_STALE \size, %r13d, \prefix
\prefix\()_full:
    COUNT_DROP GS_DROP_TOO_DEEP
    jmp \prefix\()_out
\prefix\()_noslot:
    COUNT_DROP GS_DROP_NO_SLOT
    jmp \prefix\()_out
.endm

/* The goroutine's first timed call: a stack from the pool, whose sentinel
 * entry (depth 0, below every real depth) ends the searches; \sentinel
 * names a macro that fills the rest of it (rdx = the stack), if any. Then
 * the search starts again at \prefix_slot. */
.macro CLAIM_STACK size, prefix, sentinel=
\prefix\()_claim:
    PRIVATE_DATA
    mov $1, %edx
    lock xadd %rdx, GS_PRIV_SLOTS_NEXT(%rax)
    cmp GS_PRIV_SLOTS_MAX(%rax), %rdx
    jae \prefix\()_none
    shl $GS_SLOT_SHIFT, %rdx
    add GS_PRIV_SLOTS_BASE(%rax), %rdx              /* the stack */
    movl $GS_SLOT_ENTRIES, GS_SLOT_TOP(%rdx)
    movl $0, GS_SLOT_ENTRIES-\size+GS_ENT_DEPTH(%rdx)
    mov GS_PRIV_PROBE(%rax), %r13                   /* the calibration (r13 is free here) */
    mov %r13, GS_SLOT_PROBE(%rdx)
    mov GS_PRIV_INNER(%rax), %r13
    mov %r13, GS_SLOT_INNER(%rdx)
    mov GS_PRIV_UNTIMED(%rax), %r13
    mov %r13, GS_SLOT_UNTIMED(%rdx)
    \sentinel
    shr $GS_SLOT_SHIFT, %rdx
    shl $32, %rdx
    jmp \prefix\()_store
\prefix\()_none:
    movabs $(GS_SLOT_NONE << 32 | GS_MARKER_NONE), %rdx   /* its returns never come here */
\prefix\()_store:
    mov gs_config+GS_CFG_G_SLOT(%rip), %rax
    mov %rdx, (%r14,%rax)
    jmp \prefix\()_slot
.endm

/* The return half's start: saves rax and rcx at -8 and -16(%rsp), reads the
 * TSC first (so the bookkeeping is not part of the duration), then pops
 * this return's entry: its own, at this depth and for record r12d. Out:
 * rcx = the popped entry (still intact), r13 = the duration on the
 * compensated clock less the probe's own share inside it (0 when that is
 * below 0, or the TSC is behind on this core), the probe's cost added to
 * the goroutine's sum, the marker in g.racectx set to the new innermost
 * entry. Defines \prefix_pop; goes to \prefix_stale or _missing
 * (RETURN_DROPS). \measured (gs_sample_return): the probe's cost is left to
 * SAMPLE_PROBE_DONE, with the clock at -40, the stack at -56 and the
 * entry's measured probe at -64(%rsp). */
.macro RETURN_POP size, prefix, measured=0
    mov %rax, -8(%rsp)
    mov %rcx, -16(%rsp)
    rdtsc
    shl $32, %rdx
    or %rax, %rdx
    mov %rdx, %r13                                  /* now */
.if \measured
    mov %rdx, -40(%rsp)
.endif
    STACK_WORD
    jz \prefix\()_noslot                          /* a new g: no stack, so no call open */
    shl $GS_SLOT_SHIFT, %rax                        /* not GS_SLOT_NONE: its marker is never below */
    CALL_DEPTH
    mov GS_SLOT_TOP(%rax), %ecx
\prefix\()_pop:
    cmp GS_ENT_DEPTH-\size(%rax,%rcx), %edx
    jb \prefix\()_stale                             /* a deeper frame's: gone */
    ja \prefix\()_missing                           /* a caller's (or the sentinel) */
    cmp GS_ENT_REC-\size(%rax,%rcx), %r12d
    jne \prefix\()_stale
    sub $\size, %ecx
    mov %ecx, GS_SLOT_TOP(%rax)
    add %rax, %rcx                                  /* our entry */
    sub GS_ENT_DEPTH-\size(%rcx), %edx              /* our depth - the new innermost's */
    add %esp, %edx                                  /* its RSP, low half */
    SET_INNERMOST %r12                              /* the new innermost */
    mov GS_ENT_REC(%rcx), %r12d                     /* the record again */
    sub GS_SLOT_COMP(%rax), %r13                    /* now, on the compensated clock */
    sub GS_SLOT_INNER(%rax), %r13
.if \measured
    mov %rax, -56(%rsp)
    mov GS_ENT_PROBE(%rcx), %edx
    mov %rdx, -64(%rsp)
.else
    mov GS_SLOT_PROBE(%rax), %rdx
    add %rdx, GS_SLOT_COMP(%rax)                    /* this probe, for the callers */
.endif
    sub GS_ENT_TSC(%rcx), %r13                      /* duration, compensated */
    jns 1f
    xor %r13d, %r13d                                /* TSC behind on this core */
1:
.endm

/* After a measured RETURN_POP and the call's record (rcx = the thread's
 * row): the probe's cost for the callers, as this sampled call measured it
 * (its entry's part, from gs_sample_enter's first clock read to its start,
 * and its return's, from the end to now), tallied in the row; or as
 * calibrated when that reads preempted. Clobbers rax, rdx. */
.macro SAMPLE_PROBE_DONE
    rdtsc
    shl $32, %rdx
    or %rax, %rdx
    sub -40(%rsp), %rdx                             /* the return's part */
    add -64(%rsp), %rdx                             /* and the entry's */
    mov -56(%rsp), %rax                             /* the stack */
    cmp $GS_PROBE_MEASURED_MAX, %rdx
    jae 1f
    incq GS_DROP_SAMPLED_PROBES(%rcx)
    add %rdx, GS_DROP_SAMPLED_TICKS(%rcx)
    jmp 2f
1:  mov GS_SLOT_PROBE(%rax), %rdx
2:  add %rdx, GS_SLOT_COMP(%rax)
.endm

/* rax = this thread's row (on to \none without one) and \page = the index
 * of the page of record r12; on to \unready when this thread has not
 * backed that page yet. */
.macro RECORD_PAGE page, none, unready
    THREAD_ROW %rax
    test %rax, %rax
    jz \none
    mov %r12, \page
    shr $12, \page                                  /* the record's page */
    cmpb $GS_PAGE_READY, GS_ROW_PAGEMAP(%rax,\page)
    jne \unready
.endm

/* After RETURN_POP (rcx = the popped entry, r13 = the duration): rdx = its
 * weight, -24(%rsp) = its on-CPU ticks (the duration less the goroutine's
 * off-CPU time since the entry, never negative). */
.macro RETURN_ONCPU
    mov GS_ENT_W(%rcx), %edx                        /* weight */
    mov GS_ENT_OFF(%rcx), %rax
    and $-GS_SLOT_SIZE, %rcx                        /* the stack (aligned to its size) */
    sub GS_SLOT_OFF(%rcx), %rax                     /* -(off-CPU during the call) */
    add %r13, %rax                                  /* on-CPU */
    jns 1f
    xor %eax, %eax                                  /* the clocks' residuals */
1:  mov %rax, -24(%rsp)
.endm

/* A timed call into its record (rax = row, r12 = record offset, r13 =
 * duration, rdx = weight, -24(%rsp) = on-CPU): samples, weighted totals,
 * max, min and the histogram bucket. Clobbers rax, rcx, r13. */
.macro RECORD_CALL
    add %r12, %rax                                  /* struct gs_timing */
    incq GS_TIM_SAMPLES(%rax)
    mov %rdx, %rcx
    imul %r13, %rcx
    add %rcx, GS_TIM_TOTAL(%rax)
    mov -24(%rsp), %rcx
    imul %rdx, %rcx
    add %rcx, GS_TIM_ONCPU(%rax)
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
    mov $GS_HIST_FIRST_BIT + GS_HIST_BUCKETS - 1, %r13d
    cmp %r13d, %ecx
    cmova %r13d, %ecx
    add %rdx, GS_TIM_HIST - 8 * GS_HIST_FIRST_BIT(%rax,%rcx,8)
.endm

/* RETURN_POP's ways out: no stack (no call open: the marker says so from
 * now on); a stale entry; no entry of this call's (a caller's on top),
 * after which the marker names the innermost entry left. */
.macro RETURN_DROPS size, prefix
\prefix\()_noslot:
    mov $GS_MARKER_NONE, %edx
    SET_INNERMOST %rax
    jmp \prefix\()_out
    DROP_STALE \size, %ecx, \prefix
\prefix\()_missing:
    sub GS_ENT_DEPTH-\size(%rax,%rcx), %edx         /* this call's depth - the innermost's */
    add %esp, %edx                                  /* its RSP, low half */
    SET_INNERMOST %rax                              /* the innermost that is left */
.endm

/* Backs page rcx of the row at rax with memory the first time this thread
 * uses it (MADV_POPULATE_WRITE), so that a full tmpfs shows up here and
 * not as SIGBUS on a store; marks it ready, or failed and jumps to \fail.
 * Keeps every register but rdx and the flags. */
.macro BACK_PAGE fail
    cmpb $GS_PAGE_FAILED, GS_ROW_PAGEMAP(%rax,%rcx)
    je \fail
    mov %rdi, -72(%rsp)
    mov %rsi, -80(%rsp)
    mov %r11, -88(%rsp)
    mov %rax, -96(%rsp)
    mov %rcx, -104(%rsp)
    mov %rcx, %rdi
    shl $12, %rdi
    add %rax, %rdi
    mov $GS_PAGE, %esi
    mov $MADV_POPULATE_WRITE, %edx
    mov $SYS_madvise, %eax
    syscall
    mov %rax, %rdx
    mov -72(%rsp), %rdi
    mov -80(%rsp), %rsi
    mov -88(%rsp), %r11
    mov -96(%rsp), %rax
    mov -104(%rsp), %rcx
    test %rdx, %rdx
    jz 8f
    cmp $-EINVAL, %rdx                              /* kernel before 5.14: use it unpopulated */
    je 8f
    movb $GS_PAGE_FAILED, GS_ROW_PAGEMAP(%rax,%rcx)
    jmp \fail
8:  movb $GS_PAGE_READY, GS_ROW_PAGEMAP(%rax,%rcx)
.endm

/* The cold ends of a timed return (labels \prefix_out, _record, _page):
 * RETURN_POP's drops (a call not sampled is no drop), and a thread's first
 * use of a timing page: back it with memory, or drop the sample (tmpfs
 * full) rather than touch a page that would raise SIGBUS (rax = row, rcx =
 * page index, rdx = weight). */
.macro RETURN_COLD prefix
    RETURN_DROPS GS_ENT_SIZE, \prefix
    cmpq $1, gs_config+GS_CFG_SAMPLE(%rip)
    jne \prefix\()_out                             /* sampling: a call not timed */
    COUNT_DROP GS_DROP_UNMATCHED
    jmp \prefix\()_out
\prefix\()_page:
    mov %rdx, -32(%rsp)
    BACK_PAGE \prefix\()_nospace
    mov -32(%rsp), %rdx
    jmp \prefix\()_record
\prefix\()_nospace:
    COUNT_DROP GS_DROP_NO_SPACE
    jmp \prefix\()_out
.endm

#endif
