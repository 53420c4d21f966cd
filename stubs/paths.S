/* paths.S: timing every call with its calling context (--call-graph): gs_path_enter and gs_path_exit replace gs_time_enter and
 * gs_time_exit (timing.S, whose header comment states the rules these
 * follow too: reached by jmp, scratch only in the red zone, R12, R13 and
 * the flags change, nothing else).
 *
 * Each goroutine's timing stack holds 40-byte entries (stub_abi.h,
 * GS_PENT_*): besides depth, record and start, the ticks of the timed
 * calls made inside that returned (children), the call's path key and its
 * base. The key is computed at entry from the caller's key (the entry
 * below; the sentinel's is 0), the return address and the callee's record:
 *     key = bswap((parent ^ ret ^ rec * K3) * K1) | 1 << 63
 * (rec * K3 spreads the record over the high bits, so two calls collide
 * only when 64-bit values do; bswap brings the product's best-mixed high
 * bits to the low ones, which index the table)
 * Direct recursion is collapsed: when the callee is the caller entry's
 * callee, "parent" above is the caller's base instead of its key, and the
 * call's base is that base too (a call that is no direct recursion has its
 * own key as base). So every activation of f called by f from one call
 * site, at any depth under one first f, has one key, whose recorded parent
 * is that first f's key: calls, self and arcs stay exact, the node's total
 * counts nested activations again (docs/timing.md).
 * At exit, self = duration - children goes to gs_timing.self_total, the
 * duration to the parent's children, and the call to the thread's path
 * table (a row's gs_path[max_paths], open addressing: the GS_PATH_PROBES
 * entries of the key's aligned group of sixteen are tried, so that a full
 * table costs little per call: recursion overflows it). A call whose path finds no room goes to
 * the arc table under the key of the same call with parent 0 (counted in
 * gs_drops.path_overflow; all of a page, GS_ARC_PROBES, is tried there:
 * arcs are few), so caller -> callee arcs stay exact; one that
 * finds room in neither is counted in gs_drops.arc_overflow. Table pages
 * are backed on first use like timing pages; a page that cannot be backed
 * (tmpfs full) makes its calls overflow.
 *
 * An entry dropped as unwound (panic, Goexit) never adds its time to its
 * parent's children: that time stays in the parent's self. */

#include "stub_abi.h"

#include "stub_macros.h"

    .text

/* Finds key rdx in the table at row offset cfg \off (cfg \mask: (entries
 * - 1) * GS_PATH_SIZE) of the row at rax, trying \probes entries of one page: jumps to
 * \hit or \new (a free entry) with the entry at (rax, rcx), or to \fail
 * (rax = row). \reload (a macro) reloads the key into rdx after a page
 * was backed. Uses rcx, r12, -116(%rsp). */
.macro PROBE off, mask, probes, reload, hit, new, fail, pfx
    mov gs_config+\mask(%rip), %rcx                 /* (entries - 1) * entry size */
    and %rdx, %rcx
    add gs_config+\off(%rip), %rcx                  /* the entry's offset in the row */
    mov %rcx, %r12
    shr $12, %r12
    cmpb $GS_PAGE_READY, GS_ROW_MAP(%rax,%r12)
    jne \pfx\()_back
\pfx\()_ready:
    cmp GS_PATH_KEY(%rax,%rcx), %rdx
    je \hit
    cmpq $0, GS_PATH_KEY(%rax,%rcx)
    je \new
    movl $\probes - 1, -116(%rsp)
\pfx\()_next:
    lea GS_PATH_SIZE(%rcx), %r12                    /* the next entry, in the same page */
    and $GS_PAGE_SIZE - 1, %r12d
    and $-GS_PAGE_SIZE, %rcx
    or %r12, %rcx
    cmp GS_PATH_KEY(%rax,%rcx), %rdx
    je \hit
    cmpq $0, GS_PATH_KEY(%rax,%rcx)
    je \new
    decl -116(%rsp)
    jnz \pfx\()_next
    jmp \fail
