/* tail_return.S: the return half of timing a call that ends in a jump to
 * another function (a tail call: the caller's frame is already popped and
 * RSP is at the caller's return address, as at a ret). gs_tail_return is
 * gs_time_return (timing.S, whose header states the rules) except that it
 * leaves by that jump instead of the ret, with RDX kept: RDX is dead at a
 * ret, but may be the callee's closure context at its entry.
 *
 * in: r12d = the tail-calling function's timing record offset, r13 = the
 * jump's target. Two red-zone words no return macro uses keep the target
 * and RDX (stub_macros.h: the return path's slots reach -104). The callee
 * is timed on its own, from its own entry, at the same depth: this return
 * pops the caller's entry first, so the callee's entry finds it gone. */

#include "format/stub_abi.h"

#include "stubs/stub_macros.h"

#define TAIL_TO -112
#define TAIL_RDX -120

    .text
    .globl gs_tail_return
gs_tail_return:
    mov %r13, TAIL_TO(%rsp)
    mov %rdx, TAIL_RDX(%rsp)
    RETURN_POP GS_ENT_SIZE, .Ltail
    RETURN_ONCPU
    RECORD_PAGE %rcx, .Ltail_out, .Ltail_page
.Ltail_record:                  /* rax = row, r13 = duration, rdx = weight, -24(%rsp) = on-CPU */
    RECORD_CALL
.Ltail_out:
    mov -8(%rsp), %rax
    mov -16(%rsp), %rcx
    mov TAIL_RDX(%rsp), %rdx
    jmp *TAIL_TO(%rsp)
    RETURN_COLD .Ltail

    .section .note.GNU-stack,"",@progbits
