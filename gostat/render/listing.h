/* exported by gostat/render */
/* listing.h: "gostat" with no target: one line per stats file in the dir. */
#ifndef GOSTAT_LISTING_H
#define GOSTAT_LISTING_H

#include "common/error.h"

#include <stdio.h>

/* Prints PID, STATUS (LIVE, EXITED or INVALID), FUNCS, CALLS, EXE, FILE for
 * each of our regular stats files in dir, sorted by pid, or "no stats files
 * in DIR". Files that fail validation are listed as INVALID, with the
 * reason on errout. Returns 0, or -1 with err if dir cannot be read. */
int gst_list_dir(FILE *out, FILE *errout, const char *dir, struct gr_error *err);

#endif
