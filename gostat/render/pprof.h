/* exported by gostat/render */
/* pprof.h: a stats file as a pprof profile (profile.proto, gzipped), for
 * "gostat pprof", with two values: calls/count (exact) and
 * time/nanoseconds. With call paths (--call-graph), one sample per calling
 * context, its frames as locations, valued with its calls and self time
 * (flat = self, cum = inclusive); functions no path holds (untimed) are
 * samples of their own. Without paths, one sample per function, whose only
 * location is the function itself, its time inclusive of callees (flat
 * equals cum). A function without a time has 0 and the label
 * untimed=REASON. */
#ifndef GOSTAT_PPROF_H
#define GOSTAT_PPROF_H

#include "gostat/model/callgraph.h"
#include "common/error.h"
#include "gostat/read/statsfile.h"
#include "gostat/model/view.h"

#include <stdio.h>

/* Writes the profile of view's functions to out (with cg's paths whose
 * last function cg selected, when cg is not NULL and present: built with
 * view as its request's); name is out's name for error messages. Returns
 * 0, or -1 with err. */
int gst_pprof_write(FILE *out, const char *name, const struct gst_stats *st,
                    const struct gst_view *view, const struct gst_callgraph *cg,
                    struct gr_error *err);

#endif
