/* callgrind.c: writing the Callgrind format. The format is line-based and
 * a name runs to the end of its line, so every name is cleaned first
 * (gst_utf8_clean: no control characters, valid UTF-8). Names and files
 * are always written compressed ("fn=(ID) name" once, "fn=(ID)" after):
 * with an ID in front, a name that itself starts with "(" and a digit
 * cannot be mistaken for a reference.
 *
 * With a call graph (--call-graph), a function's own cost line holds its
 * calls and its SELF time, and each arc out of it is a call
 * ("cfn=" "calls=N") whose cost line holds the arc's calls and inclusive
 * time, so readers add self and calls into inclusive cost. Callers that
 * are not among the functions written (untimed, not instrumented,
 * "(unknown)") get a block of their own with zero self cost and their
 * calls. Without a graph, one cost line per function, inclusive time. */
#include "gostat/render/callgrind.h"

#include "gostat/render/intern.h"
#include "gostat/model/times.h"
#include "gostat/render/utf8.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define UNKNOWN_NAME "???"     /* valgrind's own word for an unknown name */

struct costs {
    uint64_t calls, time_ns;
};

struct writer {
    FILE *out;
    const struct gst_stats *st;
    const struct gst_view *view;
    const struct gst_callgraph *cg;    /* NULL: no graph */
    struct gst_intern files, fns;
    struct gr_error *err;
};

/* Readers skip the spaces after "(ID)", so a name of only spaces would
 * read as a reference to an undefined ID. */
static const char *nonblank(const char *s)
{
    return s[strspn(s, " ")] ? s : UNKNOWN_NAME;
}

static uint64_t ns_of(double ns)
{
    if (!(ns > 0))
        return 0;
    return ns >= 0x1p64 ? UINT64_MAX : (uint64_t)nearbyint(ns);   /* rounded as --json prints it */
}

static struct costs costs_of(const struct writer *w, const struct gst_func *f)
{
    struct gst_times t = gst_times_of(w->st, f);
    struct costs c = { f->calls, 0 };
    if (w->cg)
        c.time_ns = gst_callgraph_self_ns(w->cg, f);  /* the sum pprof and folded write */
    else
        c.time_ns = t.known ? ns_of(t.total_ns) : 0;
    return c;
}

static void put_header(const struct writer *w, const char *exe, struct costs total)
{
    FILE *out = w->out;
    fprintf(out, "# callgrind format\nversion: 1\ncreator: gostat\n");
    fprintf(out, "pid: %" PRId64 "\ncmd: %s\n", w->st->hdr.pid, exe);
    fprintf(out, "desc: Trigger: %s\n", w->st->live ? "gostat snapshot of a live process"
                                                    : "process exited");
    if (w->cg)
        fprintf(out, "desc: Note: TimeNs is self time, inclusive through calls; a call's "
                     "Calls count the callee's calls through it, not its callees'. Self times "
                     "hold every timed call, also those beyond the call paths: the total equals "
                     "gostat pprof's and gostat folded's\n");
    else
        fprintf(out, "desc: Note: TimeNs is inclusive of callees (shown as self cost; no call "
                     "graph without --call-graph); 0 where a function has no time\n");
    fprintf(out, "positions: line\n");
    fprintf(out, "event: Calls : Calls (exact count)\n");
    fprintf(out, "event: TimeNs : Time in ns%s\n", w->cg ? "" : ", inclusive of callees");
    /* callgrind_annotate ends the header at "events:"; it reads summary:
     * and totals: wherever they are. */
    fprintf(out, "events: Calls TimeNs\n");
    fprintf(out, "summary: %" PRIu64 " %" PRIu64 "\n\n", total.calls, total.time_ns);
}

/* PREFIX=(ID) NAME the first time a string is named, PREFIX=(ID) after. */
static int put_ref(FILE *out, const char *prefix, struct gst_intern *t, const char *s,
                   struct gr_error *err)
{
    bool added;
    long id = gst_intern_add(t, s[0] ? s : UNKNOWN_NAME, &added, err);
    if (id < 0)
        return -1;
    if (added)
        fprintf(out, "%s=(%ld) %s\n", prefix, id + 1, nonblank(t->strings[id]));
    else
        fprintf(out, "%s=(%ld)\n", prefix, id + 1);
    return 0;
}

static int put_block(struct writer *w, const char *file, const char *name, uint32_t line,
                     struct costs c)
{
    if (put_ref(w->out, "fl", &w->files, file, w->err) < 0 ||
        put_ref(w->out, "fn", &w->fns, name, w->err) < 0)
        return -1;
    fprintf(w->out, "%" PRIu32 " %" PRIu64 " %" PRIu64 "\n", line, c.calls, c.time_ns);
    return 0;
}

static int put_call(struct writer *w, uint32_t line, const struct gst_cg_arc *a)
{
    const struct gst_func *f = a->callee;
    if (put_ref(w->out, "cfl", &w->files, f->file, w->err) < 0 ||
        put_ref(w->out, "cfn", &w->fns, f->name, w->err) < 0)
        return -1;
    fprintf(w->out, "calls=%" PRIu64 " %" PRIu32 "\n%" PRIu32 " %" PRIu64 " %" PRIu64 "\n",
            a->calls, f->line, line, a->calls, ns_of(a->total_ns));
    return 0;
}

