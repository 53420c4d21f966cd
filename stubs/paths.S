/* paths.S: timing every call with its calling context (--call-graph): gs_path_enter and gs_path_return replace gs_time_enter and
 * gs_time_return (timing.S, whose header comment states the rules these
 * follow too: reached by jmp, scratch only in the red zone, R12, R13 and
 * the flags change, nothing else).
 *
 * Each goroutine's timing stack holds 40-byte entries (stub_abi.h,
 * GS_PENT_*): besides depth, record and start, the ticks of the timed
 * calls made inside that returned (children: their compensated durations,
 * so that self leaves out every probe too), the call's path key and its
 * base. The key is computed at entry from the caller's key (the entry
 * below; the sentinel's is 0), the return address and the callee's record:
 *     key = bswap((parent ^ ret ^ callee) * K1) | 1 << 63
 * with callee = GS_PATH_CALLEE_WORD(rec) = rec | (rec * K3 mod 2^32) << 32,
 * which the trampoline passes ready-made (rec * K3 spreads the record
 * over the high bits, so two calls collide only when 64-bit values do;
 * bswap brings the product's best-mixed high bits to the low ones, which
 * index the table)
 * Direct recursion is collapsed: when the callee is the caller entry's
 * callee, "parent" above is the caller's base instead of its key, and the
 * call's base is that base too (a call that is no direct recursion has its
 * own key as base). So every activation of f called by f from one call
 * site, at any depth under one first f, has one key, whose recorded parent
 * is that first f's key: calls, self and arcs stay exact, the node's total
 * counts nested activations again (docs/timing.md).
 * At the return, self = duration - children goes to gs_timing.self_total, the
 * duration to the parent's children, and the call to the thread's path
 * table (a row's gs_path[max_paths], open addressing: the GS_PATH_PROBES
 * entries of the key's aligned group of sixteen are tried, then, when that
 * group is full, those of the other groups of its block, so that groups
 * do not overflow long before the table is full, and a full table still
 * costs little per call: recursion overflows it). A call whose path
 * finds no room goes to the arc table under the key of the same call with
 * parent 0 (counted in gs_drops.path_overflow), so caller -> callee arcs
 * stay exact. Arcs take the table's entries in order, found through the
 * writer's arc index (stub_abi.h GS_ARCIDX_*: GS_ARC_PROBES slots of the
 * key's page of slots are tried), so that a thread backs as many pages of
 * arcs as it has arcs, not every page its keys hash to; a call that finds
 * room in neither is counted in gs_drops.arc_overflow. Table pages are
 * backed on first use like timing pages; a page that cannot be backed
 * (tmpfs full) makes its calls overflow.
 *
 * An entry dropped as unwound (panic, Goexit) or abandoned (on g0) never
 * adds its time to its parent's children: that time stays in the parent's
 * self. */

#include "format/stub_abi.h"

#include "stubs/stub_macros.h"

/* The entries below a new one that gs_path_enter compares its callee with
 * (stub_abi.h GS_PATH_FOLD_LEVELS: checked here when assembling). */
#define FOLD_LEVELS 1, 2, 3, 4, 5, 6, 7, 8
    .set nlevels, 0
    .irp level, FOLD_LEVELS
    .set nlevels, nlevels + 1
    .endr
    .if nlevels != GS_PATH_FOLD_LEVELS
    .error "FOLD_LEVELS must list 1 .. GS_PATH_FOLD_LEVELS"
    .endif

/* The groups of sixteen paths a key may take: the GROUPS_TRIED groups of
 * its aligned block, its own first, then the others while they are full
 * (a key goes in the first with room, so a lookup that meets a free entry
 * has passed every place the key could be). One group let paths overflow
 * tables under half full (docs/timing.md). The block's full bits are one
 * byte of the filter: a call whose key was never added and whose block is
 * full overflows after one compare. */
#define GROUPS_TRIED 8                              /* GS_PATH_BLOCK / GS_PATH_PROBES */
#define GROUP_BYTES (GS_PATH_PROBES * GS_PATH_SIZE)

    .text