\pfx\()_back:
    xchg %rcx, %r12                                 /* rcx = the page, r12 = the offset */
    BACK_PAGE \fail
    mov %r12, %rcx
    \reload
    jmp \pfx\()_ready
.endm

/* One step of PROBE16: the entry at rcx. */
.macro TRY_ENTRY hit, new
    cmp GS_PATH_KEY(%rax,%rcx), %rdx
    je \hit
    cmpq $0, GS_PATH_KEY(%rax,%rcx)
    je \new
.endm

/* As PROBE, for the path table: the GS_PATH_PROBES (16) entries of the
 * key's aligned group of sixteen, in Gray-code order (one xor per step,
 * never outside the page), unrolled: a lookup stops at the key or at the
 * first free entry, and a miss in a full group costs 16 steps. */
.macro PROBE16 off, mask, reload, hit, new, fail, pfx
    mov gs_config+\mask(%rip), %rcx                 /* (entries - 1) * entry size */
    and %rdx, %rcx
    add gs_config+\off(%rip), %rcx                  /* the entry's offset in the row */
    mov %rcx, %r12
    shr $12, %r12
    cmpb $GS_PAGE_READY, GS_ROW_MAP(%rax,%r12)
    jne \pfx\()_back
\pfx\()_ready:
    TRY_ENTRY \hit, \new
    .irp step, 1, 2, 1, 4, 1, 2, 1, 8, 1, 2, 1, 4, 1, 2, 1
    xor $\step * GS_PATH_SIZE, %rcx
    TRY_ENTRY \hit, \new
    .endr
    jmp \fail
\pfx\()_back:
    xchg %rcx, %r12                                 /* rcx = the page, r12 = the offset */
    BACK_PAGE \fail
    mov %r12, %rcx
    \reload
    jmp \pfx\()_ready
.endm

/* \reg = the goroutine's entry just popped by gs_path_exit (the stack's
 * top still points at it: nothing is pushed meanwhile). */
.macro POPPED_ENTRY reg, tmp, tmp32
    mov gs_config+GS_CFG_G_SLOT(%rip), \reg
    mov (%r14,\reg), \reg
    shr $32, \reg
    shl $GS_SLOT_SHIFT, \reg
    mov GS_SLOT_TOP(\reg), \tmp32
    add \tmp, \reg
.endm

.macro RELOAD_PATH_KEY
    POPPED_ENTRY %rdx, %r12, %r12d
    mov GS_PENT_KEY(%rdx), %rdx
.endm

.macro RELOAD_ARC_KEY
    mov -112(%rsp), %rdx
.endm

/* gs_path_enter: as gs_time_enter (in: r12d = record offset, r13 = where
 * to continue; RSP as at the function's entry, [RSP] = return address),
 * with the path key and children of the new entry. */
    .globl gs_path_enter
gs_path_enter:
    mov %rax, -8(%rsp)
    mov %rdx, -16(%rsp)
    mov %r13, -32(%rsp)
.Lpenter_slot:
    mov gs_config+GS_CFG_G_SLOT(%rip), %rax
    mov (%r14,%rax), %rax
    shr $32, %rax                                   /* this goroutine's stack >> SHIFT */
    jz .Lpenter_claim
    cmp $GS_SLOT_NONE, %eax
    je .Lpenter_noslot
    shl $GS_SLOT_SHIFT, %rax
    mov gs_config+GS_CFG_G_STACK_HI(%rip), %rdx
    mov (%r14,%rdx), %rdx
    sub %rsp, %rdx                                  /* depth */
    mov GS_SLOT_TOP(%rax), %r13d
