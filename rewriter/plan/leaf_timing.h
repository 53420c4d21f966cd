/* leaf_timing.h: may a function without a stack check be timed (part of
 * stage 3, patch planning)? */
#ifndef GR_LEAF_TIMING_H
#define GR_LEAF_TIMING_H

#include <stddef.h>
#include <stdint.h>

#include "rewriter/find/program.h"

/* Why f, a function without a stack check, is counted but not timed, or
 * NULL when its entry and returns may hand over to the timing routines
 * (which find the goroutine through R14) behind the trampoline's run-time
 * check that R14 is TLS g. code: its size bytes; called_by_asm: some
 * assembly calls or jumps to it (asm_callers.h). */
const char *gr_leaf_untimed_reason(const struct gr_func *f, const uint8_t *code, size_t size,
                                   int called_by_asm);

#endif
