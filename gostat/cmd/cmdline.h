/* cmdline.h: usage errors of gostat's commands, worded alike everywhere:
 * "gostat: CMD: WHAT (see gostat CMD --help)", exit status 1. Commands
 * parse with getopt_long, opterr = 0 and an optstring that starts with
 * ':', so a missing value (':') is told from an unknown option ('?'). */
#ifndef GOSTAT_CMDLINE_H
#define GOSTAT_CMDLINE_H

/* Prints the message and returns GST_EXIT_USAGE. */
int gst_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* For getopt_long's ':' or '?' result opt: names the option that lacks
 * its value or is unknown. Returns GST_EXIT_USAGE. */
int gst_bad_option(const char *cmd, int opt, char **argv);

#endif
