/* signal_gate.c: runtime.sigtramp, the handler Go gives the kernel for
 * every signal (cgoSigtramp, a cgo program's, jumps to it), is entered
 * with C's ABI from the kernel or from a C handler that chains to it. Its
 * first two instructions, the frame's `sub` and the frame pointer's
 * store, touch only RSP and the stack, so the gate can run them as they
 * are and go on after them. Its bytes are checked exactly: anything else
 * is left alone. */
#include "rewriter/plan/signal_gate.h"

#include <string.h>

/* sub $imm8, %rsp; mov %rbp, disp8(%rsp): the immediates vary */
static int frame_entry(const uint8_t *b)
{
    static const uint8_t SUB[] = {0x48, 0x83, 0xec}, MOV[] = {0x48, 0x89, 0x6c, 0x24};
    return memcmp(b, SUB, sizeof SUB) == 0 && memcmp(b + 4, MOV, sizeof MOV) == 0;
}

uint64_t gr_signal_gate_find(const struct gr_elf *elf, const struct gr_program *prog)
{
    for (size_t i = 0; i < prog->nfuncs; i++) {
        const struct gr_func *f = &prog->funcs[i];
        if (strcmp(f->name, "runtime.sigtramp") != 0 || f->end - f->entry < GR_SIGTRAMP_COVERED)
            continue;
        const uint8_t *code = gr_elf_bytes_at(elf, f->entry, GR_SIGTRAMP_COVERED);
        return code && frame_entry(code) ? f->entry : 0;
    }
    return 0;
}
