/* exported by gostat/render */
/* callgrind.h: a stats file in the Callgrind format (valgrind's
 * docs/callgrind-format), for callgrind_annotate and KCachegrind, for
 * "gostat callgrind". Events Calls (exact) and TimeNs; one cost line per
 * function, at its source line: with a call graph (--call-graph) its self
 * time and a call line per arc (inclusive time through it), without one
 * its inclusive time (0 when the function has no time). */
#ifndef GOSTAT_CALLGRIND_H
#define GOSTAT_CALLGRIND_H

#include "gostat/model/callgraph.h"
#include "common/error.h"
#include "gostat/read/statsfile.h"
#include "gostat/model/view.h"

#include <stdio.h>

/* Writes view's functions to out, with cg's arcs into the functions cg
 * selected when cg is not NULL and present (built with view as its
 * request's). Returns 0, or -1 with err. */
int gst_callgrind_write(FILE *out, const struct gst_stats *st, const struct gst_view *view,
                        const struct gst_callgraph *cg, struct gr_error *err);

#endif
