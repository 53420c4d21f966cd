/* exported by gostat/cmd */
/* commands.h: gostat's subcommands ("gostat top", "gostat pprof", ...).
 * Each lives in its own cmd_*.c, parses its own arguments (argv[0] is the
 * command's name), answers --help, and returns a gst_exit status.
 * "gostat [options] [PID|FILE]" without a command is the table (cmd_table.c). */
#ifndef GOSTAT_COMMANDS_H
#define GOSTAT_COMMANDS_H

#include <stdio.h>

struct gst_command {
    const char *name;
    const char *summary;       /* one line for gostat --help */
    int (*run)(int argc, char **argv);
};

/* The command called name, or NULL. */
const struct gst_command *gst_command_find(const char *name);

/* One "  name  summary" line per command. */
void gst_commands_print(FILE *out);

int gst_cmd_clean(int argc, char **argv);
int gst_cmd_merge(int argc, char **argv);
int gst_cmd_diff(int argc, char **argv);
int gst_cmd_coverage(int argc, char **argv);
int gst_cmd_pprof(int argc, char **argv);
int gst_cmd_callgrind(int argc, char **argv);
int gst_cmd_folded(int argc, char **argv);
int gst_cmd_serve(int argc, char **argv);
int gst_cmd_top(int argc, char **argv);
/* "gostat [options] [PID|FILE]": the table; argv as main received it. */
int gst_cmd_table(int argc, char **argv);

#endif
