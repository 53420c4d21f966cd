/* exported by gostat/render */
/* json.h: "gostat --json": one JSON object per stats file, for scripts. */
#ifndef GOSTAT_JSON_H
#define GOSTAT_JSON_H

#include "gostat/read/statsfile.h"
#include "gostat/model/view.h"

#include <stdio.h>

/* Prints {"pid":..,"exe":..,"live":..,"build_id":..,"go_version":..,
 * "start_time_ns":..,"total_calls":..,"timing":..,"tsc_hz":..,
 * "clock_source":..,"drops":{..},"goroutines":{..}|null,
 * "call_paths":{..},"functions":[..]} and a newline.
 * total_calls and drops cover the whole file; functions lists the view
 * (filter, sort and top applied), each with its timing ("timed",
 * "untimed_reason" when untimed, "timed_calls", null when untimed, and
 * *_ns durations, null when unknown). call_paths says whether self time
 * and arcs were recorded (--call-graph: "recorded":true, the table bounds,
 * node and arc counts, path_overflow_calls and overflow_calls; else
 * "recorded":false and "why"); when recorded, each timed function also
 * has "self_ns" and "callers":[{"name","entry" (null: unknown),"calls",
 * "total_ns"}]. */
void gst_json_print(FILE *out, const struct gst_stats *st, const struct gst_view *view);

/* Prints s as a JSON string literal. Control characters become \u00XX;
 * bytes that are not valid UTF-8 become \ufffd, so the output always
 * parses. */
void gst_json_put_string(FILE *out, const char *s);

#endif
