/* goroutine_end.h: the runtime functions that end their goroutine without
 * returning (part of stage 3, patch planning). */
#ifndef GR_GOROUTINE_END_H
#define GR_GOROUTINE_END_H

#include "rewriter/find/program.h"

/* Why f is counted but not timed because it ends its goroutine (it hands
 * it to the scheduler for good), or NULL. */
const char *gr_goroutine_end_reason(const struct gr_func *f);

#endif
