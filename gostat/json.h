/* json.h: "gostat --json": one JSON object per stats file, for scripts. */
#ifndef GOSTAT_JSON_H
#define GOSTAT_JSON_H

#include "statsfile.h"
#include "view.h"

#include <stdio.h>

/* Prints {"pid":..,"exe":..,"live":..,"build_id":..,"start_time_ns":..,
 * "total_calls":..,"functions":[..]} and a newline. total_calls covers the
 * whole file; functions lists the view (filter, sort and top applied). */
void gst_json_print(FILE *out, const struct gst_stats *st, const struct gst_view *view);

/* Prints s as a JSON string literal. Control characters become \u00XX;
 * bytes that are not valid UTF-8 become \ufffd, so the output always
 * parses. */
void gst_json_put_string(FILE *out, const char *s);

#endif
