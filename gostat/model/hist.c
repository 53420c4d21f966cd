/* hist.c: linear interpolation inside log2 histogram buckets. */
#include "gostat/model/hist.h"

static uint64_t count_of(const uint64_t hist[GS_HIST_BUCKETS])
{
    uint64_t n = 0;
    for (unsigned b = 0; b < GS_HIST_BUCKETS; b++)
        n = __builtin_add_overflow(n, hist[b], &n) ? UINT64_MAX : n;
    return n;
}

/* ceil(pct/100 * count), at least 1, exactly. */
static uint64_t rank_of(uint64_t count, unsigned pct)
{
    unsigned __int128 r = ((unsigned __int128)count * pct + 99) / 100;
    return r == 0 ? 1 : (uint64_t)r;
}

static double bucket_lo(unsigned b)
{
    return b == 0 ? 0.0 : (double)(1ull << (b + GS_HIST_FIRST_LOG2 - 1));
}

static double bucket_hi(unsigned b, uint64_t max)
{
    double lo = bucket_lo(b);
    if (b == GS_HIST_BUCKETS - 1)
        return (double)max > lo ? (double)max : lo;
    return (double)(1ull << (b + GS_HIST_FIRST_LOG2));
}

static double clamp(double v, uint64_t min, uint64_t max)
{
    if (v < (double)min)
        return (double)min;
    return v > (double)max ? (double)max : v;
}

double gst_hist_percentile(const uint64_t hist[GS_HIST_BUCKETS], uint64_t min, uint64_t max,
                           unsigned pct)
{
    uint64_t count = count_of(hist);
    if (count == 0)
        return 0;
    uint64_t rank = rank_of(count, pct), before = 0;
    for (unsigned b = 0; b < GS_HIST_BUCKETS; b++) {
        if (hist[b] == 0 || rank > before + hist[b]) {
            before += hist[b];
            continue;
        }
        double lo = bucket_lo(b), hi = bucket_hi(b, max);
        double v = lo + (hi - lo) * (double)(rank - before) / (double)hist[b];
        return clamp(v, min, max);
    }
    return (double)max; /* only when the sum saturated */
}

double gst_hist_square_bound(const uint64_t hist[GS_HIST_BUCKETS], uint64_t min, uint64_t max)
{
    double sum = 0;
    for (unsigned b = 0; b < GS_HIST_BUCKETS; b++) {
        double hi = clamp(bucket_hi(b, max), min, max);
        sum += (double)hist[b] * hi * hi;
    }
    return sum;
}

double gst_hist_fraction_under(const uint64_t hist[GS_HIST_BUCKETS], unsigned b)
{
    uint64_t count = count_of(hist), under = 0;
    for (unsigned i = 0; i < b && i < GS_HIST_BUCKETS; i++)
        under = __builtin_add_overflow(under, hist[i], &under) ? UINT64_MAX : under;
    return count ? (double)under / (double)count : 0;
}
