/* profdiff.c: walking two name-sorted profiles side by side. A change by
 * factor T either way means new >= T x base (grew) or base >= T x new
 * (shrank), each computed as one division of the two values so that
 * exact multiples compare exactly; it counts only beyond the spread two
 * runs of one program and input show (docs/ci.md "When a change counts"):
 * a count's, and for times per call the histograms' median test or the
 * means' within their min/max bound. */
#include "gostat/profile/profdiff.h"
#include "common/vec.h"
#include "gostat/model/hist.h"

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
    double ns;                 /* total */
    bool any;                  /* timed calls: mean, min and max hold */
    uint64_t timed, samples;   /* weighted timed calls, calls timed */
    double mean, min, max;
    const struct gst_pfunc *f; /* a function's entry: its histogram */
    bool median_known;
    double median;
    bool runtime;              /* the runtime's own function */
};

/* A function the runtime lends a standard package by linkname, named
 * pkg.runtime_X (sync.runtime_doSpin, sync.runtime_Semacquire). */
static bool is_lent_by_runtime(const char *name)
{
    const char *slash = strrchr(name, '/'), *first_slash = strchr(name, '/');
    const char *dot = strchr(slash ? slash : name, '.');
    if (!dot || memchr(name, '.', (size_t)((first_slash ? first_slash : dot) - name)))
        return false;   /* not a standard package: its first element has no dot */
    return strncmp(dot + 1, "runtime_", 8) == 0;
}

/* The Go runtime's functions (its internal packages' and those it lends
 * others): their calls follow garbage collections and scheduling, not the
 * program's input. */
static bool is_runtime(const char *name)
{
    return strncmp(name, "runtime.", 8) == 0 || strncmp(name, "runtime/", 8) == 0 ||
           strncmp(name, "internal/", 9) == 0 || is_lent_by_runtime(name);
}

static bool has_hist(const struct side *s)
{
    return s->f && s->f->hist_known;
}

/* The variance of one timed call's duration, bounded from above: by the
 * histogram where there is one (each bucket at its upper edge), and by
 * (max - mean)(mean - min), the largest any durations within [min, max]
 * of that mean can have. */
static double variance(const struct side *s)
{
    double bound = (s->max - s->mean) * (s->mean - s->min);
    bound = bound > 0 ? bound : 0;
    if (!has_hist(s) || s->timed == 0)
        return bound;
    const struct gst_pfunc *f = s->f;
    double k = f->ns_per_tick;
    double square = gst_hist_square_bound(f->hist, f->min_ticks, f->max_ticks) * k * k;
    double v = square / (double)s->timed - s->mean * s->mean;
    return v < 0 ? 0 : v < bound ? v : bound;
}

/* How many standard errors apart the two means are (Welch's statistic,
 * each mean's error sqrt(variance / calls timed)). */
static double mean_sigma(const struct side *b, const struct side *n)
{
    double err = sqrt(variance(b) / (double)b->samples + variance(n) / (double)n->samples);
    double gap = fabs(n->mean - b->mean);
    return err > 0 ? gap / err : gap > 0 ? INFINITY : 0;
}

/* The bucket edge nearest the median of BASE's and NEW's calls pooled
 * (weighted by the calls timed): where the fractions under it say most. */
static unsigned median_edge(const struct side *b, const struct side *n)
{
    double nb = (double)b->samples, nn = (double)n->samples, best_gap = 2;
    unsigned best = 1;
    for (unsigned e = 1; e < GS_HIST_BUCKETS; e++) {
        double p = (gst_hist_fraction_under(b->f->hist, e) * nb +
                    gst_hist_fraction_under(n->f->hist, e) * nn) / (nb + nn);
        if (fabs(p - 0.5) < best_gap) {
            best_gap = fabs(p - 0.5);
            best = e;
        }
    }
    return best;
}

