/* exported by gostat/render */
/* folded.h: the calling contexts of a call graph as folded stacks (one line
 * per path, "frame;frame;frame VALUE", root first), the input of
 * flamegraph.pl, speedscope and inferno, for "gostat folded". */
#ifndef GOSTAT_FOLDED_H
#define GOSTAT_FOLDED_H

#include "gostat/model/callgraph.h"
#include "common/error.h"

#include <stdio.h>

enum gst_folded_value {
    GST_FOLDED_SELF,           /* self ns: a flame graph's widths are then
                                  inclusive times (the default) */
    GST_FOLDED_CALLS,          /* the path's calls: widths count the calls
                                  made in each subtree */
    GST_FOLDED_TIME,           /* the path's inclusive ns: for reading
                                  per path; nested paths add up twice */
    GST_FOLDED_ONCPU,          /* on-CPU self ns (gst_cg_node.oncpu_self_ns):
                                  widths are inclusive on-CPU times */
};

/* The one-line form of a frame name: ';' (the separator) becomes ',',
 * control characters '?' and invalid UTF-8 U+FFFD. malloc'ed; NULL when
 * out of memory. */
char *gst_folded_frame_name(const char *name);

/* Writes one line per node of cg whose value, rounded, is above 0, in node
 * order; with GST_FOLDED_CALLS and calls in no path (cg's
 * path_overflow_calls, which hold overflow_calls), or GST_FOLDED_SELF and
 * self time of calls in no path (cg's unplaced_total_ns), a last line
 * "(path overflow) N": the self lines add up to callgrind's and pprof's
 * total time.
 * Returns 0, or -1 with err. */
int gst_folded_write(FILE *out, const struct gst_callgraph *cg, enum gst_folded_value v,
                     struct gr_error *err);

#endif
