/* leaf_timing.h: may a function without a stack check be timed (part of
 * stage 3, patch planning)? */
#ifndef GR_LEAF_TIMING_H
#define GR_LEAF_TIMING_H

#include "rewriter/find/program.h"

/* Why f, a function without a stack check, is counted but not timed, or
 * NULL when its entry and returns may hand over to the timing routines
 * (which find the goroutine through R14) behind the trampoline's run-time
 * check that R14 is TLS g. */
const char *gr_leaf_untimed_reason(const struct gr_func *f);

#endif
