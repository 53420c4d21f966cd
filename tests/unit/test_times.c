/* test_times.c: gostat/model/times.c, a function's durations in
 * nanoseconds: ticks through the file's clock, the mean over timed calls,
 * percentiles from the histogram, and the sampled estimate (1 call in N
 * timed: total = mean x calls). When a duration is unknown it says so
 * (known/any false) rather than showing 0. */
#include "gostat/model/times.h"
#include "tests/unit/unit.h"

#include <string.h>

/* 0.5 ns per tick (a 2 GHz TSC); every product below is exact. */
static struct gst_stats stats(uint32_t sample_every)
{
    struct gst_stats st;
    memset(&st, 0, sizeof st);
    st.hdr.sample_every = sample_every;
    /* --sample N: counters hold calls - next */
    st.timing = sample_every > 1 ? (struct gs_timing_mode){ GS_MODE_SAMPLED, sample_every }
                                 : (struct gs_timing_mode){ GS_MODE_EVERY_CALL, 0 };
    st.clock = (struct gst_clock){.known = true, .ns_per_tick = 0.5, .source = GST_CLOCK_STARTUP};
    return st;
}

/* 10 timed calls in [32, 64) ticks, 1000 ticks in all. */
static struct gst_func timed_func(void)
{
    struct gst_func f;
    memset(&f, 0, sizeof f);
    f.name = "main.work";
    f.timed = true;
    f.calls = 10;
    f.timed_calls = 10;
    f.total_ticks = 1000;
    f.min_ticks = 32;
    f.max_ticks = 63;
    f.hist[1] = 10;
    return f;
}

static void ticks_to_ns(void)
{
    struct gst_stats st = stats(0);
    struct gst_func f = timed_func();
    struct gst_times t = gst_times_of(&st, &f);
    CHECK(t.known);
    CHECK(t.any);
    CHECK_DBL(t.total_ns, 500);
    CHECK_DBL(t.mean_ns, 50);
    CHECK_DBL(t.p50_ns, 24);           /* 48 ticks */
    CHECK_DBL(t.p90_ns, 30.4);         /* 60.8 ticks */
    CHECK_DBL(t.p99_ns, 31.5);         /* 63 ticks: max */
    CHECK_DBL(t.min_ns, 16);
    CHECK_DBL(t.max_ns, 31.5);
}

/* Calls counted but not timed (unwound, too deep): the mean is over the
 * timed ones only. */
static void mean_over_timed_calls(void)
{
    struct gst_stats st = stats(1);    /* 1: every call timed, not sampled */
    struct gst_func f = timed_func();
    f.calls = 25;
    struct gst_times t = gst_times_of(&st, &f);
    CHECK_DBL(t.total_ns, 500);
    CHECK_DBL(t.mean_ns, 50);
}

static void sampled_estimate(void)
{
    struct gst_stats st = stats(16);
    struct gst_func f = timed_func();
    f.calls = 160;                     /* 2 timed calls standing for 10 of 160 */
    f.samples = 2;
    struct gst_times t = gst_times_of(&st, &f);
    CHECK(t.known && t.any);
    CHECK_DBL(t.mean_ns, 50);
    CHECK_DBL(t.total_ns, 8000);       /* 50 ns x 160 */
    CHECK_DBL(t.p50_ns, 24);
    CHECK_DBL(t.max_ns, 31.5);
    f.timed_calls = 0;                 /* sampled, none drawn: unknown */
    f.total_ticks = 0;
    memset(f.hist, 0, sizeof f.hist);
    t = gst_times_of(&st, &f);
    CHECK(!t.known && !t.any);
    CHECK_DBL(t.total_ns, 0);
}

/* Sampling, every weight 1, but a thread drew a gap its calls did not
 * close (gs_timing.gap > 1): 10 of 40 calls timed, the other 30 in no
 * weight, so the total is mean x calls, not the 10 calls' sum. */
static void open_gap_estimated(void)
{
    struct gst_stats st = stats(16);
    struct gst_func f = timed_func();
    f.calls = 40;
    f.samples = 10;
    struct gst_times t = gst_times_of(&st, &f);
    CHECK(!t.estimated);               /* no gap drawn: exact, 10 calls timed */
    CHECK_DBL(t.total_ns, 500);
    f.gap = 2;
    t = gst_times_of(&st, &f);
    CHECK(t.estimated);
    CHECK_DBL(t.total_ns, 2000);       /* 50 ns x 40 */
    st = stats(1);                     /* every call timed: never estimated */
    t = gst_times_of(&st, &f);
    CHECK(!t.estimated);
}

static void unknown_or_none(void)
{
    struct gst_stats st = stats(0);
    struct gst_func f = timed_func();
    f.timed = false;                   /* untimed function */
    struct gst_times t = gst_times_of(&st, &f);
    CHECK(!t.known && !t.any);
    CHECK_DBL(t.total_ns, 0);
    f = timed_func();
    st.clock.known = false;            /* no usable clock */
    t = gst_times_of(&st, &f);
    CHECK(!t.known && !t.any);
    CHECK_DBL(t.mean_ns, 0);
    /* timed, never called: known to be 0, but no mean or percentiles */
    st = stats(0);
    memset(&f, 0, sizeof f);
    f.timed = true;
    t = gst_times_of(&st, &f);
    CHECK(t.known);
    CHECK(!t.any);
    CHECK_DBL(t.total_ns, 0);
    CHECK_DBL(t.p50_ns, 0);
    /* called, every call timed, none got a duration (left open by the
       scheduler, unwound): unknown, not 0, as when sampled */
    f.calls = 7;
    t = gst_times_of(&st, &f);
    CHECK(!t.known && !t.any);
    st = stats(1);
    t = gst_times_of(&st, &f);
    CHECK(!t.known && !t.any);
}

UNIT_CASES("times",
           UNIT_CASE(ticks_to_ns),
           UNIT_CASE(mean_over_timed_calls),
           UNIT_CASE(sampled_estimate),
           UNIT_CASE(open_gap_estimated),
           UNIT_CASE(unknown_or_none));
