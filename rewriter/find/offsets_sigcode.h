/* offsets_sigcode.h: the signal fields of runtime.g (g.sig, g.sigcode0,
 * g.sigcode1, g.sigpc; go_sigpanic.h) read from the runtime's own code,
 * present in stripped binaries: runtime.sigpanic tests them (`switch
 * gp.sig { case _SIGBUS: if gp.sigcode0 == _BUS_ADRERR && gp.sigcode1 <
 * 0x1000`) and runtime.sighandler stores them in order (`gp.sig = sig;
 * gp.sigcode0 = ...; gp.sigcode1 = ...; gp.sigpc = ...`), Go 1.15-1.27.
 * One source for offsets_decide.c: it states the four only when both
 * functions agree. */
#ifndef GR_OFFSETS_SIGCODE_H
#define GR_OFFSETS_SIGCODE_H

#include "elf/elf_read.h"
#include "rewriter/find/program.h"
#include "rewriter/find/runtime_offsets.h"

/* Sets in out the signal fields the code states (all four or none). */
void gr_offsets_from_sigcode(const struct gr_elf *elf, const struct gr_program *prog,
                             struct gr_go_found *out);

#endif
