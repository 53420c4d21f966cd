/* exported by gostat/model */
/* times.h: a function's durations in nanoseconds, as shown by the table
 * and JSON outputs: its tick sums and histogram through the file's clock. */
#ifndef GOSTAT_TIMES_H
#define GOSTAT_TIMES_H

#include "gostat/read/statsfile.h"

#include <stdbool.h>

struct gst_times {
    bool known;                /* timed, and the clock is usable */
    bool any;                  /* known and at least one timed call: mean,
                                  percentiles, min and max exist */
    double total_ns, mean_ns, p50_ns, p90_ns, p99_ns, min_ns, max_ns;
                               /* with sampled timing, total_ns is the
                                  estimate mean_ns x calls */
    bool estimated;            /* not every call was timed: total_ns is an
                                  estimate, mean and percentiles weighted */
    bool self_known;           /* known, and the file records call paths
                                  (--call-graph): self_ns holds */
    double self_ns;            /* total minus the timed callees' totals */
    bool oncpu_known;          /* known, and the file records on-CPU time */
    double oncpu_ns;           /* total less the time the calls' goroutines
                                  were descheduled (estimated as total_ns) */
};

/* A sampling mode left some of f's calls untimed: a timed call of f stood
 * for more than itself. */
bool gst_time_estimated(const struct gst_stats *st, const struct gst_func *f);

struct gst_times gst_times_of(const struct gst_stats *st, const struct gst_func *f);

#endif
