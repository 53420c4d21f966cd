/* pprof.c: building a pprof Profile message from a stats file and writing
 * it gzipped. The encoding is protobuf-c's, from gostat/profile.proto. */
#include "pprof.h"

#include "gzip.h"
#include "intern.h"
#include "profile.pb-c.h"
#include "times.h"

#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zlib.h>

typedef Perftools__Profiles__Profile pb_profile;
typedef Perftools__Profiles__ValueType pb_value_type;
typedef Perftools__Profiles__Sample pb_sample;
typedef Perftools__Profiles__Label pb_label;
typedef Perftools__Profiles__Mapping pb_mapping;
typedef Perftools__Profiles__Location pb_location;
typedef Perftools__Profiles__Line pb_line;
typedef Perftools__Profiles__Function pb_function;

enum { VALUE_CALLS, VALUE_TIME, NVALUES };
#define MAX_COMMENTS 6
#define MAPPING_ID 1

/* Everything the message points to. protobuf-c messages hold arrays of
 * pointers to messages; each array here has one element per function. */
struct builder {
    const struct gst_stats *st;
    const struct gst_view *view;
    struct gst_intern strings;
    pb_profile profile;
    pb_value_type sample_types[NVALUES], period_type;
    pb_value_type *sample_type_ptrs[NVALUES];
    pb_mapping mapping;
    pb_mapping *mapping_ptr;
    int64_t comments[MAX_COMMENTS];
    pb_sample *samples, **sample_ptrs;
    pb_location *locations, **location_ptrs;
    pb_line *lines, **line_ptrs;
    pb_function *functions, **function_ptrs;
    pb_label *labels, **label_ptrs;
    uint64_t *location_ids;
    int64_t *values;
    struct gr_error *err;
    bool failed;
};

/* The string table index of s; on failure remembers the error (checked
 * once the message is built) and returns 0, the empty string. */
static int64_t str(struct builder *b, const char *s)
{
    long i = gst_intern_add(&b->strings, s, NULL, b->err);
    if (i < 0) {
        b->failed = true;
        return 0;
    }
    return i;
}

static void add_comment(struct builder *b, const char *text)
{
    if (b->profile.n_comment < MAX_COMMENTS)
        b->comments[b->profile.n_comment++] = str(b, text);
}

static int alloc_arrays(struct builder *b, size_t n)
{
    size_t k = n ? n : 1;
    b->samples = calloc(k, sizeof *b->samples);
    b->sample_ptrs = calloc(k, sizeof *b->sample_ptrs);
    b->locations = calloc(k, sizeof *b->locations);
    b->location_ptrs = calloc(k, sizeof *b->location_ptrs);
    b->lines = calloc(k, sizeof *b->lines);
    b->line_ptrs = calloc(k, sizeof *b->line_ptrs);
    b->functions = calloc(k, sizeof *b->functions);
    b->function_ptrs = calloc(k, sizeof *b->function_ptrs);
    b->labels = calloc(k, sizeof *b->labels);
    b->label_ptrs = calloc(k, sizeof *b->label_ptrs);
    b->location_ids = calloc(k, sizeof *b->location_ids);
    b->values = calloc(k * NVALUES, sizeof *b->values);
    if (!b->samples || !b->sample_ptrs || !b->locations || !b->location_ptrs || !b->lines ||
        !b->line_ptrs || !b->functions || !b->function_ptrs || !b->labels || !b->label_ptrs ||
        !b->location_ids || !b->values)
        return gr_fail(b->err, "%s: out of memory for a profile of %zu functions", b->st->path, n);
    return 0;
}

static void free_builder(struct builder *b)
{
    gst_intern_free(&b->strings);
    free(b->samples);
    free(b->sample_ptrs);
    free(b->locations);
    free(b->location_ptrs);
    free(b->lines);
    free(b->line_ptrs);
    free(b->functions);
    free(b->function_ptrs);
    free(b->labels);
    free(b->label_ptrs);
    free(b->location_ids);
    free(b->values);
}

static void set_value_type(struct builder *b, pb_value_type *v, const char *type, const char *unit)
{
    perftools__profiles__value_type__init(v);
    v->type = str(b, type);
    v->unit = str(b, unit);
}

