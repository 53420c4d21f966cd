/* openmetrics.c: writing a scrape as Prometheus text or OpenMetrics. Both
 * formats group samples by metric family, so each family is written for
 * all processes before the next one starts. The two differ only in the
 * header lines (OpenMetrics names a counter family without its "_total",
 * has an info type and # UNIT) and in OpenMetrics's closing "# EOF". */
#include "gostat/render/openmetrics.h"
#include "common/vec.h"

#include "gostat/read/clock.h"
#include "gostat/model/goroutines.h"
#include "gostat/model/gsites.h"
#include "gostat/model/view.h"
#include "common/safe_text.h"
#include "gostat/render/utf8.h"
#include "common/saturate.h"
#include "gostat/render/expo_top.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The histogram's le bounds in seconds, the same for every process and
 * host so that series add up with sum by (le): 1-2-5 steps from 100 ns to
 * 100 s. Labels are spelled as Go's client library spells floats, so they
 * match other exporters' series. */
#define LE(v) { v, #v }
static const struct bound {
    double seconds;
    const char *label;
} bounds[] = {
    LE(1e-07), LE(2e-07), LE(5e-07), LE(1e-06), LE(2e-06), LE(5e-06),
    LE(1e-05), LE(2e-05), LE(5e-05), LE(0.0001), LE(0.0002), LE(0.0005),
    LE(0.001), LE(0.002), LE(0.005), LE(0.01), LE(0.02), LE(0.05),
    LE(0.1), LE(0.2), LE(0.5), LE(1), LE(2), LE(5), LE(10), LE(20), LE(50), LE(100),
};
#define NBOUNDS (sizeof bounds / sizeof bounds[0])   /* index NBOUNDS: +Inf */
_Static_assert(NBOUNDS <= 32, "a bucket selection is a uint32_t mask");

uint32_t gst_expo_all_buckets(void)
{
    return (uint32_t)((UINT64_C(1) << NBOUNDS) - 1);
}

/* Decades from 100 ns to 10 s: 9 bounds and +Inf instead of 28 and +Inf. */
uint32_t gst_expo_default_buckets(void)
{
    uint32_t mask = 0;
    for (unsigned i = 0; i < NBOUNDS; i++)
        if (i % 3 == 0 && bounds[i].seconds <= 10)   /* the 1 of each 1-2-5 */
            mask |= UINT32_C(1) << i;
    return mask;
}

static int bound_index(const char *item, size_t len)
{
    char buf[32], *end;
    if (len == 0 || len >= sizeof buf)
        return -1;
    memcpy(buf, item, len);
    buf[len] = '\0';
    double v = strtod(buf, &end);
    for (unsigned i = 0; *end == '\0' && i < NBOUNDS; i++)
        if (bounds[i].seconds == v)
            return (int)i;
    return -1;
}

int gst_expo_parse_buckets(const char *list, uint32_t *mask)
{
    *mask = 0;
    for (const char *p = list;; p++) {
        size_t len = strcspn(p, ",");
        int i = bound_index(p, len);
        if (i < 0)
            return -1;
        *mask |= UINT32_C(1) << i;
        p += len;
        if (*p == '\0')
            return 0;
    }
}

enum family_type { COUNTER, GAUGE, HISTOGRAM, INFO };

struct family {
    const char *name;          /* OpenMetrics family name */
    enum family_type type;
    const char *unit;          /* NULL, or the name's unit suffix */
    const char *help;
};

