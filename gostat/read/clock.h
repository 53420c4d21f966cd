/* exported by gostat/read */
/* clock.h: turning a stats file's TSC ticks into nanoseconds. */
#ifndef GOSTAT_CLOCK_H
#define GOSTAT_CLOCK_H

#include "format/gostat_format.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define GST_CLOCK_THIS_BOOT "this boot"
#define GST_CLOCK_STARTUP "start-up calibration"

struct gst_clock {
    bool known;                /* false: no usable calibration, durations unknown */
    double ns_per_tick;
    const char *source;        /* GST_CLOCK_THIS_BOOT, GST_CLOCK_STARTUP, or NULL */
};

/* The best rate for hdr: if the file was written during this boot (same
 * boot_id) and has a start-up pair, the TSC and CLOCK_MONOTONIC now against
 * that pair, a baseline as long as the program's age; else the start-up
 * calibration pair (tsc0, mono0_ns) .. (tsc1, mono1_ns). */
struct gst_clock gst_clock_for(const struct gs_header *hdr);

/* As gst_clock_for, also for a --count-only file that keeps goroutine
 * sites (GS_HDR_SITES: its start-up code calibrates the clock for their
 * ages and lifetimes). */
struct gst_clock gst_clock_for_sites(const struct gs_header *hdr);

/* The start-up calibration alone: a constant for the file's life, for
 * outputs whose durations must never decrease from one read to the next
 * (Prometheus counters); its baseline is at least GS_CALIBRATE_NS. */
struct gst_clock gst_clock_startup(const struct gs_header *hdr);

/* A (TSC, CLOCK_MONOTONIC ns) pair now: the clock read bracketed by two
 * TSC reads; 0, 0 without a TSC. */
void gst_clock_now(uint64_t *tsc, uint64_t *ns);

/* This boot's id (/proc/sys/kernel/random/boot_id without its newline)
 * into buf; false when it cannot be read. */
bool gst_clock_boot_id(char *buf, size_t cap);

#endif
