/* profile.c: building, folding and looking up a profile's functions. */
#include "gostat/profile/profile.h"
#include "gostat/profile/psites.h"
#include "common/vec.h"
#include "common/saturate.h"
#include "gostat/model/hist.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void gst_profile_init(struct gst_profile *p)
{
    memset(p, 0, sizeof *p);
}

static void free_process(struct gst_process *proc)
{
    free(proc->exe);
    free(proc->build_id);
    free(proc->go_version);
    free(proc->source);
}

static void free_callers(struct gst_parc *c, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(c[i].caller);
    free(c);
}

static void free_func(struct gst_pfunc *f)
{
    free(f->name);
    free(f->file);
    free_callers(f->callers, f->ncallers);
}

void gst_profile_free(struct gst_profile *p)
{
    for (size_t i = 0; i < p->nprocs; i++)
        free_process(&p->procs[i]);
    for (size_t i = 0; i < p->nfuncs; i++)
        free_func(&p->funcs[i]);
    free(p->procs);
    free(p->funcs);
    gst_profile_free_sites(p);
    gst_profile_init(p);
}

static char *dup_or_empty(const char *s)
{
    return strdup(s ? s : "");
}

int gst_profile_add_process(struct gst_profile *p, const struct gst_process *proc,
                            struct gr_error *err)
{
    struct gst_process *procs = gr_vec_grow(p->procs, &p->procs_cap, p->nprocs + 1, sizeof *procs);
    if (!procs)
        return gr_fail(err, "out of memory for %zu processes", p->nprocs + 1);
    p->procs = procs;
    struct gst_process copy = {
        .pid = proc->pid, .live = proc->live, .ended_ns = proc->ended_ns,
        .exe = dup_or_empty(proc->exe), .build_id = dup_or_empty(proc->build_id),
        .go_version = dup_or_empty(proc->go_version), .source = dup_or_empty(proc->source),
    };
    if (!copy.exe || !copy.build_id || !copy.go_version || !copy.source) {
        free_process(&copy);
        return gr_fail(err, "out of memory");
    }
    p->procs[p->nprocs++] = copy;
    return 0;
}

static int copy_callers(struct gst_pfunc *to, const struct gst_pfunc *from)
{
    if (from->ncallers == 0)
        return 0;
    to->callers = calloc(from->ncallers, sizeof *to->callers);
    if (!to->callers)
        return -1;
    for (size_t i = 0; i < from->ncallers; i++) {
        to->callers[i] = from->callers[i];
        to->callers[i].caller = dup_or_empty(from->callers[i].caller);
        to->ncallers = i + 1;
        if (!to->callers[i].caller)
            return -1;
    }
    return 0;
}

int gst_profile_add_func(struct gst_profile *p, const struct gst_pfunc *f, struct gr_error *err)
{
    struct gst_pfunc *funcs = gr_vec_grow(p->funcs, &p->funcs_cap, p->nfuncs + 1, sizeof *funcs);
    if (!funcs)
        return gr_fail(err, "out of memory for %zu functions", p->nfuncs + 1);
    p->funcs = funcs;
    struct gst_pfunc copy = *f;
    copy.name = dup_or_empty(f->name);
    copy.file = dup_or_empty(f->file);
    copy.callers = NULL;
    copy.ncallers = 0;
    if (copy.name && copy.file && copy_callers(&copy, f) < 0) {
        free_func(&copy);
        return gr_fail(err, "out of memory for %zu callers", f->ncallers);
    }
    if (!copy.name || !copy.file) {
        free_func(&copy);
        return gr_fail(err, "out of memory");
    }
    p->funcs[p->nfuncs++] = copy;
    return 0;
}

static int by_name_file_line(const void *a, const void *b)
{
    const struct gst_pfunc *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    if (c == 0) /* a known file sorts before an unknown one */
        c = (x->file[0] == '\0') - (y->file[0] == '\0');
    if (c == 0)
        c = strcmp(x->file, y->file);
    if (c == 0)
        c = (x->line > y->line) - (x->line < y->line);
    return c;
}

static int by_caller_name(const void *a, const void *b)
{
    return strcmp(((const struct gst_parc *)a)->caller, ((const struct gst_parc *)b)->caller);
}

/* Sorts f's callers by name and folds same-named ones into one. */
static void fold_callers(struct gst_pfunc *f)
{
    if (f->ncallers == 0)
        return;
    qsort(f->callers, f->ncallers, sizeof *f->callers, by_caller_name);
    size_t kept = 0;
    for (size_t i = 1; i < f->ncallers; i++) {
        struct gst_parc *into = &f->callers[kept], *from = &f->callers[i];
        if (strcmp(into->caller, from->caller) != 0) {
            f->callers[++kept] = *from;
            continue;
        }
        into->calls = gr_add_saturating(into->calls, from->calls);
        if (from->time_known) {
            into->total_ns = into->time_known ? into->total_ns + from->total_ns : from->total_ns;
            into->time_known = true;
        }
        free(from->caller);
    }
    f->ncallers = kept + 1;
}