static const struct family
    fam_info = { "gostat_process", INFO, NULL,
                 "Instrumented Go process: its Go release and build ID." },
    fam_start = { "gostat_process_start_time_seconds", GAUGE, "seconds",
                  "Start time of the process since the Unix epoch." },
    fam_goroutines = { "gostat_goroutines", GAUGE, NULL,
                       "Goroutines alive: creations minus exits, runtime goroutines included." },
    fam_creations = { "gostat_goroutine_creations", COUNTER, NULL,
                      "Goroutines created (calls of runtime.newproc1)." },
    fam_ends = { "gostat_goroutine_exits", COUNTER, NULL,
                  "Goroutines that exited (calls of runtime.goexit1)." },
    fam_site_live = { "gostat_goroutines_live", GAUGE, NULL,
                      "Goroutines alive now, by creation site (go statement) and start function." },
    fam_site_created = { "gostat_goroutines_created", COUNTER, NULL,
                         "Goroutines created, by creation site and start function." },
    fam_site_oldest = { "gostat_goroutines_oldest_live_seconds", GAUGE, "seconds",
                        "Age of the oldest live goroutine, by creation site and start function." },
    fam_site_lifetime = { "gostat_goroutine_lifetime_seconds", HISTOGRAM, "seconds",
                          "Lifetimes of the goroutines that ended, by creation site and start function." },
    fam_sample = { "gostat_timing_sample_every", GAUGE, NULL,
                   "About 1 call in this many of a timed function is timed (1: all)." },
    fam_drops = { "gostat_timing_drops", COUNTER, NULL,
                  "Calls of timed functions that got no duration, by reason." },
    fam_unmatched = { "gostat_timing_unmatched_returns", COUNTER, NULL,
                      "Returns of timed functions whose entry was not recorded." },
    fam_calls = { "gostat_function_calls", COUNTER, NULL,
                  "Calls of the function (every call, also when timing is sampled)." },
    fam_seconds = { "gostat_function_seconds", COUNTER, "seconds",
                    "Time in the function's timed calls, callees included." },
    fam_self = { "gostat_function_self_seconds", COUNTER, "seconds",
                 "Time in the function's timed calls outside its timed callees "
                 "(programs instrumented with --call-graph)." },
    fam_oncpu = { "gostat_function_oncpu_seconds", COUNTER, "seconds",
                  "Time in the function's timed calls less the time their goroutines "
                  "were descheduled (programs whose scheduler hand-offs are hooked)." },
    fam_duration = { "gostat_function_duration_seconds", HISTOGRAM, "seconds",
                     "Durations of the function's timed calls, callees included." },
    fam_procs = { "gostat_scrape_processes", GAUGE, NULL,
                  "Live instrumented processes in this scrape." },
    fam_invalid = { "gostat_scrape_invalid_files", GAUGE, NULL,
                    "Stats files skipped in this scrape: unreadable or invalid." };

/* A growable string; failed stays set once memory ran out. */
struct strbuf {
    char *p;
    size_t len, cap;
    bool failed;
};

static void sb_add(struct strbuf *b, const char *s, size_t n)
{
    if (b->failed)
        return;
    char *p = gr_vec_grow(b->p, &b->cap, b->len + n + 1, 1);
    if (!p) {
        b->failed = true;
        return;
    }
    b->p = p;
    memcpy(b->p + b->len, s, n);
    b->len += n;
    b->p[b->len] = '\0';
}

static void sb_puts(struct strbuf *b, const char *s)
{
    sb_add(b, s, strlen(s));
}

#define REPLACEMENT "\xEF\xBF\xBD"  /* U+FFFD */

/* Appends s as the inside of a quoted label value: backslash, double quote
 * and newline escaped as both formats require; invalid UTF-8 and other
 * control characters each become U+FFFD. */
static void sb_label_value(struct strbuf *b, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        size_t len = gr_utf8_sequence_length(p);
        if (len == 1 && (*p == '\\' || *p == '"'))
            sb_add(b, *p == '\\' ? "\\\\" : "\\\"", 2);
        else if (len == 1 && *p == '\n')
            sb_add(b, "\\n", 2);
        else if (len == 0 || gr_text_is_control(p, len))
            sb_puts(b, REPLACEMENT);
        else
            sb_add(b, (const char *)p, len);
        p += len ? len : 1;
    }
}

static void sb_label(struct strbuf *b, const char *name, const char *value)
{
    if (b->len)
        sb_add(b, ",", 1);
    sb_puts(b, name);
    sb_add(b, "=\"", 2);
    sb_label_value(b, value);
    sb_add(b, "\"", 1);
}

