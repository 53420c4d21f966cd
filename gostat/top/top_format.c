/* top_format.c: the text of gostat top's screen. Columns: [PID,] CALLS/S,
 * CALLS, TIME%, MEAN, P99, FUNCTION; "-" where a value is unknown. */
#include "gostat/top/top_format.h"

#include "gostat/render/duration.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#define CELL 48

enum { C_PID, C_RATE, C_CALLS, C_SHARE, C_MEAN, C_P99, NCELLS };
static const char *const column_names[NCELLS] = { "PID", "CALLS/S", "CALLS", "TIME%", "MEAN", "P99" };

static const char *const sort_labels[] = {
    [TOP_SORT_RATE] = "calls/s", [TOP_SORT_CALLS] = "calls", [TOP_SORT_TIME] = "time%",
    [TOP_SORT_MEAN] = "mean", [TOP_SORT_P99] = "p99", [TOP_SORT_NAME] = "function",
};

const char *top_sort_label(enum top_sort sort)
{
    return sort_labels[sort];
}

static void format_duration_or_dash(char *buf, bool known, double ns)
{
    if (known)
        gst_format_duration(buf, CELL, ns);
    else
        snprintf(buf, CELL, "-");
}

static void row_cells(const struct top_row *r, char cells[NCELLS][CELL])
{
    snprintf(cells[C_PID], CELL, "%" PRId64, r->proc->st.hdr.pid);
    if (r->rate_known)
        snprintf(cells[C_RATE], CELL, "%.0f", r->rate);
    else
        snprintf(cells[C_RATE], CELL, "-");
    snprintf(cells[C_CALLS], CELL, "%" PRIu64, r->func->calls);
    if (r->share_known)
        snprintf(cells[C_SHARE], CELL, "%.1f", r->share);
    else
        snprintf(cells[C_SHARE], CELL, "-");
    format_duration_or_dash(cells[C_MEAN], r->times.any, r->times.mean_ns);
    format_duration_or_dash(cells[C_P99], r->times.any, r->times.p99_ns);
}

static size_t *width_of(struct top_widths *w, int c)
{
    size_t *by_cell[NCELLS] = { &w->pid, &w->rate, &w->calls, &w->share, &w->mean, &w->p99 };
    return by_cell[c];
}

struct top_widths top_format_widths(const struct top_model *m)
{
    struct top_widths w;
    char cells[NCELLS][CELL];

    for (int c = 0; c < NCELLS; c++)
        *width_of(&w, c) = gst_screen_width(column_names[c]);
    for (size_t i = 0; i < m->nrows; i++) {
        row_cells(&m->rows[i], cells);
        for (int c = 0; c < NCELLS; c++) {
            size_t n = gst_screen_width(cells[c]);
            if (n > *width_of(&w, c))
                *width_of(&w, c) = n;
        }
    }
    return w;
}

static void put_cells(struct gst_line *l, const struct top_model *m, struct top_widths w,
                      const char *const cells[NCELLS], const char *name)
{
    for (int c = m->all ? C_PID : C_RATE; c < NCELLS; c++) {
        gst_line_cell(l, cells[c], *width_of(&w, c), true);
        gst_line_put(l, "  ");
    }
    gst_line_put(l, name);
}

void top_format_column_names(struct gst_line *l, const struct top_model *m,
                             const struct top_widths *w)
{
    put_cells(l, m, *w, column_names, "FUNCTION");
}

void top_format_row(struct gst_line *l, const struct top_model *m, const struct top_row *r,
                    const struct top_widths *w)
{
    char cells[NCELLS][CELL];
    const char *ptrs[NCELLS];

    row_cells(r, cells);
    for (int c = 0; c < NCELLS; c++)
        ptrs[c] = cells[c];
    char *marked = NULL;
    if (r->shared && asprintf(&marked, "%s (0x%" PRIx64 ")", r->func->name, r->func->entry) >= 0) {
        put_cells(l, m, *w, ptrs, marked);
        free(marked);
        return;
    }
    put_cells(l, m, *w, ptrs, r->func->name);
}

