/* profdiff_out.c: gostat diff's outputs (profdiff_out.h): the table of
 * changed functions and arcs fitted to the terminal, its summary, the
 * goroutine sites that grew, the JSON form, and the stderr line naming a
 * regression. */
#include "gostat/profile/profdiff_out.h"

#include "gostat/render/duration.h"
#include "gostat/render/gsites_out.h"
#include "gostat/render/json.h"
#include "gostat/render/term.h"

#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CELL 48

/* "10.0x": three significant digits; "new" and "gone" for 0 -> n, n -> 0. */
static void format_factor(char *buf, double from, double to)
{
    if (from == 0 || to == 0) {
        snprintf(buf, CELL, "%s", from == 0 ? "new" : "gone");
        return;
    }
    double r = to / from;
    snprintf(buf, CELL, "%.*fx", r >= 99.95 ? 0 : r >= 9.995 ? 1 : 2, r);
}

enum {
    C_NAME, C_BASE_CALLS, C_NEW_CALLS, C_CALLS, C_BASE_TIME, C_NEW_TIME, C_TIME, C_MEAN, C_CHANGE,
    NCOLS
};
static const char *const headers[NCOLS] = {
    "FUNCTION", "BASE CALLS", "NEW CALLS", "CALLS", "BASE TIME", "NEW TIME", "TIME", "PER CALL",
    "CHANGE",
};

static void format_time(char *buf, bool known, double ns)
{
    if (known)
        gst_format_duration(buf, CELL, ns);
    else
        snprintf(buf, CELL, "-");
}

static void format_row(char cells[NCOLS][CELL], const struct gst_delta *c)
{
    snprintf(cells[C_BASE_CALLS], CELL, "%" PRIu64, c->base_calls);
    snprintf(cells[C_NEW_CALLS], CELL, "%" PRIu64, c->new_calls);
    if (c->base_calls == c->new_calls)
        snprintf(cells[C_CALLS], CELL, "1.00x");
    else
        format_factor(cells[C_CALLS], (double)c->base_calls, (double)c->new_calls);
    format_time(cells[C_BASE_TIME], c->base_time_known, c->base_ns);
    format_time(cells[C_NEW_TIME], c->new_time_known, c->new_ns);
    if (c->time_compared)
        format_factor(cells[C_TIME], c->base_ns, c->new_ns);
    else
        snprintf(cells[C_TIME], CELL, "-");
    if (c->call_compared)
        format_factor(cells[C_MEAN], c->base_call_ns, c->new_call_ns);
    else
        snprintf(cells[C_MEAN], CELL, "-");
    snprintf(cells[C_CHANGE], CELL, "%s", c->grew ? "grew" : "shrank");
}

/* The rows of one table: functions, or caller -> callee arcs. */
struct rows {
    const char *const *headers;
    size_t columns;            /* the first column is fitted to these; 0: no limit */
    size_t count;
    const struct gst_diff *d;
    const struct gst_delta *(*delta)(const struct gst_diff *d, size_t i);
    size_t (*name_width)(const struct gst_diff *d, size_t i);
    void (*put_name)(const struct gst_diff *d, size_t i, size_t width);
};

#define NAME_MIN 16   /* a name is cut no shorter than this */

/* The columns besides the name, with their separators. */
static size_t fixed_width(const size_t width[NCOLS], const bool shown[NCOLS])
{
    size_t fixed = 0;
    for (int k = 1; k < NCOLS; k++)
        fixed += shown[k] ? 2 + width[k] : 0;
    return fixed;
}

/* Fits rows in columns: when the numbers leave the name less than
 * NAME_MIN, the BASE and NEW times go, then the BASE and NEW calls (the
 * ratios stay); then the name is narrowed, down to NAME_MIN. Returns
 * whether columns were left out. */
