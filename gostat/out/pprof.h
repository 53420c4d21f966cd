/* pprof.h: a stats file as a pprof profile (profile.proto, gzipped), for
 * "gostat pprof". One sample per function, whose only location is the
 * function itself, with two values: calls/count (exact) and
 * time/nanoseconds (inclusive of callees; 0 when the function has no
 * time, with the label untimed=REASON). */
#ifndef GOSTAT_PPROF_H
#define GOSTAT_PPROF_H

#include "error.h"
#include "statsfile.h"
#include "view.h"

#include <stdio.h>

/* Writes the profile of view's functions to out; name is out's name for
 * error messages. Returns 0, or -1 with err. */
int gst_pprof_write(FILE *out, const char *name, const struct gst_stats *st,
                    const struct gst_view *view, struct gr_error *err);

#endif
