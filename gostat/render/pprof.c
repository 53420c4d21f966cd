/* pprof.c: building a pprof Profile message from a stats file and writing
 * it gzipped. The encoding is protobuf-c's, from gostat/profile.proto.
 *
 * Without call paths (every mode but --call-graph) each function is one
 * sample whose only location is itself. With paths, each calling context
 * (callgraph.h) is one sample whose locations are its frames, leaf first
 * (cgpath.h), valued with its calls and its SELF time: pprof adds a
 * sample's value to its leaf's flat and to the cum of every frame, so flat
 * is self time and cum inclusive time. */
#include "gostat/render/pprof.h"

#include "gostat/model/cgpath.h"
#include "gostat/render/gzip.h"
#include "gostat/render/intern.h"
#include "profile.pb-c.h"
#include "gostat/model/times.h"
#include "common/vec.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
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

enum { VALUE_CALLS, VALUE_TIME, VALUE_ONCPU, NVALUES }; /* VALUE_ONCPU: files with on-CPU time */
#define MAX_COMMENTS 10
#define MAPPING_ID 1
#define OVERFLOW_FRAME "(path overflow)"

/* One distinct frame: a Function, a Location with one Line, all with id
 * index + 1. Frames are told apart by (cleaned) name. */
struct frame {
    pb_function fn;
    pb_location loc;
    pb_line line;
    pb_line *line_ptr;
};

/* One sample; its location ids and label are indexes into the builder's
 * arrays until set_profile points at them (the arrays grow meanwhile). */
struct sample {
    pb_sample s;
    int64_t values[NVALUES];
    size_t first_loc, nlocs;
    pb_label label;
    pb_label *label_ptr;
};