/* f's block: its own cost, then its calls into written functions. */
static int put_function(struct writer *w, const struct gst_func *f)
{
    if (put_block(w, f->file, f->name, f->line, costs_of(w, f)) < 0)
        return -1;
    if (!w->cg)
        return 0;
    const struct gst_cg_arc **arcs;
    long n = gst_callgraph_callees(w->cg, f->entry, &arcs, w->err);
    int rc = n < 0 ? -1 : 0;
    for (long i = 0; i < n && rc == 0; i++)
        if (gst_callgraph_selected(w->cg, arcs[i]->callee))
            rc = put_call(w, f->line, arcs[i]);
    if (n >= 0)
        free(arcs);
    return rc;
}

static int by_entry(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

static int by_caller(const void *a, const void *b)
{
    const struct gst_cg_arc *x = *(const struct gst_cg_arc *const *)a;
    const struct gst_cg_arc *y = *(const struct gst_cg_arc *const *)b;
    if (x->caller_entry != y->caller_entry)
        return x->caller_entry < y->caller_entry ? -1 : 1;
    int c = strcmp(x->caller_name, y->caller_name);
    return c ? c : strcmp(x->callee->name, y->callee->name);
}

/* The arcs into written functions from callers that were not written,
 * grouped by caller. *out is malloc'ed; returns the count or -1. */
static long foreign_arcs(struct writer *w, const struct gst_cg_arc ***out)
{
    size_t nv = w->view->count;
    uint64_t *entries = malloc((nv + 1) * sizeof *entries);
    *out = malloc((w->cg->narcs + 1) * sizeof **out);
    if (!entries || !*out) {
        free(entries);
        free(*out);
        return gr_fail(w->err, "out of memory for %zu arcs", w->cg->narcs);
    }
    for (size_t i = 0; i < nv; i++)
        entries[i] = w->view->funcs[i]->entry;
    qsort(entries, nv, sizeof *entries, by_entry);
    long n = 0;
    for (size_t i = 0; i < w->cg->narcs; i++) {
        const struct gst_cg_arc *a = &w->cg->arcs[i];
        if (gst_callgraph_selected(w->cg, a->callee) &&
            (a->caller_entry == 0 || !bsearch(&a->caller_entry, entries, nv, sizeof *entries, by_entry)))
            (*out)[n++] = a;
    }
    free(entries);
    qsort(*out, (size_t)n, sizeof **out, by_caller);
    return n;
}

static int put_foreign_callers(struct writer *w)
{
    const struct gst_cg_arc **arcs;
    long n = foreign_arcs(w, &arcs);
    int rc = n < 0 ? -1 : 0;
    for (long i = 0; i < n && rc == 0; i++) {
        bool first = i == 0 || arcs[i - 1]->caller_entry != arcs[i]->caller_entry ||
                     strcmp(arcs[i - 1]->caller_name, arcs[i]->caller_name) != 0;
        if (first)
            rc = put_block(w, "", arcs[i]->caller_name, 0, (struct costs){ 0, 0 });
        if (rc == 0)
            rc = put_call(w, 0, arcs[i]);
    }
    if (n >= 0)
        free(arcs);
    return rc;
}

static struct costs sum_costs(const struct writer *w)
{
    struct costs total = { 0, 0 };
    for (size_t i = 0; i < w->view->count; i++) {
        struct costs c = costs_of(w, w->view->funcs[i]);
        total.calls += c.calls;
        total.time_ns += c.time_ns;
    }
    return total;
}

static int write_all(struct writer *w, const char *exe)
{
    put_header(w, exe, sum_costs(w));
    fprintf(w->out, "ob=(1) %s\n", nonblank(exe));
    int rc = 0;
    for (size_t i = 0; i < w->view->count && rc == 0; i++)
        rc = put_function(w, w->view->funcs[i]);
    if (rc == 0 && w->cg)
        rc = put_foreign_callers(w);
    if (rc == 0) {
        struct costs total = sum_costs(w);
        fprintf(w->out, "\ntotals: %" PRIu64 " %" PRIu64 "\n", total.calls, total.time_ns);
    }
    return rc;
}

int gst_callgrind_write(FILE *out, const struct gst_stats *st, const struct gst_view *view,
                        const struct gst_callgraph *cg, struct gr_error *err)
{
    struct writer w = {
        .out = out, .st = st, .view = view, .cg = cg && cg->present ? cg : NULL, .err = err,
    };
    size_t max = st->hdr.nfuncs + (w.cg ? w.cg->narcs : 0) + 1;
    char *exe = gst_utf8_clean(st->hdr.exe);
    int rc = -1;

    if (!exe)
        return gr_fail(err, "out of memory for the exe name");
    if (gst_intern_init(&w.files, max, err) == 0) {
        if (gst_intern_init(&w.fns, max, err) == 0) {
            rc = write_all(&w, exe);
            gst_intern_free(&w.fns);
        }
        gst_intern_free(&w.files);
    }
    free(exe);
    return rc;
}
