/* callgraph.c: the call graph of one refresh (callgraph.h). The file's
 * tables hold, per thread, one entry per calling context (key, parent key,
 * return address, callee) and, for the calls whose context did not fit,
 * one per (return address, callee). Here entries with the same key are
 * summed over threads, contexts become nodes level by level from the
 * goroutines' first calls (contexts reached from the same parent node by
 * the same caller function and callee are one node, whatever the call
 * site), and every entry adds its calls to the arc (caller, callee).
 * Counts from the file are summed saturating: a hostile or absurd file
 * shows the largest value, never a small wrapped one. */
#include "gostat/model/callgraph.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "gostat/read/syms.h"
#include "common/saturate.h"
#include "common/vec.h"

/* A path key summed over threads, on its way to a node. */
struct merged {
    uint64_t key, parent, ret;
    const struct gst_func *callee;
    uint64_t calls, total_ticks, self_ticks, oncpu_ticks;
    uint32_t depth;            /* 0: a first call, or its parent unrecorded */
    bool truncated;            /* its parent's context was not recorded */
    uint32_t node;             /* its node, once placed */
    uint64_t caller_entry;
    const char *caller_name;
};

struct builder {
    const struct gst_stats *st;
    struct merged *m;
    size_t nm;
    struct gst_callgraph *cg;
    size_t nodes_cap;
    struct gr_error *err;
};

static int by_key(const void *pa, const void *pb)
{
    const struct gst_path *a = *(const struct gst_path *const *)pa, *b = *(const struct gst_path *const *)pb;
    return (a->key > b->key) - (a->key < b->key);
}

static void resolve_caller(const struct gst_stats *st, uint64_t ret, uint64_t *entry, const char **name)
{
    const struct gst_sym *s = gst_stats_sym_at(st, ret);
    *entry = s ? s->entry : 0;
    *name = s ? s->name : GST_CG_UNKNOWN_NAME;
}

/* The path entries (not the arc entries) summed by key. */
static int merge_paths(struct builder *b)
{
    const struct gst_stats *st = b->st;
    const struct gst_path **v = calloc(st->npaths ? st->npaths : 1, sizeof *v);
    size_t n = 0;
    if (!v)
        return gr_fail(b->err, "%s: out of memory for %zu call paths", st->path, st->npaths);
    for (size_t i = 0; i < st->npaths; i++)
        if (!st->path_entries[i].arc && st->path_entries[i].callee)
            v[n++] = &st->path_entries[i];
    qsort(v, n, sizeof *v, by_key);
    b->m = calloc(n ? n : 1, sizeof *b->m);
    if (!b->m) {
        free(v);
        return gr_fail(b->err, "%s: out of memory for %zu call paths", st->path, n);
    }
    for (size_t i = 0; i < n; i++) {
        struct merged *m = b->nm ? &b->m[b->nm - 1] : NULL;
        if (!m || m->key != v[i]->key) {
            m = &b->m[b->nm++];
            *m = (struct merged){.key = v[i]->key, .parent = v[i]->parent, .ret = v[i]->ret,
                                 .callee = v[i]->callee, .depth = UINT32_MAX};
            resolve_caller(st, m->ret, &m->caller_entry, &m->caller_name);
        }
        m->calls = gr_add_saturating(m->calls, v[i]->calls);
        m->total_ticks = gr_add_saturating(m->total_ticks, v[i]->total_ticks);
        m->self_ticks = gr_add_saturating(m->self_ticks, v[i]->self_ticks);
        m->oncpu_ticks = gr_add_saturating(m->oncpu_ticks, v[i]->oncpu_ticks);
    }
    free(v);
    return 0;
}

