/* arcs.c: the --callers and --callees listings. Columns: CALLS, %CALLS,
 * TOTAL, %TIME, then the other function's name, last so that long names
 * do not push the numbers apart. */
#include "gostat/render/arcs.h"

#include "gostat/render/duration.h"
#include "gostat/render/term.h"
#include "gostat/model/times.h"
#include "common/saturate.h"

#include <inttypes.h>
#include <stdlib.h>

#define CELL 48
#define NO_ARC_NAME "(no arc recorded)"

struct shares {
    uint64_t calls;            /* the whole the calls' shares are of */
    bool time_known;
    double total_ns;           /* the whole the times' shares are of */
};

static void format_share(char *buf, double part, double whole, bool known)
{
    if (known && whole > 0)
        snprintf(buf, CELL, "%.1f%%", 100 * part / whole);
    else
        snprintf(buf, CELL, "-");
}

static void put_row(FILE *out, uint64_t calls, bool time_known, double ns, const char *name,
                    const struct shares *w)
{
    char total[CELL], pc[CELL], pt[CELL];
    if (time_known)
        gst_format_duration(total, CELL, ns);
    else
        snprintf(total, CELL, "-");
    format_share(pc, (double)calls, (double)w->calls, true);
    format_share(pt, ns, w->total_ns, time_known && w->time_known);
    fprintf(out, "%12" PRIu64 " %7s %9s %7s  ", calls, pc, total, pt);
    gst_put_cell(out, name, 0, false);
    fputc('\n', out);
}

static void put_heading(FILE *out, const struct gst_func *f, enum gst_arc_side side,
                        const struct gst_times *t)
{
    char total[CELL];
    fputs(side == GST_ARCS_CALLERS ? "callers of " : "callees of ", out);
    gst_put_cell(out, f->name, 0, false);
    fprintf(out, ": %" PRIu64 " call%s", f->calls, f->calls == 1 ? "" : "s");
    if (t->known) {
        gst_format_duration(total, CELL, t->total_ns);
        fprintf(out, ", %s total", total);
    }
    fprintf(out, "\n%12s %7s %9s %7s  %s\n", "CALLS", "%CALLS", "TOTAL", "%TIME",
            side == GST_ARCS_CALLERS ? "CALLER" : "CALLEE");
}

static void put_callers(FILE *out, const struct gst_stats *st, const struct gst_callgraph *cg,
                        const struct gst_func *f)
{
    struct gst_times t = gst_times_of(st, f);
    struct shares w = { f->calls, t.known, t.total_ns };
    const struct gst_cg_arc *arcs;
    size_t n = gst_callgraph_callers(cg, f, &arcs);
    uint64_t in_arcs = 0;
    put_heading(out, f, GST_ARCS_CALLERS, &t);
    for (size_t i = 0; i < n; i++) {
        put_row(out, arcs[i].calls, true, arcs[i].total_ns, arcs[i].caller_name, &w);
        in_arcs = gr_add_saturating(in_arcs, arcs[i].calls);
    }
    if (f->timed && f->calls > in_arcs)
        put_row(out, f->calls - in_arcs, false, 0, NO_ARC_NAME, &w);
    if (n == 0 && !f->timed)
        fputs("  (not timed: its calls are in no call path)\n", out);
}

/* The shares of calls are of the calls it made, those of time of its own. */
static int put_callees(FILE *out, const struct gst_stats *st, const struct gst_callgraph *cg,
                       const struct gst_func *f, struct gr_error *err)
{
    struct gst_times t = gst_times_of(st, f);
    struct shares w = { 0, t.known, t.total_ns };
    const struct gst_cg_arc **arcs;
    long n = gst_callgraph_callees(cg, f->entry, &arcs, err);
    if (n < 0)
        return -1;
    for (long i = 0; i < n; i++)
        w.calls = gr_add_saturating(w.calls, arcs[i]->calls);
    put_heading(out, f, GST_ARCS_CALLEES, &t);
    for (long i = 0; i < n; i++)
        put_row(out, arcs[i]->calls, true, arcs[i]->total_ns, arcs[i]->callee->name, &w);
    if (n == 0)
        fputs("  (none: it made no timed call)\n", out);
    free(arcs);
    return 0;
}

int gst_arcs_print(FILE *out, const struct gst_stats *st, const struct gst_callgraph *cg,
                   const struct gst_func *f, enum gst_arc_side side, struct gr_error *err)
{
    if (side == GST_ARCS_CALLEES)
        return put_callees(out, st, cg, f, err);
    put_callers(out, st, cg, f);
    return 0;
}