.Lpenter_pop:
    cmp GS_PENT_DEPTH-GS_PENT_SIZE(%rax,%r13), %edx
    jbe .Lpenter_stale                              /* at our depth or deeper: gone */
    cmp $GS_PSLOT_LAST, %r13d
    ja .Lpenter_full
    addl $GS_PENT_SIZE, GS_SLOT_TOP(%rax)
    lea (%rax,%r13), %r13                           /* the new entry */
    mov gs_config+GS_CFG_G_SLOT(%rip), %rax
    mov %edx, (%r14,%rax)                           /* the innermost open timed call */
    mov %edx, GS_PENT_DEPTH(%r13)
    mov %r12d, GS_PENT_REC(%r13)
    movq $0, GS_PENT_CHILDREN(%r13)
    mov GS_PENT_KEY-GS_PENT_SIZE(%r13), %rax        /* the caller's key */
    cmp GS_PENT_REC-GS_PENT_SIZE(%r13), %r12d
    cmove GS_PENT_BASE-GS_PENT_SIZE(%r13), %rax     /* direct recursion: the caller's base */
    mov %rax, GS_PENT_BASE(%r13)                    /* our base, if we recurse */
    xor (%rsp), %rax                                /* the return address */
    imul $GS_PATH_K3, %r12, %rdx                    /* the callee, spread (r12 = r12d) */
    xor %rdx, %rax
    imul .Lk1(%rip), %rax
    bswap %rax
    bts $63, %rax                                   /* never 0: 0 marks a free entry */
    mov %rax, GS_PENT_KEY(%r13)
    cmp GS_PENT_REC-GS_PENT_SIZE(%r13), %r12d
    je 1f
    mov %rax, GS_PENT_BASE(%r13)                    /* not a recursion: our own key */
1:
    rdtsc
    mov %eax, GS_PENT_TSC(%r13)
    mov %edx, GS_PENT_TSC+4(%r13)
.Lpenter_out:
    mov -8(%rsp), %rax
    mov -16(%rsp), %rdx
    jmp *-32(%rsp)
.Lpenter_stale:                 /* a frame that left without returning */
    sub $GS_PENT_SIZE, %r13d
    mov %r13d, GS_SLOT_TOP(%rax)
    COUNT_DROP GS_DROP_UNWOUND
    jmp .Lpenter_pop
.Lpenter_full:
    COUNT_DROP GS_DROP_TOO_DEEP
    jmp .Lpenter_out
.Lpenter_noslot:
    COUNT_DROP GS_DROP_NO_SLOT
    jmp .Lpenter_out
/* The goroutine's first timed call: a stack from the pool, whose sentinel
 * entry (depth 0, key 0) ends the searches and is every first call's parent. */
.Lpenter_claim:
    lea __blob_start(%rip), %rax
    add gs_config+GS_CFG_RW_REL(%rip), %rax         /* struct gs_private */
    mov $1, %edx
    lock xadd %rdx, GS_PRIV_SLOTS_NEXT(%rax)
    cmp GS_PRIV_SLOTS_MAX(%rax), %rdx
    jae .Lpenter_none
    shl $GS_SLOT_SHIFT, %rdx
    add GS_PRIV_SLOTS_BASE(%rax), %rdx              /* the stack */
    movl $GS_SLOT_ENTRIES, GS_SLOT_TOP(%rdx)
    movl $0, GS_SLOT_ENTRIES-GS_PENT_SIZE+GS_PENT_DEPTH(%rdx)
    movl $GS_PENT_NO_REC, GS_SLOT_ENTRIES-GS_PENT_SIZE+GS_PENT_REC(%rdx)
    movq $0, GS_SLOT_ENTRIES-GS_PENT_SIZE+GS_PENT_KEY(%rdx)
    shr $GS_SLOT_SHIFT, %rdx
    shl $32, %rdx
    jmp .Lpenter_store
.Lpenter_none:
    mov $GS_SLOT_NONE, %edx
    shl $32, %rdx
.Lpenter_store:
    mov gs_config+GS_CFG_G_SLOT(%rip), %rax
    mov %rdx, (%r14,%rax)
    jmp .Lpenter_slot

    .p2align 3
.Lk1: .quad GS_PATH_K1

/* gs_path_exit: as gs_time_exit (in: r12d = record offset; RSP at the
 * return address; results in RAX, RBX, RCX, RDI, RSI, R8-R11, X0-X14
 * kept; RDX is dead at a return), then the call's path. */
    .globl gs_path_exit
