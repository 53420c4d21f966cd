/* exported by gostat/render */
/* gsites_out.h: goroutines by creation site as a table and as JSON
 * ("gostat goroutines", docs/goroutines.md). */
#ifndef GOSTAT_GSITES_OUT_H
#define GOSTAT_GSITES_OUT_H

#include "gostat/model/gsites.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* Whether site i is shown: with older_than_ns > 0, only sites with a live
 * goroutine at least that old. */
bool gst_gsite_shown(const struct gst_gsite *g, uint64_t older_than_ns);

/* "CREATOR (FILE:LINE) -> START" (no parentheses when the file is
 * unknown), made safe for a terminal. */
void gst_gsite_put_name(FILE *out, const char *creator, const char *file, uint32_t line,
                        const char *start);

/* One line per shown site: LIVE CREATED EXITED OLDEST P50 P90 P99 MAX
 * CREATOR (FILE:LINE) -> START, then a line of what was not kept. */
void gst_gsites_table(FILE *out, const struct gst_gsites *g, uint64_t older_than_ns);

/* {"goroutines":[{"creator":..,"file":..,"line":..,"start":..,"created":..,
 * "exited":..,"live":..,"oldest_live_ns":..,"lifetime_ns":{"p50":..,"p90":..,
 * "p99":..,"max":..}}, ...]} and a newline; lifetimes null when none ended
 * with a known lifetime. */
void gst_gsites_json(FILE *out, const struct gst_gsites *g, uint64_t older_than_ns);

#endif