/* A process, prepared once per exposition. */
struct proc {
    const struct gst_stats *st;
    struct strbuf labels;      /* exe="...",replica="..." (or pid="...") */
    unsigned replica;          /* older live processes of the same exe */
    bool *exported;            /* per function: has calls and is selected */
    bool *shared;              /* per function: its name is another's too (NULL: none) */
    struct gst_clock clock;    /* start-up calibration: constant */
    struct gst_goroutines goroutines;
    unsigned char bucket_of[GS_HIST_BUCKETS]; /* source bucket -> bounds index */
    struct gst_sites sites;    /* goroutine sites (empty when the file keeps none) */
    struct gst_gsites named;
    struct strbuf *site_labels; /* per exported site (GST_EXPO_MAX_SITES, then other) */
    size_t nsite_series;
};

struct expo {
    FILE *out;
    bool om;
    const struct gst_expo_opts *o;
    const struct gst_scrape *s;
    struct proc *procs;
    struct strbuf func;        /* scratch: the labels of one function's samples */
    bool failed;               /* memory ran out */
};

/* Each source bucket goes to the first bound at or above its upper end, so
 * no duration is ever reported below its true value. Bucket b holds
 * durations below 2^(b + GS_HIST_FIRST_LOG2) ticks; the last has no end. */
static void map_buckets(struct proc *p)
{
    for (unsigned b = 0; b < GS_HIST_BUCKETS; b++) {
        unsigned i = NBOUNDS;
        if (b + 1 < GS_HIST_BUCKETS) {
            double upper = (double)(UINT64_C(1) << (b + GS_HIST_FIRST_LOG2)) * p->clock.ns_per_tick / 1e9;
            for (i = 0; i < NBOUNDS && bounds[i].seconds < upper; i++)
                ;
        }
        p->bucket_of[b] = (unsigned char)i;
    }
}

/* The labels of a process's goroutine-site series: the GST_EXPO_MAX_SITES
 * sites with most live goroutines (then most created) each get creator,
 * location (file:line of the go statement) and start; the rest are summed
 * under creator="(other)". */
static void site_label(struct strbuf *b, const struct proc *p, const char *creator,
                       const char *location, const char *start)
{
    sb_puts(b, p->labels.p);
    sb_label(b, "creator", creator);
    sb_label(b, "location", location);
    sb_label(b, "start", start);
}

static void prepare_sites(struct proc *p)
{
    struct gr_error err;
    if (gst_sites_read(p->st, &p->sites, &err) < 0 || !p->sites.present ||
        gst_gsites_build(p->st, &p->sites, &p->named) < 0 || !p->named.n)
        return;
    size_t n = p->named.n < GST_EXPO_MAX_SITES ? p->named.n : GST_EXPO_MAX_SITES + 1;
    p->site_labels = calloc(n, sizeof *p->site_labels);
    if (!p->site_labels)
        return;
    p->nsite_series = n;
    for (size_t i = 0; i < n; i++) {
        const struct gst_gsite *g = &p->named.items[i];
        char location[64 + 16];
        const char *base = strrchr(g->file, '/');
        snprintf(location, sizeof location, "%.64s:%" PRIu32, base ? base + 1 : g->file, g->line);
        if (i < GST_EXPO_MAX_SITES)
            site_label(&p->site_labels[i], p, g->creator, g->file[0] ? location : "", g->start);
        else
            site_label(&p->site_labels[i], p, "(other)", "", "(other)");
    }
}

/* The ranked value of a function under --top. */
static struct gst_top_candidate candidate(const struct gst_expo_opts *o, const struct gst_stats *st,
                                          uint32_t k)
{
    const struct gst_func *f = &st->funcs[k];
    bool by_time = !o->top_by_calls && gst_timed(st);
    return (struct gst_top_candidate){ k, by_time ? f->total_ticks : f->calls, f->calls };
}

/* --top's memory key: the series identity and the build (indices are
 * function table positions, meaningful within one build only). */
static char *top_key(const struct proc *p)
{
    char *key;
    if (asprintf(&key, "%s\n%u\n%s\n%" PRIu32, p->st->hdr.exe, p->replica, p->st->hdr.build_id,
                 p->st->hdr.nfuncs) < 0)
        return NULL;
    return key;
}