gs_path_exit:
    mov %rax, -8(%rsp)
    mov %rcx, -16(%rsp)
    rdtsc
    shl $32, %rdx
    or %rax, %rdx
    mov %rdx, %r13                                  /* now */
    mov gs_config+GS_CFG_G_SLOT(%rip), %rax
    mov (%r14,%rax), %rax
    shr $32, %rax
    shl $GS_SLOT_SHIFT, %rax                        /* the stack: the marker was set, so one is claimed */
    mov gs_config+GS_CFG_G_STACK_HI(%rip), %rdx
    mov (%r14,%rdx), %rdx
    sub %rsp, %rdx                                  /* depth */
    mov GS_SLOT_TOP(%rax), %ecx
.Lpexit_pop:
    cmp GS_PENT_DEPTH-GS_PENT_SIZE(%rax,%rcx), %edx
    jb .Lpexit_stale                                /* a deeper frame's: gone */
    ja .Lpexit_missing                              /* a caller's (or the sentinel) */
    cmp GS_PENT_REC-GS_PENT_SIZE(%rax,%rcx), %r12d
    jne .Lpexit_stale
    sub $GS_PENT_SIZE, %ecx
    mov %ecx, GS_SLOT_TOP(%rax)
    add %rax, %rcx                                  /* our entry (popped, still intact) */
    mov GS_PENT_DEPTH-GS_PENT_SIZE(%rcx), %edx
    mov gs_config+GS_CFG_G_SLOT(%rip), %rax
    mov %edx, (%r14,%rax)                           /* the new innermost */
    sub GS_PENT_TSC(%rcx), %r13                     /* duration */
    jns 1f
    xor %r13d, %r13d                                /* TSC behind on this core */
1:  add %r13, GS_PENT_CHILDREN-GS_PENT_SIZE(%rcx)   /* the caller's children */
    mov %r13, %rdx
    sub GS_PENT_CHILDREN(%rcx), %rdx                /* self */
    jns 2f
    xor %edx, %edx                                  /* callees on a core with a TSC ahead */
2:  mov %rdx, -24(%rsp)
    mov GS_PENT_KEY(%rcx), %rdx                     /* the path's key */
    mov gs_config+GS_CFG_G_M(%rip), %rax
    mov (%r14,%rax), %rax
    add gs_config+GS_CFG_M_ROW(%rip), %rax
    mov (%rax), %rax                                /* this thread's row */
    test %rax, %rax
    jz .Lpexit_out
    mov %r12, %rcx
    shr $12, %rcx                                   /* the record's page */
    cmpb $GS_PAGE_READY, GS_ROW_MAP(%rax,%rcx)
    jne .Lpexit_page
.Lpexit_record:                 /* rax = row, rdx = key, r12 = record, r13 = duration */
    incq GS_TIM_SAMPLES(%rax,%r12)                  /* struct gs_timing at (rax, r12) */
    add %r13, GS_TIM_TOTAL(%rax,%r12)
    mov -24(%rsp), %rcx
    add %rcx, GS_TIM_SELF(%rax,%r12)
    cmp %r13, GS_TIM_MAX(%rax,%r12)
    jae 3f
    mov %r13, GS_TIM_MAX(%rax,%r12)
3:  not %r13
    cmp %r13, GS_TIM_MIN_INV(%rax,%r12)
    jae 4f
    mov %r13, GS_TIM_MIN_INV(%rax,%r12)
4:  not %r13
    mov %r13, %rcx
    or $1 << GS_HIST_FIRST_BIT, %rcx                /* floor(log2) >= FIRST_BIT */
    bsr %rcx, %rcx
    cmp $GS_HIST_FIRST_BIT + GS_HIST_NBUCKETS - 1, %ecx
    jbe 5f
    mov $GS_HIST_FIRST_BIT + GS_HIST_NBUCKETS - 1, %ecx
