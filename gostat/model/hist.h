/* exported by gostat/model */
/* hist.h: percentiles from a function's log2 duration histogram. */
#ifndef GOSTAT_HIST_H
#define GOSTAT_HIST_H

#include "format/gostat_format.h"

#include <stdint.h>

/* The pct-th percentile (0 < pct <= 100) in ticks of the durations counted
 * in hist (GS_HIST_BUCKETS buckets, gostat_format.h), whose smallest and
 * largest are min and max. The rank is ceil(pct/100 * count); within the
 * bucket holding it, the value is lo + (hi - lo) * (rank - before) / n,
 * where [lo, hi) is the bucket's range (hi = max for the open last bucket),
 * n its count and before the count of the buckets below; then clamped to
 * [min, max]. Returns 0 for an empty histogram. */
double gst_hist_percentile(const uint64_t hist[GS_HIST_BUCKETS], uint64_t min, uint64_t max,
                           unsigned pct);

/* Sum over the durations counted in hist of duration^2 (ticks^2), each
 * taken at its bucket's upper edge clamped to [min, max]: an upper bound
 * (for gostat diff's spread rule, which must not underestimate). */
double gst_hist_square_bound(const uint64_t hist[GS_HIST_BUCKETS], uint64_t min, uint64_t max);

/* The fraction of the durations counted in hist that lie in the buckets
 * below bucket b: exact, no interpolation (0 for an empty histogram). */
double gst_hist_fraction_under(const uint64_t hist[GS_HIST_BUCKETS], unsigned b);

#endif