/* Keeps the top functions among those marked in p->exported. */
static int keep_top(struct proc *p, const struct gst_expo_opts *o)
{
    uint32_t n = p->st->hdr.nfuncs;
    size_t ncand = 0;
    struct gst_top_memory once = { 0 };
    struct gst_top_memory *memory = o->memory ? o->memory : &once;
    struct gst_top_candidate *cand = malloc((n ? n : 1) * sizeof *cand);
    char *key = top_key(p);
    const uint32_t *chosen = NULL;
    long count = -1;
    if (cand && key) {
        for (uint32_t k = 0; k < n; k++)
            if (p->exported[k])
                cand[ncand++] = candidate(o, p->st, k);
        count = gst_top_choose(memory, key, cand, ncand, o->top, &chosen);
    }
    for (uint32_t k = 0; count >= 0 && k < n; k++)
        p->exported[k] = p->exported[k] && gst_top_contains(chosen, (size_t)count, k);
    gst_top_memory_free(&once);
    free(cand);
    free(key);
    return count < 0 ? -1 : 0;
}

/* Only functions called at least once are exported (a large program has
 * tens of thousands of functions, most never called), and of those the
 * ones --filter and --top select. */
static int select_functions(struct proc *p, const struct gst_expo_opts *o)
{
    uint32_t n = p->st->hdr.nfuncs;
    p->exported = calloc(n ? n : 1, sizeof *p->exported);
    if (!p->exported)
        return -1;
    p->shared = gst_view_shared_names(p->st);
    for (uint32_t k = 0; k < n; k++) {
        const struct gst_func *f = &p->st->funcs[k];
        p->exported[k] = f->calls > 0 && (!o->filter || regexec(o->filter, f->name, 0, NULL, 0) == 0);
    }
    return o->top ? keep_top(p, o) : 0;
}

/* Processes of one exe are told apart by their rank in start time (then
 * pid): replica "0" is the oldest. A restarted program gets its old
 * replica back, and so its old series. */
static unsigned replica_of(const struct gst_scrape *s, size_t i)
{
    const struct gs_header *me = &s->procs[i]->hdr;
    unsigned older = 0;
    for (size_t k = 0; k < s->nprocs; k++) {
        const struct gs_header *h = &s->procs[k]->hdr;
        if (k != i && strcmp(h->exe, me->exe) == 0 &&
            (h->start_time_ns < me->start_time_ns ||
             (h->start_time_ns == me->start_time_ns && h->pid < me->pid)))
            older++;
    }
    return older;
}

static int prepare(struct proc *p, const struct gst_stats *st, unsigned replica,
                   const struct gst_expo_opts *o)
{
    char num[24];
    p->st = st;
    p->replica = replica;
    sb_label(&p->labels, "exe", st->hdr.exe);
    if (o->pid_label)
        snprintf(num, sizeof num, "%" PRId64, st->hdr.pid);
    else
        snprintf(num, sizeof num, "%u", replica);
    sb_label(&p->labels, o->pid_label ? "pid" : "replica", num);
    p->clock = gst_clock_startup(&st->hdr);
    p->goroutines = gst_goroutines_of(st);
    if (p->clock.known)
        map_buckets(p);
    prepare_sites(p);
    return p->labels.failed || select_functions(p, o) < 0 ? -1 : 0;
}

/* Shortest of %.15g and %.17g that reads back as v. */
static void put_double(FILE *out, double v)
{
    char buf[40];
    snprintf(buf, sizeof buf, "%.15g", v);
    if (strtod(buf, NULL) != v)
        snprintf(buf, sizeof buf, "%.17g", v);
    fputs(buf, out);
}

static const char *sample_suffix(enum family_type t)
{
    return t == COUNTER ? "_total" : t == INFO ? "_info" : "";
}

/* The Prometheus text format has no info type and names a counter's
 * family by its sample name. */
static void put_header(struct expo *x, const struct family *f)
{
    static const char *const types[] = { "counter", "gauge", "histogram", "info" };
    const char *suffix = x->om ? "" : sample_suffix(f->type);
    const char *type = !x->om && f->type == INFO ? "gauge" : types[f->type];

    fprintf(x->out, "# HELP %s%s %s\n# TYPE %s%s %s\n", f->name, suffix, f->help, f->name, suffix, type);
    if (x->om && f->unit)
        fprintf(x->out, "# UNIT %s %s\n", f->name, f->unit);
}

