/* exported by gostat/render */
/* openmetrics.h: the metrics exposition of a scrape (scrape.h), in the
 * Prometheus text format 0.0.4 or OpenMetrics 1.0.0. docs/metrics.md lists
 * the metric families; this module is their single source. */
#ifndef GOSTAT_OPENMETRICS_H
#define GOSTAT_OPENMETRICS_H

#include "gostat/read/scrape.h"

#include <stdio.h>

/* Goroutine sites exported per process (docs/metrics.md): those with most
 * live goroutines, then most created; the rest are one series with
 * creator="(other)". Bounds the label sets to about this many per process. */
#define GST_EXPO_MAX_SITES 100

enum gst_expo_format {
    GST_EXPO_PROMETHEUS,       /* text/plain; version=0.0.4 */
    GST_EXPO_OPENMETRICS,      /* application/openmetrics-text; version=1.0.0 */
};

/* The format an HTTP Accept header asks for (NULL: none): OpenMetrics when
 * application/openmetrics-text is accepted with a quality above 0 and no
 * lower than text/plain's, else the Prometheus text format. */
enum gst_expo_format gst_expo_negotiate(const char *accept);

/* The Content-Type of a response in that format. */
const char *gst_expo_content_type(enum gst_expo_format fmt);

/* Writes every metric of s. Durations use each file's start-up clock
 * calibration, so a process's time counters never decrease. Returns 0, or
 * -1 when memory ran out or out has an error. */
int gst_expo_write(FILE *out, enum gst_expo_format fmt, const struct gst_scrape *s);

#endif
