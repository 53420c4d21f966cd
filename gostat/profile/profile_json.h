/* exported by gostat/profile */
/* profile_json.h: the JSON form of a profile. Reads what "gostat --json"
 * prints (one process: "pid", "exe", ... at the top) and what
 * "gostat merge" writes (a "processes" array); writes the latter. */
#ifndef GOSTAT_PROFILE_JSON_H
#define GOSTAT_PROFILE_JSON_H

#include "common/error.h"
#include "gostat/profile/profile.h"

#include <stdio.h>

/* Adds path's processes and functions to p (not sorted). Every field used
 * is type-checked; unknown fields are ignored. Returns 0, or -1 with err
 * naming path and the first bad field (e.g. "functions[3].calls"). */
int gst_profile_read_json(const char *path, struct gst_profile *p, struct gr_error *err);

/* Writes {"processes":[..],"total_calls":..,"goroutines":{..}|null,
 * "functions":[..]} and a newline, one process and one function per line,
 * functions in p's order. Each function has the fields of "gostat --json"
 * except entry, inlined and untimed_reason; its percentiles are null. */
void gst_profile_write_json(FILE *out, const struct gst_profile *p);

#endif
