/* exported by rewriter */
/* arguments.h: gorewrite's command line: its option table (from which the
 * parsing, --help and the manual's options list come: common/opttable.h)
 * and the checks of what goes together. */
#ifndef GR_ARGUMENTS_H
#define GR_ARGUMENTS_H

#include "common/opttable.h"
#include "format/trace_format.h"
#include "rewriter/rewrite.h"

#include <stdint.h>

#define GR_ARGUMENTS_OPERANDS 2     /* INPUT OUTPUT */

struct gr_arguments {
    struct gr_options opt;
    const char *paths[GR_ARGUMENTS_OPERANDS];   /* INPUT and OUTPUT */
    int npaths;
    const char *print_layout;   /* --print-layout INPUT, or NULL */
    int call_graph, max_paths_given, first_given;
    uint32_t max_paths;         /* --max-paths, or the default */
    int trace_given;            /* a --trace-* option other than --trace */
};

#define GR_TRACE_DEFAULT_BYTES 64
#define GR_TRACE_DEFAULT_BUFFER (256u << 10)
#define GR_TRACE_MIN_BUFFER 4096u

/* What gorewrite is to do after gr_arguments_parse. */
enum gr_arguments_action {
    GR_ACTION_REWRITE,          /* INPUT to OUTPUT */
    GR_ACTION_PRINT_LAYOUT,     /* --print-layout INPUT */
    GR_ACTION_EXIT,             /* done (--help, --version) or a usage error: exit with *status */
};

extern const struct gr_opt_table gr_gorewrite_options;

/* Parses argv into a. For GR_ACTION_EXIT, *status is the exit status and
 * the text (usage, version, or the error on stderr) is printed. */
enum gr_arguments_action gr_arguments_parse(int argc, char **argv, struct gr_arguments *a,
                                            int *status);

#endif