5:  lea (%r12,%rcx,8), %rcx
    incq GS_TIM_HIST - 8 * GS_HIST_FIRST_BIT(%rax,%rcx)
    PROBE16 GS_CFG_PATHS_OFF, GS_CFG_PATHS_MASK, RELOAD_PATH_KEY, .Lpath_hit, .Lpath_new, .Lpath_full, .Lpp
.Lpath_hit:
.Larc_hit:
    incq GS_PATH_CALLS(%rax,%rcx)
    add %r13, GS_PATH_TOTAL(%rax,%rcx)
    mov -24(%rsp), %r12
    add %r12, GS_PATH_SELF(%rax,%rcx)
.Lpexit_out:
    mov -8(%rsp), %rax
    mov -16(%rsp), %rcx
    ret
/* A path seen first: its fields, then its key (a reader that sees the key
 * sees them). rax = row, rcx = offset, rdx = key. */
.Lpath_new:
    lea (%rax,%rcx), %rax                           /* the free entry */
    POPPED_ENTRY %rcx, %r12, %r12d
    mov GS_PENT_REC(%rcx), %r12d
    cmp GS_PENT_REC-GS_PENT_SIZE(%rcx), %r12d
    mov GS_PENT_KEY-GS_PENT_SIZE(%rcx), %r12
    cmove GS_PENT_BASE(%rcx), %r12                  /* direct recursion: its base */
    mov %r12, GS_PATH_PARENT(%rax)
    mov GS_PENT_REC(%rcx), %r12d
    jmp 6f
.Larc_new:
    lea (%rax,%rcx), %rax
    mov -120(%rsp), %r12d                           /* the record (.Lpath_full) */
6:  mov %r12d, GS_PATH_REC(%rax)
    mov (%rsp), %r12
    mov %r12, GS_PATH_RET(%rax)
    mov %rdx, GS_PATH_KEY(%rax)
    xor %ecx, %ecx
    jmp .Lpath_hit
.Lpexit_stale:
    sub $GS_PENT_SIZE, %ecx
    mov %ecx, GS_SLOT_TOP(%rax)
    COUNT_DROP GS_DROP_UNWOUND
    jmp .Lpexit_pop
.Lpexit_missing:
    mov GS_PENT_DEPTH-GS_PENT_SIZE(%rax,%rcx), %edx
    mov gs_config+GS_CFG_G_SLOT(%rip), %rax
    mov %edx, (%r14,%rax)                           /* the innermost that is left */
    COUNT_DROP GS_DROP_UNMATCHED
    jmp .Lpexit_out
/* First use of a timing page by this thread: back it, or drop the call's
 * timing (tmpfs full). rax = row, rcx = page index. */
.Lpexit_page:
    BACK_PAGE .Lpexit_nospace
    POPPED_ENTRY %rdx, %rcx, %ecx                   /* (r12 is the record) */
    mov GS_PENT_KEY(%rdx), %rdx
    jmp .Lpexit_record
.Lpexit_nospace:
    COUNT_DROP GS_DROP_NO_SPACE
    jmp .Lpexit_out
/* No room for the path: the call goes to the arc table, keyed as the
 * same call with parent 0 would be. rax = row. */
.Lpath_full:
    incq GS_DROP_PATH_OVERFLOW(%rax)
    POPPED_ENTRY %rdx, %rcx, %ecx
    mov GS_PENT_REC(%rdx), %ecx
    mov %ecx, -120(%rsp)
    imul $GS_PATH_K3, %rcx, %rdx
    xor (%rsp), %rdx
    imul .Lk1(%rip), %rdx
    bswap %rdx
    bts $63, %rdx
    mov %rdx, -112(%rsp)
    PROBE GS_CFG_ARCS_OFF, GS_CFG_ARCS_MASK, GS_ARC_PROBES, RELOAD_ARC_KEY, .Larc_hit, .Larc_new, .Larc_full, .Lap
.Larc_full:
    incq GS_DROP_ARC_OVERFLOW(%rax)
    jmp .Lpexit_out

    .section .note.GNU-stack,"",@progbits
