/* trampoline.h: generating the code of the new RX segment (stage 4). */
#ifndef GR_TRAMPOLINE_H
#define GR_TRAMPOLINE_H

#include "codebuf.h"
#include "error.h"
#include "layout.h"
#include "plan.h"

/* Emits the shared row-claim routine and one trampoline per instrumented
 * function into code (whose base is where they will run). tramp_addr[i]
 * receives the trampoline address of plan->funcs[i] (0 when skipped). */
int gr_trampolines_generate(const struct gr_plan *plan, const struct gr_layout *l,
                            struct gr_codebuf *code, uint64_t *tramp_addr, struct gr_error *err);

#endif
