/* findpid.h: resolving "gostat PID" to that process's stats file. */
#ifndef GOSTAT_FINDPID_H
#define GOSTAT_FINDPID_H

#include "common/error.h"
#include "gostat/read/statsfile.h"

#include <stdbool.h>
#include <stdint.h>

/* Opens the stats file of pid in dir: among our files named
 * gostat.<exe>.<pid>, gostat.<exe>.<pid>.<n> or .<16 hex digits> whose header agrees on the
 * pid, the newest live one, else the newest (by header start time).
 * Returns 0 with *st open, or -1 with err. */
int gst_find_pid_file(const char *dir, int64_t pid, struct gst_stats *st, struct gr_error *err);

/* True when name could be a stats file of pid by the naming rule alone.
 * Exe names may contain dots, so "gostat.a.1.2" could be pid 1 (copy 2)
 * or pid 2; the header decides. */
bool gst_name_matches_pid(const char *name, int64_t pid);

#endif
