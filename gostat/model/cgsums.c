/* cgsums.c: a call graph's per-function sums (callgraph.h): self time as
 * the outputs write it, the self time of calls in no path, and pprof's
 * cum. Every output writes these same whole-nanosecond values, so pprof's,
 * callgrind's and folded's totals are one sum (docs/profiles.md). A cum
 * above the function's total is a defect of the recording, flagged here
 * for every reader (callgraph.h cum_over). */
#include "gostat/model/callgraph.h"
#include "common/saturate.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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

/* Each node's self time plus its descendants' (nodes come parents first,
 * so children are summed into parents from the end). */
static uint64_t *subtree_sums(const struct gst_callgraph *cg)
{
    uint64_t *sum = malloc((cg->nnodes ? cg->nnodes : 1) * sizeof *sum);
    if (!sum)
        return NULL;
    for (size_t i = 0; i < cg->nnodes; i++)
        sum[i] = gst_cg_whole_ns(cg->nodes[i].self_ns);
    for (size_t i = cg->nnodes; i-- > 0;)
        if (cg->nodes[i].parent != GST_CG_ROOT)
            sum[cg->nodes[i].parent] = gr_add_saturating(sum[cg->nodes[i].parent], sum[i]);
    return sum;
}

/* The same unrounded, for comparing a cum with its function's total. */
static double *subtree_exact(const struct gst_callgraph *cg)
{
    double *sum = malloc((cg->nnodes ? cg->nnodes : 1) * sizeof *sum);
    if (!sum)
        return NULL;
    for (size_t i = 0; i < cg->nnodes; i++)
        sum[i] = cg->nodes[i].self_ns;
    for (size_t i = cg->nnodes; i-- > 0;)
        if (cg->nodes[i].parent != GST_CG_ROOT)
            sum[cg->nodes[i].parent] += sum[i];
    return sum;
}

/* The children of node i are child[first[i] .. first[i + 1]). */
struct children {
    uint32_t *first, *child;
};

static int children_of(const struct gst_callgraph *cg, struct children *c)
{
    size_t nn = cg->nnodes;
    c->first = calloc(nn + 1, sizeof *c->first);
    c->child = malloc((nn ? nn : 1) * sizeof *c->child);
    uint32_t *fill = malloc((nn ? nn : 1) * sizeof *fill);
    if (!c->first || !c->child || !fill) {
        free(fill);
        return -1;
    }
    for (size_t i = 0; i < nn; i++)
        if (cg->nodes[i].parent != GST_CG_ROOT)
            c->first[cg->nodes[i].parent + 1]++;
    for (size_t i = 0; i < nn; i++)
        c->first[i + 1] += c->first[i];
    memcpy(fill, c->first, nn * sizeof *fill);
    for (size_t i = 0; i < nn; i++)
        if (cg->nodes[i].parent != GST_CG_ROOT)
            c->child[fill[cg->nodes[i].parent]++] = (uint32_t)i;
    free(fill);
    return 0;
}

struct cum_walk {
    struct gst_callgraph *cg;
    const uint32_t *caller;         /* per node: its caller frame's function */
    const uint64_t *subtree;        /* per node */
    const double *exact;            /* per node: subtree, unrounded */
    double *cum_exact;              /* per function: cum, unrounded */
    uint32_t *on_path;              /* per function: its frames on the path */
};

/* Enters (+1) or leaves (-1) node k: a function of its frames that is not
 * on the path above gets the node's subtree, which holds every node whose
 * path holds the function from here on. */
static void visit(struct cum_walk *w, uint32_t k, int delta)
{
    uint32_t fs[2] = { func_index(w->cg, w->cg->nodes[k].func), w->caller[k] };
    int n = fs[1] != NONE && fs[1] != fs[0] ? 2 : 1;
    for (int j = 0; j < n; j++) {
        if (delta < 0)
            w->on_path[fs[j]]--;
        else if (w->on_path[fs[j]]++ == 0) {
            w->cg->cum_ns[fs[j]] = gr_add_saturating(w->cg->cum_ns[fs[j]], w->subtree[k]);
            w->cum_exact[fs[j]] += w->exact[k];
        }
    }
}

