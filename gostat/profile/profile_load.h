/* exported by gostat/profile */
/* profile_load.h: reading a profile from what a user names on the command
 * line of gostat merge, diff and coverage: a PID (its stats file in
 * $GOSTAT_DIR), a stats file, or a JSON file written by "gostat --json" or
 * "gostat merge" (recognized by its first non-blank byte, '{'). */
#ifndef GOSTAT_PROFILE_LOAD_H
#define GOSTAT_PROFILE_LOAD_H

#include "common/error.h"
#include "gostat/profile/profile.h"
#include "gostat/read/statsfile.h"

#include <stdbool.h>

/* Adds target's processes and functions to p (which the caller
 * initialized) and sorts it. Returns 0, or -1 with err naming target and
 * the problem; p then holds whatever was added before. */
int gst_profile_load(const char *target, struct gst_profile *p, struct gr_error *err);

/* Whether path holds JSON (its first non-blank byte is '{'), not a stats
 * file; false also when it cannot be read. */
bool gst_profile_is_json(const char *path);

/* Adds an open stats file's process and functions to p (not sorted). */
int gst_profile_add_stats(struct gst_profile *p, const struct gst_stats *st, struct gr_error *err);

#endif
