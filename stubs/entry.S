/* entry.S: the instrumented program's new ELF entry point and the blob
 * header. Runs before any code of the program: saves every register the
 * kernel or dynamic loader passed (RDX holds the loader's finaliser), calls
 * gs_startup on the initial process stack, restores everything and jumps
 * to the original entry point with the stack exactly as it was. */

    .section .blob.header, "ax"
    .globl gs_blob_header
gs_blob_header:
    .quad 0x31304f4c42524721        /* GS_BLOB_MAGIC (stub_abi.h: struct gs_blob_header) */
    .long gs_entry - gs_blob_header
    .long gs_config - gs_blob_header
    .long gs_claim_row - gs_blob_header
    .long gs_time_enter - gs_blob_header
    .long gs_time_return - gs_blob_header
    .long gs_sample_enter - gs_blob_header
    .long gs_path_enter - gs_blob_header
    .long gs_path_return - gs_blob_header
    .long gs_sched_off - gs_blob_header
    .long gs_sched_on - gs_blob_header
    .long gs_trace_enter - gs_blob_header
    .long gs_trace_return - gs_blob_header
    .long gs_trace_commit - gs_blob_header
    .long gs_row_slow - gs_blob_header
    .long gs_site_create - gs_blob_header
    .long gs_site_end - gs_blob_header
    .long gs_tail_return - gs_blob_header
    .long gs_exit - gs_blob_header
    .long gs_stack_moved - gs_blob_header
    .long gs_sample_return - gs_blob_header
    .long gs_exec_before - gs_blob_header
    .long gs_exec_after - gs_blob_header
    .long gs_signal_gate - gs_blob_header

    .text
    .globl gs_entry
gs_entry:
    push %rax                       /* slot: becomes the original entry */
    pushfq
    push %rax
    push %rbx
    push %rcx
    push %rdx
    push %rsi
    push %rdi
    push %rbp
    push %r8
    push %r9
    push %r10
    push %r11
    push %r12
    push %r13
    push %r14
    push %r15
    lea 17*8(%rsp), %rdi            /* the kernel's stack: argc, argv, envp */
    mov %rsp, %rbp
    and $-16, %rsp
    call gs_startup                 /* returns the original entry address */
    mov %rbp, %rsp
    mov %rax, 16*8(%rsp)
    pop %r15
    pop %r14
    pop %r13
    pop %r12
    pop %r11
    pop %r10
    pop %r9
    pop %r8
    pop %rbp
    pop %rdi
    pop %rsi
    pop %rdx
    pop %rcx
    pop %rbx
    pop %rax
    popfq
    ret                             /* to the original entry; rsp as the kernel left it */

    .section .note.GNU-stack,"",@progbits
