/* sites.S: goroutines by creation site (docs/goroutines.md). gs_site_create
 * runs at each return of runtime.newproc1, with the new g complete (its
 * gopc, startpc set) and not yet runnable anywhere; gs_site_end at the
 * entry of runtime.goexit1 (and coroexit), on the ending goroutine.
 * Creation finds the site (gopc, startpc) in the shared site table,
 * claiming a free entry with lock cmpxchg, then claims a live-table entry
 * for the g with its TSC and site; its end frees it and adds the lifetime to
 * the site's histogram (an end is counted there, or in untimed_exits
 * without one: not in the live table, found by key). Creation and end of
 * one goroutine may run on different threads: every shared update is a
 * locked instruction, and the runtime's own hand-over of the g (runqput,
 * then a scheduler picking it up) orders the creation's stores (the live
 * entry's site too) before the end's loads.
 *
 * With call paths (GS_CFG_SPATHS_OFF set) a site is keyed by its creator's
 * call path too: newproc1 runs on g0, so the path is the creating
 * goroutine's (m.curg's) innermost open timed call's key; (path, key) is
 * claimed with one cmpxchg16b, the creator's open calls are written to the
 * site paths table (gostat names a path from them: the calls of a creator
 * that never returns have no path entry), then the key.
 *
 * Reached by jmp with r13 = where to continue; R12, R13 and the flags
 * change, everything else is saved in the red zone (as timing.S). */

#include "format/stub_abi.h"

#include "stubs/stub_macros.h"

    .text

/* Saves what the routines use below RSP, and loads rsi = the sites
 * section (0: none; then on to .Lsite_out). */
.macro SITE_SAVE
    mov %rax, -8(%rsp)
    mov %rcx, -16(%rsp)
    mov %rdx, -24(%rsp)
    mov %rsi, -32(%rsp)
    mov %rdi, -40(%rsp)
    mov %r8, -48(%rsp)
    mov %r9, -56(%rsp)
    mov %r13, -64(%rsp)
    PRIVATE_DATA
    mov GS_PRIV_SITES_BASE(%rax), %rsi
    test %rsi, %rsi
    jz .Lsite_out
.endm

/* rdi = the key of goroutine \g's site, (gopc, startpc) as link-time
 * addresses, r8 = its first index, r9 = tries; or on to \none (no key).
 * In rax = the private data. Uses rax, rcx, rdx. */
.macro SITE_KEY g, none
    mov GS_PRIV_LOAD_BIAS(%rax), %rdx
    mov gs_config+GS_CFG_G_GOPC(%rip), %rcx
    mov (\g,%rcx), %rdi
    mov gs_config+GS_CFG_G_STARTPC(%rip), %rcx
    mov (\g,%rcx), %rcx
    sub %rdx, %rdi
    sub %rdx, %rcx
    mov %rdi, %rax
    or %rcx, %rax
    shr $32, %rax
    jnz \none                                       /* beyond 32 bits: no key */
    shl $32, %rdi
    or %rcx, %rdi                                   /* the key */
    jz \none
    mov $GS_SITE_HASH, %r8
    imul %rdi, %r8
    shr $32, %r8
    mov $GS_SITE_PROBES, %r9d
.endm

/* rcx = the site entry of goroutine \g, claimed if new, or 0 (counted in
 * no_site): the key is (gopc, startpc) as link-time addresses. In rax =
 * the private data (as SITE_SAVE leaves it). Uses rax, rdx, rdi, r8, r9. */
.macro SITE_FIND g
    SITE_KEY \g, 3f
1:  and gs_config+GS_CFG_SITES_MASK(%rip), %r8
    imul $GS_SITE_SIZE, %r8, %rcx
    lea GS_PAGE(%rsi,%rcx), %rcx
    mov GS_SITE_KEY(%rcx), %rax
    cmp %rdi, %rax
    je 4f
    test %rax, %rax
    jnz 2f
    lock cmpxchg %rdi, GS_SITE_KEY(%rcx)            /* a free entry: ours, unless */
    je 4f
    cmp %rdi, %rax                                  /* another thread took it for this key */
    je 4f
2:  inc %r8
    dec %r9d
    jnz 1b
3:  lock incq GS_SHEAD_NO_SITE(%rsi)
    xor %ecx, %ecx
4:
.endm

/* The path variants also use rbx, r10 and r11 (rcx keeps the site). */
.macro PATH_SAVE
    mov %rbx, -72(%rsp)
    mov %r10, -80(%rsp)
    mov %r11, -88(%rsp)
.endm

.macro PATH_RESTORE
    mov -72(%rsp), %rbx
    mov -80(%rsp), %r10
    mov -88(%rsp), %r11
.endm

/* r10 = the creator's path key, r11 = its innermost open timed call's
 * entry (both 0: none). On g0 (R14) in newproc1, the creator is m.curg,
 * stopped in systemstack: its timing stack is read, not changed. Entries
 * at or below its current depth (stack.hi - sched.sp) belong to frames
 * that left without returning (a recovered panic): skipped. Uses rax,
 * rcx, rdx, rdi, rbx. */
