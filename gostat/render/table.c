/* table.c: text output. Columns: FUNCTION, CALLS, [TOTAL, [CPU with on-CPU
 * time,] SELF, [CUM with a call graph,] MEAN, P50, P90, P99, MAX for a file built for timing,]
 * [CALLS/S,] FILE:LINE, then
 * " *" for functions also inlined elsewhere, explained below the table,
 * because their count misses the inlined copies. Below the table, a
 * timing file's lost durations (drops) if any. Rows wider than the
 * terminal have FUNCTION and FILE:LINE, the only unbounded columns, cut in
 * the middle (term.h's mark), and notes are wrapped. */
#include "gostat/render/table.h"

#include "gostat/render/duration.h"
#include "gostat/model/goroutines.h"
#include "gostat/render/term.h"
#include "gostat/model/times.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define INLINED_MARK "*"
#define INLINED_NOTE "* also inlined elsewhere: calls counts real calls only, not the inlined copies"
#define CELL 48 /* fits a uint64 in decimal, a rate, or "file:line" labels */
#define LOCATION 4200 /* a path (PATH_MAX) and ":line" */
#define TITLE_NAME 8       /* "FUNCTION": its column is never narrower */
#define TITLE_LOCATION 9   /* "FILE:LINE" */
#define ESTIMATE_MARK "~"
#define ESTIMATE_NOTE "~ estimated TOTAL (mean x calls): not every call was timed; mean and " \
                      "percentiles weigh each timed call by the calls it stands for"

#define CUM_NOTE "CUM: inclusive time counted once per call stack (pprof's cum), of the calls " \
                 "whose paths were recorded; TOTAL counts a recursive call's time again at each level"
#define CUM_OVER_MARK "!"
#define CUM_OVER_NOTE "! CUM above TOTAL: a defect, not a figure: the function's call paths hold " \
                      "time that none of its finished calls does (callees of calls still open " \
                      "when read, unwound, or whose durations were lost)"

enum { T_TOTAL, T_CPU, T_SELF, T_CUM, T_MEAN, T_P50, T_P90, T_P99, T_MAX, NTIMES };
static const char *const time_names[NTIMES] = { "TOTAL", "CPU",  "SELF", "CUM",
                                                "MEAN",  "P50",  "P90",  "P99", "MAX" };

struct widths {
    size_t name, calls, rate, location;
    size_t times[NTIMES];
    bool inlined;              /* some row has the inlined mark */
    const bool *shared;        /* by function index: its name is another's
                                  too, so its row shows its entry; or NULL */
};

#define SHARED_NOTE "(0x...): the entry address of a function whose name another one has too"

static bool is_shared(const struct widths *w, const struct gst_stats *st, const struct gst_func *f)
{
    return w->shared && w->shared[f - st->funcs];
}

/* f's name, with its entry when another function has that name too. */
static size_t name_width(const struct widths *w, const struct gst_stats *st, const struct gst_func *f)
{
    size_t n = gst_text_width(f->name);
    if (is_shared(w, st, f))
        n += (size_t)snprintf(NULL, 0, " (0x%" PRIx64 ")", f->entry);
    return n;
}

static void put_name(FILE *out, const struct widths *w, const struct gst_stats *st,
                     const struct gst_func *f)
{
    char *marked = NULL;
    if (is_shared(w, st, f) && asprintf(&marked, "%s (0x%" PRIx64 ")", f->name, f->entry) >= 0) {
        gst_put_cut_cell(out, marked, w->name, false, false);
        free(marked);
        return;
    }
    gst_put_cut_cell(out, f->name, w->name, false, false);
}

/* Whether the table has a CUM column: a file with call paths. */
static bool has_cum(const struct gst_callgraph *cg)
{
    return cg && cg->present;
}

/* CPU: files that record on-CPU time (GS_HDR_ONCPU). */
static bool shown(int c, const struct gst_stats *st, const struct gst_callgraph *cg)
{
    return (c != T_CUM || has_cum(cg)) && (c != T_CPU || st->oncpu);
}

/* The timing cells of f: "-" where unknown. SELF and CUM are known only in
 * files that record call paths (--call-graph). */