static int64_t clamp_i64(double v)
{
    if (!(v > 0))
        return 0;
    return v >= 0x1p63 ? INT64_MAX : (int64_t)nearbyint(v);   /* rounds as --json prints */
}

/* Why f has no time, or NULL when it has one. The wording of untimed
 * reasons is --json's. */
static const char *untimed_reason(const struct gst_stats *st, const struct gst_func *f,
                                  const struct gst_times *t)
{
    if (!f->timed)
        return f->untimed && f->untimed[0] ? f->untimed
               : st->timing ? "unknown" : "not built for timing";
    if (!t->known)
        return st->clock.known ? "no call sampled" : "no usable clock";
    return NULL;
}

/* Function i of the view: its Function, Location (with one Line) and
 * Sample, all with id i + 1. */
static void add_function(struct builder *b, size_t i)
{
    const struct gst_func *f = b->view->funcs[i];
    struct gst_times t = gst_times_of(b->st, f);
    uint64_t id = i + 1;

    pb_function *fn = &b->functions[i];
    perftools__profiles__function__init(fn);
    fn->id = id;
    fn->name = fn->system_name = str(b, f->name);
    fn->filename = str(b, f->file);
    fn->start_line = f->line;
    b->function_ptrs[i] = fn;

    pb_line *line = &b->lines[i];
    perftools__profiles__line__init(line);
    line->function_id = id;
    line->line = f->line;
    b->line_ptrs[i] = line;

    pb_location *loc = &b->locations[i];
    perftools__profiles__location__init(loc);
    loc->id = id;
    loc->mapping_id = MAPPING_ID;
    loc->address = f->entry + b->st->hdr.load_bias;
    loc->n_line = 1;
    loc->line = &b->line_ptrs[i];
    b->location_ptrs[i] = loc;

    pb_sample *s = &b->samples[i];
    perftools__profiles__sample__init(s);
    b->location_ids[i] = id;
    s->n_location_id = 1;
    s->location_id = &b->location_ids[i];
    s->n_value = NVALUES;
    s->value = &b->values[i * NVALUES];
    s->value[VALUE_CALLS] = f->calls > INT64_MAX ? INT64_MAX : (int64_t)f->calls;
    s->value[VALUE_TIME] = t.known ? clamp_i64(t.total_ns) : 0;
    const char *why = untimed_reason(b->st, f, &t);
    if (why) {
        pb_label *l = &b->labels[i];
        perftools__profiles__label__init(l);
        l->key = str(b, "untimed");
        l->str = str(b, why);
        b->label_ptrs[i] = l;
        s->n_label = 1;
        s->label = &b->label_ptrs[i];
    }
    b->sample_ptrs[i] = s;
}

/* The executable. Every location is already symbolized (has_*), so pprof
 * never looks for the binary or asks a symbol server. */
static void set_mapping(struct builder *b)
{
    const struct gst_stats *st = b->st;
    pb_mapping *m = &b->mapping;

    perftools__profiles__mapping__init(m);
    m->id = MAPPING_ID;
    for (size_t i = 0; i < b->view->count; i++) {
        uint64_t a = b->view->funcs[i]->entry + st->hdr.load_bias;
        if (i == 0 || a < m->memory_start)
            m->memory_start = a;
        if (a >= m->memory_limit)
            m->memory_limit = a + 1;
    }
    m->filename = str(b, st->hdr.exe);
    m->build_id = str(b, st->hdr.build_id);
    m->has_functions = m->has_filenames = m->has_line_numbers = m->has_inline_frames = true;
    b->mapping_ptr = m;
}