/* name{labels[,extra]} */
static void put_series(struct expo *x, const struct family *f, const char *suffix,
                       const char *labels, const char *extra)
{
    fprintf(x->out, "%s%s{%s%s%s} ", f->name, suffix, labels, extra ? "," : "", extra ? extra : "");
}

static void put_u64(struct expo *x, const struct family *f, const struct proc *p,
                    const char *extra, uint64_t v)
{
    put_series(x, f, sample_suffix(f->type), p->labels.p, extra);
    fprintf(x->out, "%" PRIu64 "\n", v);
}

static void put_process(struct expo *x)
{
    struct strbuf extra = { 0 };
    put_header(x, &fam_info);
    for (size_t i = 0; i < x->s->nprocs; i++) {
        const struct proc *p = &x->procs[i];
        extra.len = 0;
        sb_label(&extra, "go_version", p->st->hdr.go_version);
        sb_label(&extra, "build_id", p->st->hdr.build_id);
        if (!extra.failed)
            put_u64(x, &fam_info, p, extra.p, 1);
    }
    x->failed |= extra.failed;
    free(extra.p);
    put_header(x, &fam_start);
    for (size_t i = 0; i < x->s->nprocs; i++) {
        put_series(x, &fam_start, "", x->procs[i].labels.p, NULL);
        put_double(x->out, (double)x->procs[i].st->hdr.start_time_ns / 1e9);
        fputc('\n', x->out);
    }
}

/* One per-process family of one sample each: its header, then value for
 * every process that wanted accepts. */
static void put_process_family(struct expo *x, const struct family *fam,
                               bool (*wanted)(const struct proc *),
                               uint64_t (*value)(const struct proc *))
{
    put_header(x, fam);
    for (size_t i = 0; i < x->s->nprocs; i++)
        if (wanted(&x->procs[i]))
            put_u64(x, fam, &x->procs[i], NULL, value(&x->procs[i]));
}

static bool goroutines_known(const struct proc *p)
{
    return p->goroutines.known;
}

static uint64_t goroutines_live(const struct proc *p)
{
    return p->goroutines.live;
}

static uint64_t goroutines_created(const struct proc *p)
{
    return p->goroutines.created;
}

static uint64_t goroutines_ended(const struct proc *p)
{
    return p->goroutines.ended;
}

static void put_goroutines(struct expo *x)
{
    put_process_family(x, &fam_goroutines, goroutines_known, goroutines_live);
    put_process_family(x, &fam_creations, goroutines_known, goroutines_created);
    put_process_family(x, &fam_ends, goroutines_known, goroutines_ended);
}

/* Series k of p's sites: the site itself, or (the last, past
 * GST_EXPO_MAX_SITES) the sum of the rest. */
struct site_sum {
    uint64_t live, created, count, oldest_ns, total_ticks;
    uint64_t hist[GS_HIST_BUCKETS];
};

static struct site_sum site_series(const struct proc *p, size_t k)
{
    struct site_sum sum = { 0 };
    size_t last = k < GST_EXPO_MAX_SITES ? k + 1 : p->named.n;
    for (size_t i = k; i < last; i++) {
        const struct gst_gsite *g = &p->named.items[i];
        sum.live = gr_add_saturating(sum.live, g->live);
        sum.created = gr_add_saturating(sum.created, g->created);
        sum.count = gr_add_saturating(sum.count, g->raw->timed);
        sum.total_ticks = gr_add_saturating(sum.total_ticks, g->raw->total_ticks);
        if (g->oldest_live_ns > sum.oldest_ns)
            sum.oldest_ns = g->oldest_live_ns;
        for (unsigned b = 0; b < GS_HIST_BUCKETS; b++)
            sum.hist[b] = gr_add_saturating(sum.hist[b], g->raw->hist[b]);
    }
    return sum;
}

/* Bound i (NBOUNDS: +Inf, always) is written. Cumulative counts make any
 * subset of bounds a correct histogram. */
static bool bucket_wanted(const struct expo *x, unsigned i)
{
    return i == NBOUNDS || (x->o->buckets >> i & 1);
}

