/* exported by gostat/render */
/* duration.h: nanoseconds as short human-readable text ("845ns",
 * "10.2ms", "1.20s"): three significant digits and a unit. */
#ifndef GOSTAT_DURATION_H
#define GOSTAT_DURATION_H

#include <stddef.h>

void gst_format_duration(char *buf, size_t size, double ns);

#endif
