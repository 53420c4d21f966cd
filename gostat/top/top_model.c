/* top_model.c: the processes "gostat top" watches, their rates and rows. */
#include "gostat/top/top_model.h"
#include "common/regex_compile.h"
#include "common/vec.h"

#include "gostat/read/statsdir.h"
#include "gostat/read/target.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

double top_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double wall_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* After each refresh of st: what the rows and the next interval need. */
static void note_snapshot(struct top_proc *p)
{
    const struct gst_stats *st = &p->st;
    for (uint32_t i = 0; i < st->hdr.nfuncs; i++) {
        struct gst_times t = gst_times_of(st, &st->funcs[i]);
        p->total_ns[i] = t.known ? t.total_ns : 0;
    }
    if (st->live)
        p->up_seconds = wall_now() - (double)st->hdr.start_time_ns / 1e9;
}

static void proc_free(struct top_proc *p)
{
    if (!p)
        return;
    gst_stats_close(&p->st);
    free(p->prev_calls);
    free(p->prev_total_ns);
    free(p->total_ns);
    free(p);
}

/* Takes over st (already opened and refreshed once). */
static struct top_proc *proc_new(struct gst_stats *st, struct gr_error *err)
{
    struct top_proc *p = calloc(1, sizeof *p);
    size_t n = st->hdr.nfuncs ? st->hdr.nfuncs : 1;

    if (p) {
        p->st = *st;
        p->prev_calls = calloc(n, sizeof *p->prev_calls);
        p->prev_total_ns = calloc(n, sizeof *p->prev_total_ns);
        p->total_ns = calloc(n, sizeof *p->total_ns);
    }
    if (!p || !p->prev_calls || !p->prev_total_ns || !p->total_ns) {
        if (p)
            proc_free(p);
        else
            gst_stats_close(st);
        gr_fail(err, "%s: out of memory", st->path);
        return NULL;
    }
    p->refreshed_at = top_now();
    p->up_seconds = -1;
    note_snapshot(p);
    return p;
}

static int proc_refresh(struct top_proc *p, struct gr_error *err)
{
    struct gst_stats *st = &p->st;
    for (uint32_t i = 0; i < st->hdr.nfuncs; i++)
        p->prev_calls[i] = st->funcs[i].calls;
    memcpy(p->prev_total_ns, p->total_ns, st->hdr.nfuncs * sizeof *p->total_ns);
    p->prev_total_calls = st->total_calls;
    if (gst_stats_refresh(st, err) < 0)
        return -1;
    double now = top_now();
    p->interval = now - p->refreshed_at;
    p->refreshed_at = now;
    note_snapshot(p);
    return 0;
}

static int add_proc(struct top_model *m, struct top_proc *p, struct gr_error *err)
{
    struct top_proc **grown = gr_vec_grow(m->procs, &m->procs_cap, m->nprocs + 1, sizeof *grown);
    if (!grown) {
        proc_free(p);
        return gr_fail(err, "out of memory for %zu processes", m->nprocs + 1);
    }
    m->procs = grown;
    m->procs[m->nprocs++] = p;
    return 0;
}

int top_model_open_target(struct top_model *m, const char *target, struct gr_error *err)
{
    struct gst_stats st;

    memset(m, 0, sizeof *m);
    if (gst_open_target(target, &st, err) < 0)
        return -1;
    struct top_proc *p = proc_new(&st, err);
    return p ? add_proc(m, p, err) : -1;
}

void top_model_open_dir(struct top_model *m, const char *dir)
{
    memset(m, 0, sizeof *m);
    m->all = true;
    m->dir = dir;
}

static struct top_proc *find_file(const struct top_model *m, const struct stat *sb)
{
    for (size_t i = 0; i < m->nprocs; i++)
        if (m->procs[i]->dev == sb->st_dev && m->procs[i]->ino == sb->st_ino)
            return m->procs[i];
    return NULL;
}

/* A file seen before is refreshed; a new one joins if it is valid and its
 * process running (an invalid one may be a program still starting: it is
 * looked at again next time). */
