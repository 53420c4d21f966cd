/* exported by gostat/render */
/* arcs.h: a function's callers or callees with their exact calls and
 * inclusive time per arc and each arc's share, gprof's call graph entry
 * for one function ("gostat PID|FILE --callers FUNC", "--callees FUNC"). */
#ifndef GOSTAT_ARCS_H
#define GOSTAT_ARCS_H

#include "gostat/model/callgraph.h"
#include "common/error.h"
#include "gostat/read/statsfile.h"

#include <stdio.h>

enum gst_arc_side { GST_ARCS_CALLERS, GST_ARCS_CALLEES };

/* Prints f's heading line and one line per arc into f (callers, in cg's
 * order) or out of f (callees, most calls first). Shares: of f's calls
 * and inclusive time for callers; of the calls f made to timed functions
 * and of f's inclusive time for callees. Calls of f that are in no arc
 * ("(no arc recorded)": the program's path and arc tables were both full,
 * or the call did not return normally, e.g. unwound by a panic, or had
 * not returned yet) are a line of their own. Returns 0, or -1 with
 * err. */
int gst_arcs_print(FILE *out, const struct gst_stats *st, const struct gst_callgraph *cg,
                   const struct gst_func *f, enum gst_arc_side side, struct gr_error *err);

#endif
