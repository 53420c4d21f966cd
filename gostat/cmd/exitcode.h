/* exported by gostat/cmd */
/* exitcode.h: gostat's exit statuses, the same for every command. */
#ifndef GOSTAT_EXITCODE_H
#define GOSTAT_EXITCODE_H

enum gst_exit {
    GST_EXIT_OK = 0,
    GST_EXIT_USAGE = 1,        /* bad command line */
    GST_EXIT_STATS = 2,        /* a stats file (or other input) missing, unreadable or invalid */
    GST_EXIT_REGRESSION = 3,   /* gostat diff --fail-on-regression found one */
};

#endif