static bool fit(size_t width[NCOLS], bool shown[NCOLS], size_t columns)
{
    static const int dropped[] = { C_BASE_TIME, C_NEW_TIME, C_BASE_CALLS, C_NEW_CALLS };
    bool left_out = false;
    for (int k = 0; k < NCOLS; k++)
        shown[k] = true;
    if (columns == 0)
        return false;
    for (size_t i = 0; i < sizeof dropped / sizeof *dropped; i += 2) {
        size_t need = fixed_width(width, shown) + (width[C_NAME] < NAME_MIN ? width[C_NAME] : NAME_MIN);
        if (need <= columns)
            break;
        shown[dropped[i]] = shown[dropped[i + 1]] = false;
        left_out = true;
    }
    size_t fixed = fixed_width(width, shown);
    if (width[C_NAME] + fixed > columns && width[C_NAME] > NAME_MIN)
        width[C_NAME] = columns > fixed + NAME_MIN ? columns - fixed : NAME_MIN;
    return left_out;
}

#define TIMES_LEFT_OUT "(BASE TIME and NEW TIME left out to fit the width; --wide or --json shows them)"
#define BOTH_LEFT_OUT "(BASE and NEW columns left out to fit the width; --wide or --json shows them)"

/* The last column shown is not padded. */
static int last_shown(const bool shown[NCOLS])
{
    int last = NCOLS - 1;
    while (last > 0 && !shown[last])
        last--;
    return last;
}

static void print_rows(const struct rows *r)
{
    char cells[NCOLS][CELL];
    size_t width[NCOLS];
    bool shown[NCOLS];
    for (int k = 0; k < NCOLS; k++)
        width[k] = strlen(r->headers[k]);
    for (size_t i = 0; i < r->count; i++) {
        format_row(cells, r->delta(r->d, i));
        size_t w = r->name_width(r->d, i);
        width[C_NAME] = w > width[C_NAME] ? w : width[C_NAME];
        for (int k = 1; k < NCOLS; k++)
            width[k] = strlen(cells[k]) > width[k] ? strlen(cells[k]) : width[k];
    }
    bool left_out = fit(width, shown, r->columns);
    int last = last_shown(shown);
    for (int k = 0; k < NCOLS; k++) {
        if (!shown[k])
            continue;
        fputs(k ? "  " : "", stdout);
        gst_put_cell(stdout, r->headers[k], k == last ? 0 : width[k], k > C_NAME && k < C_CHANGE);
    }
    putchar('\n');
    for (size_t i = 0; i < r->count; i++) {
        format_row(cells, r->delta(r->d, i));
        r->put_name(r->d, i, width[C_NAME]);
        for (int k = 1; k < NCOLS; k++) {
            if (!shown[k])
                continue;
            fputs("  ", stdout);
            gst_put_cell(stdout, cells[k], k == last ? 0 : width[k], k < C_CHANGE);
        }
        putchar('\n');
    }
    if (left_out)
        gst_put_wrapped(stdout, shown[C_BASE_CALLS] ? TIMES_LEFT_OUT : BOTH_LEFT_OUT, " ", r->columns);
}

static const struct gst_delta *func_delta(const struct gst_diff *d, size_t i)
{
    return &d->changes[i].d;
}

static size_t func_name_width(const struct gst_diff *d, size_t i)
{
    return gst_text_width(d->changes[i].name);
}

static void put_func_name(const struct gst_diff *d, size_t i, size_t width)
{
    gst_put_cut_cell(stdout, d->changes[i].name, width, false, false);
}

static void print_table(const struct gst_diff *d, size_t columns)
{
    struct rows r = { headers, columns, d->count, d, func_delta, func_name_width, put_func_name };
    print_rows(&r);
}

static const struct gst_delta *arc_delta(const struct gst_diff *d, size_t i)
{
    return &d->arcs[i].d;
}

static size_t arc_name_width(const struct gst_diff *d, size_t i)
{
    return gst_text_width(d->arcs[i].caller) + 4 + gst_text_width(d->arcs[i].callee);
}

