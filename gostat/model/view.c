/* view.c: filtering, sorting and truncating the function list. */
#include "gostat/model/view.h"

#include "gostat/model/callgraph.h"

#include <stdlib.h>
#include <string.h>

static const struct gst_func *func_at(const void *p)
{
    return *(const struct gst_func *const *)p;
}

/* Larger first; 0 on a tie. */
static int larger_first(uint64_t a, uint64_t b)
{
    return (a < b) - (a > b);
}

/* Name ties happen (e.g. duplicate symbols); the entry address keeps the
 * order deterministic. */
static int by_name(const void *pa, const void *pb)
{
    const struct gst_func *a = func_at(pa), *b = func_at(pb);
    int c = strcmp(a->name, b->name);
    return c ? c : (a->entry > b->entry) - (a->entry < b->entry);
}

static int by_calls(const void *pa, const void *pb)
{
    int c = larger_first(func_at(pa)->calls, func_at(pb)->calls);
    return c ? c : by_name(pa, pb);
}

/* Ticks compare like durations: one file has one clock. */
static int by_time(const void *pa, const void *pb)
{
    int c = larger_first(func_at(pa)->total_ticks, func_at(pb)->total_ticks);
    return c ? c : by_calls(pa, pb);
}

static int by_self(const void *pa, const void *pb)
{
    int c = larger_first(func_at(pa)->self_ticks, func_at(pb)->self_ticks);
    return c ? c : by_time(pa, pb);
}

static int by_oncpu(const void *pa, const void *pb)
{
    int c = larger_first(func_at(pa)->oncpu_ticks, func_at(pb)->oncpu_ticks);
    return c ? c : by_time(pa, pb);
}

/* One function and its cum time: cum is no field of gst_func. */
struct cum_item {
    uint64_t cum;
    const struct gst_func *f;
};

static int by_cum(const void *pa, const void *pb)
{
    const struct cum_item *a = pa, *b = pb;
    int c = larger_first(a->cum, b->cum);
    return c ? c : by_time(&a->f, &b->f);
}

/* As the table and JSON show it: for timed functions only (an untimed one
 * has a cum as a caller frame, but no time of its own), and none where it
 * would exceed the total (a defect, which they show as no figure). */
static uint64_t cum_of(const struct gst_callgraph *cg, const struct gst_func *f)
{
    return cg && cg->present && f->timed && !gst_callgraph_cum_over(cg, f) ? gst_callgraph_cum_ns(cg, f) : 0;
}

static int sort_by_cum(struct gst_view *view, const struct gst_callgraph *cg, const char *path,
                       struct gr_error *err)
{
    struct cum_item *v = calloc(view->count ? view->count : 1, sizeof *v);
    if (!v)
        return gr_fail(err, "%s: out of memory for %zu functions", path, view->count);
    for (size_t i = 0; i < view->count; i++)
        v[i] = (struct cum_item){ cum_of(cg, view->funcs[i]), view->funcs[i] };
    qsort(v, view->count, sizeof *v, by_cum);
    for (size_t i = 0; i < view->count; i++)
        view->funcs[i] = v[i].f;
    free(v);
    return 0;
}

static int (*comparator(enum gst_sort sort))(const void *, const void *)
{
    switch (sort) {
    case GST_SORT_NAME: return by_name;
    case GST_SORT_TIME: return by_time;
    case GST_SORT_SELF: return by_self;
    case GST_SORT_ONCPU: return by_oncpu;
    default: return by_calls;
    }
}

/* What an idle M runs (proc.go, lock_futex.go, netpoll_epoll.go of Go
 * 1.15-1.27): schedule's search for work (findrunnable before 1.21), the
 * parking of an M without work (stopm, mPark from 1.17, stoplockedm,
 * gcstopm) and the sleeps they end in; sysmon's usleep. */
bool gst_view_sched_idle(const char *name)
{
    static const char *const idle[] = {
        "runtime.findRunnable", "runtime.findrunnable", "runtime.stopm",      "runtime.mPark",
        "runtime.stoplockedm",  "runtime.gcstopm",      "runtime.notesleep",  "runtime.notetsleep",
        "runtime.notetsleep_internal", "runtime.futexsleep", "runtime.netpoll", "runtime.usleep",
        "runtime.usleep_no_g",
    };
    for (size_t i = 0; i < sizeof idle / sizeof idle[0]; i++)
        if (strcmp(name, idle[i]) == 0)
            return true;
    return false;
}

static bool is_selected(const struct gst_func *f, const struct gst_view_options *o)
{
    if (o->nonzero && f->calls == 0)
        return false;
    return !o->filter || regexec(o->filter, f->name, 0, NULL, 0) == 0;
}

int gst_view_build(const struct gst_stats *st, const struct gst_view_options *o,
                   struct gst_view *view, struct gr_error *err)
{
    uint32_t n = st->hdr.nfuncs;

    view->count = 0;
    view->funcs = NULL;
    if ((o->sort == GST_SORT_SELF || o->sort == GST_SORT_CUM) && !gst_has_paths(st))
        return gr_fail(err, "%s: --sort %s needs the call paths of a --call-graph build; this file has "
                            "none (sort by time instead)", st->path, o->sort == GST_SORT_SELF ? "self" : "cum");
    view->idle_left_out = 0;
    view->funcs = calloc(n ? n : 1, sizeof *view->funcs);
    if (!view->funcs)
        return gr_fail(err, "%s: out of memory for %u functions", st->path, n);
    bool drop_idle = o->sort == GST_SORT_ONCPU && !o->runtime;
    for (uint32_t i = 0; i < n; i++) {
        if (!is_selected(&st->funcs[i], o))
            continue;
        if (drop_idle && gst_view_sched_idle(st->funcs[i].name))
            view->idle_left_out += st->funcs[i].calls > 0;
        else
            view->funcs[view->count++] = &st->funcs[i];
    }
    if (o->sort == GST_SORT_CUM) {
        if (sort_by_cum(view, o->cg, st->path, err) < 0) {
            gst_view_free(view);
            return -1;
        }
    } else {
        qsort(view->funcs, view->count, sizeof *view->funcs, comparator(o->sort));
    }
    if (o->top && view->count > o->top)
        view->count = o->top;
    return 0;
}

void gst_view_free(struct gst_view *view)
{
    free(view->funcs);
    view->funcs = NULL;
    view->count = 0;
}

static int by_name_index(const void *a, const void *b, void *funcs)
{
    const struct gst_func *f = funcs;
    return strcmp(f[*(const uint32_t *)a].name, f[*(const uint32_t *)b].name);
}

bool *gst_view_shared_names(const struct gst_stats *st)
{
    uint32_t n = st->hdr.nfuncs;
    uint32_t *order = malloc((n ? n : 1) * sizeof *order);
    bool *shared = calloc(n ? n : 1, sizeof *shared), any = false;
    for (uint32_t i = 0; order && i < n; i++)
        order[i] = i;
    if (order && shared) {
        qsort_r(order, n, sizeof *order, by_name_index, (void *)st->funcs);
        for (uint32_t i = 1; i < n; i++) {
            if (strcmp(st->funcs[order[i - 1]].name, st->funcs[order[i]].name) == 0)
                any = shared[order[i - 1]] = shared[order[i]] = true;
        }
    }
    free(order);
    if (!any) {
        free(shared);
        return NULL;
    }
    return shared;
}