/* One step of the path lookup (gs_path_return): the entry at rcx. */
.macro TRY_ENTRY hit, new
    cmp GS_PATH_KEY(%rax,%rcx), %rdx
    je \hit
    cmpq $0, GS_PATH_KEY(%rax,%rcx)
    je \new
.endm

/* rcx = the bit of key rdx in the path filter (stub_abi.h), counted from
 * the row's start. */
.macro FILTER_BIT
    mov %rdx, %rcx
    shr $GS_FILTER_KEY_SHIFT, %rcx
    and gs_config+GS_CFG_FILTER_MASK(%rip), %rcx
    add gs_config+GS_CFG_FILTER_BIT0(%rip), %rcx
.endm

/* -32(%rsp) = key rdx's home entry in the table (a byte offset): its low
 * half scaled to the table's entries, x * n >> 32, so that a table of any
 * whole number of blocks takes keys evenly (the filter reads the high
 * half). */
.macro HOME_PLACE
    mov %edx, %ecx
    imul gs_config+GS_CFG_PATHS_N(%rip), %rcx
    shr $32, %rcx
    shl $GS_PATH_SHIFT, %rcx
    mov %rcx, -32(%rsp)
.endm

/* rcx = the key's entry in the table (HOME_PLACE), or with \further that
 * entry's peer in the group -40(%rsp) (a multiple of GROUP_BYTES) xor its
 * own, in the same block. */
.macro TABLE_PLACE further
    mov -32(%rsp), %rcx
    .if \further
    xor -40(%rsp), %rcx
    and gs_config+GS_CFG_PATHS_MASK(%rip), %rcx    /* tables of fewer groups than a block */
    .endif
.endm

/* rcx = the group-full bit of the key's group of paths (with \further:
 * as TABLE_PLACE), counted from the row's start. */
.macro FULL_BIT further=0
    TABLE_PLACE \further
    shr $GS_PATH_SHIFT + 4, %rcx                    /* groups of GS_PATH_PROBES (16) */
    add gs_config+GS_CFG_FULL_BIT0(%rip), %rcx
.endm

/* The lookup of key rdx in the group at row offset rcx: its 16 entries in
 * Gray-code order from rcx (one xor per step, never outside the group),
 * unrolled; on to \hit or \new at the key or the first free entry, or
 * on after the macro when the group is full. */
.macro SEARCH_GROUP hit, new
    TRY_ENTRY \hit, \new
    .irp step, 1, 2, 1, 4, 1, 2, 1, 8, 1, 2, 1, 4, 1, 2, 1
    xor $\step * GS_PATH_SIZE, %rcx
    TRY_ENTRY \hit, \new
    .endr
.endm

/* Backs [rdi, rsi) (row offsets, whole pages) of the row at -96(%rsp) with
 * memory and marks its pages ready, or jumps to \fail. Uses rax, rcx,
 * rdx, rsi, rdi, r11, -64(%rsp). */
.macro POPULATE_RANGE fail
    mov %rdi, -64(%rsp)
    sub %rdi, %rsi                                  /* the length */
    add -96(%rsp), %rdi
    mov $MADV_POPULATE_WRITE, %edx
    mov $SYS_madvise, %eax
    syscall
    test %rax, %rax
    jz 1f
    cmp $-EINVAL, %rax                              /* kernel before 5.14: use it unpopulated */
    jne \fail
1:  mov %rsi, %rcx
    shr $12, %rcx                                   /* its pages */
    mov -64(%rsp), %rdi
    shr $12, %rdi
    add -96(%rsp), %rdi
    lea GS_ROW_PAGEMAP(%rdi), %rdi
    mov $GS_PAGE_READY, %al
    rep stosb
.endm

/* rcx = the arc entry (a row offset) that arc-index slot value ecx (not 0)
 * names. The index is in the shared file, so the value is read back from
 * memory any process of the user can write: masked into the arc table, it
 * names one of its entries whatever it is (a wrong one then just holds
 * another key). */
