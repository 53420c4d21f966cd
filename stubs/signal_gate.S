/* signal_gate.S: gs_signal_gate runs before runtime.sigtramp, the handler
 * Go gives the kernel for every signal (rewriter/plan/signal_gate.c finds
 * it; cgoSigtramp jumps there too). A SIGBUS raised by our own counters
 * after the stats file was cut short cannot reach Go's handler: its first
 * Go function is instrumented, and its count would fault again with
 * SIGBUS blocked, which the kernel answers by killing the process. So
 * gs_file_cut (stubs/file_cut.c) looks first; when it has made the page
 * usable again, the handler returns and the instruction runs again.
 * in: the C ABI of a signal handler (edi = the signal, rsi = its siginfo,
 * rdx = the context), r11 = sigtramp's own first instructions, which take
 * them as they came. Only r11, rax and the flags change (caller-saved in
 * C: Go's handler may be called by a C handler that chains to it). */

#define SIGBUS 7

    .text
    .globl gs_signal_gate
gs_signal_gate:
    cmp $SIGBUS, %edi
    jne 1f
    push %r11
    push %rdi
    push %rsi
    push %rdx
    sub $8, %rsp                    /* the call's rsp 16-byte aligned */
    call gs_file_cut
    add $8, %rsp
    pop %rdx
    pop %rsi
    pop %rdi
    pop %r11
    test %eax, %eax
    jz 1f
    ret                             /* handled: back to the kernel's restorer */
1:  jmp *%r11

    .section .note.GNU-stack,"",@progbits