static void format_times(char cells[NTIMES][CELL], const struct gst_stats *st, const struct gst_func *f,
                         const struct gst_callgraph *cg)
{
    struct gst_times t = gst_times_of(st, f);
    double cum = has_cum(cg) ? (double)gst_callgraph_cum_ns(cg, f) : 0;
    double v[NTIMES] = { t.total_ns, t.oncpu_ns, t.self_ns, cum, t.mean_ns, t.p50_ns, t.p90_ns, t.p99_ns, t.max_ns };

    for (int c = 0; c < NTIMES; c++) {
        bool known = c == T_TOTAL || (c == T_CPU ? t.oncpu_known : c == T_SELF || c == T_CUM ? t.self_known : t.any);
        if (t.known && known)
            gst_format_duration(cells[c], CELL, v[c]);
        else
            snprintf(cells[c], CELL, "-");
    }
    if (has_cum(cg) && gst_callgraph_cum_over(cg, f))
        snprintf(cells[T_CUM], CELL, CUM_OVER_MARK);
    for (int c = T_TOTAL; t.any && t.estimated && c <= T_CPU; c++) {
        size_t n = strlen(cells[c]);
        if (n + 2 <= CELL && cells[c][0] != '-') {
            memmove(cells[c] + 1, cells[c], n + 1);
            cells[c][0] = ESTIMATE_MARK[0];
        }
    }
}

static void widen(size_t *w, const char *s)
{
    if (gst_text_width(s) > *w)
        *w = gst_text_width(s);
}

static void measure_times(struct widths *w, const struct gst_stats *st, const struct gst_func *f,
                          const struct gst_callgraph *cg)
{
    char cells[NTIMES][CELL];
    format_times(cells, st, f, cg);
    for (int c = 0; c < NTIMES; c++)
        widen(&w->times[c], cells[c]);
}

static void format_location(char *buf, size_t size, const struct gst_func *f)
{
    gst_format_location(buf, size, f->file, f->line);
}

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
                             const struct gst_rates *rates, const struct gst_callgraph *cg,
                             const bool *shared)
{
    struct widths w = { .name = gst_text_width("FUNCTION"), .calls = gst_text_width("CALLS"),
                        .rate = gst_text_width("CALLS/S"), .location = gst_text_width("FILE:LINE"),
                        .shared = shared };
    char buf[CELL], location[LOCATION];

    for (int c = 0; c < NTIMES; c++)
        w.times[c] = gst_text_width(time_names[c]);
    for (size_t i = 0; i < v->count; i++) {
        const struct gst_func *f = v->funcs[i];
        if (gst_timed(st))
            measure_times(&w, st, f, cg);
        size_t n = name_width(&w, st, f);
        if (n > w.name)
            w.name = n;
        format_calls(buf, sizeof buf, f);
        if (gst_text_width(buf) > w.calls)
            w.calls = gst_text_width(buf);
        format_location(location, sizeof location, f);
        widen(&w.location, location);
        w.inlined |= f->inlined;
        if (rates) {
            format_rate(buf, sizeof buf, st, f, rates);
            if (gst_text_width(buf) > w.rate)
                w.rate = gst_text_width(buf);
        }
    }
    return w;
}

/* The columns of a row besides FUNCTION and FILE:LINE. */
static size_t fixed_width(const struct gst_stats *st, const struct widths *w,
                          const struct gst_rates *rates, const struct gst_callgraph *cg)
{
    size_t n = 2 + w->calls + 2 + (w->inlined ? 2 : 0);
    for (int c = 0; gst_timed(st) && c < NTIMES; c++)
        n += shown(c, st, cg) ? 2 + w->times[c] : 0;
    return n + (rates ? 2 + w->rate : 0);
}

static void print_location(FILE *out, const struct gst_func *f, size_t width)
{
    char location[LOCATION];
    format_location(location, sizeof location, f);
    if (gst_text_width(location) > width)
        gst_put_cut_cell(out, location, width, false, true);
    else
        gst_put_cell(out, location, 0, false);   /* the row's end: no padding */
}

static void print_times(FILE *out, const struct gst_stats *st, const struct gst_func *f,
                        const struct widths *w, const struct gst_callgraph *cg)
{
    char cells[NTIMES][CELL];
    format_times(cells, st, f, cg);
    for (int c = 0; c < NTIMES; c++) {
        if (!shown(c, st, cg))
            continue;
        fputs("  ", out);
        gst_put_cell(out, cells[c], w->times[c], true);
    }
}

static void print_row(FILE *out, const struct gst_stats *st, const struct gst_func *f,
                      const struct widths *w, const struct gst_rates *rates,
                      const struct gst_callgraph *cg)
{
    char buf[CELL];

    put_name(out, w, st, f);
    fputs("  ", out);
    format_calls(buf, sizeof buf, f);
    gst_put_cell(out, buf, w->calls, true);
    if (gst_timed(st))
        print_times(out, st, f, w, cg);
    if (rates) {
        fputs("  ", out);
        format_rate(buf, sizeof buf, st, f, rates);
        gst_put_cell(out, buf, w->rate, true);
    }
    fputs("  ", out);
    print_location(out, f, w->location);
    if (f->inlined)
        fputs(" " INLINED_MARK, out);
    fputc('\n', out);
}