static int visit_file(void *ctx, const char *name, const char *path, int fd,
                      const struct gr_error *open_err)
{
    struct top_model *m = ctx;
    struct gst_stats st;
    struct gr_error err;
    struct stat sb;

    (void)name;
    (void)open_err;
    if (fd < 0)
        return 0;
    if (fstat(fd, &sb) < 0) {
        close(fd);
        return 0;
    }
    struct top_proc *known = find_file(m, &sb);
    if (known) {
        close(fd);
        known->seen = proc_refresh(known, &err) == 0;
        return 0;
    }
    if (gst_stats_open_fd(&st, fd, path, &err) < 0)
        return 0;
    if (!st.live) {
        gst_stats_close(&st);
        return 0;
    }
    struct top_proc *p = proc_new(&st, &err);
    if (!p || add_proc(m, p, &err) < 0)
        return 0;   /* out of memory: show the others */
    p->dev = sb.st_dev;
    p->ino = sb.st_ino;
    p->seen = true;
    return 0;
}

/* Processes that exited, and files removed or unreadable, leave the view. */
static void drop_gone(struct top_model *m)
{
    size_t kept = 0;
    for (size_t i = 0; i < m->nprocs; i++) {
        struct top_proc *p = m->procs[i];
        if (p->seen && p->st.live)
            m->procs[kept++] = p;
        else
            proc_free(p);
    }
    m->nprocs = kept;
}

int top_model_refresh(struct top_model *m, struct gr_error *err)
{
    if (!m->all)
        return m->nprocs ? proc_refresh(m->procs[0], err) : 0;
    for (size_t i = 0; i < m->nprocs; i++)
        m->procs[i]->seen = false;
    int rc = gst_dir_scan(m->dir, visit_file, m, err);
    drop_gone(m);
    return rc < 0 ? -1 : 0;
}

int top_model_set_filter(struct top_model *m, const char *text, struct gr_error *err)
{
    regex_t re;

    if (text[0] == '\0') {
        if (m->has_filter)
            regfree(&m->filter);
        m->has_filter = false;
        m->filter_text[0] = '\0';
        return 0;
    }
    if (gr_regex_compile(&re, text, "filter", err) < 0)
        return -1;
    if (m->has_filter)
        regfree(&m->filter);
    m->filter = re;
    m->has_filter = true;
    snprintf(m->filter_text, sizeof m->filter_text, "%s", text);
    return 0;
}

static double sort_key(enum top_sort sort, const struct top_row *r)
{
    switch (sort) {
    case TOP_SORT_RATE: return r->rate_known ? r->rate : -1;
    case TOP_SORT_CALLS: return (double)r->func->calls;
    case TOP_SORT_TIME: return r->share_known ? r->share : -1;
    case TOP_SORT_MEAN: return r->times.any ? r->times.mean_ns : -1;
    case TOP_SORT_P99: return r->times.any ? r->times.p99_ns : -1;
    default: return 0;
    }
}

static struct top_row make_row(const struct top_proc *p, uint32_t i, enum top_sort sort)
{
    const struct gst_func *f = &p->st.funcs[i];
    struct top_row r = { .proc = p, .func = f, .times = gst_times_of(&p->st, f) };

    if (p->interval > 0) {
        uint64_t prev = p->prev_calls[i];
        r.rate_known = true;
        r.rate = (double)(f->calls > prev ? f->calls - prev : 0) / p->interval;
        if (r.times.known) {
            double spent = p->total_ns[i] - p->prev_total_ns[i];
            r.share_known = true;
            r.share = (spent > 0 ? spent : 0) / (p->interval * 1e9) * 100;
        }
    }
    r.key = sort_key(sort, &r);
    return r;
}

static bool selected(const struct top_model *m, const struct gst_func *f)
{
    if (f->calls == 0 && !m->show_uncalled)
        return false;
    return !m->has_filter || regexec(&m->filter, f->name, 0, NULL, 0) == 0;
}

/* The name sort, and the last tie-break: name, then pid, then address, so
 * the order stays put between refreshes. */
static int by_name(const void *pa, const void *pb)
{
    const struct top_row *a = pa, *b = pb;
    int c = strcmp(a->func->name, b->func->name);
    if (c)
        return c;
    if (a->proc->st.hdr.pid != b->proc->st.hdr.pid)
        return a->proc->st.hdr.pid < b->proc->st.hdr.pid ? -1 : 1;
    return (a->func->entry > b->func->entry) - (a->func->entry < b->func->entry);
}

