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
    int count_only, time_all, call_graph;   /* the mode's words, resolved into opt.timing */
    uint32_t sample;            /* --sample N, or 0 */
    int max_paths_given, first_given;
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
    GR_ACTION_DONE,             /* --help or --version, printed: exit 0 */
    GR_ACTION_FAILED,           /* a usage error, in *err */
    GR_ACTION_USAGE,            /* no INPUT and OUTPUT: a usage error shown by the usage text */
};

extern const struct gr_opt_table gr_gorewrite_options;

/* Parses argv into a; for GR_ACTION_FAILED, fills err (of kind
 * GR_ERR_USAGE). */
enum gr_arguments_action gr_arguments_parse(int argc, char **argv, struct gr_arguments *a,
                                            struct gr_error *err);

#endif