/* The arcs' table: CALLER -> CALLEE in the first column. */
static void put_arc_name(const struct gst_diff *d, size_t i, size_t width)
{
    const struct gst_arc_change *a = &d->arcs[i];
    size_t w = arc_name_width(d, i);
    char *both = NULL;
    if (w > width && asprintf(&both, "%s -> %s", a->caller, a->callee) >= 0) {
        gst_put_cut_cell(stdout, both, width, false, false);
        free(both);
        return;
    }
    gst_put_cell(stdout, a->caller, 0, false);
    fputs(" -> ", stdout);
    gst_put_cell(stdout, a->callee, w < width ? width - (w - gst_text_width(a->callee)) : 0, false);
}

static void print_arcs(const struct gst_diff *d, size_t columns)
{
    static const char *const arc_headers[NCOLS] = {
        "CALLER -> CALLEE", "BASE CALLS", "NEW CALLS", "CALLS", "BASE TIME", "NEW TIME", "TIME",
        "PER CALL", "CHANGE",
    };
    struct rows r = { arc_headers, columns, d->narcs, d, arc_delta, arc_name_width, put_arc_name };
    putchar('\n');
    print_rows(&r);
}

static const char *metric_name(enum gst_metric m)
{
    return m == GST_METRIC_CALLS ? "calls" : m == GST_METRIC_TIME ? "time" : "both";
}

static void write_summary(FILE *out, const struct gst_diff_options *o, const struct gst_diff *d)
{
    fprintf(out, "%zu of %zu function%s changed by %gx or more (%s%s%s): %zu grew, %zu shrank\n",
           d->count, d->compared, d->compared == 1 ? "" : "s", o->threshold,
           o->metric == GST_METRIC_BOTH ? "calls or time per call"
           : o->metric == GST_METRIC_TIME ? "time per call" : "calls",
           o->sigma > 0 ? ", beyond the spread" : "",
           o->min_calls ? ", functions with fewer calls ignored" : "", d->regressions,
           d->count - d->regressions);
    if (d->arcs_compared)
        fprintf(out, "%zu of %zu caller -> callee arc%s changed by %gx or more (shown, not counted "
               "as regressions)\n", d->narcs, d->arcs_compared, d->arcs_compared == 1 ? "" : "s",
               o->threshold);
}

/* The summary, its lines wrapped between words to fit columns. */
static void print_summary(const struct gst_diff_options *o, const struct gst_diff *d, size_t columns)
{
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    if (!mem) {
        write_summary(stdout, o, d);
        return;
    }
    write_summary(mem, o, d);
    fclose(mem);
    for (char *line = text, *end; line && *line; line = end ? end + 1 : NULL) {
        end = strchr(line, '\n');
        if (end)
            *end = '\0';
        gst_put_wrapped(stdout, line, " ", columns);
    }
    free(text);
}

static void put_ratio(const char *key, bool defined, double from, double to)
{
    if (defined)
        printf(",\"%s\":%.17g", key, to / from);
    else
        printf(",\"%s\":null", key);
}

static void put_ns(const char *key, bool known, double ns)
{
    if (known)
        printf(",\"%s\":%.0f", key, ns);
    else
        printf(",\"%s\":null", key);
}

/* The calls and total times of c, each side, and their ratios. */
static void put_totals(const struct gst_delta *c)
{
    printf(",\"base_calls\":%" PRIu64 ",\"new_calls\":%" PRIu64, c->base_calls, c->new_calls);
    put_ratio("calls_ratio", c->base_calls > 0, (double)c->base_calls, (double)c->new_calls);
    put_ns("base_total_ns", c->base_time_known, c->base_ns);
    put_ns("new_total_ns", c->new_time_known, c->new_ns);
    put_ratio("time_ratio", c->time_compared, c->base_ns, c->new_ns);
    put_ns("base_mean_ns", c->mean_compared || c->base_mean_ns > 0, c->base_mean_ns);
    put_ns("new_mean_ns", c->mean_compared || c->new_mean_ns > 0, c->new_mean_ns);
    put_ratio("mean_ratio", c->mean_compared, c->base_mean_ns, c->new_mean_ns);
    put_ratio("per_call_ratio", c->call_compared, c->base_call_ns, c->new_call_ns);
    printf(",\"calls_sigma\":%.4g", c->calls_sigma);
}

