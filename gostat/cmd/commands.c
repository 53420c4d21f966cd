/* commands.c: the table of gostat's subcommands. */
#include "gostat/cmd/commands.h"

#include <string.h>

static const struct gst_command commands[] = {
    { "trace", "the calls gorewrite --trace recorded, with their arguments and results", gst_cmd_trace, &gst_trace_options },
    { "clean", "remove stats files of processes that have exited", gst_cmd_clean, &gst_clean_options },
    { "merge", "sum several processes' counts by function into one JSON profile", gst_cmd_merge, &gst_merge_options },
    { "diff", "functions whose calls or time changed between two profiles (CI)", gst_cmd_diff, &gst_diff_options },
    { "coverage", "instrumented functions never called, per package", gst_cmd_coverage, &gst_coverage_options },
    { "pprof", "write a pprof profile (calls, times, call paths) for go tool pprof", gst_cmd_pprof, &gst_pprof_options },
    { "folded", "call paths as folded stacks for flame graphs (--call-graph builds)", gst_cmd_folded, &gst_folded_options },
    { "callgrind", "write a Callgrind profile (with the call graph) for KCachegrind", gst_cmd_callgrind, &gst_callgrind_options },
    { "serve", "serve live processes' metrics to Prometheus over HTTP", gst_cmd_serve, &gst_serve_options },
    { "goroutines", "goroutines by creation site: created, exited, live, oldest, lifetimes", gst_cmd_goroutines, &gst_goroutines_options },
    { "top", "full-screen live view of functions' calls/s and time, like top(1)", gst_cmd_top, &gst_top_options },
};

const struct gst_command *gst_command_find(const char *name)
{
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(commands[i].name, name) == 0)
            return &commands[i];
    return NULL;
}

const struct gr_opt_table *gst_command_options(const char *program)
{
    if (strcmp(program, gst_table_options.program) == 0)
        return &gst_table_options;
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(commands[i].options->program, program) == 0)
            return commands[i].options;
    return NULL;
}

void gst_commands_print(FILE *out)
{
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(out, "  gostat %-11s %s\n", commands[i].name, commands[i].summary);
}