static void put_site_histogram(struct expo *x, const struct proc *p, const char *labels,
                               const struct site_sum *sum)
{
    uint64_t in_bound[NBOUNDS + 1] = { 0 }, cumulative = 0;
    char le[40];
    for (unsigned b = 0; b < GS_HIST_BUCKETS; b++)
        in_bound[p->bucket_of[b]] = gr_add_saturating(in_bound[p->bucket_of[b]], sum->hist[b]);
    for (unsigned i = 0; i <= NBOUNDS; i++) {
        cumulative = gr_add_saturating(cumulative, in_bound[i]);
        if (!bucket_wanted(x, i))
            continue;
        snprintf(le, sizeof le, "le=\"%s\"", i < NBOUNDS ? bounds[i].label : "+Inf");
        put_series(x, &fam_site_lifetime, "_bucket", labels, le);
        fprintf(x->out, "%" PRIu64 "\n", cumulative);
    }
    put_series(x, &fam_site_lifetime, "_sum", labels, NULL);
    put_double(x->out, (double)sum->total_ticks * p->clock.ns_per_tick / 1e9);
    fputc('\n', x->out);
    put_series(x, &fam_site_lifetime, "_count", labels, NULL);
    fprintf(x->out, "%" PRIu64 "\n", cumulative);
}

enum site_metric { SITE_LIVE, SITE_CREATED, SITE_OLDEST, SITE_LIFETIME };

static void put_site_family(struct expo *x, const struct family *fam, enum site_metric m)
{
    put_header(x, fam);
    for (size_t i = 0; i < x->s->nprocs; i++) {
        const struct proc *p = &x->procs[i];
        for (size_t k = 0; k < p->nsite_series; k++) {
            const char *labels = p->site_labels[k].p;
            struct site_sum sum = site_series(p, k);
            if (!labels || p->site_labels[k].failed)
                continue;
            if (m == SITE_LIVE || m == SITE_CREATED) {
                put_series(x, fam, m == SITE_CREATED ? "_total" : "", labels, NULL);
                fprintf(x->out, "%" PRIu64 "\n", m == SITE_LIVE ? sum.live : sum.created);
            } else if (m == SITE_OLDEST && sum.live && p->named.ages_known) {
                put_series(x, fam, "", labels, NULL);
                put_double(x->out, (double)sum.oldest_ns / 1e9);
                fputc('\n', x->out);
            } else if (m == SITE_LIFETIME && p->clock.known && !x->o->no_histograms) {
                put_site_histogram(x, p, labels, &sum);
            }
        }
    }
}

static void put_goroutine_sites(struct expo *x)
{
    put_site_family(x, &fam_site_live, SITE_LIVE);
    put_site_family(x, &fam_site_created, SITE_CREATED);
    put_site_family(x, &fam_site_oldest, SITE_OLDEST);
    if (!x->o->no_histograms)
        put_site_family(x, &fam_site_lifetime, SITE_LIFETIME);
}

static bool timed(const struct proc *p)
{
    return gst_timed(p->st);
}

static uint64_t sample_every(const struct proc *p)
{
    return gst_sampled(p->st) && p->st->timing.sample_every ? p->st->timing.sample_every : 1;
}

static uint64_t unmatched_returns(const struct proc *p)
{
    return p->st->drops.unmatched;
}

static void put_timing_health(struct expo *x)
{
    put_process_family(x, &fam_sample, timed, sample_every);
    put_header(x, &fam_drops);
    for (size_t i = 0; i < x->s->nprocs; i++) {
        const struct gst_drops *d = &x->procs[i].st->drops;
        if (!timed(&x->procs[i]))
            continue;
        put_u64(x, &fam_drops, &x->procs[i], "reason=\"unwound\"", d->unwound);
        put_u64(x, &fam_drops, &x->procs[i], "reason=\"too_deep\"", d->too_deep);
        put_u64(x, &fam_drops, &x->procs[i], "reason=\"no_slot\"", d->no_slot);
        put_u64(x, &fam_drops, &x->procs[i], "reason=\"no_space\"", d->no_space);
        put_u64(x, &fam_drops, &x->procs[i], "reason=\"abandoned\"", d->abandoned);
    }
    put_process_family(x, &fam_unmatched, timed, unmatched_returns);
}