.macro ARC_ENTRY
    sub gs_config+GS_CFG_ARCS_OFF(%rip), %rcx
    sub $GS_PATH_SIZE, %rcx
    and gs_config+GS_CFG_ARCS_MASK(%rip), %rcx
    add gs_config+GS_CFG_ARCS_OFF(%rip), %rcx
.endm

/* BACK_PAGE for the arc table and its index: the key in rdx kept, or on
 * to .Larc_full (tmpfs full). */
.macro BACK_ARC_PAGE
    mov %rdx, -112(%rsp)
    BACK_PAGE .Larc_full
    mov -112(%rsp), %rdx
.endm

/* A thread's first timed call backs its path filter (keys hash over all
 * of it: probing it then needs no page check) with the group-full bits
 * and the count of arcs taken after it; or jumps to \fail (tmpfs full).
 * The pages of the path table, of the arc table and of its index are
 * backed as lookups first reach them (GROUP_PAGE, gs_path_return): a thread
 * with few paths touches few of them. rax = row; keeps every register
 * but rdx and the flags. */
.macro BACK_TABLES fail
    mov gs_config+GS_CFG_ARCS_OFF(%rip), %rdx
    add gs_config+GS_CFG_ARCS_MASK(%rip), %rdx
    add $GS_PATH_SIZE, %rdx                         /* the filter */
    shr $12, %rdx
    cmpb $GS_PAGE_READY, GS_ROW_PAGEMAP(%rax,%rdx)
    je 7f
    mov %rdi, -72(%rsp)
    mov %rsi, -80(%rsp)
    mov %r11, -88(%rsp)
    mov %rax, -96(%rsp)
    mov %rcx, -104(%rsp)
    mov gs_config+GS_CFG_ARCS_OFF(%rip), %rdi
    add gs_config+GS_CFG_ARCS_MASK(%rip), %rdi
    add $GS_PATH_SIZE, %rdi                         /* the filter, after the arc table */
    mov gs_config+GS_CFG_ARCIDX_OFF(%rip), %rsi    /* and the count of arcs, before the index */
    POPULATE_RANGE 5f
    mov -96(%rsp), %rax
    mov -72(%rsp), %rdi
    mov -80(%rsp), %rsi
    mov -88(%rsp), %r11
    mov -104(%rsp), %rcx
    jmp 7f
5:  mov -96(%rsp), %rax
    mov -72(%rsp), %rdi
    mov -80(%rsp), %rsi
    mov -88(%rsp), %r11
    mov -104(%rsp), %rcx
    jmp \fail
7:
.endm

/* The group of paths at row offset rcx is on a backed page, or its page
 * is backed now (a group of sixteen never straddles a page), or on to
 * \fail (tmpfs full). rax = row; keeps rax, rcx and rdx. */
.macro GROUP_PAGE fail
    mov %rcx, -56(%rsp)
    shr $12, %rcx
    cmpb $GS_PAGE_READY, GS_ROW_PAGEMAP(%rax,%rcx)
    je 6f
    mov %rdx, -112(%rsp)
    BACK_PAGE 5f
    mov -112(%rsp), %rdx
    jmp 6f
5:  mov -112(%rsp), %rdx
    jmp \fail
6:  mov -56(%rsp), %rcx
.endm

/* The rest of a new stack's sentinel (CLAIM_STACK, rdx = the stack): key 0,
 * and no record in it or in the entries a fold search reads above it. */
.macro PATH_SENTINEL
    .irp level, FOLD_LEVELS
    movl $GS_PENT_NO_REC, GS_SLOT_ENTRIES-\level*GS_PENT_SIZE+GS_PENT_REC(%rdx)
    .endr
    movq $0, GS_SLOT_ENTRIES-GS_PENT_SIZE+GS_PENT_KEY(%rdx)
.endm

/* rax = the key of the call at [RSP] (its return address) of callee word
 * r12 (GS_PATH_CALLEE_WORD), from rax = the parent's key (or base). */
