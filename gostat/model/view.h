/* exported by gostat/model */
/* view.h: which functions to show and in what order (--filter, --nonzero,
 * --sort, --top), shared by the table, JSON and watch outputs. */
#ifndef GOSTAT_VIEW_H
#define GOSTAT_VIEW_H

#include "common/error.h"
#include "gostat/read/statsfile.h"

#include <regex.h>
#include <stdbool.h>
#include <stddef.h>

enum gst_sort {
    GST_SORT_CALLS,            /* calls descending, then name */
    GST_SORT_NAME,             /* name ascending */
    GST_SORT_TIME,             /* total time descending, then calls, then name */
    GST_SORT_SELF,             /* self time descending (--call-graph files), then
                                  as GST_SORT_TIME */
    GST_SORT_ONCPU,            /* on-CPU time descending, then as GST_SORT_TIME */
    GST_SORT_CUM,              /* cum time descending (the options' call
                                  graph's cum_ns), then as GST_SORT_TIME */
};

struct gst_callgraph;

struct gst_view_options {
    enum gst_sort sort;
    const regex_t *filter;     /* on the function name; NULL: all */
    bool nonzero;              /* drop functions with zero calls */
    size_t top;                /* keep the first top; 0: all */
    const struct gst_callgraph *cg; /* GST_SORT_CUM: the file's call graph;
                                  NULL or not present: every cum is 0 */
};

struct gst_view {
    const struct gst_func **funcs; /* into the gst_stats they came from */
    size_t count;
};

/* Selects and orders st's functions as o says. Returns 0, or -1 with err. */
int gst_view_build(const struct gst_stats *st, const struct gst_view_options *o,
                   struct gst_view *view, struct gr_error *err);

void gst_view_free(struct gst_view *view);

#endif
