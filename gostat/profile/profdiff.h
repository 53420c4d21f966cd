/* exported by gostat/profile */
/* profdiff.h: what changed between two profiles (gostat diff): per
 * function, the factor by which its calls and its time per call changed,
 * and whether that factor reaches the threshold either way and lies beyond
 * the run-to-run spread (docs/ci.md "When a change counts"); likewise per
 * caller -> callee arc where both profiles recorded the callee's callers. */
#ifndef GOSTAT_PROFDIFF_H
#define GOSTAT_PROFDIFF_H

#include "common/error.h"
#include "gostat/profile/profile.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum gst_metric { GST_METRIC_CALLS = 1, GST_METRIC_TIME = 2, GST_METRIC_BOTH = 3 };

struct gst_diff_options {
    double threshold;          /* > 1: a change of at least this factor counts */
    uint64_t min_calls;        /* functions with fewer calls in both are ignored */
    enum gst_metric metric;    /* which changes count */
    double sigma;              /* a change must exceed this many standard
                                  errors of the spread; 0: the rule is off */
    uint64_t min_timed;        /* time: at least this many calls timed, */
    double min_time_ns;        /* and this much total time, on both sides */
    double min_delta_ns;       /* the time per call must change by this much */
    bool runtime;              /* also count the runtime's functions' changes */
    double speed;              /* set by gst_diff_profiles: the run's typical
                                  NEW / BASE time per call, which the times
                                  per call are compared relative to */
};

/* How one measured thing (a function, or a caller -> callee arc) changed:
 * its calls and total time in each profile, compared by the threshold. */
struct gst_delta {
    uint64_t base_calls, new_calls;
    bool time_compared;        /* both totals known and > 0 */
    double base_ns, new_ns;    /* total_ns; 0 unless known */
    bool base_time_known, new_time_known;
    bool mean_compared;        /* both means per call known and > 0 */
    double base_mean_ns, new_mean_ns;  /* 0 unless known */
    bool base_median_known, new_median_known;
    double base_median_ns, new_median_ns;  /* from the histogram, or JSON's
                                              p50_ns; 0 unless known */
    bool call_compared;        /* a time per call on both sides, > 0: the
                                  median where both are known, else the mean */
    double base_call_ns, new_call_ns;
    double calls_sigma;        /* |new - base| / sqrt(base + new) calls */
    double time_sigma;         /* how many standard errors apart the times
                                  per call are; NAN when not compared */
    const char *spread;        /* what bounded the time spread:
                                  "histograms", "min/max" or NULL */
    bool calls_changed, time_changed;  /* reached the threshold, beyond the
                                          spread (and counted) */
    bool grew;                 /* calls or time per call grew (counted) */
    double severity;           /* the largest factor counted, up or down
                                  (INFINITY for 0 -> n and n -> 0) */
};

/* One function that changed. A function absent from one profile has 0
 * calls there. Its growth (d.grew) is a regression. */
struct gst_change {
    const char *name;
    struct gst_delta d;
    bool base_self_known, new_self_known;  /* self_ns shown, not compared */
    double base_self_ns, new_self_ns;
};

/* One caller -> callee arc that changed, compared like a function (its
 * calls and inclusive time through the arc), for callees whose callers
 * both profiles recorded. Arc changes are shown, not counted as
 * regressions: the callee's own calls and time say that. */
struct gst_arc_change {
    const char *caller, *callee;
    struct gst_delta d;
};

struct gst_diff {
    struct gst_change *changes;   /* most severe first, then by name */
    size_t count;
    size_t compared;              /* functions not ignored by min_calls */
    size_t regressions;
    struct gst_arc_change *arcs;  /* most severe first, then callee, caller */
    size_t narcs;
    size_t arcs_compared;         /* arcs not ignored by min_calls */
    double speed;                 /* options.speed as used */
};

/* Compares two sorted profiles. Returns 0, or -1 with err (no memory). */
int gst_diff_profiles(const struct gst_profile *base, const struct gst_profile *next,
                      const struct gst_diff_options *o, struct gst_diff *d, struct gr_error *err);

void gst_diff_free(struct gst_diff *d);

#endif