.macro CALL_KEY
    xor (%rsp), %rax                                /* the return address */
    xor %r12, %rax                                  /* the callee, spread */
    imul .Lk1(%rip), %rax
    bswap %rax
    bts $63, %rax                                   /* never 0: 0 marks a free entry */
.endm

/* gs_path_enter: as gs_time_enter (in: r12 = GS_PATH_CALLEE_WORD(record
 * offset), so r12d = the record offset; r13 = where to continue; RSP as at
 * the function's entry, [RSP] = return address),
 * with the path key and children of the new entry. */
    .globl gs_path_enter
gs_path_enter:
    ENTER_SAVE
    mov %r13, -32(%rsp)
    ENTER_SEARCH GS_PENT_SIZE, GS_PSLOT_LAST, .Lpenter
    addl $GS_PENT_SIZE, GS_SLOT_TOP(%rax)
    lea (%rax,%r13), %r13                           /* the new entry */
    mov %edx, GS_PENT_DEPTH(%r13)
    mov GS_SLOT_OFF(%rax), %rdx
    mov %rdx, GS_PENT_OFF(%r13)                     /* off-CPU so far (stubs/oncpu.S) */
    mov GS_SLOT_COMP(%rax), %rax
    mov %rax, GS_PENT_TSC(%r13)                     /* the probes' cost so far, for now */
    SET_INNERMOST_HERE %rax                         /* the innermost open timed call */
    mov %r12d, GS_PENT_REC(%r13)
    movq $0, GS_PENT_CHILDREN(%r13)
/* The clock is read before the key is computed, not after: the fold
 * compares and the key's multiply then run while rdtsc completes (docs/
 * timing.md, "Why the stubs are as they are"). The call's duration
 * includes those few instructions. Not before the caller's loads are
 * done, as gs_time_enter. */
    lfence
    rdtsc
    shl $32, %rdx
    or %rax, %rdx
    sub GS_PENT_TSC(%r13), %rdx
    mov %rdx, GS_PENT_TSC(%r13)                     /* the start on the compensated clock */
    .irp level, FOLD_LEVELS
    cmp GS_PENT_REC-\level*GS_PENT_SIZE(%r13), %r12d
    je .Lpenter_fold\level                         /* the callee is this ancestor's */
    .endr
    mov GS_PENT_KEY-GS_PENT_SIZE(%r13), %rax        /* the caller's key */
    CALL_KEY
    mov %rax, GS_PENT_BASE(%r13)                    /* a recursion under this call starts here */
.Lpenter_keyed:
    mov %rax, GS_PENT_KEY(%r13)
.Lpenter_out:
    ENTER_LEAVE
/* A recursion (the callee is the caller's, or that of an ancestor at
 * most GS_PATH_FOLD_LEVELS entries up): keyed from that ancestor's base,
 * which it inherits, so that every activation under the first one from
 * this call site is one node. */
    .irp level, FOLD_LEVELS
.Lpenter_fold\level:
    mov GS_PENT_BASE-\level*GS_PENT_SIZE(%r13), %rax
    jmp .Lpenter_folded
    .endr
.Lpenter_folded:
    mov %rax, GS_PENT_BASE(%r13)
    CALL_KEY
    jmp .Lpenter_keyed
    ENTER_DROPS GS_PENT_SIZE, .Lpenter
    CLAIM_STACK GS_PENT_SIZE, .Lpenter, PATH_SENTINEL

    .p2align 3
.Lk1: .quad GS_PATH_K1

/* gs_path_return: as gs_time_return (in: r12d = record offset; RSP at the
 * return address; results in RAX, RBX, RCX, RDI, RSI, R8-R11, X0-X14
 * kept; RDX is dead at a return), then the call's path. */
    .globl gs_path_return
gs_path_return:
    RETURN_POP GS_PENT_SIZE, .Lpret
    mov GS_PENT_OFF(%rcx), %rax
    mov %rcx, %rdx
    and $-GS_SLOT_SIZE, %rdx                        /* the stack (aligned to its size) */
    sub GS_SLOT_OFF(%rdx), %rax                     /* -(off-CPU during the call) */
    add %r13, %rax                                  /* on-CPU */
    jns 1f
    xor %eax, %eax                                  /* the clocks' residuals */