static void write_summary(FILE *out, const struct gst_stats *st, const struct gst_view *v)
{
    if (st->hdr.processes)
        fprintf(out, "merged from %" PRIu64 " process%s  exe ", st->hdr.processes,
                st->hdr.processes == 1 ? "" : "es");
    else
        fprintf(out, "pid %" PRId64 "  %s  exe ", st->hdr.pid, st->live ? "live" : "exited");
    gst_put_cell(out, st->hdr.exe, 0, false);
    bool ended = !st->live && st->hdr.end_tsc;
    if (ended) {                    /* a merged file's: its processes' latest end */
        char when[64];
        gst_format_wall_time(when, sizeof when, st->hdr.end_time_ns);
        fprintf(out, "  ended %s", when);
    }
    if (st->hdr.merge_error)
        fprintf(out, "  not merged: %s", gst_merge_error_name(st->hdr.merge_error));
    fprintf(out, "  calls %" PRIu64 "  functions %" PRIu32, st->total_calls, st->hdr.nfuncs);
    if (v->count < st->hdr.nfuncs)
        fprintf(out, " (showing %zu)", v->count);
    if (gst_timed(st) && st->clock.known)
        fprintf(out, "  tsc %.3f GHz (%s)", 1.0 / st->clock.ns_per_tick, st->clock.source);
    if (gst_timed(st) && st->clock.known && st->hdr.probe_ticks) {
        fprintf(out, "  probe %.1f ns (%.1f inside, untimed %.2f", st->hdr.probe_ticks * st->clock.ns_per_tick,
                st->hdr.probe_inner_ticks * st->clock.ns_per_tick,
                st->hdr.probe_untimed_q8 * st->clock.ns_per_tick / 256);
        if (st->drops.sampled_probes)
            fprintf(out, ", sampled %.1f measured",
                    (double)st->drops.sampled_probe_ticks / st->drops.sampled_probes * st->clock.ns_per_tick);
        fputs(") compensated", out);
    }
    if (gst_sampled(st) && st->timing.sample_every)
        fprintf(out, "  timing 1 call in %" PRIu32 " (TOTAL estimated)", st->timing.sample_every);
    else if (gst_sampled(st))
        fputs("  timing sampled (default mode)", out);
    struct gst_goroutines g = gst_goroutines_of(st);
    if (g.known)
        fprintf(out, "  goroutines %" PRIu64 " %s (%" PRIu64 " created, %" PRIu64 " exited)",
                g.live, ended ? "running at exit" : "live", g.created, g.ended);
    if (st->drops.closed_at_exit)
        fprintf(out, "  %" PRIu64 " call%s closed at exit", st->drops.closed_at_exit,
                st->drops.closed_at_exit == 1 ? "" : "s");
}

/* The summary line, wrapped between its items to fit columns. */
static void print_summary(FILE *out, const struct gst_stats *st, const struct gst_view *v,
                          size_t columns)
{
    char *text = NULL;
    size_t size = 0;
    FILE *mem = open_memstream(&text, &size);
    if (!mem) {   /* out of memory: unwrapped */
        write_summary(out, st, v);
        fputc('\n', out);
        return;
    }
    write_summary(mem, st, v);
    fclose(mem);
    gst_put_wrapped(out, text, "  ", columns);
    free(text);
}

static void print_column_names(FILE *out, const struct gst_stats *st, const struct widths *w,
                               const struct gst_rates *rates, const struct gst_callgraph *cg)
{
    gst_put_cell(out, "FUNCTION", w->name, false);
    fputs("  ", out);
    gst_put_cell(out, "CALLS", w->calls, true);
    for (int c = 0; gst_timed(st) && c < NTIMES; c++) {
        if (!shown(c, st, cg))
            continue;
        fputs("  ", out);
        gst_put_cell(out, time_names[c], w->times[c], true);
    }
    if (rates) {
        fputs("  ", out);
        gst_put_cell(out, "CALLS/S", w->rate, true);
    }
    fputs("  FILE:LINE\n", out);
}

/* One line on durations the file lost, when it lost any. */
/* Calls whose calling context did not fit in the bounded path tables
 * (their arcs are kept), or not even in the arc tables. */