.macro CREATOR_PATH
    xor %r10d, %r10d
    xor %r11d, %r11d
    mov gs_config+GS_CFG_G_M(%rip), %rcx
    mov (%r14,%rcx), %rcx                           /* g.m */
    add gs_config+GS_CFG_M_CURG(%rip), %rcx
    mov (%rcx), %rbx                                /* m.curg */
    test %rbx, %rbx
    jz 19f
    mov gs_config+GS_CFG_G_SLOT(%rip), %rcx
    mov (%rbx,%rcx), %rcx
    shr $32, %rcx                                   /* its timing stack >> SHIFT */
    jz 19f
    cmp $GS_SLOT_NONE, %ecx
    je 19f
    shl $GS_SLOT_SHIFT, %rcx
    mov gs_config+GS_CFG_G_STACK_HI(%rip), %rdx
    mov (%rbx,%rdx), %rdx
    mov gs_config+GS_CFG_G_SCHED_SP(%rip), %rdi
    sub (%rbx,%rdi), %rdx                           /* its depth now */
    mov GS_SLOT_TOP(%rcx), %edi
11: cmp $GS_SLOT_ENTRIES, %edi
    jbe 19f                                         /* no open timed call */
    cmp GS_PENT_DEPTH-GS_PENT_SIZE(%rcx,%rdi), %edx
    ja 12f                                          /* an open call */
    sub $GS_PENT_SIZE, %edi
    jmp 11b
12: lea -GS_PENT_SIZE(%rcx,%rdi), %r11
    mov GS_PENT_KEY(%r11), %r10
19:
.endm

/* The creator's open calls, from entry r11 down to the first, into the
 * site paths entry of site index r8 (innermost first, GS_SPATH_MAX at
 * most; depth counts them all). Uses rax, rbx, rcx, rdx, r9. */
.macro SPATH_WRITE
    mov %r8, %rdx
    shl $GS_SPATH_SHIFT, %rdx
    add gs_config+GS_CFG_SPATHS_OFF(%rip), %rdx
    add %rsi, %rdx                                  /* the entry */
    xor %ecx, %ecx
    test %r11, %r11
    jz 17f
    mov %r11, %rbx
    and $-GS_SLOT_SIZE, %rbx
    add $GS_SLOT_ENTRIES, %rbx                      /* the stack's first entry */
    mov %r11, %rax
15: cmp %rbx, %rax
    jb 17f
    cmp $GS_SPATH_MAX, %ecx
    jae 16f
    mov GS_PENT_REC(%rax), %r9d
    mov %r9d, GS_SPATH_REC(%rdx,%rcx,4)
16: inc %ecx
    sub $GS_PENT_SIZE, %rax
    jmp 15b
17: mov %ecx, GS_SPATH_DEPTH(%rdx)
.endm

/* As SITE_FIND, keyed by (key, path r10): the site entry in rcx, claimed
 * if new (its path written from entry r11, then its key), or 0. */
.macro SITE_FIND_PATH g
    SITE_KEY \g, 23f
21: and gs_config+GS_CFG_SITES_MASK(%rip), %r8
    imul $GS_SITE_SIZE, %r8, %r13
    lea GS_PAGE(%rsi,%r13), %r13
    mov GS_SITE_CLAIM(%r13), %rdx
    mov GS_SITE_PATH(%r13), %rax                    /* after the claim word (x86 keeps loads in order) */
    test %rdx, %rdx
    jz 25f
26: cmp %rdi, %rdx
    jne 22f
    cmp %r10, %rax
    je 24f
22: inc %r8
    dec %r9d
    jnz 21b
23: lock incq GS_SHEAD_NO_SITE(%rsi)
    xor %r13d, %r13d
    jmp 24f
25: xor %eax, %eax                                  /* a free entry (0:0): ours, unless */
    mov %rdi, %rcx
    mov %r10, %rbx
    lock cmpxchg16b GS_SITE_PATH(%r13)
    jne 26b                                         /* another thread took it: rdx:rax = its claim */
    SPATH_WRITE
    mov %rdi, GS_SITE_KEY(%r13)                     /* last: readers see the rest */
24: mov %r13, %rcx
.endm

/* r8 = the live table's first index for goroutine \g, r9 = tries left. */
.macro GLIVE_START g
    mov $GS_SITE_HASH, %r8
    imul \g, %r8
    shr $32, %r8
    mov $GS_GLIVE_PROBES, %r9d
.endm

/* rdx = the live entry at index r8 (wrapped), rax = its g. */
.macro GLIVE_ENTRY
    and gs_config+GS_CFG_GLIVE_MASK(%rip), %r8
    mov %r8, %rdx
    shl $GS_GLIVE_SHIFT, %rdx
    add gs_config+GS_CFG_GLIVE_OFF(%rip), %rdx
    add %rsi, %rdx
    mov GS_GLIVE_G(%rdx), %rax
.endm

/* gs_site_create: in r12 = the new g (newproc1's result), r13 = where to
 * continue (the function's ret). */
    .globl gs_site_create
