/* exported by gostat/render */
/* table.h: the per-function text table ("gostat PID|FILE"). */
#ifndef GOSTAT_TABLE_H
#define GOSTAT_TABLE_H

#include "gostat/read/statsfile.h"
#include "gostat/model/callgraph.h"
#include "gostat/model/view.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* Calls per second for --watch: the difference from the previous refresh. */
struct gst_rates {
    const uint64_t *prev_calls; /* indexed like gst_stats.funcs */
    double seconds;             /* since the previous refresh */
    bool known;                 /* false on the first refresh: shown as "-" */
};

/* Prints the header line and one row per function in view. rates NULL: no
 * CALLS/S column. cg: st's call graph, for the CUM column (NULL or not
 * present: no CUM column). columns: the width rows are fitted to, names
 * and locations cut in the middle (0: no limit, never cut). */
void gst_table_print(FILE *out, const struct gst_stats *st, const struct gst_view *view,
                     const struct gst_rates *rates, const struct gst_callgraph *cg, size_t columns);

#endif
