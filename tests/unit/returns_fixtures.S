/* returns_fixtures.S: hand-written functions for test_returns.c, one shape of
 * return, branch or jump table each; the assembler encodes them, so the
 * bytes are what the comments say. They are data (never executed): the
 * test scans [fx_NAME, fx_NAME_end) at its run-time address. Each starts
 * with the register ABI's small stack check (6 bytes: cmp rsp,[r14+0x10];
 * jbe to its morestack block), except fx_mov. */
    .intel_syntax noprefix
    .section .rodata.returns_fixtures, "a"

    .macro FUNC name
    .balign 64, 0xcc
    .globl \name, \name\()_end
\name:
    .endm

/* A stack-relative load before the epilogue is replayed with it. */
FUNC fx_stack
    cmp rsp, [r14+0x10]
    jbe 1f
    push rbp
    mov rbp, rsp
    mov rax, [rsp+8]
    pop rbp
    ret
1:  call fx_outside
    jmp fx_stack
fx_stack_end:

/* A load through rbx may fault: never replayed. */
FUNC fx_fault
    cmp rsp, [r14+0x10]
    jbe 1f
    push rbp
    mov rbp, rsp
    mov rax, [rbx+8]
    pop rbp
    ret
1:  call fx_outside
    jmp fx_fault
fx_fault_end:

/* div may fault (divide error): never replayed. */
FUNC fx_div
    cmp rsp, [r14+0x10]
    jbe 1f
    push rbp
    mov rbp, rsp
    div rcx
    pop rbp
    ret
1:  call fx_outside
    jmp fx_div
fx_div_end:

/* A ret right after a call, then 4 int3 of padding: covered forwards. */
FUNC fx_pad4
    cmp rsp, [r14+0x10]
    jbe 1f
    call fx_outside
    ret
    int3
    int3
    int3
    int3
1:  call fx_outside
    jmp fx_pad4
fx_pad4_end:

/* The same with 3 int3: one byte short. */
FUNC fx_pad3
    cmp rsp, [r14+0x10]
    jbe 1f
    call fx_outside
    ret
    int3
    int3
    int3
1:  call fx_outside
    jmp fx_pad3
fx_pad3_end:

/* The first ret grows back over a conditional branch; the second starts
 * at a branch target (allowed first) and ends in the function's padding. */
FUNC fx_jcc
    cmp rsp, [r14+0x10]
    jbe 1f
    cmp eax, 1
    je 2f
    ret
1:  call fx_outside
    jmp fx_jcc
2:  xor eax, eax
    ret
    int3
    int3
    int3
    int3
fx_jcc_end:

/* A branch to the pop of the epilogue: it cannot be covered. */
FUNC fx_epi
    cmp rsp, [r14+0x10]
    jbe 1f
    push rbp
    mov rbp, rsp
    sub rsp, 0x10
    test rax, rax
    jz 2f
    add rsp, 0x10
2:  pop rbp
    ret
1:  call fx_outside
    jmp fx_epi
fx_epi_end:

/* The morestack block jumps back into the check, at entry + 2. */
FUNC fx_intocheck
    cmp rsp, [r14+0x10]
    jbe 1f
    mov eax, 1
    ret
1:  call fx_outside
    jmp fx_intocheck+2
fx_intocheck_end:

FUNC fx_repret
    cmp rsp, [r14+0x10]
    jbe 1f
    mov eax, 1
    rep ret
1:  call fx_outside
    jmp fx_repret
fx_repret_end:

FUNC fx_retimm
    cmp rsp, [r14+0x10]
    jbe 1f
    mov eax, 1
    ret 8
1:  call fx_outside
    jmp fx_retimm
fx_retimm_end:

/* An indirect jmp with no table before it. */
FUNC fx_jmpreg
    cmp rsp, [r14+0x10]
    jbe 1f
    mov eax, 1
    jmp rax
    ret
1:  call fx_outside
    jmp fx_jmpreg
fx_jmpreg_end:

/* Go's switch table, the lea 3 instructions before the jmp (the most
 * returns.c looks back). */
FUNC fx_table3
    cmp rsp, [r14+0x10]
    jbe 1f
    lea rcx, [rip+fx_table3_table]
    nop
    nop
    jmp [rcx+rax*8]
.Lt3a:
    mov eax, 1
    ret
.Lt3b:
    mov eax, 2
    ret
1:  call fx_outside
    jmp fx_table3
fx_table3_end:

/* The lea 4 instructions before: not seen as a table. */
FUNC fx_table4
    cmp rsp, [r14+0x10]
    jbe 1f
    lea rcx, [rip+fx_table4_table]
    nop
    nop
    nop
    jmp [rcx+rax*8]
.Lt4a:
    mov eax, 1
    ret
.Lt4b:
    mov eax, 2
    ret
1:  call fx_outside
    jmp fx_table4
fx_table4_end:

/* 0x06 (push es) does not exist in 64-bit mode. */
FUNC fx_bad
    cmp rsp, [r14+0x10]
    jbe 1f
    .byte 0x06
    ret
1:  call fx_outside
    jmp fx_bad
fx_bad_end:

/* A conditional jump to another function. */
FUNC fx_tailjcc
    cmp rsp, [r14+0x10]
    jbe 1f
    test eax, eax
    je fx_outside
    mov eax, 1
    ret
1:  call fx_outside
    jmp fx_tailjcc
fx_tailjcc_end:

/* A ret that can be patched, then one that cannot (after a call). */
FUNC fx_twoway
    cmp rsp, [r14+0x10]
    jbe 1f
    test eax, eax
    jz 2f
    mov eax, 1
    ret
2:  call fx_outside
    ret
1:  call fx_outside
    jmp fx_twoway
fx_twoway_end:

/* No stack check: 5 bytes before the ret, which the entry patch may claim. */
FUNC fx_mov
    mov eax, 1
    ret
fx_mov_end:

FUNC fx_outside
    ret

/* The tables hold absolute addresses: relocated at load time, like Go's
 * in a PIE. */
    .section .data.rel.ro, "aw"
    .balign 8
    .globl fx_table3_table, fx_table4_table
fx_table3_table:
    .quad .Lt3a, .Lt3b
    .quad 0                     /* not in the function: the table ends */
fx_table4_table:
    .quad .Lt4a, .Lt4b
    .quad 0

    .section .note.GNU-stack, "", @progbits