/* Equal keys (e.g. no rates yet on the first screen) go by calls. */
static int by_key(const void *pa, const void *pb)
{
    const struct top_row *a = pa, *b = pb;
    if (a->key != b->key)
        return a->key < b->key ? 1 : -1;
    if (a->func->calls != b->func->calls)
        return a->func->calls < b->func->calls ? 1 : -1;
    return by_name(pa, pb);
}

static int grow_rows(struct top_model *m, size_t need, struct gr_error *err)
{
    struct top_row *grown = gr_vec_grow(m->rows, &m->rows_cap, need, sizeof *grown);
    if (!grown)
        return gr_fail(err, "out of memory for %zu rows", need);
    m->rows = grown;
    return 0;
}

static int by_proc_name(const void *a, const void *b, void *rows)
{
    const struct top_row *x = (const struct top_row *)rows + *(const size_t *)a;
    const struct top_row *y = (const struct top_row *)rows + *(const size_t *)b;
    uintptr_t px = (uintptr_t)x->proc, py = (uintptr_t)y->proc;
    return px != py ? (px < py ? -1 : 1) : strcmp(x->func->name, y->func->name);
}

/* Marks the rows whose name another row of the same process has too (out
 * of memory: none marked). */
static void mark_shared(struct top_model *m)
{
    size_t *order = malloc((m->nrows ? m->nrows : 1) * sizeof *order);
    for (size_t i = 0; i < m->nrows; i++)
        m->rows[i].shared = false;
    if (!order)
        return;
    for (size_t i = 0; i < m->nrows; i++)
        order[i] = i;
    qsort_r(order, m->nrows, sizeof *order, by_proc_name, m->rows);
    for (size_t i = 1; i < m->nrows; i++)
        if (by_proc_name(&order[i - 1], &order[i], m->rows) == 0)
            m->rows[order[i - 1]].shared = m->rows[order[i]].shared = true;
    free(order);
}

int top_model_build_rows(struct top_model *m, struct gr_error *err)
{
    size_t need = 0;
    for (size_t k = 0; k < m->nprocs; k++)
        need += m->procs[k]->st.hdr.nfuncs;
    if (grow_rows(m, need ? need : 1, err) < 0)
        return -1;
    m->nrows = 0;
    for (size_t k = 0; k < m->nprocs; k++) {
        const struct top_proc *p = m->procs[k];
        for (uint32_t i = 0; i < p->st.hdr.nfuncs; i++)
            if (selected(m, &p->st.funcs[i]))
                m->rows[m->nrows++] = make_row(p, i, m->sort);
    }
    qsort(m->rows, m->nrows, sizeof *m->rows, m->sort == TOP_SORT_NAME ? by_name : by_key);
    mark_shared(m);
    return 0;
}

struct top_totals top_model_totals(const struct top_model *m)
{
    struct top_totals t = { .procs = m->nprocs, .rate_known = m->nprocs > 0 };
    bool goroutines_known = m->nprocs > 0;
    uint64_t created = 0, ended = 0;

    for (size_t k = 0; k < m->nprocs; k++) {
        const struct top_proc *p = m->procs[k];
        struct gst_goroutines g = gst_goroutines_of(&p->st);
        t.running += p->st.live;
        t.calls += p->st.total_calls;
        t.funcs += p->st.hdr.nfuncs;
        if (p->interval > 0) {
            uint64_t delta = p->st.total_calls > p->prev_total_calls
                                 ? p->st.total_calls - p->prev_total_calls : 0;
            t.rate += (double)delta / p->interval;
        } else {
            t.rate_known = false;
        }
        goroutines_known &= g.known;
        created += g.created;
        ended += g.ended;
    }
    t.goroutines = gst_goroutines_from(goroutines_known, created, ended);
    return t;
}

void top_model_close(struct top_model *m)
{
    for (size_t k = 0; k < m->nprocs; k++)
        proc_free(m->procs[k]);
    free(m->procs);
    free(m->rows);
    if (m->has_filter)
        regfree(&m->filter);
    memset(m, 0, sizeof *m);
}