/* The median test on exact counts: how many standard errors apart the
 * fractions of BASE's and NEW's calls under the bucket edge nearest their
 * pooled median are (two proportions). Robust where a few descheduled calls make
 * the means' spread too wide to tell anything; 0 when the two histograms'
 * clocks differ (their edges are not the same durations). */
static double median_sigma(const struct side *b, const struct side *n)
{
    const struct gst_pfunc *x = b->f, *y = n->f;
    if (fabs(x->ns_per_tick - y->ns_per_tick) > 1e-3 * x->ns_per_tick)
        return 0;
    unsigned e = median_edge(b, n);
    double pb = gst_hist_fraction_under(x->hist, e), pn = gst_hist_fraction_under(y->hist, e);
    double nb = (double)b->samples, nn = (double)n->samples;
    double p = (pb * nb + pn * nn) / (nb + nn);
    double err = sqrt(p * (1 - p) * (1 / nb + 1 / nn));
    double gap = fabs(pb - pn);
    return err > 0 ? gap / err : gap > 0 ? INFINITY : 0;
}

/* The test of the times per call compared: the medians' where both
 * histograms are known, else the means' (bounded by min and max). */
static double time_sigma(const struct side *b, const struct side *n, const char **spread)
{
    if (has_hist(b) && has_hist(n)) {
        *spread = "histograms";
        return median_sigma(b, n);
    }
    *spread = "min/max";
    return mean_sigma(b, n);
}

/* Calls are counts: their spread is taken as Poisson's, sqrt(base + new). */
static double calls_sigma(uint64_t from, uint64_t to)
{
    double gap = fabs((double)to - (double)from);
    return gap > 0 ? gap / sqrt((double)from + (double)to) : 0;
}

/* Enough timed calls and total time to judge a side's time per call. */
static bool enough_time(const struct side *s, const struct gst_diff_options *o)
{
    return s->samples >= o->min_timed && s->samples > 0 && s->time_known &&
           s->ns >= o->min_time_ns;
}

/* The runtime's functions count only with --runtime. */
static bool skipped(const struct side *b, const struct side *n, const struct gst_diff_options *o)
{
    return (b->runtime || n->runtime) && !o->runtime;
}

static bool calls_count(const struct gst_delta *c, const struct side *b, const struct side *n,
                        const struct gst_diff_options *o)
{
    if (!(o->metric & GST_METRIC_CALLS) || skipped(b, n, o))
        return false;
    return reaches((double)c->base_calls, (double)c->new_calls, o->threshold) &&
           c->calls_sigma >= o->sigma;
}

/* The time per call, relative to the run's speed: by the threshold and by
 * --min-delta, with enough timed calls and time on both sides, beyond the
 * spread (an arc's: where its callee's is). */
static bool time_counts(const struct gst_delta *c, const struct side *b, const struct side *n,
                        const struct gst_diff_options *o, const struct gst_delta *callee)
{
    double expected = c->base_call_ns * o->speed;
    if (!(o->metric & GST_METRIC_TIME) || skipped(b, n, o) || !c->call_compared ||
        !reaches(expected, c->new_call_ns, o->threshold) ||
        fabs(c->new_call_ns - expected) < o->min_delta_ns || !enough_time(b, o) ||
        !enough_time(n, o))
        return false;
    if (o->sigma == 0)
        return true;
    if (callee)
        return callee->time_changed;
    return c->time_sigma >= o->sigma;
}

/* The time per call compared: the median, the typical call, where both
 * are known (a mean is pulled by a few descheduled calls: main.decode's
 * went 3.0 -> 74.9 us between identical runs, its median 1.5 -> 2.0 us),
 * else the mean. */
static void per_call(struct gst_delta *c)
{
    bool medians = c->base_median_known && c->new_median_known && c->base_median_ns > 0 &&
                   c->new_median_ns > 0;
    c->call_compared = medians || c->mean_compared;
    c->base_call_ns = medians ? c->base_median_ns : c->base_mean_ns;
    c->new_call_ns = medians ? c->new_median_ns : c->new_mean_ns;
}

