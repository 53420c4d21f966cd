/* profdiff.c: walking two name-sorted profiles side by side. A change by
 * factor T either way means new >= T x base (grew) or base >= T x new
 * (shrank), each computed as one division of the two values so that
 * exact multiples compare exactly. */
#include "gostat/profile/profdiff.h"
#include "common/vec.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static bool reaches(double from, double to, double threshold)
{
    if (from == to)
        return false;
    if (from == 0 || to == 0)
        return true;
    return to / from >= threshold || from / to >= threshold;
}

/* Factor of the change, >= 1 whichever way (INFINITY from or to 0). */
static double factor(double from, double to)
{
    if (from == 0 || to == 0)
        return INFINITY;
    return to > from ? to / from : from / to;
}

/* One side of a comparison: a function's or an arc's entry, absent or not. */
struct side {
    uint64_t calls;
    bool time_known;
    double ns;
};

static void compare_sides(struct gst_delta *c, struct side b, struct side n,
                          const struct gst_diff_options *o)
{
    c->base_calls = b.calls;
    c->new_calls = n.calls;
    c->calls_changed = (o->metric & GST_METRIC_CALLS) &&
                       reaches((double)c->base_calls, (double)c->new_calls, o->threshold);
    c->base_time_known = b.time_known;
    c->new_time_known = n.time_known;
    c->base_ns = b.time_known ? b.ns : 0;
    c->new_ns = n.time_known ? n.ns : 0;
    c->time_compared = c->base_time_known && c->new_time_known && c->base_ns > 0 && c->new_ns > 0;
    c->time_changed = (o->metric & GST_METRIC_TIME) && c->time_compared &&
                      reaches(c->base_ns, c->new_ns, o->threshold);
    if (c->calls_changed)
        c->severity = factor((double)c->base_calls, (double)c->new_calls);
    if (c->time_changed && factor(c->base_ns, c->new_ns) > c->severity)
        c->severity = factor(c->base_ns, c->new_ns);
    c->grew = (c->calls_changed && c->new_calls > c->base_calls) ||
              (c->time_changed && c->new_ns > c->base_ns);
}

static struct side func_side(const struct gst_pfunc *f)
{
    return f ? (struct side){ f->calls, f->time_known, f->total_ns } : (struct side){ 0 };
}

static struct side arc_side(const struct gst_parc *a)
{
    return a ? (struct side){ a->calls, a->time_known, a->total_ns } : (struct side){ 0 };
}

/* Fills c from the function's entries (either may be NULL); returns
 * whether it changed enough to be listed. */
static bool compare(struct gst_change *c, const struct gst_pfunc *b, const struct gst_pfunc *n,
                    const struct gst_diff_options *o)
{
    memset(c, 0, sizeof *c);
    c->name = b ? b->name : n->name;
    compare_sides(&c->d, func_side(b), func_side(n), o);
    c->base_self_known = b && b->self_known;
    c->new_self_known = n && n->self_known;
    c->base_self_ns = c->base_self_known ? b->self_ns : 0;
    c->new_self_ns = c->new_self_known ? n->self_ns : 0;
    return c->d.calls_changed || c->d.time_changed;
}

static int by_severity(const void *a, const void *b)
{
    const struct gst_change *x = a, *y = b;
    if (x->d.severity != y->d.severity)
        return x->d.severity < y->d.severity ? 1 : -1;
    return strcmp(x->name, y->name);
}

static bool compare_arc(struct gst_arc_change *c, const char *callee, const struct gst_parc *b,
                        const struct gst_parc *n, const struct gst_diff_options *o)
{
    memset(c, 0, sizeof *c);
    c->callee = callee;
    c->caller = b ? b->caller : n->caller;
    compare_sides(&c->d, arc_side(b), arc_side(n), o);
    return c->d.calls_changed || c->d.time_changed;
}

/* The next step of a walk of two name-sorted lists: -1 when the next
 * name is only the base's, 1 only the new one's, 0 both's (NULL: that
 * list is done). */
static int walk_order(const char *base_name, const char *next_name)
{
    return !base_name ? 1 : !next_name ? -1 : strcmp(base_name, next_name);
}

/* Fewer calls than --min-calls in both profiles. */
static bool ignored(struct side b, struct side n, const struct gst_diff_options *o)
{
    return b.calls < o->min_calls && n.calls < o->min_calls;
}

/* The arcs into one function present in both profiles with callers. */
static int diff_arcs(struct gst_diff *d, const struct gst_pfunc *b, const struct gst_pfunc *n,
                     const struct gst_diff_options *o, size_t *cap, struct gr_error *err)
{
    size_t i = 0, j = 0;
    while (i < b->ncallers || j < n->ncallers) {
        int order = walk_order(i < b->ncallers ? b->callers[i].caller : NULL,
                               j < n->ncallers ? n->callers[j].caller : NULL);
        const struct gst_parc *x = order <= 0 ? &b->callers[i++] : NULL;
        const struct gst_parc *y = order >= 0 ? &n->callers[j++] : NULL;
        if (ignored(arc_side(x), arc_side(y), o))
            continue;
        d->arcs_compared++;
        struct gst_arc_change *a = gr_vec_grow(d->arcs, cap, d->narcs + 1, sizeof *a);
        if (!a)
            return gr_fail(err, "out of memory comparing %zu arcs", d->narcs + 1);
        d->arcs = a;
        d->narcs += compare_arc(&d->arcs[d->narcs], b->name, x, y, o);
    }
    return 0;
}

static int by_arc_severity(const void *a, const void *b)
{
    const struct gst_arc_change *x = a, *y = b;
    if (x->d.severity != y->d.severity)
        return x->d.severity < y->d.severity ? 1 : -1;
    int c = strcmp(x->callee, y->callee);
    return c ? c : strcmp(x->caller, y->caller);
}

int gst_diff_profiles(const struct gst_profile *base, const struct gst_profile *next,
                      const struct gst_diff_options *o, struct gst_diff *d, struct gr_error *err)
{
    memset(d, 0, sizeof *d);
    d->changes = calloc(base->nfuncs + next->nfuncs + 1, sizeof *d->changes);
    if (!d->changes)
        return gr_fail(err, "out of memory comparing %zu and %zu functions", base->nfuncs,
                       next->nfuncs);
    size_t i = 0, j = 0, arcs_cap = 0;
    while (i < base->nfuncs || j < next->nfuncs) {
        int order = walk_order(i < base->nfuncs ? base->funcs[i].name : NULL,
                               j < next->nfuncs ? next->funcs[j].name : NULL);
        const struct gst_pfunc *b = order <= 0 ? &base->funcs[i++] : NULL;
        const struct gst_pfunc *n = order >= 0 ? &next->funcs[j++] : NULL;
        if (b && n && b->has_callers && n->has_callers &&
            diff_arcs(d, b, n, o, &arcs_cap, err) < 0) {
            gst_diff_free(d);
            return -1;
        }
        if (ignored(func_side(b), func_side(n), o))
            continue;
        d->compared++;
        if (compare(&d->changes[d->count], b, n, o)) {
            d->regressions += d->changes[d->count].d.grew;
            d->count++;
        }
    }
    qsort(d->changes, d->count, sizeof *d->changes, by_severity);
    if (d->narcs)
        qsort(d->arcs, d->narcs, sizeof *d->arcs, by_arc_severity);
    return 0;
}

void gst_diff_free(struct gst_diff *d)
{
    free(d->changes);
    free(d->arcs);
    memset(d, 0, sizeof *d);
}
