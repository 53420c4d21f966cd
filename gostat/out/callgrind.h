/* callgrind.h: a stats file in the Callgrind format (valgrind's
 * docs/callgrind-format), for callgrind_annotate and KCachegrind, for
 * "gostat callgrind". Events Calls (exact) and TimeNs (inclusive of
 * callees; 0 when the function has no time); one cost line per function,
 * at its source line. */
#ifndef GOSTAT_CALLGRIND_H
#define GOSTAT_CALLGRIND_H

#include "error.h"
#include "statsfile.h"
#include "view.h"

#include <stdio.h>

/* Writes view's functions to out. Returns 0, or -1 with err. */
int gst_callgrind_write(FILE *out, const struct gst_stats *st, const struct gst_view *view,
                        struct gr_error *err);

#endif
