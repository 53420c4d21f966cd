/* exported by gostat/render */
/* openmetrics.h: the metrics exposition of a scrape (scrape.h), in the
 * Prometheus text format 0.0.4 or OpenMetrics 1.0.0. docs/metrics.md lists
 * the metric families; this module is their single source. */
#ifndef GOSTAT_OPENMETRICS_H
#define GOSTAT_OPENMETRICS_H

#include "gostat/read/scrape.h"
#include "gostat/render/expo_top.h"

#include <regex.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* Goroutine sites exported per process (docs/metrics.md): those with most
 * live goroutines, then most created; the rest are one series with
 * creator="(other)". Bounds the label sets to about this many per process. */
#define GST_EXPO_MAX_SITES 100

enum gst_expo_format {
    GST_EXPO_PROMETHEUS,       /* text/plain; version=0.0.4 */
    GST_EXPO_OPENMETRICS,      /* application/openmetrics-text; version=1.0.0 */
};

/* What an exposition holds (gostat serve's options; docs/metrics.md). */
struct gst_expo_opts {
    const regex_t *filter;     /* only functions whose name matches; NULL: all */
    size_t top;                /* per process at most this many functions; 0: all */
    bool top_by_calls;         /* rank by calls, not time (untimed files: calls) */
    bool no_histograms;        /* no histogram families at all */
    uint32_t buckets;          /* bit i: the i-th le bound is written (+Inf always) */
    bool pid_label;            /* label pid instead of replica (changes at restarts) */
    struct gst_top_memory *memory; /* --top's earlier choices; NULL: none */
};

/* Every le bound; the default ones (decades from 100 ns to 10 s). */
uint32_t gst_expo_all_buckets(void);
uint32_t gst_expo_default_buckets(void);

/* Parses a comma-separated list of le bounds (each one of the fixed bounds,
 * written as a number: 0.001, 1e-3, 1ms is not one) into *mask. Returns 0,
 * or -1 when an item is not a bound. */
int gst_expo_parse_buckets(const char *list, uint32_t *mask);

/* The format an HTTP Accept header asks for (NULL: none): OpenMetrics when
 * application/openmetrics-text is accepted with a quality above 0 and no
 * lower than text/plain's, else the Prometheus text format. */
enum gst_expo_format gst_expo_negotiate(const char *accept);

/* The Content-Type of a response in that format. */
const char *gst_expo_content_type(enum gst_expo_format fmt);

/* Writes the metrics of s that o selects. Durations use each file's
 * start-up clock calibration, so a process's time counters never
 * decrease. Returns 0, or -1 when memory ran out or out has an error. */
int gst_expo_write(FILE *out, enum gst_expo_format fmt, const struct gst_scrape *s,
                   const struct gst_expo_opts *o);

#endif