1:  mov %rax, -128(%rsp)                            /* kept to the end: no macro here uses it */
    /* Never below its timed callees' sum (compensation's residual, or a TSC
     * ahead on another core): self is then never negative and every
     * output's sums of self add up to the totals. */
    cmp GS_PENT_CHILDREN(%rcx), %r13
    cmovb GS_PENT_CHILDREN(%rcx), %r13
    add %r13, GS_PENT_CHILDREN-GS_PENT_SIZE(%rcx)   /* the caller's children */
    RECORD_PAGE %rdx, .Lpret_out, .Lpret_page
/* The call's count, ticks and self ticks go to its path's entry (or its
 * arc's) only, not to its timing record (GS_HDR_PATH_TOTALS): the record
 * gets its extremes and histogram bucket. */
.Lpret_record:                 /* rax = row, rcx = entry, r12 = record, r13 = duration */
    cmp %r13, GS_TIM_MAX(%rax,%r12)                 /* struct gs_timing at (rax, r12) */
    jae 3f
    mov %r13, GS_TIM_MAX(%rax,%r12)
3:  not %r13
    cmp %r13, GS_TIM_MIN_INV(%rax,%r12)
    jae 4f
    mov %r13, GS_TIM_MIN_INV(%rax,%r12)
4:  not %r13
    mov %r13, %rdx
    or $1 << GS_HIST_FIRST_BIT, %rdx                /* floor(log2) >= FIRST_BIT */
    bsr %rdx, %rdx
    cmp $GS_HIST_FIRST_BIT + GS_HIST_BUCKETS - 1, %edx
    jbe 5f
    mov $GS_HIST_FIRST_BIT + GS_HIST_BUCKETS - 1, %edx
5:  lea (%r12,%rdx,8), %rdx
    incq GS_TIM_HIST - 8 * GS_HIST_FIRST_BIT(%rax,%rdx)
    mov %rcx, %r12                                  /* from here on: the entry */
    mov GS_PENT_KEY(%r12), %rdx                     /* the path's key */
    HOME_PLACE
/* The key's path entry: the GS_PATH_PROBES (16) entries of its aligned
 * group of sixteen are tried in Gray-code order (one xor per step, never
 * outside the page), unrolled; a lookup stops at the key or at the first
 * free entry. In a full group, the filter first tells a key that is in no
 * entry: such a call overflows without touching the table when its block
 * is full too (most calls of a large program, once its table is full),
 * else it goes on to the block's other groups. */
    FULL_BIT
    bt %rcx, (%rax)
    jnc .Lpath_search                               /* room in the group */
    FILTER_BIT
    bt %rcx, (%rax)
    jc .Lpath_search                                /* maybe added: look */
    FULL_BIT
    shr $3, %rcx                                    /* the block's full bits (FULL_BIT0 % 8 == 0) */
    cmpb $0xff, (%rax,%rcx)
    je .Lpath_full                                  /* never added, no room in the block: overflow */
    jmp .Lpath_further
.Lpath_search:
    TABLE_PLACE 0
    add gs_config+GS_CFG_PATHS_OFF(%rip), %rcx     /* the key's entry in the row */
    GROUP_PAGE .Lpath_full
    SEARCH_GROUP .Lpath_hit, .Lpath_new
    FULL_BIT                                        /* no room for the key: the group is full */
    bts %rcx, (%rax)
    jmp .Lpath_further
.Lpath_hit:
.Larc_hit:                      /* rax = row, rcx = offset, r12 = entry */
    incq GS_PATH_CALLS(%rax,%rcx)
    add %r13, GS_PATH_TOTAL(%rax,%rcx)
    sub GS_PENT_CHILDREN(%r12), %r13                /* self, >= 0 */
    add %r13, GS_PATH_SELF(%rax,%rcx)
    mov -128(%rsp), %rdx
    add %rdx, GS_PATH_ONCPU(%rax,%rcx)
