/* test_clock.c: gostat/read/clock.c, the TSC rate for a stats file. The
 * start-up calibration is pure arithmetic on two (TSC, ns) pairs; the
 * "this boot" rate reads the TSC and CLOCK_MONOTONIC now, so it is checked
 * against the rate between two pairs the module takes for this test, 50 ms
 * apart (within 1 %). */
#include "gostat/read/clock.h"
#include "tests/unit/unit.h"

#include <string.h>
#include <time.h>

static struct gs_header header(void)
{
    struct gs_header h;
    memset(&h, 0, sizeof h);
    h.flags = GS_HDR_SHARED | GS_HDR_TIMING;
    h.tsc0 = 1000000;       /* 3 GHz: 600000 ticks in 200 us */
    h.mono0_ns = 5000000;
    h.tsc1 = 1600000;
    h.mono1_ns = 5200000;
    strcpy(h.boot_id, "00000000-0000-0000-0000-000000000000");
    return h;
}

static void startup_pair(void)
{
    struct gs_header h = header();
    struct gst_clock c = gst_clock_startup(&h);
    CHECK(c.known);
    CHECK_DBL(c.ns_per_tick, 1.0 / 3);
    CHECK_STR(c.source, GST_CLOCK_STARTUP);
    c = gst_clock_for(&h);             /* another boot: the start-up pair too */
    CHECK(c.known);
    CHECK_DBL(c.ns_per_tick, 1.0 / 3);
    CHECK_STR(c.source, GST_CLOCK_STARTUP);
}

static void unusable(void)
{
    struct gs_header h = header();
    h.flags |= GS_HDR_NO_TSC;
    CHECK(!gst_clock_startup(&h).known);
    CHECK(!gst_clock_for(&h).known);
    CHECK_STR(gst_clock_for(&h).source, NULL);
    h = header();
    h.flags = GS_HDR_SHARED;           /* count-only */
    CHECK(!gst_clock_startup(&h).known);
    CHECK(!gst_clock_for(&h).known);
    h = header();
    h.tsc0 = 0;                        /* never calibrated */
    CHECK(!gst_clock_startup(&h).known);
    h = header();
    h.tsc1 = h.tsc0;                   /* the TSC did not advance */
    CHECK(!gst_clock_startup(&h).known);
    h.tsc1 = h.tsc0 - 1;
    CHECK(!gst_clock_for(&h).known);
    h = header();
    h.mono1_ns = h.mono0_ns;           /* nor the clock */
    CHECK(!gst_clock_startup(&h).known);
}

/* This boot: the rate from the file's first pair to now. */
static void this_boot(void)
{
    struct gs_header h = header();
    CHECK(gst_clock_boot_id(h.boot_id, sizeof h.boot_id));
    CHECK(strlen(h.boot_id) == 36);
    gst_clock_now(&h.tsc0, &h.mono0_ns);
    h.tsc1 = h.tsc0 + 3;               /* a start-up pair far off the real rate */
    h.mono1_ns = h.mono0_ns + 1000;
    struct timespec pause = {0, 50000000};
    nanosleep(&pause, NULL);
    uint64_t tsc, ns;
    gst_clock_now(&tsc, &ns);
    double mine = (double)(ns - h.mono0_ns) / (double)(tsc - h.tsc0);
    struct gst_clock c = gst_clock_for(&h);
    CHECK(c.known);
    CHECK_STR(c.source, GST_CLOCK_THIS_BOOT);
    CHECK(c.ns_per_tick > mine * 0.99 && c.ns_per_tick < mine * 1.01);
    /* the start-up rate stays the file's own pair */
    CHECK_DBL(gst_clock_startup(&h).ns_per_tick, 1000.0 / 3);
    /* a first pair in the future is useless now: the start-up pair */
    h.tsc0 = tsc + ((uint64_t)1 << 50);
    h.tsc1 = h.tsc0 + 600000;
    h.mono1_ns = h.mono0_ns + 200000;
    c = gst_clock_for(&h);
    CHECK_STR(c.source, GST_CLOCK_STARTUP);
    CHECK_DBL(c.ns_per_tick, 1.0 / 3);
    /* a boot_id without its NUL is not this boot */
    h = header();
    memset(h.boot_id, 'a', sizeof h.boot_id);
    CHECK_STR(gst_clock_for(&h).source, GST_CLOCK_STARTUP);
}

UNIT_CASES("clock",
           UNIT_CASE(startup_pair),
           UNIT_CASE(unusable),
           UNIT_CASE(this_boot));
