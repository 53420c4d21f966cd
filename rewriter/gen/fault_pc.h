/* fault_pc.h: the original PC and frame of a fault at any address in a
 * relocated instruction (docs/architecture.md "Faults in relocated
 * instructions"). A fault the trampoline cannot foresee (an address at or
 * above the first page: a wild pointer, SIGBUS on a truncated mapping)
 * reaches the runtime's signal handler at a PC outside Go text: it records
 * that PC in g.sigpc and continues at sigpanic without pushing it, so the
 * leaf's frame would be missing. Every relocated instruction that can
 * fault has a nil-fault block whose first bytes are a marker naming the
 * instruction's original PC; the entry trampoline of runtime.sigpanic
 * finds that marker from g.sigpc and puts the original PC into g.sigpc
 * and onto the stack as sigpanic's return address, as the handler does
 * for a fault in Go text. */
#ifndef GR_FAULT_PC_H
#define GR_FAULT_PC_H

#include <stdint.h>

#include "rewriter/gen/codebuf.h"

/* The bounds of the code that may hold markers: from lo to the end of the
 * trampolines, patched in once they are all emitted. */
struct gr_fault_fix {
    uint64_t lo;
    size_t hi_field;   /* disp32 of the lea of the upper bound */
    int emitted;
};

/* At the start of a nil-fault block: a NOP whose disp32 names orig_pc. */
int gr_fault_mark(struct gr_codebuf *c, uint64_t orig_pc, struct gr_error *err);

/* The fix-up at the entry of runtime.sigpanic (before its stack check):
 * g from the program's TLS load; offset sigpc of g.sigpc. Uses R12, R13
 * and the flags only. */
int gr_fault_fix_emit(struct gr_codebuf *c, const struct gr_insn *tls, unsigned ntls,
                      uint32_t sigpc, struct gr_fault_fix *fix, struct gr_error *err);

/* Once every trampoline is emitted: the fix-up's upper bound. */
void gr_fault_fix_close(struct gr_codebuf *c, const struct gr_fault_fix *fix);

#endif