/* Like top(1): "1:02:03", with days in front once past one. */
static void format_uptime(char *buf, size_t size, double seconds)
{
    if (seconds < 0) {
        snprintf(buf, size, "-");
        return;
    }
    uint64_t s = (uint64_t)seconds;
    uint64_t days = s / 86400;
    if (days)
        snprintf(buf, size, "%" PRIu64 "d %" PRIu64 ":%02" PRIu64 ":%02" PRIu64, days,
                 s / 3600 % 24, s / 60 % 60, s % 60);
    else
        snprintf(buf, size, "%" PRIu64 ":%02" PRIu64 ":%02" PRIu64, s / 3600, s / 60 % 60, s % 60);
}

static void format_process_line(struct gst_line *l, const struct top_model *m)
{
    char buf[CELL * 2];

    if (m->all) {
        snprintf(buf, sizeof buf, "processes %zu in ", m->nprocs);
        gst_line_put(l, buf);
        gst_line_put(l, m->dir);
        return;
    }
    const struct top_proc *p = m->procs[0];
    gst_line_put(l, "exe ");
    gst_line_put(l, p->st.hdr.exe);
    format_uptime(buf, sizeof buf, p->up_seconds);
    char rest[CELL * 3];
    snprintf(rest, sizeof rest, "  pid %" PRId64 "  %s  up %s", p->st.hdr.pid,
             p->st.live ? "running" : "exited", buf);
    gst_line_put(l, rest);
}

static void format_totals_line(struct gst_line *l, const struct top_model *m)
{
    struct top_totals t = top_model_totals(m);
    char buf[CELL * 4];

    if (t.rate_known)
        snprintf(buf, sizeof buf, "calls/s %.0f", t.rate);
    else
        snprintf(buf, sizeof buf, "calls/s -");
    gst_line_put(l, buf);
    snprintf(buf, sizeof buf, "  calls %" PRIu64 "  functions %" PRIu64 " (%zu shown)", t.calls,
             t.funcs, m->nrows);
    gst_line_put(l, buf);
    if (t.goroutines.known)
        snprintf(buf, sizeof buf, "  goroutines created %" PRIu64 " exited %" PRIu64 " live %" PRIu64,
                 t.goroutines.created, t.goroutines.ended, t.goroutines.live);
    else
        snprintf(buf, sizeof buf, "  goroutines created - exited - live -");
    gst_line_put(l, buf);
}

static void format_view_line(struct gst_line *l, const struct top_model *m)
{
    gst_line_put(l, "sort ");
    gst_line_put(l, top_sort_label(m->sort));
    if (m->has_filter) {
        gst_line_put(l, "  filter ");
        gst_line_put(l, m->filter_text);
    }
    if (m->show_uncalled)
        gst_line_put(l, "  with uncalled functions");
}

void top_format_header(struct gst_line *l, const struct top_model *m, size_t index, bool paused)
{
    switch (index) {
    case 0:
        format_process_line(l, m);
        if (paused)
            gst_line_put(l, "  PAUSED");
        break;
    case 1:
        format_totals_line(l, m);
        break;
    default:
        format_view_line(l, m);
        break;
    }
}

void top_format_print(FILE *out, const struct top_model *m, bool paused, size_t first,
                      size_t count, size_t cols)
{
    static char buf[TOP_LINE_BYTES];
    struct gst_line l;
    struct top_widths w = top_format_widths(m);

    if (cols > TOP_MAX_COLS)
        cols = TOP_MAX_COLS;
    for (size_t i = 0; i < TOP_HEADER_LINES; i++) {
        gst_line_init(&l, buf, sizeof buf, cols);
        top_format_header(&l, m, i, paused);
        fprintf(out, "%s\n", buf);
    }
    gst_line_init(&l, buf, sizeof buf, cols);
    top_format_column_names(&l, m, &w);
    fprintf(out, "\n%s\n", buf);
    for (size_t i = first; i < m->nrows && i - first < count; i++) {
        gst_line_init(&l, buf, sizeof buf, cols);
        top_format_row(&l, m, &m->rows[i], &w);
        fprintf(out, "%s\n", buf);
    }
}
