/* exported by gostat/cmd */
/* commands.h: gostat's subcommands ("gostat top", "gostat pprof", ...).
 * Each lives in its own cmd_*.c with its option table (common/opttable.h),
 * from which it parses its arguments (argv[0] is the command's name) and
 * answers --help; it returns a gst_exit status. "gostat [options]
 * [PID|FILE]" without a command is the table (cmd_table.c, options.c). */
#ifndef GOSTAT_COMMANDS_H
#define GOSTAT_COMMANDS_H

#include "common/opttable.h"

#include <stdio.h>

struct gst_command {
    const char *name;
    const char *summary;       /* one line for gostat --help */
    int (*run)(int argc, char **argv);
    const struct gr_opt_table *options;
};

/* The command called name, or NULL. */
const struct gst_command *gst_command_find(const char *name);

/* One "  name  summary" line per command. */
void gst_commands_print(FILE *out);

/* The option table of "gostat" (the table command) or "gostat NAME", or
 * NULL: what the manual page's options lists are made from. */
const struct gr_opt_table *gst_command_options(const char *program);

extern const struct gr_opt_table gst_trace_options;
extern const struct gr_opt_table gst_table_options, gst_clean_options, gst_merge_options,
    gst_diff_options, gst_coverage_options, gst_pprof_options, gst_folded_options,
    gst_callgrind_options, gst_serve_options, gst_top_options, gst_goroutines_options;

int gst_cmd_clean(int argc, char **argv);
int gst_cmd_trace(int argc, char **argv);
int gst_cmd_merge(int argc, char **argv);
int gst_cmd_diff(int argc, char **argv);
int gst_cmd_coverage(int argc, char **argv);
int gst_cmd_pprof(int argc, char **argv);
int gst_cmd_callgrind(int argc, char **argv);
int gst_cmd_folded(int argc, char **argv);
int gst_cmd_serve(int argc, char **argv);
int gst_cmd_top(int argc, char **argv);
int gst_cmd_goroutines(int argc, char **argv);
/* "gostat [options] [PID|FILE]": the table; argv as main received it. */
int gst_cmd_table(int argc, char **argv);

#endif
