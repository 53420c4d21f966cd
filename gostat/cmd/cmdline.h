/* cmdline.h: parsing a gostat command's arguments by its option table
 * (common/opttable.h), and its usage errors, worded alike everywhere:
 * "gostat: CMD: WHAT (see gostat CMD --help)", exit status 1. */
#ifndef GOSTAT_CMDLINE_H
#define GOSTAT_CMDLINE_H

#include "common/opttable.h"

/* -h, --help of a command: its usage text, from its table. */
#define GST_HELP_OPTION                                              \
    { "help", 'h', NULL, GR_OPT_STOP, .help = GR_OPT_HELP("this text"), \
      .man = "This command's usage text.\n" }

/* -w, --wide of a command whose text output is fitted to the terminal
 * (term.h): into TYPE's bool wide. */
#define GST_WIDE_OPTION(TYPE)                                                          \
    { "wide", 'w', NULL, GR_OPT_FLAG, GR_OPT_AT(TYPE, wide),                           \
      .help = GR_OPT_HELP("full names and paths; by default text is fitted to the",   \
                          "terminal (or $COLUMNS), long names and paths cut in",      \
                          "the middle with \u2026 (JSON is never cut)"),               \
      .man = "Full names and paths. By default text is fitted to the terminal's width\n" \
             "(or\n.BR $COLUMNS ),\n"                                                 \
             "long names and paths cut in the middle, marked by an ellipsis; JSON is never cut.\n" }

/* Prints the message and returns GST_EXIT_USAGE. */
int gst_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Parses the options of command argv[0] by t into dest and counts its
 * operands against t's. Returns -1 to go on with the operands from
 * argv[*next]; else the exit status, after printing --help (t's only
 * GR_OPT_STOP option) or the usage error. */
int gst_parse_command(const struct gr_opt_table *t, int argc, char **argv, void *dest, int *next);

#endif