static struct merged *find_key(const struct builder *b, uint64_t key)
{
    size_t lo = 0, hi = b->nm;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (b->m[mid].key < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < b->nm && b->m[lo].key == key ? &b->m[lo] : NULL;
}

#define NEW UINT32_MAX              /* not walked yet */
#define VISITING (UINT32_MAX - 1)
#define UNREACHED (UINT32_MAX - 2)  /* an ancestor is missing */

/* Depth of every key: from a goroutine's first timed call, or from a key
 * whose parent is not in the tables (truncated: the parent call has not
 * returned yet, or never does, as runtime.main; or it did not fit). Keys
 * in a loop of parents (a corrupt file) are unreached. Each key is walked
 * once: up to a root or a key already walked, then back down. */
static int assign_depths(struct builder *b)
{
    struct merged **chain = calloc(b->nm ? b->nm : 1, sizeof *chain);
    if (!chain)
        return gr_fail(b->err, "%s: out of memory for the call graph", b->st->path);
    for (size_t i = 0; i < b->nm; i++) {
        size_t n = 0;
        struct merged *m = &b->m[i];
        while (m && m->depth == NEW) {
            m->depth = VISITING;
            chain[n++] = m;
            m = m->parent ? find_key(b, m->parent) : NULL;
        }
        if (n == 0)
            continue;
        uint32_t depth;
        if (!m) {
            depth = 0;              /* a first call, or its parent is missing */
            chain[n - 1]->truncated = chain[n - 1]->parent != 0;
        } else if (m->depth == VISITING || m->depth == UNREACHED) {
            depth = UNREACHED;      /* a loop (corrupt), or below one */
        } else {
            depth = m->depth + 1;
        }
        while (n > 0) {
            chain[--n]->depth = depth;
            if (depth != UNREACHED)
                depth++;
        }
    }
    free(chain);
    return 0;
}

static int by_depth(const void *pa, const void *pb)
{
    const struct merged *a = *(const struct merged *const *)pa, *b = *(const struct merged *const *)pb;
    return (a->depth > b->depth) - (a->depth < b->depth);
}

/* The merged keys of one level, ordered by (parent node, callee, caller). */
static int by_place(const void *pa, const void *pb)
{
    const struct merged *a = *(const struct merged *const *)pa, *b = *(const struct merged *const *)pb;
    if (a->depth != b->depth)
        return a->depth < b->depth ? -1 : 1;
    if (a->node != b->node)     /* holds the parent's node while sorting */
        return a->node < b->node ? -1 : 1;
    if (a->callee != b->callee)
        return a->callee < b->callee ? -1 : 1;
    if (a->caller_entry != b->caller_entry)
        return a->caller_entry < b->caller_entry ? -1 : 1;
    return (a->key > b->key) - (a->key < b->key);
}

static int add_node(struct builder *b, struct merged *m, uint32_t parent)
{
    struct gst_callgraph *cg = b->cg;
    struct gst_cg_node *last = cg->nnodes ? &cg->nodes[cg->nnodes - 1] : NULL;
    if (!last || last->parent != parent || last->func != m->callee || last->caller_entry != m->caller_entry
        || strcmp(last->caller_name, m->caller_name) != 0) {
        struct gst_cg_node *v = gr_vec_grow(cg->nodes, &b->nodes_cap, cg->nnodes + 1, sizeof *v);
        if (!v)
            return gr_fail(b->err, "%s: out of memory for the call graph", b->st->path);
        cg->nodes = v;
        last = &v[cg->nnodes++];
        *last = (struct gst_cg_node){.parent = parent, .func = m->callee, .caller_entry = m->caller_entry,
                                     .caller_name = m->caller_name};
    }
    double k = b->st->clock.ns_per_tick;
    last->truncated |= m->truncated;
    last->calls = gr_add_saturating(last->calls, m->calls);
    last->total_ns += (double)m->total_ticks * k;
    last->self_ns += (double)m->self_ticks * k;
    last->oncpu_ns += (double)m->oncpu_ticks * k;
    m->node = (uint32_t)(cg->nnodes - 1);
    return 0;
}

/* Nodes, parents first: all of level 0, then level 1, ... */
static int build_nodes(struct builder *b)
{
    struct merged **order = calloc(b->nm ? b->nm : 1, sizeof *order);
    size_t n = 0;
    if (!order || assign_depths(b) < 0) {
        free(order);
        return gr_fail(b->err, "%s: out of memory for the call graph", b->st->path);
    }
    for (size_t i = 0; i < b->nm; i++) {
        if (b->m[i].depth == UNREACHED)
            b->cg->path_overflow_calls = gr_add_saturating(b->cg->path_overflow_calls,
                                                           b->m[i].calls);   /* corrupt: arcs only */
        else
            order[n++] = &b->m[i];
    }
    qsort(order, n, sizeof *order, by_depth);
    for (size_t start = 0, end; start < n; start = end) {
        for (end = start; end < n && order[end]->depth == order[start]->depth; end++)
            order[end]->node = order[end]->depth ? find_key(b, order[end]->parent)->node : GST_CG_ROOT;
        qsort(order + start, end - start, sizeof *order, by_place);
        for (size_t i = start; i < end; i++)
            if (add_node(b, order[i], order[i]->node) < 0) {
                free(order);
                return -1;
            }
    }
    free(order);
    return 0;
}

static int by_arc(const void *pa, const void *pb)
{
    const struct gst_cg_arc *a = pa, *b = pb;
    if (a->callee != b->callee)
        return a->callee < b->callee ? -1 : 1;
    if (a->calls != b->calls)
        return a->calls > b->calls ? -1 : 1;
    int c = strcmp(a->caller_name, b->caller_name);
    if (c)
        return c;
    return (a->caller_entry > b->caller_entry) - (a->caller_entry < b->caller_entry);
}

static int by_pair(const void *pa, const void *pb)
{
    const struct gst_cg_arc *a = pa, *b = pb;
    if (a->callee != b->callee)
        return a->callee < b->callee ? -1 : 1;
    if (a->caller_entry != b->caller_entry)
        return a->caller_entry < b->caller_entry ? -1 : 1;
    return strcmp(a->caller_name, b->caller_name);
}

static int same_arc(const struct gst_cg_arc *a, const struct gst_cg_arc *b)
{
    return a->callee == b->callee && a->caller_entry == b->caller_entry
           && strcmp(a->caller_name, b->caller_name) == 0;
}

/* Every entry (path or arc table, placed in a node or not) is one
 * (caller, callee) with exact counts: summed by that pair. */
static int build_arcs(struct builder *b)
{
    const struct gst_stats *st = b->st;
    struct gst_callgraph *cg = b->cg;
    struct gst_cg_arc *all = calloc(st->npaths ? st->npaths : 1, sizeof *all);
    size_t n = 0;
    if (!all)
        return gr_fail(b->err, "%s: out of memory for the call graph", st->path);
    double k = st->clock.ns_per_tick;
    for (size_t i = 0; i < st->npaths; i++) {
        const struct gst_path *p = &st->path_entries[i];
        if (!p->callee)
            continue;
        struct gst_cg_arc *a = &all[n++];
        a->callee = p->callee;
        resolve_caller(st, p->ret, &a->caller_entry, &a->caller_name);
        a->calls = p->calls;
        a->total_ns = (double)p->total_ticks * k;
    }
    qsort(all, n, sizeof *all, by_pair);
    size_t out = 0;
    for (size_t i = 0; i < n; i++) {
        if (out > 0 && same_arc(&all[out - 1], &all[i])) {
            all[out - 1].calls = gr_add_saturating(all[out - 1].calls, all[i].calls);
            all[out - 1].total_ns += all[i].total_ns;
        } else {
            all[out++] = all[i];
        }
    }
    qsort(all, out, sizeof *all, by_arc);
    cg->arcs = all;
    cg->narcs = out;
    return 0;
}

/* The request's view as a flag per function (pprof and callgrind keep
 * the paths and arcs into the functions they write). */
static int select_view(const struct gst_stats *st, const struct gst_view *view,
                       struct gst_callgraph *cg, struct gr_error *err)
{
    size_t n = st->hdr.nfuncs ? st->hdr.nfuncs : 1;
    cg->selected = calloc(n, sizeof *cg->selected);
    if (!cg->selected)
        return gr_fail(err, "out of memory for %zu functions", n);
    for (size_t i = 0; i < view->count; i++)
        cg->selected[view->funcs[i] - st->funcs] = true;
    return 0;
}

/* A node's on-CPU self time: its on-CPU time less its child nodes' (the
 * stubs keep self ticks for wall time only), never below 0 and never above
 * its self time: the time a child was descheduled is the parent's too, so
 * self on-CPU <= self wall wherever every child has its node; a child
 * whose path overflowed has none, and its on-CPU would stay in the
 * parent's. Children come after their parents. */
static void sum_oncpu_self(struct gst_callgraph *cg)
{
    for (size_t i = 0; i < cg->nnodes; i++)
        cg->nodes[i].oncpu_self_ns = cg->nodes[i].oncpu_ns;
    for (size_t i = 0; i < cg->nnodes; i++)
        if (cg->nodes[i].parent != GST_CG_ROOT)
            cg->nodes[cg->nodes[i].parent].oncpu_self_ns -= cg->nodes[i].oncpu_ns;
    for (size_t i = 0; i < cg->nnodes; i++)
        if (cg->nodes[i].oncpu_self_ns < 0)
            cg->nodes[i].oncpu_self_ns = 0;
        else if (cg->nodes[i].oncpu_self_ns > cg->nodes[i].self_ns)
            cg->nodes[i].oncpu_self_ns = cg->nodes[i].self_ns;
}

int gst_callgraph_build(const struct gst_stats *st, const struct gst_cg_request *req,
                        struct gst_callgraph *cg, struct gr_error *err)
{
    memset(cg, 0, sizeof *cg);
    if (!gst_has_paths(st) && req && req->required)
        return gr_fail(err, "%s: built without --call-graph: no call graph; rebuild with "
                       "gorewrite --call-graph", st->path);
    if (!gst_has_paths(st))
        return 0;
    if (st->paths_oom)
        return gr_fail(err, "%s: out of memory reading the call paths", st->path);
    cg->present = true;
    cg->max_paths = st->hdr.max_paths;
    cg->max_arcs = st->hdr.max_arcs;
    cg->path_fill = st->path_fill;
    cg->arc_fill = st->arc_fill;
    cg->overflow_calls = st->drops.arc_overflow;
    cg->path_overflow_calls = st->drops.path_overflow;
    cg->funcs = st->funcs;
    struct builder b = {.st = st, .cg = cg, .err = err};
    int rc = req && req->view ? select_view(st, req->view, cg, err) : 0;
    if (rc == 0)
        rc = merge_paths(&b);
    if (rc == 0)
        rc = build_nodes(&b);
    if (rc == 0)
        sum_oncpu_self(cg);
    if (rc == 0)
        rc = build_arcs(&b);
    if (rc == 0)
        rc = gst_callgraph_sum_functions(cg, st, err);
    free(b.m);
    if (rc < 0)
        gst_callgraph_free(cg);
    return rc;
}

void gst_callgraph_free(struct gst_callgraph *cg)
{
    free(cg->nodes);
    free(cg->arcs);
    free(cg->selected);
    free(cg->self_ns);
    free(cg->unplaced_ns);
    free(cg->cum_ns);
    free(cg->cum_over);
    memset(cg, 0, sizeof *cg);
}

/* The file counts the calls beyond the paths, not their contexts: each
 * arc entry of a thread is at least one context that found no room, so
 * the fullest thread needed at least its paths and its arcs, with the
 * fifth a table leaves free when its blocks start to overflow (docs/
 * timing.md "Bounded memory"); and at least twice the table, since
 * recursive code may need far more than that bound says. */
uint64_t gst_callgraph_suggested_paths(const struct gst_callgraph *cg)
{
    if (!cg->present || cg->path_overflow_calls == 0 || cg->max_paths >= GS_MAX_PATHS)
        return 0;
    uint64_t need = (cg->path_fill.fullest + cg->arc_fill.fullest) / 4 * 5;
    if (need < 2 * cg->max_paths)
        need = 2 * cg->max_paths;
    return gs_path_table_entries(need < GS_MAX_PATHS ? need : GS_MAX_PATHS);
}

bool gst_callgraph_selected(const struct gst_callgraph *cg, const struct gst_func *f)
{
    return !cg->selected || cg->selected[f - cg->funcs];
}

size_t gst_callgraph_callers(const struct gst_callgraph *cg, const struct gst_func *callee,
                             const struct gst_cg_arc **first)
{
    size_t i = 0, n = 0;
    while (i < cg->narcs && cg->arcs[i].callee != callee)
        i++;
    *first = cg->arcs + i;
    while (i + n < cg->narcs && cg->arcs[i + n].callee == callee)
        n++;
    return n;
}

static int by_calls_desc(const void *pa, const void *pb)
{
    const struct gst_cg_arc *a = *(const struct gst_cg_arc *const *)pa, *b = *(const struct gst_cg_arc *const *)pb;
    if (a->calls != b->calls)
        return a->calls > b->calls ? -1 : 1;
    int c = strcmp(a->callee->name, b->callee->name);
    return c ? c : (a->callee->entry > b->callee->entry) - (a->callee->entry < b->callee->entry);
}

long gst_callgraph_callees(const struct gst_callgraph *cg, uint64_t caller_entry,
                           const struct gst_cg_arc ***out, struct gr_error *err)
{
    long n = 0;
    *out = calloc(cg->narcs ? cg->narcs : 1, sizeof **out);
    if (!*out)
        return gr_fail(err, "out of memory for the callees of 0x%" PRIx64, caller_entry);
    for (size_t i = 0; i < cg->narcs; i++)
        if (cg->arcs[i].caller_entry == caller_entry)
            (*out)[n++] = &cg->arcs[i];
    qsort(*out, (size_t)n, sizeof **out, by_calls_desc);
    return n;
}