/* Moves from's callers to the end of into's (folded later). Out of
 * memory: they are dropped and into's callers marked unknown. */
static void take_callers(struct gst_pfunc *into, struct gst_pfunc *from)
{
    into->has_callers |= from->has_callers;
    if (from->ncallers == 0)
        return;
    struct gst_parc *c = realloc(into->callers, (into->ncallers + from->ncallers) * sizeof *c);
    if (!c) {
        into->has_callers = false;
        return;
    }
    memcpy(c + into->ncallers, from->callers, from->ncallers * sizeof *c);
    into->callers = c;
    into->ncallers += from->ncallers;
    free(from->callers);
    from->callers = NULL;
    from->ncallers = 0;
}

/* Histograms of one clock (within 0.1 %: the same machine's calibrations)
 * add up; two medians do not make one. */
static void fold_spread(struct gst_pfunc *into, const struct gst_pfunc *from)
{
    if (from->samples == 0)
        return;
    if (into->samples == 0) {
        memcpy(into->hist, from->hist, sizeof into->hist);
        into->hist_known = from->hist_known;
        into->min_ticks = from->min_ticks;
        into->max_ticks = from->max_ticks;
        into->ns_per_tick = from->ns_per_tick;
        into->median_known = from->median_known;
        into->median_ns = from->median_ns;
        into->samples = from->samples;
        return;
    }
    into->median_known = false;
    into->samples = gr_add_saturating(into->samples, from->samples);
    into->hist_known = into->hist_known && from->hist_known &&
                       fabs(into->ns_per_tick - from->ns_per_tick) <= 1e-3 * into->ns_per_tick;
    if (!into->hist_known)
        return;
    for (unsigned b = 0; b < GS_HIST_BUCKETS; b++)
        into->hist[b] = gr_add_saturating(into->hist[b], from->hist[b]);
    into->min_ticks = into->min_ticks < from->min_ticks ? into->min_ticks : from->min_ticks;
    into->max_ticks = into->max_ticks > from->max_ticks ? into->max_ticks : from->max_ticks;
}

/* A process that never called the function adds no time, known or not:
 * its known 0 must not make the others' unknown total known (a merged
 * stats file, whose sums are one, would not). */
static void drop_uncalled_time(struct gst_pfunc *into, struct gst_pfunc *from)
{
    struct gst_pfunc *none = into->calls == 0 && from->calls > 0 ? into
                             : from->calls == 0 && into->calls > 0 ? from : NULL;
    if (none)
        none->time_known = none->oncpu_known = none->self_known = false;
}

/* Adds from's counts to into; from is then freed. */
static void fold(struct gst_pfunc *into, struct gst_pfunc *from)
{
    drop_uncalled_time(into, from);
    into->calls = gr_add_saturating(into->calls, from->calls);
    into->timed |= from->timed;
    into->timed_calls = gr_add_saturating(into->timed_calls, from->timed_calls);
    into->timed_ns += from->timed_ns;
    if (from->time_known) {
        into->total_ns = into->time_known ? into->total_ns + from->total_ns : from->total_ns;
        into->time_known = true;
    }
    if (from->any_time) {
        into->min_ns = into->any_time && into->min_ns < from->min_ns ? into->min_ns : from->min_ns;
        into->max_ns = into->any_time && into->max_ns > from->max_ns ? into->max_ns : from->max_ns;
        into->any_time = true;
    }
    fold_spread(into, from);
    into->estimated |= from->estimated;
    if (from->oncpu_known) {
        into->oncpu_ns = into->oncpu_known ? into->oncpu_ns + from->oncpu_ns : from->oncpu_ns;
        into->oncpu_known = true;
    }
    if (from->self_known) {
        into->self_ns = into->self_known ? into->self_ns + from->self_ns : from->self_ns;
        into->self_known = true;
    }
    take_callers(into, from);
    free_func(from);
}

void gst_profile_sort(struct gst_profile *p)
{
    gst_profile_sort_sites(p);
    if (p->nfuncs == 0)
        return;
    qsort(p->funcs, p->nfuncs, sizeof *p->funcs, by_name_file_line);
    size_t kept = 0;
    for (size_t i = 1; i < p->nfuncs; i++) {
        if (strcmp(p->funcs[kept].name, p->funcs[i].name) == 0)
            fold(&p->funcs[kept], &p->funcs[i]);
        else
            p->funcs[++kept] = p->funcs[i];
    }
    p->nfuncs = kept + 1;
    for (size_t i = 0; i < p->nfuncs; i++)
        fold_callers(&p->funcs[i]);
}