/* How far apart the means are, and what bounded their spread. */
static void put_spread(const struct gst_delta *c)
{
    if (isnan(c->time_sigma))
        fputs(",\"time_sigma\":null", stdout);
    else if (isinf(c->time_sigma))
        fputs(",\"time_sigma\":1e308", stdout);
    else
        printf(",\"time_sigma\":%.4g", c->time_sigma);
    fputs(",\"spread\":", stdout);
    if (c->spread)
        gst_json_put_string(stdout, c->spread);
    else
        fputs("null", stdout);
}

/* What changed, and whether it grew (under the key grew_key). */
static void put_verdict(const struct gst_delta *c, const char *grew_key)
{
    printf(",\"calls_changed\":%s,\"time_changed\":%s,\"%s\":%s}",
           c->calls_changed ? "true" : "false", c->time_changed ? "true" : "false", grew_key,
           c->grew ? "true" : "false");
}

static void put_site(FILE *out, const struct gst_psite *s)
{
    gst_gsite_put_name(out, s->creator, s->file, s->line, s->start);
}

#define SITE_NUMBERS 23   /* "%10 %10  " before a site's name */

/* A site's name, cut in the middle to width (0: whole). */
static void put_site_cut(const struct gst_psite *s, size_t width)
{
    char *text = NULL;
    size_t len = 0;
    FILE *mem = width ? open_memstream(&text, &len) : NULL;
    if (!mem) {
        put_site(stdout, s);
        return;
    }
    put_site(mem, s);
    fclose(mem);
    gst_put_cut_cell(stdout, text, width, false, false);
    free(text);
}

static void print_sites(const struct gst_site_report *r, size_t columns)
{
    if (!r->n)
        return;
    puts("\n BASE LIVE   NEW LIVE  GOROUTINE SITE (go statement) -> START");
    size_t width = columns > SITE_NUMBERS + NAME_MIN ? columns - SITE_NUMBERS : columns ? NAME_MIN : 0;
    for (size_t i = 0; i < r->n; i++) {
        printf("%10" PRIu64 " %10" PRIu64 "  ", r->grew[i].base_live, r->grew[i].site->live);
        put_site_cut(r->grew[i].site, width);
        putchar('\n');
    }
    printf("%zu goroutine site%s with more live goroutines in NEW\n", r->n, r->n == 1 ? "" : "s");
}

static void print_sites_json(const struct gst_site_report *r)
{
    printf(",\n\"goroutine_sites_grew\":[");
    for (size_t i = 0; i < r->n; i++) {
        const struct gst_psite *s = r->grew[i].site;
        fputs(i ? ",\n{\"creator\":" : "\n{\"creator\":", stdout);
        gst_json_put_string(stdout, s->creator);
        fputs(",\"file\":", stdout);
        gst_json_put_string(stdout, s->file);
        printf(",\"line\":%" PRIu32 ",\"start\":", s->line);
        gst_json_put_string(stdout, s->start);
        printf(",\"base_live\":%" PRIu64 ",\"new_live\":%" PRIu64 "}", r->grew[i].base_live, s->live);
    }
    putchar(']');
}

void gst_diff_print_text(const struct gst_diff_options *o, const struct gst_diff *d,
                         const struct gst_site_report *sites, size_t columns)
{
    if (d->count)
        print_table(d, columns);
    if (d->narcs)
        print_arcs(d, columns);
    print_summary(o, d, columns);
    print_sites(sites, columns);
}

