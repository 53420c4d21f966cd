/* profile_table.c: the text table of a profile (profile_table.h). */
#include "gostat/profile/profile_table.h"

#include "gostat/render/duration.h"
#include "gostat/render/term.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define CELL 48
#define LOCATION 4200
enum { P_TOTAL, P_MEAN, P_P50, P_MIN, P_MAX, NTIMES };
static const char *const time_names[NTIMES] = { "TOTAL", "MEAN", "P50", "MIN", "MAX" };

struct widths {
    size_t name, calls, location, times[NTIMES];
};

static void format_times(char cells[NTIMES][CELL], const struct gst_pfunc *f)
{
    double p50;
    bool p50_known = gst_pfunc_percentile(f, 50, &p50);
    bool known[NTIMES] = { f->time_known, f->any_time, p50_known, f->any_time, f->any_time };
    double ns[NTIMES] = { f->total_ns, f->any_time ? f->timed_ns / (double)f->timed_calls : 0, p50,
                          f->min_ns, f->max_ns };
    for (int c = 0; c < NTIMES; c++) {
        if (known[c])
            gst_format_duration(cells[c], CELL, ns[c]);
        else
            snprintf(cells[c], CELL, "-");
    }
}

static void format_location(char *buf, size_t size, const struct gst_pfunc *f)
{
    gst_format_location(buf, size, f->file, f->line);
}

static double sort_time(const struct gst_pfunc *f, enum gst_sort sort)
{
    if (sort == GST_SORT_SELF)
        return f->self_known ? f->self_ns : -1;
    return f->time_known ? f->total_ns : -1;
}

/* The order of gst_view_build's: the key descending, then calls, then name. */
static int by_sort(const void *a, const void *b, void *sort)
{
    enum gst_sort sort_by = *(const enum gst_sort *)sort;
    const struct gst_pfunc *x = *(const struct gst_pfunc *const *)a;
    const struct gst_pfunc *y = *(const struct gst_pfunc *const *)b;
    if (sort_by != GST_SORT_NAME && sort_by != GST_SORT_CALLS) {
        double tx = sort_time(x, sort_by), ty = sort_time(y, sort_by);
        if (tx != ty)
            return tx < ty ? 1 : -1;
    }
    if (sort_by != GST_SORT_NAME && x->calls != y->calls)
        return x->calls < y->calls ? 1 : -1;
    return strcmp(x->name, y->name);
}

static const struct gst_pfunc **select_rows(const struct gst_profile *p,
                                            const struct gst_profile_table_options *o, size_t *n)
{
    const struct gst_pfunc **rows = malloc((p->nfuncs ? p->nfuncs : 1) * sizeof *rows);
    *n = 0;
    if (!rows)
        return NULL;
    for (size_t i = 0; i < p->nfuncs; i++) {
        const struct gst_pfunc *f = &p->funcs[i];
        if ((o->nonzero && f->calls == 0) ||
            (o->filter && regexec(o->filter, f->name, 0, NULL, 0) != 0))
            continue;
        rows[(*n)++] = f;
    }
    enum gst_sort sort = o->sort;
    qsort_r(rows, *n, sizeof *rows, by_sort, &sort);
    if (o->top && *n > o->top)
        *n = o->top;
    return rows;
}

static void widen(size_t *w, const char *s)
{
    size_t n = gst_text_width(s);
    *w = n > *w ? n : *w;
}

static struct widths measure(const struct gst_pfunc *const *rows, size_t n, size_t columns)
{
    struct widths w = { .name = strlen("FUNCTION"), .calls = strlen("CALLS"),
                        .location = strlen("FILE:LINE") };
    char cells[NTIMES][CELL], buf[LOCATION];
    for (int c = 0; c < NTIMES; c++)
        w.times[c] = strlen(time_names[c]);
    for (size_t i = 0; i < n; i++) {
        widen(&w.name, rows[i]->name);
        snprintf(buf, sizeof buf, "%" PRIu64, rows[i]->calls);
        widen(&w.calls, buf);
        format_times(cells, rows[i]);
        for (int c = 0; c < NTIMES; c++)
            widen(&w.times[c], cells[c]);
        format_location(buf, sizeof buf, rows[i]);
        widen(&w.location, buf);
    }
    size_t fixed = 2 + w.calls + 2;
    for (int c = 0; c < NTIMES; c++)
        fixed += 2 + w.times[c];
    gst_fit_columns(&w.name, &w.location, fixed, columns, strlen("FUNCTION"), strlen("FILE:LINE"));
    return w;
}

static void print_row(FILE *out, const struct gst_pfunc *f, const struct widths *w)
{
    char cells[NTIMES][CELL], buf[LOCATION];
    gst_put_cut_cell(out, f->name, w->name, false, false);
    snprintf(buf, sizeof buf, "%" PRIu64, f->calls);
    fputs("  ", out);
    gst_put_cell(out, buf, w->calls, true);
    format_times(cells, f);
    for (int c = 0; c < NTIMES; c++) {
        fputs("  ", out);
        gst_put_cell(out, cells[c], w->times[c], true);
    }
    fputs("  ", out);
    format_location(buf, sizeof buf, f);
    gst_put_cut_cell(out, buf, gst_text_width(buf) > w->location ? w->location : 0, false, true);
    fputc('\n', out);
}

static void print_header(FILE *out, const struct widths *w)
{
    gst_put_cell(out, "FUNCTION", w->name, false);
    fputs("  ", out);
    gst_put_cell(out, "CALLS", w->calls, true);
    for (int c = 0; c < NTIMES; c++) {
        fputs("  ", out);
        gst_put_cell(out, time_names[c], w->times[c], true);
    }
    fputs("  FILE:LINE\n", out);
}

static void print_summary(FILE *out, const struct gst_profile *p,
                          const struct gst_profile_table_options *o, size_t shown)
{
    char source[256], line[512];
    int n = snprintf(line, sizeof line, "profile %s  processes %zu  calls %" PRIu64 "  functions %zu",
                     gst_safe_text(source, sizeof source, o->source), p->nprocs,
                     gst_profile_total_calls(p), p->nfuncs);
    if (shown < p->nfuncs && n > 0 && (size_t)n < sizeof line)
        snprintf(line + n, sizeof line - (size_t)n, " (showing %zu)", shown);
    gst_put_wrapped(out, line, "  ", o->columns);
}

int gst_profile_table_print(FILE *out, const struct gst_profile *p,
                            const struct gst_profile_table_options *o)
{
    size_t n;
    const struct gst_pfunc **rows = select_rows(p, o, &n);
    if (!rows)
        return -1;
    struct widths w = measure(rows, n, o->columns);
    print_summary(out, p, o, n);
    print_header(out, &w);
    for (size_t i = 0; i < n; i++)
        print_row(out, rows[i], &w);
    if (n == 0)
        fputs(p->nfuncs ? "(no functions match)\n" : "(no functions)\n", out);
    free(rows);
    return 0;
}
