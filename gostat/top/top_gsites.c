/* top_gsites.c: see top_gsites.h. Sites are read afresh at each frame
 * (a pread of the section per process); names come from the file and go
 * through screen_line.c like function names. */
#include "gostat/top/top_gsites.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gostat/render/duration.h"

static int by_live(const void *a, const void *b)
{
    const struct top_gsite_row *x = a, *y = b;
    if (x->site->live != y->site->live)
        return x->site->live < y->site->live ? 1 : -1;
    if (x->site->created != y->site->created)
        return x->site->created < y->site->created ? 1 : -1;
    return x->pid < y->pid ? -1 : x->pid > y->pid;
}

int top_gsites_collect(const struct top_model *m, struct top_gsites *g)
{
    memset(g, 0, sizeof *g);
    g->sites = calloc(m->nprocs ? m->nprocs : 1, sizeof *g->sites);
    g->named = calloc(m->nprocs ? m->nprocs : 1, sizeof *g->named);
    if (!g->sites || !g->named) {
        top_gsites_free(g);
        return -1;
    }
    g->nprocs = m->nprocs;
    g->pid_column = m->all;
    size_t total = 0;
    for (size_t i = 0; i < m->nprocs; i++) {
        struct gr_error err;
        const struct gst_stats *st = &m->procs[i]->st;
        if (gst_sites_read(st, &g->sites[i], &err) == 0 && g->sites[i].present &&
            gst_gsites_build(st, &g->sites[i], &g->named[i]) == 0)
            total += g->named[i].n;
    }
    g->rows = calloc(total ? total : 1, sizeof *g->rows);
    if (!g->rows) {
        top_gsites_free(g);
        return -1;
    }
    for (size_t i = 0; i < m->nprocs; i++)
        for (size_t k = 0; k < g->named[i].n; k++)
            g->rows[g->nrows++] = (struct top_gsite_row){.pid = m->procs[i]->st.hdr.pid,
                                                         .site = &g->named[i].items[k]};
    qsort(g->rows, g->nrows, sizeof *g->rows, by_live);
    return 0;
}

void top_gsites_format_names(struct gst_line *l, const struct top_gsites *g)
{
    if (g->pid_column)
        gst_line_cell(l, "PID", 8, true);
    gst_line_put(l, "     LIVE   CREATED    EXITED    OLDEST       P99  CREATOR (go statement) -> START");
}

void top_gsites_format_row(struct gst_line *l, const struct top_gsites *g, size_t i)
{
    const struct top_gsite_row *r = &g->rows[i];
    const struct gst_gsite *s = r->site;
    char buf[64];
    if (g->pid_column) {
        snprintf(buf, sizeof buf, "%" PRId64, r->pid);
        gst_line_cell(l, buf, 8, true);
    }
    const uint64_t counts[3] = {s->live, s->created, s->ended};
    for (int k = 0; k < 3; k++) {
        snprintf(buf, sizeof buf, "%" PRIu64, counts[k]);
        gst_line_cell(l, buf, 9, true);
        gst_line_put(l, " ");
    }
    if (s->live && s->oldest_live_ns)
        gst_format_duration(buf, sizeof buf, (double)s->oldest_live_ns);
    else
        snprintf(buf, sizeof buf, "-");
    gst_line_cell(l, buf, 9, true);
    gst_line_put(l, " ");
    if (s->timed)
        gst_format_duration(buf, sizeof buf, s->p99_ns);
    else
        snprintf(buf, sizeof buf, "-");
    gst_line_cell(l, buf, 9, true);
    gst_line_put(l, "  ");
    gst_line_put(l, s->creator);
    if (s->file[0]) {
        const char *base = strrchr(s->file, '/');
        snprintf(buf, sizeof buf, ":%" PRIu32 ")", s->line);
        gst_line_put(l, " (");
        gst_line_put(l, base ? base + 1 : s->file);
        gst_line_put(l, buf);
    }
    gst_line_put(l, " -> ");
    gst_line_put(l, s->start);
}

void top_gsites_free(struct top_gsites *g)
{
    for (size_t i = 0; i < g->nprocs; i++) {
        if (g->named)
            gst_gsites_free(&g->named[i]);
        if (g->sites)
            gst_sites_free(&g->sites[i]);
    }
    free(g->named);
    free(g->sites);
    free(g->rows);
    memset(g, 0, sizeof *g);
}