void gst_diff_print_json(const struct gst_diff_options *o, const struct gst_diff *d,
                         const struct gst_site_report *sites)
{
    printf("{\"threshold\":%.17g,\"min_calls\":%" PRIu64 ",\"metric\":\"%s\",\"sigma\":%.17g,"
           "\"min_timed\":%" PRIu64 ",\"min_time_ns\":%.17g,\"min_delta_ns\":%.17g,\"runtime\":%s,"
           "\"speed\":%.6g,\"compared\":%zu,\"changed\":%zu,\"regressions\":%zu,\"functions\":[",
           o->threshold, o->min_calls, metric_name(o->metric), o->sigma, o->min_timed,
           o->min_time_ns, o->min_delta_ns, o->runtime ? "true" : "false", d->speed, d->compared,
           d->count,
           d->regressions);
    for (size_t i = 0; i < d->count; i++) {
        const struct gst_change *c = &d->changes[i];
        fputs(i ? ",\n{\"name\":" : "\n{\"name\":", stdout);
        gst_json_put_string(stdout, c->name);
        put_totals(&c->d);
        put_ns("base_median_ns", c->d.base_median_known, c->d.base_median_ns);
        put_ns("new_median_ns", c->d.new_median_known, c->d.new_median_ns);
        put_spread(&c->d);
        put_ns("base_self_ns", c->base_self_known, c->base_self_ns);
        put_ns("new_self_ns", c->new_self_known, c->new_self_ns);
        put_verdict(&c->d, "regression");
    }
    printf("],\n\"arcs_compared\":%zu,\"arcs_changed\":%zu,\"arcs\":[", d->arcs_compared, d->narcs);
    for (size_t i = 0; i < d->narcs; i++) {
        const struct gst_arc_change *a = &d->arcs[i];
        fputs(i ? ",\n{\"caller\":" : "\n{\"caller\":", stdout);
        gst_json_put_string(stdout, a->caller);
        fputs(",\"callee\":", stdout);
        gst_json_put_string(stdout, a->callee);
        put_totals(&a->d);
        put_verdict(&a->d, "grew");
    }
    putchar(']');
    print_sites_json(sites);
    puts("}");
}

void gst_diff_report_site(const struct gst_site_report *r)
{
    const struct gst_site_growth *g = &r->grew[0];
    fprintf(stderr, "gostat: diff: regression: live goroutines from ");
    put_site(stderr, g->site);
    fprintf(stderr, ": %" PRIu64 " -> %" PRIu64, g->base_live, g->site->live);
    if (r->n > 1)
        fprintf(stderr, "; and %zu more goroutine site%s grew", r->n - 1, r->n == 2 ? "" : "s");
    fputc('\n', stderr);
}

void gst_diff_report_regressions(const struct gst_diff *d)
{
    const struct gst_change *worst = NULL;
    for (size_t i = 0; i < d->count && !worst; i++)
        if (d->changes[i].d.grew)
            worst = &d->changes[i];
    char cells[NCOLS][CELL], name[512];
    format_row(cells, &worst->d);
    char base_mean[CELL], new_mean[CELL];
    format_time(base_mean, worst->d.call_compared, worst->d.base_call_ns);
    format_time(new_mean, worst->d.call_compared, worst->d.new_call_ns);
    fprintf(stderr, "gostat: diff: regression: %s calls %s -> %s (%s), time %s -> %s (%s), "
            "per call %s -> %s (%s)",
            gst_safe_text(name, sizeof name, worst->name), cells[C_BASE_CALLS],
            cells[C_NEW_CALLS], cells[C_CALLS], cells[C_BASE_TIME], cells[C_NEW_TIME],
            cells[C_TIME], base_mean, new_mean, cells[C_MEAN]);
    if (d->regressions > 1)
        fprintf(stderr, "; and %zu more function%s grew", d->regressions - 1,
                d->regressions == 2 ? "" : "s");
    fputc('\n', stderr);
}
