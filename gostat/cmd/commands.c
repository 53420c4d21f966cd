/* commands.c: the table of gostat's subcommands. */
#include "gostat/cmd/commands.h"

#include <string.h>

static const struct gst_command commands[] = {
    { "clean", "remove stats files of processes that have exited", gst_cmd_clean },
    { "merge", "sum several processes' counts by function into one JSON profile", gst_cmd_merge },
    { "diff", "functions whose calls or time changed between two profiles (CI)", gst_cmd_diff },
    { "coverage", "instrumented functions never called, per package", gst_cmd_coverage },
    { "pprof", "write a pprof profile (calls, times, call paths) for go tool pprof", gst_cmd_pprof },
    { "folded", "call paths as folded stacks for flame graphs (--call-graph builds)", gst_cmd_folded },
    { "callgrind", "write a Callgrind profile (with the call graph) for KCachegrind", gst_cmd_callgrind },
    { "serve", "serve live processes' metrics to Prometheus over HTTP", gst_cmd_serve },
    { "top", "full-screen live view of functions' calls/s and time, like top(1)", gst_cmd_top },
};

const struct gst_command *gst_command_find(const char *name)
{
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(commands[i].name, name) == 0)
            return &commands[i];
    return NULL;
}

void gst_commands_print(FILE *out)
{
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(out, "  gostat %-10s %s\n", commands[i].name, commands[i].summary);
}
