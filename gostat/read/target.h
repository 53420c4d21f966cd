/* exported by gostat/read */
/* target.h: what "PID|FILE" on gostat's command line names. A target of
 * only digits is a pid, found in $GOSTAT_DIR; anything else is a path
 * (write ./123 for a file named 123). */
#ifndef GOSTAT_TARGET_H
#define GOSTAT_TARGET_H

#include "common/error.h"
#include "gostat/read/statsfile.h"

#include <stdbool.h>
#include <stdint.h>

/* True when s is all digits; *pid is then the pid, or -1 when it is too
 * big or zero to be one. */
bool gst_parse_pid(const char *s, int64_t *pid);

/* Opens the stats file target names. Returns 0, or -1 with err (an
 * invalid pid, no file for that pid, or the file's own problem). */
int gst_open_target(const char *target, struct gst_stats *st, struct gr_error *err);

#endif