static void compare_sides(struct gst_delta *c, const struct side *b, const struct side *n,
                          const struct gst_diff_options *o, const struct gst_delta *callee)
{
    c->base_calls = b->calls;
    c->new_calls = n->calls;
    c->calls_sigma = calls_sigma(b->calls, n->calls);
    c->calls_changed = calls_count(c, b, n, o);
    c->base_time_known = b->time_known;
    c->new_time_known = n->time_known;
    c->base_ns = b->time_known ? b->ns : 0;
    c->new_ns = n->time_known ? n->ns : 0;
    c->time_compared = c->base_time_known && c->new_time_known && c->base_ns > 0 && c->new_ns > 0;
    c->mean_compared = b->any && n->any && b->mean > 0 && n->mean > 0;
    c->base_mean_ns = b->any ? b->mean : 0;
    c->new_mean_ns = n->any ? n->mean : 0;
    c->base_median_known = b->median_known;   /* set only with any */
    c->new_median_known = n->median_known;
    c->base_median_ns = c->base_median_known ? b->median : 0;
    c->new_median_ns = c->new_median_known ? n->median : 0;
    per_call(c);
    c->time_sigma = NAN;
    if (c->call_compared && !callee)
        c->time_sigma = time_sigma(b, n, &c->spread);
    c->time_changed = time_counts(c, b, n, o, callee);
    if (c->calls_changed)
        c->severity = factor((double)c->base_calls, (double)c->new_calls);
    if (c->time_changed && factor(c->base_call_ns * o->speed, c->new_call_ns) > c->severity)
        c->severity = factor(c->base_call_ns * o->speed, c->new_call_ns);
    c->grew = (c->calls_changed && c->new_calls > c->base_calls) ||
              (c->time_changed && c->new_call_ns > c->base_call_ns * o->speed);
}

static struct side func_side(const struct gst_pfunc *f)
{
    if (!f)
        return (struct side){ 0 };
    bool any = f->any_time && f->timed_calls > 0 && f->samples > 0;
    struct side s = {
        .calls = f->calls, .time_known = f->time_known, .ns = f->total_ns, .any = any,
        .timed = f->timed_calls, .samples = f->samples,
        .mean = any ? f->timed_ns / (double)f->timed_calls : 0, .min = f->min_ns,
        .max = f->max_ns, .f = f, .median_known = any && f->median_known,
        .median = f->median_ns, .runtime = is_runtime(f->name),
    };
    if (any && f->hist_known) {
        s.median_known = true;
        s.median = gst_hist_percentile(f->hist, f->min_ticks, f->max_ticks, 50) * f->ns_per_tick;
    }
    return s;
}

/* An arc's mean is its time through the arc per call; its spread is its
 * callee's. */
static struct side arc_side(const struct gst_parc *a, const char *callee)
{
    if (!a)
        return (struct side){ .runtime = is_runtime(callee) };
    bool any = a->time_known && a->calls > 0;
    return (struct side){
        .calls = a->calls, .time_known = a->time_known, .ns = a->total_ns, .any = any,
        .timed = a->calls, .samples = a->calls, .mean = any ? a->total_ns / (double)a->calls : 0,
        .runtime = is_runtime(callee),
    };
}

/* Fills c from the function's entries (either may be NULL); returns
 * whether it changed enough to be listed. */
