/* gsites.c: see gsites.h. Names come from the go statements' table (the
 * creator PC is the return address of the go statement's call of
 * runtime.newproc) and the function table (start PCs are function
 * entries); an address neither names is shown in hex. */
#include "gostat/model/gsites.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gostat/model/hist.h"
#include "gostat/read/clock.h"
#include "gostat/read/syms.h"

/* The function whose entry is pc: the function table (sorted by entry),
 * then the symbol table of call-path files. */
static int func_has_entry(const void *key, const void *elem)
{
    uint64_t pc = *(const uint64_t *)key, at = ((const struct gst_func *)elem)->entry;
    return (pc > at) - (pc < at);
}

static const char *function_at(const struct gst_stats *st, uint64_t pc)
{
    const struct gst_func *f =
        st->hdr.nfuncs ? bsearch(&pc, st->funcs, st->hdr.nfuncs, sizeof *st->funcs, func_has_entry) : NULL;
    if (f)
        return f->name;
    const struct gst_sym *sym = gst_stats_sym_at(st, pc);
    return sym && sym->entry == pc ? sym->name : NULL;
}

static void name_site(const struct gst_stats *st, const struct gst_sites *s, const struct gst_site *in,
                      struct gst_gsite *out)
{
    const struct gst_gostmt *stmt = gst_sites_stmt(s, in->gopc);
    snprintf(out->creator_hex, sizeof out->creator_hex, "0x%" PRIx64, in->gopc);
    snprintf(out->start_hex, sizeof out->start_hex, "0x%" PRIx64, in->startpc);
    out->creator = stmt ? stmt->func : out->creator_hex;
    out->file = stmt ? stmt->file : "";
    out->line = stmt ? stmt->line : 0;
    const char *start = function_at(st, in->startpc);
    out->start = start ? start : out->start_hex;
}

/* The go statement's own call, when timed: the innermost open call at
 * every creation, it tells no path apart. */
static bool is_go_call(const char *name)
{
    return strcmp(name, "runtime.newproc") == 0 || strcmp(name, "runtime.newcoro") == 0;
}

/* The creator's call path, root first: the open timed calls recorded at
 * the site's claim (but the go statement's call), then the creator when it
 * is not the innermost (an untimed or inlined function holds the go
 * statement). */
static void name_path(const struct gst_stats *st, const struct gst_site *in, struct gst_gsite *out)
{
    if (in->path_depth > in->path_n)
        out->path[out->npath++] = GST_CUT_PATH;
    for (uint32_t k = in->path_n; k-- > 0;) {
        const struct gst_func *f = gst_stats_func_of_record(st, in->path_rec[k]);
        if (!(k == 0 && f && is_go_call(f->name)))
            out->path[out->npath++] = f ? f->name : "?";
    }
    if (!out->npath || strcmp(out->path[out->npath - 1], out->creator) != 0)
        out->path[out->npath++] = out->creator;
}

/* now_tick: the TSC now, of a running process (0: ages unknown); ended:
 * the ages are those at the process's end, kept in the file. */
static void fill_times(const struct gst_site *in, double ns_per_tick, uint64_t now_tick, int ended,
                       struct gst_gsite *out)
{
    out->timed = in->timed;
    if (in->timed) {
        out->p50_ns = gst_hist_percentile(in->hist, 0, in->max_ticks, 50) * ns_per_tick;
        out->p90_ns = gst_hist_percentile(in->hist, 0, in->max_ticks, 90) * ns_per_tick;
        out->p99_ns = gst_hist_percentile(in->hist, 0, in->max_ticks, 99) * ns_per_tick;
        out->max_ns = (double)in->max_ticks * ns_per_tick;
    }
    if (out->live && ended)
        out->oldest_live_ns = (uint64_t)((double)in->exit_oldest * ns_per_tick);
    else if (out->live && in->oldest_tick && now_tick > in->oldest_tick)
        out->oldest_live_ns = (uint64_t)((double)(now_tick - in->oldest_tick) * ns_per_tick);
}

static int by_live(const void *a, const void *b)
{
    const struct gst_gsite *x = a, *y = b;
    if (x->live != y->live)
        return x->live < y->live ? 1 : -1;
    if (x->created != y->created)
        return x->created < y->created ? 1 : -1;
    int c = strcmp(x->creator, y->creator);
    if (c || (c = strcmp(x->start, y->start)))
        return c;
    for (size_t k = 0; k < x->npath && k < y->npath; k++)
        if ((c = strcmp(x->path[k], y->path[k])))
            return c;
    return (x->npath > y->npath) - (x->npath < y->npath);
}

int gst_gsites_build(const struct gst_stats *st, const struct gst_sites *s, struct gst_gsites *out)
{
    memset(out, 0, sizeof *out);
    out->items = calloc(s->n ? s->n : 1, sizeof *out->items);
    if (!out->items)
        return -1;
    out->no_site = s->no_site;
    out->no_live = s->no_live;
    out->unborn = s->unborn;
    out->by_path = s->by_path;
    struct gst_clock clock = gst_clock_for_sites(&st->hdr);
    double ns_per_tick = clock.known ? clock.ns_per_tick : 0;
    uint64_t now_tick = 0, now_ns;
    out->ended = !st->live && st->hdr.end_tsc != 0;
    out->ended_ns = out->ended ? st->hdr.end_time_ns : 0;
    if (st->live && clock.known) {
        gst_clock_now(&now_tick, &now_ns);
        out->ages_known = now_tick != 0;
    } else if (out->ended) {
        out->ages_known = clock.known;
    }
    for (size_t i = 0; i < s->n; i++) {
        const struct gst_site *in = &s->items[i];
        struct gst_gsite *g = &out->items[out->n++];
        name_site(st, s, in, g);
        if (s->by_path)
            name_path(st, in, g);
        g->raw = in;
        g->created = in->created;
        g->ended = in->ended;
        g->live = in->created > in->ended ? in->created - in->ended : 0;
        fill_times(in, ns_per_tick, out->ages_known ? now_tick : 0, out->ended && out->ages_known, g);
    }
    qsort(out->items, out->n, sizeof *out->items, by_live);
    return 0;
}

void gst_gsites_free(struct gst_gsites *g)
{
    free(g->items);
    memset(g, 0, sizeof *g);
}