static void print_path_overflow(FILE *out, const struct gst_stats *st, const struct gst_callgraph *cg)
{
    const struct gst_drops *d = &st->drops;
    if (!gst_has_paths(st))
        return;
    fprintf(out, "call paths: fullest thread's tables %" PRIu64 " of %" PRIu32 " paths (%.1f%%), %" PRIu64
            " of %" PRIu32 " arcs (%.1f%%); %" PRIu64 " threads with paths\n", st->path_fill.fullest,
            st->hdr.max_paths, gst_table_fill_percent(st->path_fill.fullest, st->hdr.max_paths),
            st->arc_fill.fullest, st->hdr.max_arcs, gst_table_fill_percent(st->arc_fill.fullest, st->hdr.max_arcs),
            st->path_fill.rows);
    if (d->path_overflow == 0 && d->arc_overflow == 0)
        return;
    if (d->arc_overflow == 0)
        fprintf(out, "call paths: %" PRIu64 " calls beyond the %" PRIu32 " paths per thread (their arcs"
                " are exact)\n", d->path_overflow, st->hdr.max_paths);
    else
        fprintf(out, "call paths: %" PRIu64 " calls beyond the %" PRIu32 " paths per thread, %" PRIu64
                " of them beyond the %" PRIu32 " arcs per thread too (in no arc: gorewrite --max-arcs)\n",
                d->path_overflow, st->hdr.max_paths, d->arc_overflow, st->hdr.max_arcs);
    if (has_cum(cg) && gst_callgraph_suggested_paths(cg))
        fprintf(out, "call paths: to keep them, rebuild with gorewrite --max-paths %" PRIu64 " or more"
                " (the fullest thread needed at least its %" PRIu64 " paths and %" PRIu64 " arcs of calls"
                " beyond them)\n", gst_callgraph_suggested_paths(cg), st->path_fill.fullest,
                st->arc_fill.fullest);
}

static void print_drops(FILE *out, const struct gst_stats *st)
{
    const struct gst_drops *d = &st->drops;
    uint64_t untimed = d->unwound + d->abandoned + d->too_deep + d->no_slot + d->no_space;

    if (st->hdr.flags & GS_HDR_NO_TSC) {
        fputs("timing: off at run time (no invariant TSC)\n", out);
        return;
    }
    if (!gst_timed(st) || (untimed == 0 && d->unmatched == 0))
        return;
    fprintf(out, "timing: %" PRIu64 " calls untimed (unwound by panic/Goexit %" PRIu64
            ", abandoned by the scheduler %" PRIu64 ", stack too deep %" PRIu64
            ", no goroutine slot %" PRIu64 ", no space %" PRIu64 "); %" PRIu64 " returns unmatched\n",
            untimed, d->unwound, d->abandoned, d->too_deep, d->no_slot, d->no_space, d->unmatched);
}

/* Threads past --max-threads count in the shared row, which has no
 * timing records: their calls are in no total, no histogram, no path. */
static void print_rowless(FILE *out, const struct gst_stats *st)
{
    if (!gst_timed(st) || st->drops.rowless_calls == 0)
        return;
    fprintf(out, "timing: %" PRIu64 " calls on threads beyond the %" PRIu32 " with rows of their own"
            " are counted, not timed%s (gorewrite --max-threads)\n", st->drops.rowless_calls,
            st->hdr.max_rows - 1, gst_has_paths(st) ? " nor in the call graph" : "");
}

void gst_table_print(FILE *out, const struct gst_stats *st, const struct gst_view *view,
                     const struct gst_rates *rates, const struct gst_callgraph *cg, size_t columns)
{
    bool *shared = gst_view_shared_names(st);
    struct widths w = measure(st, view, rates, cg, shared);
    bool any_shared = false;
    bool any_inlined = false, any_estimated = false, any_cum_over = false;

    gst_fit_columns(&w.name, &w.location, fixed_width(st, &w, rates, cg), columns, TITLE_NAME,
                    TITLE_LOCATION);

    print_summary(out, st, view, columns);
    print_column_names(out, st, &w, rates, cg);
    for (size_t i = 0; i < view->count; i++) {
        print_row(out, st, view->funcs[i], &w, rates, cg);
        any_shared |= is_shared(&w, st, view->funcs[i]);
        any_inlined |= view->funcs[i]->inlined;
        any_estimated |= gst_timed(st) && gst_time_estimated(st, view->funcs[i]);
        any_cum_over |= gst_timed(st) && has_cum(cg) && gst_callgraph_cum_over(cg, view->funcs[i]);
    }
    if (view->count == 0)
        fputs(st->hdr.nfuncs ? "(no functions match)\n" : "(no functions)\n", out);
    if (any_shared)
        gst_put_wrapped(out, SHARED_NOTE, " ", columns);
    free(shared);
    if (any_inlined)
        gst_put_wrapped(out, INLINED_NOTE, " ", columns);
    if (any_estimated)
        gst_put_wrapped(out, ESTIMATE_NOTE, " ", columns);
    if (gst_timed(st) && has_cum(cg) && view->count > 0)
        gst_put_wrapped(out, CUM_NOTE, " ", columns);
    if (any_cum_over)
        gst_put_wrapped(out, CUM_OVER_NOTE, " ", columns);
    print_drops(out, st);
    print_rowless(out, st);
    print_path_overflow(out, st, cg);
    if (st->oncpu_off)
        fputs("on-CPU time: unavailable (gorewrite could not hook every hand-off of this program's "
              "scheduler; its warning said which)\n", out);
}
