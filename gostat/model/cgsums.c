/* cgsums.c: a call graph's per-function sums (callgraph.h): self time as
 * the outputs write it, the self time of calls in no path, and pprof's
 * cum. Every output writes these same whole-nanosecond values, so pprof's,
 * callgrind's and folded's totals are one sum (docs/profiles.md). */
#include "gostat/model/callgraph.h"
#include "common/saturate.h"

#include <math.h>
#include <stdlib.h>

#define NONE UINT32_MAX

uint64_t gst_cg_whole_ns(double ns)
{
    if (!(ns > 0))
        return 0;
    return ns >= 0x1p64 ? UINT64_MAX : (uint64_t)nearbyint(ns);
}

static uint32_t func_index(const struct gst_callgraph *cg, const struct gst_func *f)
{
    return (uint32_t)(f - cg->funcs);
}

static int by_entry(const void *pa, const void *pb, void *ctx)
{
    const struct gst_func *funcs = ctx;
    uint64_t a = funcs[*(const uint32_t *)pa].entry, b = funcs[*(const uint32_t *)pb].entry;
    return (a > b) - (a < b);
}

/* The function (index) whose entry is entry, or NONE. */
static uint32_t func_at_entry(const struct gst_callgraph *cg, const uint32_t *by_entry_order,
                              uint64_t entry)
{
    size_t lo = 0, hi = cg->nfuncs;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (cg->funcs[by_entry_order[mid]].entry < entry)
            lo = mid + 1;
        else
            hi = mid;
    }
    return entry && lo < cg->nfuncs && cg->funcs[by_entry_order[lo]].entry == entry
               ? by_entry_order[lo] : NONE;
}

/* Per node, the function of its caller frame (cgpath.h), or NONE: a
 * caller that is no function of the file, or no frame of its own. */
static uint32_t *caller_frames(const struct gst_callgraph *cg)
{
    uint32_t *order = malloc((cg->nfuncs ? cg->nfuncs : 1) * sizeof *order);
    uint32_t *caller = malloc((cg->nnodes ? cg->nnodes : 1) * sizeof *caller);
    if (!order || !caller) {
        free(order);
        free(caller);
        return NULL;
    }
    for (size_t i = 0; i < cg->nfuncs; i++)
        order[i] = (uint32_t)i;
    qsort_r(order, cg->nfuncs, sizeof *order, by_entry, (void *)cg->funcs);
    for (size_t i = 0; i < cg->nnodes; i++) {
        const struct gst_cg_node *n = &cg->nodes[i];
        bool frame = n->parent == GST_CG_ROOT || n->caller_entry != cg->nodes[n->parent].func->entry;
        caller[i] = frame ? func_at_entry(cg, order, n->caller_entry) : NONE;
    }
    free(order);
    return caller;
}

/* Adds node i's self time once to every function of its path: seen[f]
 * holds the last node that added to f. */
static void add_to_path(struct gst_callgraph *cg, size_t i, uint64_t value, const uint32_t *caller,
                        uint32_t *seen)
{
    uint32_t stamp = (uint32_t)i;
    for (size_t k = i;; k = cg->nodes[k].parent) {
        uint32_t fs[2] = { func_index(cg, cg->nodes[k].func), caller[k] };
        for (int j = 0; j < 2; j++)
            if (fs[j] != NONE && seen[fs[j]] != stamp) {
                seen[fs[j]] = stamp;
                cg->cum_ns[fs[j]] = gr_add_saturating(cg->cum_ns[fs[j]], value);
            }
        if (cg->nodes[k].parent == GST_CG_ROOT)
            break;
    }
}

static int sum_cum(struct gst_callgraph *cg, struct gr_error *err)
{
    uint32_t *caller = caller_frames(cg);
    uint32_t *seen = malloc((cg->nfuncs ? cg->nfuncs : 1) * sizeof *seen);
    if (!caller || !seen) {
        free(caller);
        free(seen);
        return gr_fail(err, "out of memory for the cum times of %zu nodes", cg->nnodes);
    }
    for (size_t f = 0; f < cg->nfuncs; f++)
        seen[f] = NONE;
    for (size_t i = 0; i < cg->nnodes; i++)
        add_to_path(cg, i, gst_cg_whole_ns(cg->nodes[i].self_ns), caller, seen);
    free(caller);
    free(seen);
    return 0;
}

/* Self: each node's rounded self time to its function; what the
 * function's own sum holds beyond its nodes' is its unplaced time. */
static int sum_self(struct gst_callgraph *cg, const struct gst_stats *st, struct gr_error *err)
{
    double *placed = calloc(cg->nfuncs ? cg->nfuncs : 1, sizeof *placed);
    if (!placed)
        return gr_fail(err, "out of memory for %zu functions", cg->nfuncs);
    for (size_t i = 0; i < cg->nnodes; i++) {
        uint32_t f = func_index(cg, cg->nodes[i].func);
        placed[f] += cg->nodes[i].self_ns;
        cg->self_ns[f] = gr_add_saturating(cg->self_ns[f], gst_cg_whole_ns(cg->nodes[i].self_ns));
    }
    for (size_t f = 0; f < cg->nfuncs; f++) {
        double all = (double)st->funcs[f].self_ticks * st->clock.ns_per_tick;
        cg->unplaced_ns[f] = st->funcs[f].timed ? gst_cg_whole_ns(all - placed[f]) : 0;
        cg->self_ns[f] = gr_add_saturating(cg->self_ns[f], cg->unplaced_ns[f]);
        cg->unplaced_total_ns = gr_add_saturating(cg->unplaced_total_ns, cg->unplaced_ns[f]);
    }
    free(placed);
    return 0;
}

int gst_callgraph_sum_functions(struct gst_callgraph *cg, const struct gst_stats *st,
                                struct gr_error *err)
{
    cg->funcs = st->funcs;
    cg->nfuncs = st->hdr.nfuncs;
    size_t n = cg->nfuncs ? cg->nfuncs : 1;
    cg->self_ns = calloc(n, sizeof *cg->self_ns);
    cg->unplaced_ns = calloc(n, sizeof *cg->unplaced_ns);
    cg->cum_ns = calloc(n, sizeof *cg->cum_ns);
    cg->unplaced_total_ns = 0;
    if (!cg->self_ns || !cg->unplaced_ns || !cg->cum_ns)
        return gr_fail(err, "out of memory for %zu functions", n);
    if (sum_self(cg, st, err) < 0)
        return -1;
    return sum_cum(cg, err);
}

static uint64_t entry_of(const uint64_t *v, const struct gst_callgraph *cg, const struct gst_func *f)
{
    if (!v || f < cg->funcs || f >= cg->funcs + cg->nfuncs)
        return 0;
    return v[f - cg->funcs];
}

uint64_t gst_callgraph_self_ns(const struct gst_callgraph *cg, const struct gst_func *f)
{
    return entry_of(cg->self_ns, cg, f);
}

uint64_t gst_callgraph_unplaced_ns(const struct gst_callgraph *cg, const struct gst_func *f)
{
    return entry_of(cg->unplaced_ns, cg, f);
}

uint64_t gst_callgraph_cum_ns(const struct gst_callgraph *cg, const struct gst_func *f)
{
    return entry_of(cg->cum_ns, cg, f);
}