.Lpret_out:
    RETURN_LEAVE
/* A path seen first: its fields, then its key (a reader that sees the key
 * sees them). rax = row, rcx = offset, rdx = key, r12 = entry. */
.Lpath_new:
    mov %rcx, -56(%rsp)
    FILTER_BIT
    bts %rcx, (%rax)                                /* the key is in the table now */
    mov -56(%rsp), %rcx
    lea (%rax,%rcx), %rax                           /* the free entry */
    mov GS_PENT_BASE(%r12), %rcx                    /* a recursion's parent: its base */
    cmp %rcx, %rdx
    cmove GS_PENT_KEY-GS_PENT_SIZE(%r12), %rcx      /* base = key: no recursion, the caller's key */
    mov %rcx, GS_PATH_PARENT(%rax)
    jmp 7f
.Larc_new:
    lea (%rax,%rcx), %rax
7:  mov GS_PENT_REC(%r12), %ecx
    mov %ecx, GS_PATH_REC(%rax)
    mov (%rsp), %rcx
    mov %rcx, GS_PATH_RET(%rax)
    mov %rdx, GS_PATH_KEY(%rax)
    xor %ecx, %ecx
    jmp .Lpath_hit
    RETURN_DROPS GS_PENT_SIZE, .Lpret
    COUNT_DROP GS_DROP_UNMATCHED
    jmp .Lpret_out
/* First use of a timing page by this thread: back it (and, the first
 * time, the thread's path filter), or drop the call's timing
 * (tmpfs full; without the tables, every call of this page's functions on
 * this thread then is). rax = row, rcx = entry, rdx = page index. */
.Lpret_page:
    mov %rcx, -24(%rsp)
    mov %rdx, %rcx
    BACK_TABLES .Lpret_notables
    BACK_PAGE .Lpret_nospace
    mov -24(%rsp), %rcx
    jmp .Lpret_record
.Lpret_notables:
    movb $GS_PAGE_FAILED, GS_ROW_PAGEMAP(%rax,%rcx)
.Lpret_nospace:
    COUNT_DROP GS_DROP_NO_SPACE
    jmp .Lpret_out
/* The key's group is full: the other groups of its block in turn, as
 * its own (a full one is skipped when the filter says the key was never
 * added). rax = row, rdx = key, r12 = entry, -40(%rsp) = the group's
 * index xor the key's own, times GROUP_BYTES. */
.Lpath_further:
    movq $GROUP_BYTES, -40(%rsp)
.Lpath_group:
    FULL_BIT 1
    bt %rcx, (%rax)
    jnc 1f                                          /* room in the group */
    FILTER_BIT
    bt %rcx, (%rax)
    jnc 2f                                          /* never added: not in a full group */
1:  TABLE_PLACE 1
    add gs_config+GS_CFG_PATHS_OFF(%rip), %rcx     /* the key's place in this group */
    GROUP_PAGE .Lpath_full
    SEARCH_GROUP .Lpath_hit, .Lpath_new
    FULL_BIT 1
    bts %rcx, (%rax)
2:  addq $GROUP_BYTES, -40(%rsp)
    cmpq $GROUPS_TRIED * GROUP_BYTES, -40(%rsp)
    jb .Lpath_group
/* No room for the path: the call goes to the arc table, keyed as the
 * same call with parent 0 would be. rax = row, r12 = entry. */
.Lpath_full:
    incq GS_DROP_PATH_OVERFLOW(%rax)
    mov GS_PENT_REC(%r12), %ecx
    imul $GS_PATH_K3, %ecx, %edx                    /* GS_PATH_CALLEE_WORD */
    shl $32, %rdx
    or %rcx, %rdx
    xor (%rsp), %rdx
    imul .Lk1(%rip), %rdx
    bswap %rdx
    bts $63, %rdx
    mov gs_config+GS_CFG_ARCIDX_MASK(%rip), %rcx   /* (slots - 1) * slot size */
    and %rdx, %rcx
    add gs_config+GS_CFG_ARCIDX_OFF(%rip), %rcx    /* the key's slot, in the row */
    mov %rcx, -56(%rsp)
    shr $12, %rcx
    cmpb $GS_PAGE_READY, GS_ROW_PAGEMAP(%rax,%rcx)
    jne .Larc_idxpage
