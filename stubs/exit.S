/* exit.S: gs_exit replaces runtime.exit (rewriter/plan/exit_hook.c), the
 * one way out of a Go program: it finishes the stats file (gs_finish,
 * stubs/finish.c) on a stack of its own, then makes runtime.exit's system
 * call. in: r14 = the thread's g (0: unknown), loaded from TLS by the
 * gate gorewrite puts before it (rewriter/gen/trampoline.c). It never returns, so no register needs keeping and nothing of
 * ours is left on a goroutine stack that could be read again. Below:
 * the same finish before an exec, and a new file after a failed one. */

#define GS_FINISH_STACK (1 << 20)

/* rax = a new GS_FINISH_STACK-byte stack for the C code (mmap), flags
 * set by its compare with the errors: `ja` when there is none. */
.macro MAP_FINISH_STACK
    xor %edi, %edi
    mov $GS_FINISH_STACK, %esi
    mov $3, %edx                    /* PROT_READ | PROT_WRITE */
    mov $0x4022, %r10d              /* MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE */
    mov $-1, %r8
    xor %r9d, %r9d
    mov $9, %eax                    /* mmap */
    syscall
    cmp $-4096, %rax
.endm

    .text
    .globl gs_exit
gs_exit:
    mov 8(%rsp), %ebx               /* the exit code: runtime.exit's argument (ABI0) */
    mov %rsp, %r15                  /* where the goroutine stopped (the syscall keeps r14, r15) */
    MAP_FINISH_STACK
    ja 1f                           /* no stack: exit without finishing */
    lea GS_FINISH_STACK(%rax), %rsp
    mov %r14, %rdi                  /* gs_finish(g, rsp) */
    mov %r15, %rsi
    call gs_finish
1:  mov %ebx, %edi
    mov $231, %eax                  /* exit_group */
    syscall
    hlt

/* gs_exec_before, gs_exec_after: syscall.runtime_BeforeExec's and
 * syscall.runtime_AfterExec's entries come here first (the gates of
 * rewriter/gen/trampoline.c emit_exec_gate). in: r14 = the thread's g (0:
 * unknown), r13 = the function's trampoline. On a stack of their own they
 * call gs_exec_finish (the file finished as at exit, before execve) or
 * gs_exec_resume (execve failed: a new file), stubs/finish.c, then go on
 * to r13. Neither function takes arguments, so only what Go keeps across a
 * call matters: rsp, rbp, r14, r15 (kept by the C code) and x15, zero in
 * the register ABI. */
.macro EXEC_HOOK name, fn
    .globl \name
\name:
    mov %rsp, %r12                  /* where the goroutine is */
    MAP_FINISH_STACK
    ja 1f                           /* no stack: the file is left as it is */
    mov %rax, %rbx
    lea GS_FINISH_STACK(%rax), %rsp
    mov %r14, %rdi                  /* (g, rsp) */
    mov %r12, %rsi
    call \fn
    mov %r12, %rsp
    mov %rbx, %rdi
    mov $GS_FINISH_STACK, %esi
    mov $11, %eax                   /* munmap */
    syscall
1:  xorps %xmm15, %xmm15
    jmp *%r13
.endm

    EXEC_HOOK gs_exec_before, gs_exec_finish
    EXEC_HOOK gs_exec_after, gs_exec_resume

    .section .note.GNU-stack,"",@progbits
