/* watch.h: "gostat --watch SECONDS": the table, refreshed, with calls/s. */
#ifndef GOSTAT_WATCH_H
#define GOSTAT_WATCH_H

#include "common/error.h"
#include "gostat/read/statsfile.h"
#include "gostat/model/view.h"

#include <stdbool.h>
#include <stdio.h>

/* Prints the table now and every interval seconds, clearing the screen
 * first when out is a terminal. Stops after printing a table that shows the
 * process exited, or on SIGINT; wide: rows never cut to the terminal.
 * Returns 0, or -1 with err if the file becomes unreadable. */
int gst_watch(FILE *out, struct gst_stats *st, const struct gst_view_options *vo,
              double interval, bool wide, struct gr_error *err);

#endif
