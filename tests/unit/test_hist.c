/* test_hist.c: gostat/model/hist.c, percentiles from the log2 duration
 * histogram. Bucket 0 holds [0, 32) ticks, bucket b >= 1 holds
 * [2^(b+4), 2^(b+5)), the last is open above (gostat_format.h). The
 * expected values are worked out by hand from hist.h's rule: rank =
 * ceil(pct/100 * count), then linear inside the bucket holding the rank,
 * clamped to [min, max]. */
#include "gostat/model/hist.h"
#include "tests/unit/unit.h"

#include <string.h>

static double pct(const uint64_t *h, uint64_t min, uint64_t max, unsigned p)
{
    return gst_hist_percentile(h, min, max, p);
}

static void empty_is_zero(void)
{
    uint64_t h[GS_HIST_BUCKETS] = {0};
    CHECK_DBL(pct(h, 0, 0, 50), 0);
    CHECK_DBL(pct(h, 5, 900, 99), 0);
}

/* 10 durations in [32, 64): rank r of 10 is at 32 + 32 * r / 10. */
static void one_bucket(void)
{
    uint64_t h[GS_HIST_BUCKETS] = {0};
    h[1] = 10;
    CHECK_DBL(pct(h, 32, 63, 50), 48);         /* rank 5 */
    CHECK_DBL(pct(h, 32, 63, 90), 60.8);       /* rank 9 */
    CHECK_DBL(pct(h, 32, 63, 10), 35.2);       /* rank 1 */
    CHECK_DBL(pct(h, 32, 63, 99), 63);         /* rank 10: 64, clamped to max */
    CHECK_DBL(pct(h, 40, 63, 1), 40);          /* rank 1: 35.2, clamped to min */
    CHECK_DBL(pct(h, 32, 63, 51), 51.2);       /* ceil(5.1) = 6 */
}

/* 4 in [0,32), 4 in [64,128), 2 in [512,1024); min 10, max 900. */
static void several_buckets(void)
{
    uint64_t h[GS_HIST_BUCKETS] = {0};
    h[0] = 4;
    h[2] = 4;
    h[5] = 2;
    CHECK_DBL(pct(h, 10, 900, 10), 10);        /* rank 1: 8, clamped to min */
    CHECK_DBL(pct(h, 10, 900, 20), 16);        /* rank 2: 32 * 2/4 */
    CHECK_DBL(pct(h, 10, 900, 40), 32);        /* rank 4: the top of bucket 0 */
    CHECK_DBL(pct(h, 10, 900, 50), 80);        /* rank 5: 64 + 64 * 1/4 */
    CHECK_DBL(pct(h, 10, 900, 80), 128);       /* rank 8: 64 + 64 * 4/4 */
    CHECK_DBL(pct(h, 10, 900, 90), 768);       /* rank 9: 512 + 512 * 1/2 */
    CHECK_DBL(pct(h, 10, 900, 99), 900);       /* rank 10: 1024, clamped to max */
    CHECK_DBL(pct(h, 10, 900, 100), 900);
}

/* Buckets 30 and 31: [2^34, 2^35) and [2^35, max]. */
static void top_buckets(void)
{
    uint64_t h[GS_HIST_BUCKETS] = {0};
    uint64_t b35 = (uint64_t)1 << 35, b37 = (uint64_t)1 << 37;
    h[31] = 2;
    CHECK_DBL(pct(h, b35 + 5, b37, 50), (double)(b35 + (b37 - b35) / 2));  /* 85899345920 */
    CHECK_DBL(pct(h, b35 + 5, b37, 100), (double)b37);
    h[31] = 1;                                 /* max below the bucket's start */
    CHECK_DBL(pct(h, 0, b35 - 1, 50), (double)(b35 - 1));
    memset(h, 0, sizeof h);
    h[30] = 4;
    CHECK_DBL(pct(h, 0, UINT64_MAX, 50), (double)((uint64_t)1 << 34) * 1.5);
}

/* Counts near 2^64 saturate instead of wrapping. */
static void huge_counts(void)
{
    uint64_t h[GS_HIST_BUCKETS] = {0};
    h[1] = UINT64_MAX;
    h[2] = UINT64_MAX;
    double v = pct(h, 32, 127, 50);            /* count saturates at 2^64-1 */
    CHECK(v >= 32 && v <= 64);
    h[2] = 0;
    h[3] = 1;                                  /* the rank never reaches bucket 3 */
    CHECK_DBL(pct(h, 32, 255, 100), 64);
}

/* gostat diff's spread: each bucket at its upper edge, clamped to
 * [min, max]: 4 in [32, 64) at 64, 2 in [128, 256) at max 200. */
static void square_bound(void)
{
    uint64_t h[GS_HIST_BUCKETS] = {0};
    CHECK_DBL(gst_hist_square_bound(h, 0, 0), 0);
    h[1] = 4;
    h[3] = 2;
    CHECK_DBL(gst_hist_square_bound(h, 40, 200), 4 * 64.0 * 64 + 2 * 200.0 * 200);
    CHECK_DBL(gst_hist_square_bound(h, 40, 60), 4 * 60.0 * 60 + 2 * 60.0 * 60);
}

/* The fraction under bucket b: exact, from the counts alone. */
static void fraction_under(void)
{
    uint64_t h[GS_HIST_BUCKETS] = {0};
    CHECK_DBL(gst_hist_fraction_under(h, 5), 0);
    h[1] = 1;
    h[3] = 3;
    CHECK_DBL(gst_hist_fraction_under(h, 0), 0);
    CHECK_DBL(gst_hist_fraction_under(h, 2), 0.25);
    CHECK_DBL(gst_hist_fraction_under(h, 4), 1);
    CHECK_DBL(gst_hist_fraction_under(h, GS_HIST_BUCKETS + 3), 1);
}

UNIT_CASES("hist",
           UNIT_CASE(empty_is_zero),
           UNIT_CASE(one_bucket),
           UNIT_CASE(several_buckets),
           UNIT_CASE(top_buckets),
           UNIT_CASE(huge_counts),
           UNIT_CASE(square_bound),
           UNIT_CASE(fraction_under));
