/* scrape.c: collecting the live stats files of a directory. */
#include "gostat/read/scrape.h"
#include "common/vec.h"

#include "gostat/read/statsdir.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct collect {
    struct gst_scrape *s;
    size_t cap;
};

static int keep(struct collect *c, struct gst_stats *st)
{
    struct gst_scrape *s = c->s;
    struct gst_stats **procs = gr_vec_grow(s->procs, &c->cap, s->nprocs + 1, sizeof *procs);
    if (!procs)
        return -1;
    s->procs = procs;
    s->procs[s->nprocs++] = st;
    return 0;
}

static int visit(void *ctx, const char *name, const char *path, int fd,
                 const struct gr_error *open_err)
{
    struct collect *c = ctx;
    struct gr_error err;
    (void)name;
    (void)open_err;

    if (fd < 0) {
        c->s->invalid_files++;
        return 0;
    }
    struct gst_stats *st = malloc(sizeof *st);
    if (!st) {
        close(fd);
        return 1;
    }
    if (gst_stats_open_fd(st, fd, path, &err) < 0) {
        /* also a program still writing its header: counted until it is done */
        c->s->invalid_files++;
        free(st);
        return 0;
    }
    if (st->live && keep(c, st) == 0)
        return 0;
    bool failed = st->live;
    gst_stats_close(st);
    free(st);
    return failed ? 1 : 0;   /* 1: out of memory */
}

static int by_pid_then_start(const void *a, const void *b)
{
    const struct gst_stats *x = *(struct gst_stats *const *)a, *y = *(struct gst_stats *const *)b;
    if (x->hdr.pid != y->hdr.pid)
        return x->hdr.pid < y->hdr.pid ? -1 : 1;
    if (x->hdr.start_time_ns != y->hdr.start_time_ns)
        return x->hdr.start_time_ns < y->hdr.start_time_ns ? -1 : 1;
    return strcmp(x->path, y->path);
}

/* A process that execs another instrumented program keeps its pid and
 * start time, so both files look live: only the newer image is running,
 * and exporting both would give Prometheus duplicate series. */
static void keep_newest_per_pid(struct gst_scrape *s)
{
    size_t out = 0;
    for (size_t i = 0; i < s->nprocs; i++) {
        if (i + 1 < s->nprocs && s->procs[i + 1]->hdr.pid == s->procs[i]->hdr.pid) {
            gst_stats_close(s->procs[i]);
            free(s->procs[i]);
            continue;
        }
        s->procs[out++] = s->procs[i];
    }
    s->nprocs = out;
}

int gst_scrape_collect(struct gst_scrape *s, const char *dir, struct gr_error *err)
{
    struct collect c = { .s = s };
    memset(s, 0, sizeof *s);
    int rc = gst_dir_scan(dir, visit, &c, err);
    if (rc != 0) {
        if (rc > 0)
            gr_fail(err, "%s: out of memory reading the stats files", dir);
        gst_scrape_free(s);
        return -1;
    }
    if (s->nprocs)   /* procs is NULL when there are none */
        qsort(s->procs, s->nprocs, sizeof *s->procs, by_pid_then_start);
    keep_newest_per_pid(s);
    return 0;
}

void gst_scrape_free(struct gst_scrape *s)
{
    for (size_t i = 0; i < s->nprocs; i++) {
        gst_stats_close(s->procs[i]);
        free(s->procs[i]);
    }
    free(s->procs);
    memset(s, 0, sizeof *s);
}
