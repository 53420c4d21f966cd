/* export.h: what "gostat pprof" and "gostat callgrind" share: the command
 * line (PID|FILE, -o FILE, --filter REGEX), opening the target, choosing
 * the functions (those called at least once, most calls first), building
 * the call graph, and
 * writing the output file atomically. Each command supplies its format. */
#ifndef GOSTAT_EXPORT_H
#define GOSTAT_EXPORT_H

#include "gostat/model/callgraph.h"
#include "common/error.h"
#include "gostat/read/statsfile.h"
#include "gostat/model/view.h"

#include <stddef.h>
#include <stdio.h>

struct gst_exporter {
    const char *name;                  /* the command: "pprof" */
    void (*usage)(FILE *out);
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