/* Sets x->func to the labels of f's samples in p. */
static void function_labels(struct expo *x, const struct proc *p, const struct gst_func *f)
{
    x->func.len = 0;
    sb_puts(&x->func, p->labels.p);
    sb_label(&x->func, "function", f->name);
    if (p->shared && p->shared[f - p->st->funcs]) {   /* one series per function */
        char entry[24];
        snprintf(entry, sizeof entry, "0x%" PRIx64, f->entry);
        sb_label(&x->func, "entry", entry);
    }
}

static bool exported(const struct proc *p, const struct gst_func *f)
{
    return p->exported[f - p->st->funcs];
}

static bool has_durations(const struct proc *p, const struct gst_func *f)
{
    return exported(p, f) && f->timed && p->clock.known;
}

static double seconds_of(const struct proc *p, uint64_t ticks)
{
    return (double)ticks * p->clock.ns_per_tick / 1e9;
}

static void put_calls(struct expo *x, const struct proc *p, const struct gst_func *f)
{
    (void)p;
    put_series(x, &fam_calls, "_total", x->func.p, NULL);
    fprintf(x->out, "%" PRIu64 "\n", f->calls);
}

static void put_seconds(struct expo *x, const struct proc *p, const struct gst_func *f)
{
    put_series(x, &fam_seconds, "_total", x->func.p, NULL);
    put_double(x->out, seconds_of(p, f->total_ticks));
    fputc('\n', x->out);
}

/* Self time exists where call paths were recorded (--call-graph). */
static bool has_self(const struct proc *p, const struct gst_func *f)
{
    return has_durations(p, f) && gst_has_paths(p->st);
}

static void put_self(struct expo *x, const struct proc *p, const struct gst_func *f)
{
    put_series(x, &fam_self, "_total", x->func.p, NULL);
    put_double(x->out, seconds_of(p, f->self_ticks));
    fputc('\n', x->out);
}

/* On-CPU time exists where the scheduler's hand-offs were hooked. */
static bool has_oncpu(const struct proc *p, const struct gst_func *f)
{
    return has_durations(p, f) && p->st->oncpu;
}

static void put_oncpu(struct expo *x, const struct proc *p, const struct gst_func *f)
{
    put_series(x, &fam_oncpu, "_total", x->func.p, NULL);
    put_double(x->out, seconds_of(p, f->oncpu_ticks));
    fputc('\n', x->out);
}

static void put_histogram(struct expo *x, const struct proc *p, const struct gst_func *f)
{
    uint64_t in_bound[NBOUNDS + 1] = { 0 };
    for (unsigned b = 0; b < GS_HIST_BUCKETS; b++)
        in_bound[p->bucket_of[b]] = gr_add_saturating(in_bound[p->bucket_of[b]], f->hist[b]);

    uint64_t cumulative = 0;
    char le[40];
    for (unsigned i = 0; i <= NBOUNDS; i++) {
        cumulative = gr_add_saturating(cumulative, in_bound[i]);
        if (!bucket_wanted(x, i))
            continue;
        snprintf(le, sizeof le, "le=\"%s\"", i < NBOUNDS ? bounds[i].label : "+Inf");
        put_series(x, &fam_duration, "_bucket", x->func.p, le);
        fprintf(x->out, "%" PRIu64 "\n", cumulative);
    }
    put_series(x, &fam_duration, "_sum", x->func.p, NULL);
    put_double(x->out, seconds_of(p, f->total_ticks));
    fputc('\n', x->out);
    put_series(x, &fam_duration, "_count", x->func.p, NULL);
    fprintf(x->out, "%" PRIu64 "\n", cumulative);
}

/* One per-function family: its header, then put for every function of
 * every process that wanted accepts, under the function's labels. */
static void put_function_family(struct expo *x, const struct family *fam,
                                bool (*wanted)(const struct proc *, const struct gst_func *),
                                void (*put)(struct expo *, const struct proc *, const struct gst_func *))
{
    put_header(x, fam);
    for (size_t i = 0; i < x->s->nprocs; i++) {
        const struct proc *p = &x->procs[i];
        for (uint32_t k = 0; k < p->st->hdr.nfuncs; k++) {
            const struct gst_func *f = &p->st->funcs[k];
            if (!wanted(p, f))
                continue;
            function_labels(x, p, f);
            put(x, p, f);
        }
    }
}

