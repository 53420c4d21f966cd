/* exit.S: gs_exit replaces runtime.exit (rewriter/plan/exit_hook.c), the
 * one way out of a Go program: it finishes the stats file (gs_finish,
 * stubs/finish.c) on a stack of its own, then makes runtime.exit's system
 * call. in: r14 = the thread's g (0: unknown), loaded from TLS by the
 * gate gorewrite puts before it (rewriter/gen/trampoline.c). It never returns, so no register needs keeping and nothing of
 * ours is left on a goroutine stack that could be read again. */

#define GS_FINISH_STACK (1 << 20)

    .text
    .globl gs_exit
gs_exit:
    mov 8(%rsp), %ebx               /* the exit code: runtime.exit's argument (ABI0) */
    mov %rsp, %r15                  /* where the goroutine stopped (the syscall keeps r14, r15) */
    xor %edi, %edi
    mov $GS_FINISH_STACK, %esi
    mov $3, %edx                    /* PROT_READ | PROT_WRITE */
    mov $0x4022, %r10d              /* MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE */
    mov $-1, %r8
    xor %r9d, %r9d
    mov $9, %eax                    /* mmap */
    syscall
    cmp $-4096, %rax
    ja 1f                           /* no stack: exit without finishing */
    lea GS_FINISH_STACK(%rax), %rsp
    mov %r14, %rdi                  /* gs_finish(g, rsp) */
    mov %r15, %rsi
    call gs_finish
1:  mov %ebx, %edi
    mov $231, %eax                  /* exit_group */
    syscall
    hlt

    .section .note.GNU-stack,"",@progbits