static bool compare(struct gst_change *c, const struct gst_pfunc *b, const struct gst_pfunc *n,
                    const struct gst_diff_options *o)
{
    memset(c, 0, sizeof *c);
    c->name = b ? b->name : n->name;
    struct side x = func_side(b), y = func_side(n);
    compare_sides(&c->d, &x, &y, o, NULL);
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
                        const struct gst_parc *n, const struct gst_diff_options *o,
                        const struct gst_delta *callee_delta)
{
    memset(c, 0, sizeof *c);
    c->callee = callee;
    c->caller = b ? b->caller : n->caller;
    struct side x = arc_side(b, callee), y = arc_side(n, callee);
    compare_sides(&c->d, &x, &y, o, callee_delta);
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
static bool ignored(uint64_t base_calls, uint64_t new_calls, const struct gst_diff_options *o)
{
    return base_calls < o->min_calls && new_calls < o->min_calls;
}

/* The arcs into one function present in both profiles with callers. */
static int diff_arcs(struct gst_diff *d, const struct gst_pfunc *b, const struct gst_pfunc *n,
                     const struct gst_diff_options *o, const struct gst_delta *callee,
                     size_t *cap, struct gr_error *err)
{
    size_t i = 0, j = 0;
    while (i < b->ncallers || j < n->ncallers) {
        int order = walk_order(i < b->ncallers ? b->callers[i].caller : NULL,
                               j < n->ncallers ? n->callers[j].caller : NULL);
        const struct gst_parc *x = order <= 0 ? &b->callers[i++] : NULL;
        const struct gst_parc *y = order >= 0 ? &n->callers[j++] : NULL;
        if (ignored(x ? x->calls : 0, y ? y->calls : 0, o))
            continue;
        d->arcs_compared++;
        struct gst_arc_change *a = gr_vec_grow(d->arcs, cap, d->narcs + 1, sizeof *a);
        if (!a)
            return gr_fail(err, "out of memory comparing %zu arcs", d->narcs + 1);
        d->arcs = a;
        d->narcs += compare_arc(&d->arcs[d->narcs], b->name, x, y, o, callee);
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

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The run's speed: the median over the functions whose medians both
 * profiles know (and that are timed enough, not the runtime's) of NEW's
 * median over BASE's. A machine busier during one run slows every call
 * (1.3x-1.4x for some, between identical runs here); a function that
 * changed is one that changed relative to the rest. 1 with fewer than
 * GST_SPEED_FUNCS such functions, or with the spread rule off. */
#define GST_SPEED_FUNCS 20
static double run_speed(const struct gst_profile *base, const struct gst_profile *next,
                        const struct gst_diff_options *o)
{
    double *r = calloc(base->nfuncs + 1, sizeof *r);
    size_t n = 0;
    for (size_t i = 0; r && o->sigma > 0 && i < base->nfuncs; i++) {
        const struct gst_pfunc *y = gst_profile_find(next, base->funcs[i].name);
        struct side b = func_side(&base->funcs[i]), m = func_side(y);
        if (y && b.median_known && m.median_known && b.median > 0 && m.median > 0 &&
            !b.runtime && enough_time(&b, o) && enough_time(&m, o))
            r[n++] = log(m.median / b.median);
    }
    double speed = 1;
    if (n >= GST_SPEED_FUNCS) {
        qsort(r, n, sizeof *r, by_value);
        speed = exp(n % 2 ? r[n / 2] : (r[n / 2 - 1] + r[n / 2]) / 2);
    }
    free(r);
    return speed;
}

int gst_diff_profiles(const struct gst_profile *base, const struct gst_profile *next,
                      const struct gst_diff_options *options, struct gst_diff *d,
                      struct gr_error *err)
{
    struct gst_diff_options run = *options;
    const struct gst_diff_options *o = &run;
    run.speed = run_speed(base, next, options);
    memset(d, 0, sizeof *d);
    d->speed = run.speed;
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
        struct gst_change *c = &d->changes[d->count];
        bool changed = compare(c, b, n, o);
        if (b && n && b->has_callers && n->has_callers &&
            diff_arcs(d, b, n, o, &c->d, &arcs_cap, err) < 0) {
            gst_diff_free(d);
            return -1;
        }
        if (ignored(b ? b->calls : 0, n ? n->calls : 0, o))
            continue;
        d->compared++;
        d->regressions += changed && c->d.grew;
        d->count += changed;
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