gs_site_create:
    SITE_SAVE
    cmpq $0, gs_config+GS_CFG_SPATHS_OFF(%rip)
    jne .Lsite_create_path
    SITE_FIND %r12
.Lsite_found:
    test %rcx, %rcx
    jz 1f
    lock incq GS_SITE_CREATED(%rcx)
    sub %rsi, %rcx                                  /* the site's offset */
1:  mov %rcx, %rdi
    GLIVE_START %r12
2:  GLIVE_ENTRY
    cmp $GS_GLIVE_FREED, %rax
    ja 3f                                           /* a live goroutine's */
    lock cmpxchg %r12, GS_GLIVE_G(%rdx)
    je 4f
3:  inc %r8
    dec %r9d
    jnz 2b
    lock incq GS_SHEAD_NO_LIVE(%rsi)
    jmp .Lsite_out
4:  mov %edi, GS_GLIVE_SITE(%rdx)
    mov %rdx, %r9
    rdtsc
    shl $32, %rdx
    or %rax, %rdx
    mov %rdx, GS_GLIVE_TICK(%r9)
    jmp .Lsite_out

/* gs_site_end: in r14 = the ending goroutine, r13 = where to continue
 * (the rest of goexit1's entry trampoline). The site is the one its
 * creation wrote into the live entry (read back bounded: the file is
 * shared); without one, it is found by key. */
    .globl gs_site_end
gs_site_end:
    SITE_SAVE
    GLIVE_START %r14
2:  GLIVE_ENTRY
    cmp %r14, %rax
    je 4f
    test %rax, %rax
    jz 3f                                           /* never past a free entry */
    inc %r8
    dec %r9d
    jnz 2b
3:  lock incq GS_SHEAD_UNBORN(%rsi)
    jmp 8f
4:  mov GS_GLIVE_TICK(%rdx), %r8                    /* the birth */
    mov GS_GLIVE_SITE(%rdx), %edi                   /* its site's offset; 0: none */
    movq $0, GS_GLIVE_TICK(%rdx)
    movq $GS_GLIVE_FREED, GS_GLIVE_G(%rdx)          /* after the loads (x86 keeps the order) */
    cmp $GS_PAGE, %rdi
    jb 8f                                           /* none: by key (counted in no_site) */
    test $63, %edi
    jnz 8f                                          /* not an entry's start (entries are 320 bytes) */
    lea GS_SITE_SIZE(%rdi), %rax
    cmp gs_config+GS_CFG_GLIVE_OFF(%rip), %rax
    ja 8f                                           /* not in the site table */
    add %rsi, %rdi
    test %r8, %r8
    jz 9f
    rdtsc
    shl $32, %rdx
    or %rax, %rdx
    sub %r8, %rdx                                   /* the lifetime */
    jae 5f
    xor %edx, %edx                                  /* another CPU's TSC was ahead */
5:  lock add %rdx, GS_SITE_TOTAL(%rdi)
    mov GS_SITE_MAX(%rdi), %rax
6:  cmp %rax, %rdx
    jbe 7f
    lock cmpxchg %rdx, GS_SITE_MAX(%rdi)            /* rax = the current max if it moved */
    jne 6b
7:  or $1 << GS_HIST_FIRST_BIT, %rdx                /* floor(log2) >= FIRST_BIT */
    bsr %rdx, %rcx
    mov $GS_HIST_FIRST_BIT + GS_HIST_BUCKETS - 1, %edx
    cmp %edx, %ecx
    cmova %edx, %ecx
    lock incq GS_SITE_HIST - 8 * GS_HIST_FIRST_BIT(%rdi,%rcx,8)
    jmp .Lsite_out
8:  cmpq $0, gs_config+GS_CFG_SPATHS_OFF(%rip)      /* an end without a lifetime */
    jne .Lsite_end_path
    PRIVATE_DATA
    SITE_FIND %r14
.Lsite_end_found:
    mov %rcx, %rdi
    test %rdi, %rdi
    jz .Lsite_out
9:  lock incq GS_SITE_UNTIMED_EXITS(%rdi)           /* the others are the sum of hist */
    jmp .Lsite_out
/* Sites by creator path: the creation's path is m.curg's; an end
 * without a lifetime has none (path 0, as a creator without timed calls). */
.Lsite_create_path:
    PATH_SAVE
    CREATOR_PATH
    PRIVATE_DATA
    SITE_FIND_PATH %r12
    PATH_RESTORE
    jmp .Lsite_found
.Lsite_end_path:
    PATH_SAVE
    xor %r10d, %r10d
    xor %r11d, %r11d
    PRIVATE_DATA
    SITE_FIND_PATH %r14
    PATH_RESTORE
    jmp .Lsite_end_found
.Lsite_out:
    mov -8(%rsp), %rax
    mov -16(%rsp), %rcx
    mov -24(%rsp), %rdx
    mov -32(%rsp), %rsi
    mov -40(%rsp), %rdi
    mov -48(%rsp), %r8
    mov -56(%rsp), %r9
    mov -64(%rsp), %r13
    jmp *%r13

    .section .note.GNU-stack,"",@progbits
