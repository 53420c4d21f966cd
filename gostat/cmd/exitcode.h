/* exported by gostat/cmd */
/* exitcode.h: gostat's exit statuses, the same for every command. */
#ifndef GOSTAT_EXITCODE_H
#define GOSTAT_EXITCODE_H

#include "common/error.h"

/* An error's status is gr_error_exit_status of its kind: these two. */
enum gst_exit {
    GST_EXIT_OK = 0,
    GST_EXIT_USAGE = GR_EXIT_USAGE,    /* bad command line */
    GST_EXIT_STATS = GR_EXIT_FAILED,   /* a stats file (or other input) missing, unreadable or
                                          invalid, or an output not written */
    GST_EXIT_REGRESSION = 3,   /* gostat diff --fail-on-regression found one */
};

#endif
