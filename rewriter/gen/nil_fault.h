/* nil_fault.h: a relocated instruction that can fault, guarded so that a
 * nil dereference becomes the Go panic the original instruction raises.
 * Before the instruction, a guard: r12 = its address, below the first
 * page (a nil dereference) to its nil-fault block. The block (a marker
 * naming the original PC, fault_pc.h, and a jump) hands over to one
 * routine per program, which does what the runtime's signal handler does
 * for a SIGSEGV at the original PC. */
#ifndef GR_NIL_FAULT_H
#define GR_NIL_FAULT_H

#include <stdint.h>

#include "rewriter/find/go_sigpanic.h"
#include "rewriter/gen/codebuf.h"
#include "rewriter/plan/prologue.h"

/* Where the guards of one run of relocated instructions branch from, and
 * where each instruction starts. */
struct gr_guards {
    size_t jb_field[GR_PROLOGUE_MAX_INSNS];   /* rel32 of the guard's jb */
    uint64_t at[GR_PROLOGUE_MAX_INSNS];
};

/* The shared routine: g from the program's TLS load (tls, ntls), the
 * program's g.sig* offsets, and where the panic starts (sigpanic0, or
 * sigpanic itself before Go 1.17). *routine = its address. */
int gr_nil_fault_routine(struct gr_codebuf *c, const struct gr_insn *tls, unsigned ntls,
                         const struct gr_go_sigfields *sf, uint64_t sigpanic, uint64_t *routine,
                         struct gr_error *err);

/* The guard before instruction i (in), which has a memory operand. */
int gr_guard_emit(struct gr_codebuf *c, const struct gr_insn *in, struct gr_guards *gd, unsigned i,
                  struct gr_error *err);

/* The nil-fault block of guarded instruction i (in), once the run is
 * emitted: its guard's jb lands here. */
int gr_nil_fault_block(struct gr_codebuf *c, uint64_t routine, const struct gr_insn *in,
                       const struct gr_guards *gd, unsigned i, struct gr_error *err);

#endif