static int by_caller_key(const void *key, const void *elem)
{
    return strcmp(key, ((const struct gst_parc *)elem)->caller);
}

const struct gst_parc *gst_pfunc_find_caller(const struct gst_pfunc *f, const char *caller)
{
    if (f->ncallers == 0)
        return NULL;
    return bsearch(caller, f->callers, f->ncallers, sizeof *f->callers, by_caller_key);
}

static int by_name_key(const void *key, const void *elem)
{
    return strcmp(key, ((const struct gst_pfunc *)elem)->name);
}

const struct gst_pfunc *gst_profile_find(const struct gst_profile *p, const char *name)
{
    if (p->nfuncs == 0)
        return NULL;
    return bsearch(name, p->funcs, p->nfuncs, sizeof *p->funcs, by_name_key);
}

/* Folds two functions of one name into the one that sorts first (whose
 * file and line are kept, as gst_profile_sort would) and returns it. */
static struct gst_pfunc fold_pair(struct gst_pfunc *a, struct gst_pfunc *b)
{
    struct gst_pfunc *into = by_name_file_line(b, a) < 0 ? b : a;
    fold(into, into == a ? b : a);
    fold_callers(into);
    return *into;
}

static int take_processes(struct gst_profile *dst, struct gst_profile *src, struct gr_error *err)
{
    size_t n = dst->nprocs + src->nprocs;
    struct gst_process *procs = gr_vec_grow(dst->procs, &dst->procs_cap, n, sizeof *procs);
    if (!procs)
        return gr_fail(err, "out of memory for %zu processes", n);
    dst->procs = procs;
    if (src->nprocs)
        memcpy(procs + dst->nprocs, src->procs, src->nprocs * sizeof *procs);
    dst->nprocs = n;
    src->nprocs = 0;
    return 0;
}

/* src's goroutine sites added to dst's (copies: src is freed after). */
static int take_sites(struct gst_profile *dst, const struct gst_profile *src, struct gr_error *err)
{
    for (size_t i = 0; i < src->nsites; i++)
        if (gst_profile_add_site(dst, &src->sites[i], err) < 0)
            return -1;
    gst_profile_sort_sites(dst);
    return 0;
}

int gst_profile_absorb(struct gst_profile *dst, struct gst_profile *src, struct gr_error *err)
{
    size_t dn = dst->nfuncs, sn = src->nfuncs, i = 0, j = 0, k = 0;
    struct gst_pfunc *out = malloc((dn + sn ? dn + sn : 1) * sizeof *out);
    if (!out || take_processes(dst, src, err) < 0) {
        if (!out)
            gr_fail(err, "out of memory for %zu functions", dn + sn);
        free(out);
        gst_profile_free(src);
        return -1;
    }
    while (i < dn || j < sn) {
        int c = i == dn ? 1 : j == sn ? -1 : strcmp(dst->funcs[i].name, src->funcs[j].name);
        if (c < 0)
            out[k++] = dst->funcs[i++];
        else if (c > 0)
            out[k++] = src->funcs[j++];
        else
            out[k++] = fold_pair(&dst->funcs[i++], &src->funcs[j++]);
    }
    free(dst->funcs);
    dst->funcs = out;
    dst->nfuncs = k;
    dst->funcs_cap = dn + sn;
    src->nfuncs = 0;
    int rc = take_sites(dst, src, err);
    gst_profile_free(src);
    if (rc < 0)
        return -1;
    return 0;
}

void gst_profile_keep_matching(struct gst_profile *p, const regex_t *filter)
{
    size_t kept = 0;
    for (size_t i = 0; i < p->nfuncs; i++) {
        if (regexec(filter, p->funcs[i].name, 0, NULL, 0) == 0)
            p->funcs[kept++] = p->funcs[i];
        else
            free_func(&p->funcs[i]);
    }
    p->nfuncs = kept;
}

uint64_t gst_profile_total_calls(const struct gst_profile *p)
{
    uint64_t total = 0;
    for (size_t i = 0; i < p->nfuncs; i++)
        total = gr_add_saturating(total, p->funcs[i].calls);
    return total;
}

bool gst_pfunc_percentile(const struct gst_pfunc *f, unsigned pct, double *ns)
{
    if (f->hist_known && f->samples > 0) {
        *ns = gst_hist_percentile(f->hist, f->min_ticks, f->max_ticks, pct) * f->ns_per_tick;
        return true;
    }
    *ns = f->median_ns;
    return pct == 50 && f->median_known;
}