struct builder {
    const struct gst_stats *st;
    const struct gst_view *view;
    const struct gst_callgraph *cg;    /* NULL: no paths */
    struct gst_intern strings;
    struct gst_intern frame_names;     /* frame i's "name@entry" is entry i */
    pb_profile profile;
    pb_value_type sample_types[NVALUES], period_type;
    pb_value_type *sample_type_ptrs[NVALUES];
    pb_mapping mapping;
    pb_mapping *mapping_ptr;
    int64_t comments[MAX_COMMENTS];
    struct frame *frames;
    size_t nframes, frames_cap;
    struct sample *samples;
    size_t nsamples, samples_cap;
    uint64_t *loc_ids;
    size_t nloc_ids, loc_ids_cap;
    pb_sample **sample_ptrs;
    pb_location **location_ptrs;
    pb_function **function_ptrs;
    size_t truncated_paths;            /* cut to GST_CG_MAX_FRAMES */
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

static void free_builder(struct builder *b)
{
    gst_intern_free(&b->strings);
    gst_intern_free(&b->frame_names);
    free(b->frames);
    free(b->samples);
    free(b->loc_ids);
    free(b->sample_ptrs);
    free(b->location_ptrs);
    free(b->function_ptrs);
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

static int64_t count_i64(uint64_t n)
{
    return n > INT64_MAX ? INT64_MAX : (int64_t)n;
}

/* Why f has no time, or NULL when it has one. The wording of untimed
 * reasons is --json's. */
static const char *untimed_reason(const struct gst_stats *st, const struct gst_func *f,
                                  const struct gst_times *t)
{
    if (!f->timed)
        return f->untimed && f->untimed[0] ? f->untimed
               : gst_timed(st) ? "unknown" : "not built for timing";
    if (!t->known && !st->clock.known)
        return "no usable clock";
    if (!t->known)   /* called, no call got a duration */
        return gst_sampled(st) ? "no call sampled" : "no call timed";
    return NULL;
}

/* The id of the frame of name at entry, added (with f's file and line when
 * f is known) the first time; 0 when out of memory. Keyed by both: two
 * functions of one name (an ABI wrapper and its target) stay two frames. */
static uint64_t frame_id(struct builder *b, const char *name, uint64_t entry,
                         const struct gst_func *f)
{
    bool added;
    char *key;
    if (asprintf(&key, "%s@%" PRIx64, name, entry) < 0) {
        b->failed = true;
        gr_fail(b->err, "out of memory for a frame's name");
        return 0;
    }
    long i = gst_intern_add(&b->frame_names, key, &added, b->err);
    free(key);
    if (i < 0) {
        b->failed = true;
        return 0;
    }
    if (!added)
        return (uint64_t)i + 1;
    struct frame *frames = gr_vec_grow(b->frames, &b->frames_cap, b->nframes + 1, sizeof *frames);
    if (!frames) {
        b->failed = true;
        gr_fail(b->err, "out of memory for %zu frames", b->nframes + 1);
        return 0;
    }
    b->frames = frames;
    struct frame *fr = &b->frames[b->nframes++];
    uint64_t id = b->nframes;
    perftools__profiles__function__init(&fr->fn);
    fr->fn.id = id;
    fr->fn.name = fr->fn.system_name = str(b, name);
    fr->fn.filename = str(b, f ? f->file : "");
    fr->fn.start_line = f ? f->line : 0;
    perftools__profiles__line__init(&fr->line);
    fr->line.function_id = id;
    fr->line.line = f ? f->line : 0;
    perftools__profiles__location__init(&fr->loc);
    fr->loc.id = id;
    fr->loc.mapping_id = MAPPING_ID;
    fr->loc.address = entry ? entry + b->st->hdr.load_bias : 0;
    fr->loc.n_line = 1;
    return id;
}

static struct sample *new_sample(struct builder *b)
{
    struct sample *s = gr_vec_grow(b->samples, &b->samples_cap, b->nsamples + 1, sizeof *s);
    if (!s) {
        b->failed = true;
        gr_fail(b->err, "out of memory for %zu samples", b->nsamples + 1);
        return NULL;
    }
    b->samples = s;
    s = &b->samples[b->nsamples++];
    memset(s, 0, sizeof *s);
    s->first_loc = b->nloc_ids;
    return s;
}

static void push_loc(struct builder *b, struct sample *s, uint64_t id)
{
    uint64_t *ids = gr_vec_grow(b->loc_ids, &b->loc_ids_cap, b->nloc_ids + 1, sizeof *ids);
    if (!ids) {
        b->failed = true;
        gr_fail(b->err, "out of memory for %zu locations", b->nloc_ids + 1);
        return;
    }
    b->loc_ids = ids;
    b->loc_ids[b->nloc_ids++] = id;
    s->nlocs++;
}

static void set_label(struct builder *b, struct sample *s, const char *key, const char *value)
{
    perftools__profiles__label__init(&s->label);
    s->label.key = str(b, key);
    s->label.str = str(b, value);
}

/* f alone: its calls, and its inclusive time or the reason it has none. */
static void add_flat_sample(struct builder *b, const struct gst_func *f)
{
    struct gst_times t = gst_times_of(b->st, f);
    struct sample *s = new_sample(b);
    if (!s)
        return;
    push_loc(b, s, frame_id(b, f->name, f->entry, f));
    s->values[VALUE_CALLS] = count_i64(f->calls);
    s->values[VALUE_TIME] = t.known ? clamp_i64(t.total_ns) : 0;
    s->values[VALUE_ONCPU] = t.oncpu_known ? clamp_i64(t.oncpu_ns) : 0;
    const char *why = untimed_reason(b->st, f, &t);
    if (why)
        set_label(b, s, "untimed", why);
}

/* Node i's path, leaf first, with its calls and self time. */
static void add_path_sample(struct builder *b, size_t i, struct gst_cg_path *p)
{
    const struct gst_cg_node *n = &b->cg->nodes[i];
    if (gst_cg_path_of(b->cg, i, p, b->err) < 0) {
        b->failed = true;
        return;
    }
    b->truncated_paths += p->truncated;
    struct sample *s = new_sample(b);
    if (!s)
        return;
    for (size_t k = p->count; k-- > 0;)
        push_loc(b, s, frame_id(b, p->frames[k].name, p->frames[k].entry, p->frames[k].func));
    s->values[VALUE_CALLS] = count_i64(n->calls);
    s->values[VALUE_TIME] = count_i64(gst_cg_whole_ns(n->self_ns));   /* as callgrind and folded */
    s->values[VALUE_ONCPU] = count_i64(gst_cg_whole_ns(n->oncpu_self_ns));
}

/* The self time of the selected functions' calls in no path. */
static uint64_t unplaced_ns(const struct builder *b)
{
    uint64_t sum = 0;
    for (size_t i = 0; i < b->view->count; i++)
        if (gst_callgraph_selected(b->cg, b->view->funcs[i]))
            sum += gst_callgraph_unplaced_ns(b->cg, b->view->funcs[i]);
    return sum;
}

/* Paths (with --filter, those whose last function was selected), then
 * the selected functions no path holds (untimed ones), then the calls
 * whose path overflowed. */
static void add_path_samples(struct builder *b)
{
    struct gst_cg_path p = { 0 };
    for (size_t i = 0; i < b->cg->nnodes && !b->failed; i++)
        if (gst_callgraph_selected(b->cg, b->cg->nodes[i].func))
            add_path_sample(b, i, &p);
    for (size_t i = 0; i < b->view->count && !b->failed; i++)
        if (!b->view->funcs[i]->timed)
            add_flat_sample(b, b->view->funcs[i]);
    uint64_t in_no_path = b->cg->path_overflow_calls, unplaced = unplaced_ns(b);
    if ((in_no_path > 0 || unplaced > 0) && !b->failed) {
        struct sample *s = new_sample(b);
        if (s) {
            push_loc(b, s, frame_id(b, OVERFLOW_FRAME, 0, NULL));
            s->values[VALUE_CALLS] = count_i64(in_no_path);
            s->values[VALUE_TIME] = count_i64(unplaced);
        }
    }
    gst_cg_path_free(&p);
}

/* The executable. Every location is already symbolized (has_*), so pprof
 * never looks for the binary or asks a symbol server. */
static void set_mapping(struct builder *b)
{
    const struct gst_stats *st = b->st;
    pb_mapping *m = &b->mapping;
    bool any = false;

    perftools__profiles__mapping__init(m);
    m->id = MAPPING_ID;
    for (size_t i = 0; i < b->nframes; i++) {
        uint64_t a = b->frames[i].loc.address;
        if (!a)
            continue;
        if (!any || a < m->memory_start)
            m->memory_start = a;
        if (a >= m->memory_limit)
            m->memory_limit = a + 1;
        any = true;
    }
    m->filename = str(b, st->hdr.exe);
    m->build_id = str(b, st->hdr.build_id);
    m->has_functions = m->has_filenames = m->has_line_numbers = m->has_inline_frames = true;
    b->mapping_ptr = m;
}

static void add_comment_f(struct builder *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add_comment_f(struct builder *b, const char *fmt, ...)
{
    char *text;
    va_list ap;
    va_start(ap, fmt);
    int n = vasprintf(&text, fmt, ap);
    va_end(ap);
    if (n >= 0) {
        add_comment(b, text);
        free(text);
    }
}

static void add_path_comments(struct builder *b)
{
    add_comment(b, "calls: exact call counts. time: ns, each sample (a call path, leaf first) "
                   "valued with its SELF time: flat is self time, cum inclusive time");
    add_comment(b, "frames are timed functions; a caller that ran untimed between two "
                   "is a frame of its own");
    uint64_t in_no_path = b->cg->path_overflow_calls;
    if (b->truncated_paths > 0)
        add_comment_f(b, "%zu samples deeper than %d frames keep their %d innermost frames under "
                      "a root frame '" GST_CG_TRUNCATED_FRAME "', as Go's CPU profiles cap stack "
                      "depth", b->truncated_paths, GST_CG_MAX_FRAMES, GST_CG_MAX_FRAMES);
    add_comment_f(b, "path tables: the fullest thread's held %" PRIu64 " of %" PRIu64 " paths, %" PRIu64
                  " of %" PRIu64 " arcs", b->cg->path_fill.fullest, b->cg->max_paths, b->cg->arc_fill.fullest,
                  b->cg->max_arcs);
    if (in_no_path > 0)
        add_comment_f(b, "%" PRIu64 " calls did not fit in the path tables (at most %" PRIu64
                      " paths per thread): one sample '" OVERFLOW_FRAME "' with their calls "
                      "and self time (%" PRIu64 " ns), in no other function's flat or cum; "
                      "the total time equals gostat callgrind's and gostat folded's",
                      in_no_path, b->cg->max_paths, unplaced_ns(b));
}

static void add_comments(struct builder *b)
{
    const struct gst_stats *st = b->st;

    add_comment_f(b, "gostat: pid %" PRId64 " %s, %s, %zu functions called", st->hdr.pid,
                  st->hdr.exe, st->live ? "live snapshot" : "exited", b->view->count);
    if (b->cg)
        add_path_comments(b);
    else
        add_comment(b, "calls: exact call counts. time: total time of the calls in ns, "
                       "inclusive of callees: flat equals cum (no call paths: built without "
                       "--call-graph), and sums over functions count nested calls more than once");
    add_comment(b, "time is 0 where a function has no time; its sample has the label untimed=REASON");
    if (gst_sampled(st) && st->timing.sample_every)
        add_comment_f(b, "timing sampled 1 call in %" PRIu32 ": time is mean x calls, an estimate",
                      st->timing.sample_every);
    else if (gst_sampled(st))
        add_comment(b, "timing sampled (default mode): where not every call was timed, "
                       "time is mean x calls, an estimate");
    if (st->hdr.go_version[0])
        add_comment(b, st->hdr.go_version);
}

/* A live process has run from start-up until now; when an exited one
 * stopped is not recorded, so its duration stays unset. */
/* Its run time so far, or for an exited process the time to its recorded
 * end (0: not recorded; a merged file's processes have no one start). */
static int64_t duration_ns(const struct gst_stats *st)
{
    struct timespec now;
    if (!st->live && !st->hdr.processes && st->hdr.end_tsc)
        return st->hdr.end_time_ns > st->hdr.start_time_ns ? (int64_t)(st->hdr.end_time_ns - st->hdr.start_time_ns)
                                                           : 0;
    if (!st->live || clock_gettime(CLOCK_REALTIME, &now) < 0)
        return 0;
    uint64_t ns = (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
    return ns > st->hdr.start_time_ns ? (int64_t)(ns - st->hdr.start_time_ns) : 0;
}

/* The sample types written: on-CPU time only where the file has it. */
static size_t nvalues(const struct builder *b)
{
    return b->st->oncpu ? NVALUES : VALUE_ONCPU;
}

static void set_types(struct builder *b)
{
    pb_profile *p = &b->profile;
    set_value_type(b, &b->sample_types[VALUE_CALLS], "calls", "count");
    set_value_type(b, &b->sample_types[VALUE_TIME], "time", "nanoseconds");
    set_value_type(b, &b->sample_types[VALUE_ONCPU], "oncpu", "nanoseconds");
    for (int v = 0; v < NVALUES; v++)
        b->sample_type_ptrs[v] = &b->sample_types[v];
    p->n_sample_type = nvalues(b);
    p->sample_type = b->sample_type_ptrs;
    /* Every call is counted, none sampled: one event per count. */
    set_value_type(b, &b->period_type, "calls", "count");
    p->period_type = &b->period_type;
    p->period = 1;
    /* Calls by default: exact, and additive the way pprof adds samples. */
    p->default_sample_type = b->sample_types[VALUE_CALLS].type;
}

/* The arrays no longer grow: point the messages at their parts. */
static int link_messages(struct builder *b)
{
    pb_profile *p = &b->profile;
    b->sample_ptrs = calloc(b->nsamples + 1, sizeof *b->sample_ptrs);
    b->location_ptrs = calloc(b->nframes + 1, sizeof *b->location_ptrs);
    b->function_ptrs = calloc(b->nframes + 1, sizeof *b->function_ptrs);
    if (!b->sample_ptrs || !b->location_ptrs || !b->function_ptrs)
        return gr_fail(b->err, "%s: out of memory for a profile of %zu samples", b->st->path,
                       b->nsamples);
    for (size_t i = 0; i < b->nframes; i++) {
        struct frame *fr = &b->frames[i];
        fr->line_ptr = &fr->line;
        fr->loc.line = &fr->line_ptr;
        b->location_ptrs[i] = &fr->loc;
        b->function_ptrs[i] = &fr->fn;
    }
    for (size_t i = 0; i < b->nsamples; i++) {
        struct sample *s = &b->samples[i];
        perftools__profiles__sample__init(&s->s);
        s->s.n_location_id = s->nlocs;
        s->s.location_id = b->loc_ids + s->first_loc;
        s->s.n_value = nvalues(b);
        s->s.value = s->values;
        if (s->label.key) {
            s->label_ptr = &s->label;
            s->s.n_label = 1;
            s->s.label = &s->label_ptr;
        }
        b->sample_ptrs[i] = &s->s;
    }
    p->n_sample = b->nsamples;
    p->sample = b->sample_ptrs;
    p->n_location = p->n_function = b->nframes;
    p->location = b->location_ptrs;
    p->function = b->function_ptrs;
    return 0;
}

static int set_profile(struct builder *b)
{
    pb_profile *p = &b->profile;

    set_types(b);
    p->time_nanos = b->st->hdr.start_time_ns > INT64_MAX ? 0 : (int64_t)b->st->hdr.start_time_ns;
    p->duration_nanos = duration_ns(b->st);
    if (b->cg)
        add_path_samples(b);
    else
        for (size_t i = 0; i < b->view->count && !b->failed; i++)
            add_flat_sample(b, b->view->funcs[i]);
    set_mapping(b);
    p->n_mapping = 1;
    p->mapping = &b->mapping_ptr;
    add_comments(b);
    p->comment = b->comments;
    if (b->failed || link_messages(b) < 0)
        return -1;
    p->string_table = b->strings.strings;
    p->n_string_table = b->strings.count;
    return b->failed ? -1 : 0;
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
                    const struct gst_view *view, const struct gst_callgraph *cg,
                    struct gr_error *err)
{
    struct builder b;
    size_t nnodes = cg && cg->present ? cg->nnodes : 0;
    /* frames: functions and callers; strings: their names, files and
     * untimed reasons, plus a few fixed ones */
    size_t max_frames = st->hdr.nfuncs + nnodes + 2;
    size_t max_strings = max_frames * 3 + 32 + MAX_COMMENTS;
    int rc = -1;

    memset(&b, 0, sizeof b);
    b.st = st;
    b.view = view;
    b.cg = cg && cg->present ? cg : NULL;
    b.err = err;
    perftools__profiles__profile__init(&b.profile);
    if (gst_intern_init(&b.strings, max_strings, err) < 0)
        return -1;
    if (gst_intern_init(&b.frame_names, max_frames, err) < 0) {
        gst_intern_free(&b.strings);
        return -1;
    }
    str(&b, "");   /* string_table[0] must be "" */
    if (set_profile(&b) == 0)
        rc = pack_and_write(&b, out, name);
    free_builder(&b);
    return rc;
}
