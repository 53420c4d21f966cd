/* export.h: what "gostat pprof" and "gostat callgrind" share: the command
 * line (PID|FILE, -o FILE, --filter REGEX), opening the target, choosing
 * the functions (those called at least once, most calls first), building
 * the call graph, and
 * writing the output file atomically. Each command supplies its format. */
#ifndef GOSTAT_EXPORT_H
#define GOSTAT_EXPORT_H

#include "gostat/model/callgraph.h"
#include "common/error.h"
#include "common/opttable.h"
#include "gostat/read/statsfile.h"
#include "gostat/model/view.h"

#include <stddef.h>
#include <stdio.h>

/* The command line, where the exporter's option table puts it. */
struct gst_export_args {
    const char *target;
    const char *output;        /* NULL: the exporter's default */
    const char *filter;        /* NULL: all functions */
};

/* --filter REGEX, as both exporters have it. */
#define GST_EXPORT_FILTER_OPTION                                                       \
    { "filter", 0, "REGEX", GR_OPT_STRING, GR_OPT_AT(struct gst_export_args, filter), \
      .help = GR_OPT_HELP("only functions whose name matches (POSIX extended)"),  \
      .man = "Only functions whose name matches.\n" }

struct gst_exporter {
    const char *name;                  /* the command: "pprof" */
    const struct gr_opt_table *options;
    /* The output file when -o is not given, for st. */
    void (*default_path)(const struct gst_stats *st, char *buf, size_t len);
    /* Writes the format to out (named path in messages); cg is the call
     * graph (present only for --call-graph files). 0 or -1 with err. */
    int (*write)(FILE *out, const char *path, const struct gst_stats *st,
                 const struct gst_view *view, const struct gst_callgraph *cg,
                 struct gr_error *err);
};

/* The exe's base name for a default output file name: characters other
 * than letters, digits, '.', '_', '+' and '-' become '_'; "unknown" when
 * empty. */
void gst_export_exe_base(const struct gst_stats *st, char *buf, size_t len);

/* Runs the command; returns a gst_exit status. */
int gst_export_main(int argc, char **argv, const struct gst_exporter *x);

#endif