static void add_comments(struct builder *b)
{
    const struct gst_stats *st = b->st;
    char *text;

    if (asprintf(&text, "gostat: pid %" PRId64 " %s, %s, %zu functions called", st->hdr.pid,
                 st->hdr.exe, st->live ? "live snapshot" : "exited", b->view->count) >= 0) {
        add_comment(b, text);
        free(text);
    }
    add_comment(b, "calls: exact call counts. time: total time of the calls in ns, "
                   "inclusive of callees: flat equals cum, and sums over functions count "
                   "nested calls more than once");
    add_comment(b, "time is 0 where a function has no time; its sample has the label untimed=REASON");
    if (st->timing && st->hdr.sample_every > 1 &&
        asprintf(&text, "timing sampled 1 call in %" PRIu32 ": time is mean x calls, an estimate",
                 st->hdr.sample_every) >= 0) {
        add_comment(b, text);
        free(text);
    } else if (st->sampling) {
        add_comment(b, "timing sampled (default mode): where not every call was timed, "
                       "time is mean x calls, an estimate");
    }
    if (st->hdr.go_version[0])
        add_comment(b, st->hdr.go_version);
}

/* A live process has run from start-up until now; when an exited one
 * stopped is not recorded, so its duration stays unset. */
static int64_t duration_ns(const struct gst_stats *st)
{
    struct timespec now;
    if (!st->live || clock_gettime(CLOCK_REALTIME, &now) < 0)
        return 0;
    uint64_t ns = (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
    return ns > st->hdr.start_time_ns ? (int64_t)(ns - st->hdr.start_time_ns) : 0;
}

static void set_profile(struct builder *b)
{
    pb_profile *p = &b->profile;
    size_t n = b->view->count;

    set_value_type(b, &b->sample_types[VALUE_CALLS], "calls", "count");
    set_value_type(b, &b->sample_types[VALUE_TIME], "time", "nanoseconds");
    for (int v = 0; v < NVALUES; v++)
        b->sample_type_ptrs[v] = &b->sample_types[v];
    p->n_sample_type = NVALUES;
    p->sample_type = b->sample_type_ptrs;
    /* Every call is counted, none sampled: one event per count. */
    set_value_type(b, &b->period_type, "calls", "count");
    p->period_type = &b->period_type;
    p->period = 1;
    /* Calls by default: exact, and additive the way pprof adds samples. */
    p->default_sample_type = b->sample_types[VALUE_CALLS].type;
    p->time_nanos = b->st->hdr.start_time_ns > INT64_MAX ? 0 : (int64_t)b->st->hdr.start_time_ns;
    p->duration_nanos = duration_ns(b->st);
    set_mapping(b);
    p->n_mapping = 1;
    p->mapping = &b->mapping_ptr;
    for (size_t i = 0; i < n; i++)
        add_function(b, i);
    p->n_sample = p->n_location = p->n_function = n;
    p->sample = b->sample_ptrs;
    p->location = b->location_ptrs;
    p->function = b->function_ptrs;
    add_comments(b);
    p->comment = b->comments;
    p->string_table = b->strings.strings;
    p->n_string_table = b->strings.count;
}

static int pack_and_write(struct builder *b, FILE *out, const char *name)
{
    size_t len = protobuf_c_message_get_packed_size(&b->profile.base);
    uint8_t *buf = malloc(len ? len : 1);
    if (!buf)
        return gr_fail(b->err, "%s: out of memory for a %zu-byte profile", name, len);
    protobuf_c_message_pack(&b->profile.base, buf);
    int rc = gst_gzip_write(out, buf, len, Z_DEFAULT_COMPRESSION, name, b->err);
    free(buf);
    return rc;
}

int gst_pprof_write(FILE *out, const char *name, const struct gst_stats *st,
                    const struct gst_view *view, struct gr_error *err)
{
    struct builder b;
    /* names, files and untimed reasons, plus a few fixed strings */
    size_t max_strings = view->count * 3 + 16 + MAX_COMMENTS;
    int rc = -1;

    memset(&b, 0, sizeof b);
    b.st = st;
    b.view = view;
    b.err = err;
    perftools__profiles__profile__init(&b.profile);
    if (gst_intern_init(&b.strings, max_strings, err) < 0)
        return -1;
    str(&b, "");   /* string_table[0] must be "" */
    if (alloc_arrays(&b, view->count) == 0) {
        set_profile(&b);
        rc = b.failed ? -1 : pack_and_write(&b, out, name);
    }
    free_builder(&b);
    return rc;
}