/* Depth first from one root, without recursion (paths may be 200,000
 * deep): stack[d] is a node on the path and the next child to enter. */
static void walk_from(struct cum_walk *w, const struct children *c, uint32_t root, uint32_t (*stack)[2])
{
    size_t depth = 0;
    visit(w, root, 1);
    stack[depth][0] = root;
    stack[depth++][1] = c->first[root];
    while (depth > 0) {
        uint32_t *top = stack[depth - 1];
        if (top[1] == c->first[top[0] + 1]) {
            visit(w, top[0], -1);
            depth--;
            continue;
        }
        uint32_t k = c->child[top[1]++];
        visit(w, k, 1);
        stack[depth][0] = k;
        stack[depth++][1] = c->first[k];
    }
}

/* A timed function's cum above its total: its paths hold time that no
 * finished call of it holds (callees of a call that never returned, or
 * returned where its duration was lost), so that cum is no figure. The
 * slack covers the sums' floating-point rounding only. */
static void flag_cum_over(struct gst_callgraph *cg, const struct gst_stats *st, const double *cum_exact)
{
    cg->cum_over_count = 0;
    for (size_t f = 0; f < cg->nfuncs; f++) {
        double total = (double)st->funcs[f].total_ticks * st->clock.ns_per_tick;
        cg->cum_over[f] = st->funcs[f].timed && cum_exact[f] > total + total * 1e-9 + 0.5;
        cg->cum_over_count += cg->cum_over[f];
    }
}

/* pprof's cum: every node's self time once to each function of its path.
 * Linear in the nodes, however deep the paths: adding each node's time up
 * its whole path would cost depth^2/2 for a chain of nested calls. */
static int sum_cum(struct gst_callgraph *cg, const struct gst_stats *st, struct gr_error *err)
{
    size_t nn = cg->nnodes;
    struct children c = { 0 };
    struct cum_walk w = { .cg = cg, .caller = caller_frames(cg), .subtree = subtree_sums(cg),
                          .exact = subtree_exact(cg),
                          .cum_exact = calloc(cg->nfuncs ? cg->nfuncs : 1, sizeof *w.cum_exact),
                          .on_path = calloc(cg->nfuncs ? cg->nfuncs : 1, sizeof *w.on_path) };
    uint32_t (*stack)[2] = malloc((nn ? nn : 1) * sizeof *stack);
    int rc = 0;
    if (!w.caller || !w.subtree || !w.exact || !w.cum_exact || !w.on_path || !stack
        || children_of(cg, &c) < 0)
        rc = gr_fail(err, "out of memory for the cum times of %zu nodes", nn);
    for (size_t i = 0; i < nn && rc == 0; i++)
        if (cg->nodes[i].parent == GST_CG_ROOT)
            walk_from(&w, &c, (uint32_t)i, stack);
    if (rc == 0)
        flag_cum_over(cg, st, w.cum_exact);
    free((void *)w.caller);
    free((void *)w.subtree);
    free((void *)w.exact);
    free(w.cum_exact);
    free(w.on_path);
    free(c.first);
    free(c.child);
    free(stack);
    return rc;
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
    cg->cum_over = calloc(n, sizeof *cg->cum_over);
    cg->unplaced_total_ns = 0;
    if (!cg->self_ns || !cg->unplaced_ns || !cg->cum_ns || !cg->cum_over)
        return gr_fail(err, "out of memory for %zu functions", n);
    if (sum_self(cg, st, err) < 0)
        return -1;
    return sum_cum(cg, st, err);
}

bool gst_callgraph_cum_over(const struct gst_callgraph *cg, const struct gst_func *f)
{
    return cg->cum_over && f >= cg->funcs && f < cg->funcs + cg->nfuncs && cg->cum_over[f - cg->funcs];
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
