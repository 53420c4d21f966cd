/* table.c: text output. Columns: FUNCTION, CALLS, [CALLS/S,] FILE:LINE,
 * then " *" for functions also inlined elsewhere, explained below the
 * table, because their count misses the inlined copies. */
#include "table.h"

#include "term.h"

#include <inttypes.h>
#include <stdio.h>

#define INLINED_MARK "*"
#define INLINED_NOTE "* also inlined elsewhere: calls counts real calls only, not the inlined copies"
#define CELL 48 /* fits a uint64 in decimal, a rate, or "file:line" labels */

struct widths {
    size_t name, calls, rate;
};

static void format_calls(char *buf, size_t size, const struct gst_func *f)
{
    snprintf(buf, size, "%" PRIu64, f->calls);
}

static void format_rate(char *buf, size_t size, const struct gst_stats *st,
                        const struct gst_func *f, const struct gst_rates *rates)
{
    if (!rates->known || rates->seconds <= 0) {
        snprintf(buf, size, "-");
        return;
    }
    uint64_t prev = rates->prev_calls[f - st->funcs];
    uint64_t delta = f->calls > prev ? f->calls - prev : 0; /* never negative */
    snprintf(buf, size, "%.0f", (double)delta / rates->seconds);
}

static struct widths measure(const struct gst_stats *st, const struct gst_view *v,
                             const struct gst_rates *rates)
{
    struct widths w = { gst_text_width("FUNCTION"), gst_text_width("CALLS"), gst_text_width("CALLS/S") };
    char buf[CELL];

    for (size_t i = 0; i < v->count; i++) {
        const struct gst_func *f = v->funcs[i];
        size_t n = gst_text_width(f->name);
        if (n > w.name)
            w.name = n;
        format_calls(buf, sizeof buf, f);
        if (gst_text_width(buf) > w.calls)
            w.calls = gst_text_width(buf);
        if (rates) {
            format_rate(buf, sizeof buf, st, f, rates);
            if (gst_text_width(buf) > w.rate)
                w.rate = gst_text_width(buf);
        }
    }
    return w;
}

static void print_location(FILE *out, const struct gst_func *f)
{
    if (f->file[0] == '\0') {
        fputs("-", out);
        return;
    }
    gst_put_cell(out, f->file, 0, false);
    if (f->line)
        fprintf(out, ":%" PRIu32, f->line);
}

static void print_row(FILE *out, const struct gst_stats *st, const struct gst_func *f,
                      const struct widths *w, const struct gst_rates *rates)
{
    char buf[CELL];

    gst_put_cell(out, f->name, w->name, false);
    fputs("  ", out);
    format_calls(buf, sizeof buf, f);
    gst_put_cell(out, buf, w->calls, true);
    if (rates) {
        fputs("  ", out);
        format_rate(buf, sizeof buf, st, f, rates);
        gst_put_cell(out, buf, w->rate, true);
    }
    fputs("  ", out);
    print_location(out, f);
    if (f->inlined)
        fputs(" " INLINED_MARK, out);
    fputc('\n', out);
}

static void print_summary(FILE *out, const struct gst_stats *st, const struct gst_view *v)
{
    fprintf(out, "pid %" PRId64 "  %s  exe ", st->hdr.pid, st->live ? "live" : "exited");
    gst_put_cell(out, st->hdr.exe, 0, false);
    fprintf(out, "  calls %" PRIu64 "  functions %" PRIu32, st->total_calls, st->hdr.nfuncs);
    if (v->count < st->hdr.nfuncs)
        fprintf(out, " (showing %zu)", v->count);
    fputc('\n', out);
}

static void print_column_names(FILE *out, const struct widths *w, const struct gst_rates *rates)
{
    gst_put_cell(out, "FUNCTION", w->name, false);
    fputs("  ", out);
    gst_put_cell(out, "CALLS", w->calls, true);
    if (rates) {
        fputs("  ", out);
        gst_put_cell(out, "CALLS/S", w->rate, true);
    }
    fputs("  FILE:LINE\n", out);
}

void gst_table_print(FILE *out, const struct gst_stats *st, const struct gst_view *view,
                     const struct gst_rates *rates)
{
    struct widths w = measure(st, view, rates);
    bool any_inlined = false;

    print_summary(out, st, view);
    print_column_names(out, &w, rates);
    for (size_t i = 0; i < view->count; i++) {
        print_row(out, st, view->funcs[i], &w, rates);
        any_inlined |= view->funcs[i]->inlined;
    }
    if (view->count == 0)
        fputs(st->hdr.nfuncs ? "(no functions match)\n" : "(no functions)\n", out);
    if (any_inlined)
        fputs(INLINED_NOTE "\n", out);
}
