/* paths.S: timing every call with its calling context (--time-all, unless
 * --max-paths 0): gs_path_enter and gs_path_exit replace gs_time_enter and
 * gs_time_exit (timing.S, whose header comment states the rules these
 * follow too: reached by jmp, scratch only in the red zone, R12, R13 and
 * the flags change, nothing else).
 *
 * Each goroutine's timing stack holds 32-byte entries (stub_abi.h,
 * GS_PENT_*): besides depth, record and start, the ticks of the timed
 * calls made inside that returned (children) and the call's path key,
 * computed at entry from the caller's key (the entry below; the sentinel's
 * is 0), the return address and the callee's record:
 *     key = mix((parent ^ ret) * K1 ^ rec) | 1 << 63,  mix(x) = x * K2 ^ (x * K2) >> 32
 * At exit, self = duration - children goes to gs_timing.self_total, the
 * duration to the parent's children, and the call to the thread's path
 * table (a row's gs_path[max_paths], open addressing, GS_PATH_PROBES
 * entries tried within one page: a full table costs little per call). A call whose path finds no room goes to
 * the arc table under key mix(ret * K1 ^ rec) (counted in
 * gs_drops.path_overflow; all of a page, GS_ARC_PROBES, is tried there:
 * arcs are few), so caller -> callee arcs stay exact; one that
 * finds room in neither is counted in gs_drops.arc_overflow. Table pages
 * are backed on first use like timing pages; a page that cannot be backed
 * (tmpfs full) makes its calls overflow.
 *
 * An entry dropped as unwound (panic, Goexit) never adds its time to its
 * parent's children: that time stays in the parent's self. */

#include "stub_abi.h"

#define SYS_madvise 28
#define MADV_POPULATE_WRITE 23
#define EINVAL 22

    .text

/* As in timing.S (macros are per file). */
.macro COUNT_DROP field
    mov %rbx, -48(%rsp)
    mov gs_config+GS_CFG_G_M(%rip), %rbx
    mov (%r14,%rbx), %rbx
    add gs_config+GS_CFG_M_ROW(%rip), %rbx
    mov (%rbx), %rbx
    test %rbx, %rbx
    jz 9f
    incq \field(%rbx)
9:  mov -48(%rsp), %rbx
.endm

/* Backs page rcx of the row at rax (timing.S, BACK_PAGE); keeps every
 * register but rdx and the flags. */
.macro BACK_PAGE fail
    cmpb $GS_PAGE_FAILED, GS_ROW_MAP(%rax,%rcx)
    je \fail
    mov %rdi, -72(%rsp)
    mov %rsi, -80(%rsp)
    mov %r11, -88(%rsp)
    mov %rax, -96(%rsp)
    mov %rcx, -104(%rsp)
    mov %rcx, %rdi
    shl $12, %rdi
    add %rax, %rdi
    mov $GS_PAGE_SIZE, %esi
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
    cmp $-EINVAL, %rdx
    je 8f
    movb $GS_PAGE_FAILED, GS_ROW_MAP(%rax,%rcx)
    jmp \fail
8:  movb $GS_PAGE_READY, GS_ROW_MAP(%rax,%rcx)
.endm

/* Finds key rdx in the table at row offset cfg \off (cfg \mask: entries
 * - 1) of the row at rsi, trying \probes entries of one page: jumps to
 * \hit with rax = its entry, to \new with rax = a free entry, or to
 * \fail. \key reloads the key after a page was backed. Uses rax, rcx, r12. */
.macro PROBE off, mask, probes, key, hit, new, fail, pfx
    mov gs_config+\mask(%rip), %rcx
    and %rdx, %rcx
    shl $GS_PATH_SHIFT, %rcx
    add gs_config+\off(%rip), %rcx                  /* the entry's offset in the row */
    mov %rcx, %rax
    shr $12, %rax
    cmpb $GS_PAGE_READY, GS_ROW_MAP(%rsi,%rax)
    jne \pfx\()_back
\pfx\()_ready:
    mov $\probes, %r12d
\pfx\()_probe:
    lea (%rsi,%rcx), %rax
    cmp GS_PATH_KEY(%rax), %rdx
    je \hit
    cmpq $0, GS_PATH_KEY(%rax)
    je \new
    dec %r12d
    jz \fail
    lea GS_PATH_SIZE(%rcx), %rax                    /* the next entry, in the same page */
    and $GS_PAGE_SIZE - 1, %eax
    and $-GS_PAGE_SIZE, %rcx
    or %rax, %rcx
    jmp \pfx\()_probe
\pfx\()_back:
    mov %rcx, %r12
    mov %rax, %rcx
    mov %rsi, %rax
    BACK_PAGE \fail
    mov %r12, %rcx
    mov \key, %rdx
    jmp \pfx\()_ready
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
    xor (%rsp), %rax                                /* the return address */
    imul .Lk1(%rip), %rax
    xor %r12, %rax                                  /* the callee (r12 = r12d) */
    imul .Lk2(%rip), %rax
    mov %rax, %rdx
    shr $32, %rdx
    xor %rdx, %rax
    bts $63, %rax                                   /* never 0: 0 marks a free entry */
    mov %rax, GS_PENT_KEY(%r13)
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
.Lk2: .quad GS_PATH_K2

