/* gsites_out.c: see gsites_out.h. Names and files come from the stats
 * file: printed through term.h (table) or json.h (JSON), never raw. */
#include "gostat/render/gsites_out.h"

#include <inttypes.h>
#include <string.h>

#include "gostat/render/duration.h"
#include "gostat/render/json.h"
#include "gostat/render/term.h"

bool gst_gsite_shown(const struct gst_gsite *g, uint64_t older_than_ns)
{
    return !older_than_ns || (g->live && g->oldest_live_ns >= older_than_ns);
}

static void put_duration(FILE *out, double ns, bool known)
{
    char buf[32];
    if (known)
        gst_format_duration(buf, sizeof buf, ns);
    gst_put_cell(out, known ? buf : "-", 9, true);
}

static void put_u64(FILE *out, uint64_t v)
{
    char buf[24];
    snprintf(buf, sizeof buf, "%" PRIu64, v);
    gst_put_cell(out, buf, 9, true);
}

void gst_gsite_put_name(FILE *out, const char *creator, const char *file, uint32_t line,
                        const char *start)
{
    gst_put_cell(out, creator, 0, false);
    if (file[0]) {
        fputs(" (", out);
        gst_put_cell(out, file, 0, false);
        fprintf(out, ":%" PRIu32 ")", line);
    }
    fputs(" -> ", out);
    gst_put_cell(out, start, 0, false);
}

/* A site's detail line with creator paths: "via CALLER <- ITS CALLER ...",
 * innermost first (the creator is on the row), cut to columns. */
static void put_via(FILE *out, const struct gst_gsite *s, size_t columns)
{
    char text[2048] = "via";
    size_t len = 3;
    if (s->npath < 2) {
        snprintf(text + len, sizeof text - len, " (no timed caller)");
    } else {
        for (size_t k = s->npath - 1; k-- > 0 && len < sizeof text;) {
            int n = snprintf(text + len, sizeof text - len, "%s%s", k == s->npath - 2 ? " " : " <- ", s->path[k]);
            len += n > 0 ? (size_t)n : 0;
        }
    }
    fputs("    ", out);
    size_t room = columns > 8 ? columns - 4 : 0;
    if (room && gst_text_width(text) > room)
        gst_put_cut_cell(out, text, room, false, false);
    else
        gst_put_cell(out, text, 0, false);
    fputc('\n', out);
}

void gst_gsites_table(FILE *out, const struct gst_gsites *g, uint64_t older_than_ns)
{
    fprintf(out, "%s   CREATED    EXITED    OLDEST       P50       P90       P99       MAX"
                 "  CREATOR (go statement) -> START\n", g->ended ? "  AT EXIT" : "     LIVE");
    for (size_t i = 0; i < g->n; i++) {
        const struct gst_gsite *s = &g->items[i];
        if (!gst_gsite_shown(s, older_than_ns))
            continue;
        put_u64(out, s->live);
        fputc(' ', out);
        put_u64(out, s->created);
        fputc(' ', out);
        put_u64(out, s->ended);
        fputc(' ', out);
        put_duration(out, (double)s->oldest_live_ns, s->live && s->oldest_live_ns);
        const double q[4] = {s->p50_ns, s->p90_ns, s->p99_ns, s->max_ns};
        for (int k = 0; k < 4; k++) {
            fputc(' ', out);
            put_duration(out, q[k], s->timed > 0);
        }
        fputs("  ", out);
        gst_gsite_put_name(out, s->creator, s->file, s->line, s->start);
        fputc('\n', out);
        if (g->by_path)
            put_via(out, s, gst_output_columns(out));
    }
    if (g->no_site || g->no_live || g->unborn)
        fprintf(out, "not kept: %" PRIu64 " creations or exits found no site entry, %" PRIu64
                " goroutines no live entry (lifetime unknown), %" PRIu64 " exits no creation\n",
                g->no_site, g->no_live, g->unborn);
    if (g->ended) {
        char when[64];
        gst_format_wall_time(when, sizeof when, g->ended_ns);
        fprintf(out, "ended %s: AT EXIT counts the goroutines still running when their process ended, "
                     "OLDEST their age then\n", when);
    } else if (!g->ages_known) {
        fprintf(out, "OLDEST: only while the process runs (the file does not say when it exited)\n");
    }
}

static void put_ns(FILE *out, const char *key, double ns, bool known)
{
    fprintf(out, "\"%s\":", key);
    if (known)
        fprintf(out, "%.0f", ns);
    else
        fputs("null", out);
}

void gst_gsites_json(FILE *out, const struct gst_gsites *g, uint64_t older_than_ns)
{
    fputs("{\"ended_ns\":", out);
    if (g->ended)
        fprintf(out, "%" PRIu64, g->ended_ns);
    else
        fputs("null", out);
    fputs(",\"goroutines\":[", out);
    int first = 1;
    for (size_t i = 0; i < g->n; i++) {
        const struct gst_gsite *s = &g->items[i];
        if (!gst_gsite_shown(s, older_than_ns))
            continue;
        fputs(first ? "{\"creator\":" : ",{\"creator\":", out);
        first = 0;
        gst_json_put_string(out, s->creator);
        fputs(",\"file\":", out);
        gst_json_put_string(out, s->file);
        fprintf(out, ",\"line\":%" PRIu32 ",\"start\":", s->line);
        gst_json_put_string(out, s->start);
        fprintf(out, ",\"created\":%" PRIu64 ",\"exited\":%" PRIu64 ",\"live\":%" PRIu64
                ",\"oldest_live_ns\":%" PRIu64 ",\"lifetime_ns\":{",
                s->created, s->ended, s->live, s->oldest_live_ns);
        put_ns(out, "p50", s->p50_ns, s->timed > 0);
        fputc(',', out);
        put_ns(out, "p90", s->p90_ns, s->timed > 0);
        fputc(',', out);
        put_ns(out, "p99", s->p99_ns, s->timed > 0);
        fputc(',', out);
        put_ns(out, "max", s->max_ns, s->timed > 0);
        fputc('}', out);
        if (g->ended)
            fprintf(out, ",\"running_at_exit\":%" PRIu64, s->live);
        if (g->by_path) {
            fputs(",\"creator_path\":[", out);
            for (size_t k = 0; k < s->npath; k++) {
                if (k)
                    fputc(',', out);
                gst_json_put_string(out, s->path[k]);
            }
            fputc(']', out);
        }
        fputc('}', out);
    }
    fputs("]}\n", out);
}
