/* stub_macros.h: assembler macros shared by the timing routines
 * (timing.S and paths.S): counting a drop in the thread's row and backing
 * a row page with memory on first use. Included by .S files only. */
#ifndef GS_STUB_MACROS_H
#define GS_STUB_MACROS_H

#define SYS_madvise 28
#define MADV_POPULATE_WRITE 23
#define EINVAL 22

/* Adds 1 to this thread's drop counter \field, if the thread has a row. */
.macro COUNT_DROP field
    mov %rbx, -48(%rsp)
    mov gs_config+GS_CFG_G_M(%rip), %rbx
    mov (%r14,%rbx), %rbx
    add gs_config+GS_CFG_M_ROW(%rip), %rbx
    mov (%rbx), %rbx
    test %rbx, %rbx
    jz 9f
    incq \field(%rbx)                   /* struct gs_drops is at the row's start */
9:  mov -48(%rsp), %rbx
.endm

/* Backs page rcx of the row at rax with memory the first time this thread
 * uses it (MADV_POPULATE_WRITE), so that a full tmpfs shows up here and
 * not as SIGBUS on a store; marks it ready, or failed and jumps to \fail.
 * Keeps every register but rdx and the flags. */
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
    cmp $-EINVAL, %rdx                              /* kernel before 5.14: use it unpopulated */
    je 8f
    movb $GS_PAGE_FAILED, GS_ROW_MAP(%rax,%rcx)
    jmp \fail
8:  movb $GS_PAGE_READY, GS_ROW_MAP(%rax,%rcx)
.endm

#endif