/* gs_path_exit: as gs_time_exit (in: r12d = record offset; RSP at the
 * return address; results in RAX, RBX, RCX, RDI, RSI, R8-R11, X0-X14
 * kept), then the call's path. */
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
    mov gs_config+GS_CFG_G_M(%rip), %rax
    mov (%r14,%rax), %rax
    add gs_config+GS_CFG_M_ROW(%rip), %rax
    mov (%rax), %rax                                /* this thread's row */
    test %rax, %rax
    jz .Lpexit_out
    mov %rsi, -40(%rsp)
    mov %rdi, -56(%rsp)
    mov %rax, %rsi                                  /* the row */
    mov %rcx, %rdi                                  /* our entry */
    mov %r12, %rcx
    shr $12, %rcx                                   /* the record's page */
    cmpb $GS_PAGE_READY, GS_ROW_MAP(%rsi,%rcx)
    jne .Lpexit_page
.Lpexit_record:                 /* rsi = row, rdi = entry, r13 = duration */
    lea (%rsi,%r12), %rax                           /* struct gs_timing */
    incq GS_TIM_SAMPLES(%rax)
    add %r13, GS_TIM_TOTAL(%rax)
    mov %r13, %rdx
    sub GS_PENT_CHILDREN(%rdi), %rdx                /* self */
    jns 4f
    xor %edx, %edx                                  /* callees on a core with a TSC ahead */
4:  add %rdx, GS_TIM_SELF(%rax)
    mov %rdx, -24(%rsp)
    cmp %r13, GS_TIM_MAX(%rax)
    jae 2f
    mov %r13, GS_TIM_MAX(%rax)
2:  not %r13
    cmp %r13, GS_TIM_MIN_INV(%rax)
    jae 3f
    mov %r13, GS_TIM_MIN_INV(%rax)
3:  not %r13
    mov %r13, %rcx
    or $1 << GS_HIST_FIRST_BIT, %rcx                /* floor(log2) >= FIRST_BIT */
    bsr %rcx, %rcx
    mov $GS_HIST_FIRST_BIT + GS_HIST_NBUCKETS - 1, %r12d
    cmp %r12d, %ecx
    cmova %r12d, %ecx
    incq GS_TIM_HIST - 8 * GS_HIST_FIRST_BIT(%rax,%rcx,8)
    mov GS_PENT_KEY(%rdi), %rdx
    PROBE GS_CFG_PATHS_OFF, GS_CFG_PATHS_MASK, GS_PATH_PROBES, GS_PENT_KEY(%rdi), .Lpath_hit, .Lpath_new, .Lpath_full, .Lpp
.Lpath_new:
    mov GS_PENT_KEY-GS_PENT_SIZE(%rdi), %rcx
    mov %rcx, GS_PATH_PARENT(%rax)
.Larc_new:
    mov (%rsp), %rcx
    mov %rcx, GS_PATH_RET(%rax)
    mov GS_PENT_REC(%rdi), %ecx
    mov %ecx, GS_PATH_REC(%rax)
    mov %rdx, GS_PATH_KEY(%rax)                     /* last: a reader seeing it sees the rest */
.Lpath_hit:
.Larc_hit:
    incq GS_PATH_CALLS(%rax)
    add %r13, GS_PATH_TOTAL(%rax)
    mov -24(%rsp), %rcx
    add %rcx, GS_PATH_SELF(%rax)
.Lpexit_restore:
    mov -40(%rsp), %rsi
    mov -56(%rsp), %rdi
.Lpexit_out:
    mov -8(%rsp), %rax
    mov -16(%rsp), %rcx
    ret
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
 * timing (tmpfs full). rsi = row, rcx = page index. */
.Lpexit_page:
    mov %rsi, %rax
    BACK_PAGE .Lpexit_nospace
    jmp .Lpexit_record
.Lpexit_nospace:
    COUNT_DROP GS_DROP_NO_SPACE
    jmp .Lpexit_restore
/* No room for the path: the call goes to the arc table, keyed by return
 * address and callee only. */
.Lpath_full:
    incq GS_DROP_PATH_OVERFLOW(%rsi)
    mov (%rsp), %rdx
    imul .Lk1(%rip), %rdx
    mov GS_PENT_REC(%rdi), %ecx
    xor %rcx, %rdx
    imul .Lk2(%rip), %rdx
    mov %rdx, %rcx
    shr $32, %rcx
    xor %rcx, %rdx
    bts $63, %rdx
    mov %rdx, -112(%rsp)
    PROBE GS_CFG_ARCS_OFF, GS_CFG_ARCS_MASK, GS_ARC_PROBES, -112(%rsp), .Larc_hit, .Larc_new, .Larc_full, .Lap
.Larc_full:
    incq GS_DROP_ARC_OVERFLOW(%rsi)
    jmp .Lpexit_restore

    .section .note.GNU-stack,"",@progbits
