/* exported by gostat/render */
/* duration.h: nanoseconds as short human-readable text ("845ns",
 * "10.2ms", "1.20s"): three significant digits and a unit; and a point
 * in time as a date. */
#ifndef GOSTAT_DURATION_H
#define GOSTAT_DURATION_H

#include <stddef.h>
#include <stdint.h>

void gst_format_duration(char *buf, size_t size, double ns);

/* A CLOCK_REALTIME time in ns as local wall-clock text
 * ("2026-12-02 06:57:43 UTC"). */
void gst_format_wall_time(char *buf, size_t size, uint64_t ns);

#endif