/* The slots of the key's page of slots, from its own: one naming the
 * key's entry, or a free one. rax = row, rdx = key, -56(%rsp) = slot. */
.Larc_probe:
    mov -56(%rsp), %rcx
    mov (%rax,%rcx), %ecx                           /* 0, or the entry's row offset + GS_PATH_SIZE */
    test %ecx, %ecx
    jz .Larc_take
    ARC_ENTRY
    cmp GS_PATH_KEY(%rax,%rcx), %rdx
    je .Larc_hit
    movl $GS_ARC_PROBES - 1, -116(%rsp)
.Larc_next:
    mov -56(%rsp), %rcx
    add $GS_ARCIDX_SLOT_SIZE, %rcx                  /* the next slot, in the same page */
    test $GS_PAGE - 1, %ecx
    jnz 1f
    sub $GS_PAGE, %rcx
1:  mov %rcx, -56(%rsp)
    mov (%rax,%rcx), %ecx
    test %ecx, %ecx
    jz .Larc_take
    ARC_ENTRY
    cmp GS_PATH_KEY(%rax,%rcx), %rdx
    je .Larc_hit
    decl -116(%rsp)
    jnz .Larc_next
    jmp .Larc_full
/* A new arc takes the table's next entry (backed as the first one of its
 * page), then the free slot. rax = row, rdx = key, -56(%rsp) = slot. */
.Larc_take:
    mov gs_config+GS_CFG_ARCIDX_OFF(%rip), %rcx
    mov -8(%rax,%rcx), %rcx                         /* arcs taken x GS_PATH_SIZE */
    cmp gs_config+GS_CFG_ARCS_MASK(%rip), %rcx
    ja .Larc_full                                   /* all taken (or a huge count: read back) */
    and $-GS_PATH_SIZE, %rcx                        /* whole entries (read back) */
    mov %rcx, -64(%rsp)
    add gs_config+GS_CFG_ARCS_OFF(%rip), %rcx
    shr $12, %rcx
    cmpb $GS_PAGE_READY, GS_ROW_PAGEMAP(%rax,%rcx)
    jne .Larc_page
.Larc_taken:
    mov %r13, -112(%rsp)
    mov -64(%rsp), %r13
    add $GS_PATH_SIZE, %r13                         /* the new count */
    mov gs_config+GS_CFG_ARCIDX_OFF(%rip), %rcx
    mov %r13, -8(%rax,%rcx)
    add gs_config+GS_CFG_ARCS_OFF(%rip), %r13      /* the slot's value */
    mov -56(%rsp), %rcx
    mov %r13d, (%rax,%rcx)
    lea -GS_PATH_SIZE(%r13), %rcx                   /* the entry, in the row */
    mov -112(%rsp), %r13
    jmp .Larc_new
/* A page of the index or of the table first reached by this thread: back
 * it, or (tmpfs full) leave the call in no arc. rax = row, rcx = page
 * index, rdx = key. */
.Larc_idxpage:
    BACK_ARC_PAGE
    jmp .Larc_probe
.Larc_page:
    BACK_ARC_PAGE
    jmp .Larc_taken
.Larc_full:                     /* in neither table: in the record */
    incq GS_DROP_ARC_OVERFLOW(%rax)
    mov GS_PENT_REC(%r12), %ecx
    incq GS_TIM_SAMPLES(%rax,%rcx)
    add %r13, GS_TIM_TOTAL(%rax,%rcx)
    sub GS_PENT_CHILDREN(%r12), %r13                /* self, >= 0 */
    add %r13, GS_TIM_SELF(%rax,%rcx)
    mov -128(%rsp), %rdx
    add %rdx, GS_TIM_ONCPU(%rax,%rcx)
    jmp .Lpret_out

    .section .note.GNU-stack,"",@progbits