static void put_scrape(struct expo *x)
{
    put_header(x, &fam_procs);
    fprintf(x->out, "%s %zu\n", fam_procs.name, x->s->nprocs);
    put_header(x, &fam_invalid);
    fprintf(x->out, "%s %u\n", fam_invalid.name, x->s->invalid_files);
}

int gst_expo_write(FILE *out, enum gst_expo_format fmt, const struct gst_scrape *s,
                   const struct gst_expo_opts *o)
{
    struct expo x = { .out = out, .om = fmt == GST_EXPO_OPENMETRICS, .o = o, .s = s };
    bool failed = false;

    x.procs = calloc(s->nprocs ? s->nprocs : 1, sizeof *x.procs);
    if (!x.procs)
        return -1;
    for (size_t i = 0; i < s->nprocs; i++)
        failed |= prepare(&x.procs[i], s->procs[i], replica_of(s, i), o) < 0;
    if (!failed) {
        put_process(&x);
        put_goroutines(&x);
        put_goroutine_sites(&x);
        put_timing_health(&x);
        put_function_family(&x, &fam_calls, exported, put_calls);
        put_function_family(&x, &fam_seconds, has_durations, put_seconds);
        put_function_family(&x, &fam_self, has_self, put_self);
        put_function_family(&x, &fam_oncpu, has_oncpu, put_oncpu);
        if (!o->no_histograms)
            put_function_family(&x, &fam_duration, has_durations, put_histogram);
        put_scrape(&x);
        if (x.om)
            fputs("# EOF\n", out);
        failed = x.failed || x.func.failed;
    }
    for (size_t i = 0; i < s->nprocs; i++) {
        free(x.procs[i].labels.p);
        free(x.procs[i].exported);
        free(x.procs[i].shared);
        for (size_t k = 0; k < x.procs[i].nsite_series; k++)
            free(x.procs[i].site_labels[k].p);
        free(x.procs[i].site_labels);
        gst_gsites_free(&x.procs[i].named);
        gst_sites_free(&x.procs[i].sites);
    }
    free(x.procs);
    free(x.func.p);
    return failed || ferror(out) ? -1 : 0;
}

/* The q parameter of one media range's parameters (default 1). */
static double quality(const char *params, size_t len)
{
    for (size_t i = 0; i + 2 <= len; i++) {
        if (params[i] != ';')
            continue;
        size_t j = i + 1;
        while (j < len && params[j] == ' ')
            j++;
        if (j + 2 <= len && (params[j] == 'q' || params[j] == 'Q') && params[j + 1] == '=')
            return strtod(params + j + 2, NULL);
    }
    return 1.0;
}

enum gst_expo_format gst_expo_negotiate(const char *accept)
{
    double om_q = 0, text_q = 0;
    const char *p = accept;
    while (p && *p) {
        p += strspn(p, " \t");
        size_t range_len = strcspn(p, ",");
        size_t type_len = strcspn(p, ";,");
        while (type_len > 0 && (p[type_len - 1] == ' ' || p[type_len - 1] == '\t'))
            type_len--;
        double q = quality(p + type_len, range_len - type_len);
        if (type_len == 28 && strncasecmp(p, "application/openmetrics-text", 28) == 0)
            om_q = q > om_q ? q : om_q;
        else if (type_len == 10 && strncasecmp(p, "text/plain", 10) == 0)
            text_q = q > text_q ? q : text_q;
        p += range_len;
        if (*p == ',')
            p++;
    }
    return om_q > 0 && om_q >= text_q ? GST_EXPO_OPENMETRICS : GST_EXPO_PROMETHEUS;
}

const char *gst_expo_content_type(enum gst_expo_format fmt)
{
    return fmt == GST_EXPO_OPENMETRICS ? "application/openmetrics-text; version=1.0.0; charset=utf-8"
                                       : "text/plain; version=0.0.4; charset=utf-8";
}
