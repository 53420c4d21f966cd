/* profile_json.c: parsing (with jansson) and writing profiles as JSON.
 * Writing goes through json.c's string escaper rather than jansson, which
 * refuses strings that are not valid UTF-8: names come from binaries and
 * must still come out as valid JSON. */
#include "gostat/profile/profile_json.h"

#include "gostat/model/goroutines.h"
#include "gostat/profile/psites.h"
#include "gostat/render/json.h"
#include "common/saturate.h"

#include <inttypes.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Where a value being checked sits, for error messages: the file and a
 * path like "functions[3]". */
struct where {
    const char *file;
    char at[96];
    struct gr_error *err;
};

static int bad(const struct where *w, const char *key, const char *want)
{
    return gr_fail(w->err, "%s: %s%s%s: expected %s", w->file, w->at, w->at[0] ? "." : "", key,
                   want);
}

/* Optional string: absent or null leaves *out as is. */
static int get_string(const struct where *w, json_t *obj, const char *key, const char **out)
{
    json_t *v = json_object_get(obj, key);
    if (!v || json_is_null(v))
        return 0;
    if (!json_is_string(v))
        return bad(w, key, "a string");
    *out = json_string_value(v);
    return 0;
}

/* Optional integer in [0, max]: absent or null gives *present false. */
static int get_uint(const struct where *w, json_t *obj, const char *key, uint64_t max,
                    uint64_t *out, bool *present)
{
    json_t *v = json_object_get(obj, key);
    *present = v && !json_is_null(v);
    if (!*present)
        return 0;
    if (!json_is_integer(v) || json_integer_value(v) < 0 || (uint64_t)json_integer_value(v) > max)
        return bad(w, key, max == UINT64_MAX ? "an integer >= 0" : "an integer in range");
    *out = (uint64_t)json_integer_value(v);
    return 0;
}

static int need_uint(const struct where *w, json_t *obj, const char *key, uint64_t *out)
{
    bool present;
    if (get_uint(w, obj, key, UINT64_MAX, out, &present) < 0)
        return -1;
    return present ? 0 : bad(w, key, "an integer >= 0");
}

/* Optional number >= 0 (a duration): absent or null gives *present false. */
static int get_ns(const struct where *w, json_t *obj, const char *key, double *out, bool *present)
{
    json_t *v = json_object_get(obj, key);
    *present = v && !json_is_null(v);
    if (!*present)
        return 0;
    if (!json_is_number(v) || json_number_value(v) < 0)
        return bad(w, key, "a number >= 0 or null");
    *out = json_number_value(v);
    return 0;
}

static int get_bool(const struct where *w, json_t *obj, const char *key, bool *out)
{
    json_t *v = json_object_get(obj, key);
    if (!v || json_is_null(v))
        return 0;
    if (!json_is_boolean(v))
        return bad(w, key, "true or false");
    *out = json_is_true(v);
    return 0;
}

static int read_process(struct where *w, json_t *obj, struct gst_profile *p)
{
    struct gst_process proc = { .exe = "", .build_id = "", .go_version = "", .source = (char *)w->file };
    uint64_t pid;
    bool ended;
    const char *exe = "", *build_id = "", *go_version = "", *source = w->file;
    if (need_uint(w, obj, "pid", &pid) < 0 || get_string(w, obj, "exe", &exe) < 0 ||
        get_uint(w, obj, "ended_ns", UINT64_MAX, &proc.ended_ns, &ended) < 0 ||
        get_string(w, obj, "build_id", &build_id) < 0 ||
        get_string(w, obj, "go_version", &go_version) < 0 ||
        get_string(w, obj, "source", &source) < 0 || get_bool(w, obj, "live", &proc.live) < 0)
        return -1;
    if (pid > INT64_MAX)
        return bad(w, "pid", "a process id");
    proc.pid = (int64_t)pid;
    proc.exe = (char *)exe;
    proc.build_id = (char *)build_id;
    proc.go_version = (char *)go_version;
    proc.source = (char *)source;
    return gst_profile_add_process(p, &proc, w->err);
}

/* Each element of arr (the array under key), an object, read by read;
 * w->at names the element. */
static int read_objects(struct where *w, json_t *arr, const char *key,
                        int (*read)(struct where *, json_t *, struct gst_profile *),
                        struct gst_profile *p)
{
    for (size_t i = 0; i < json_array_size(arr); i++) {
        snprintf(w->at, sizeof w->at, "%s[%zu]", key, i);
        json_t *obj = json_array_get(arr, i);
        if (!json_is_object(obj))
            return gr_fail(w->err, "%s: %s: expected an object", w->file, w->at);
        if (read(w, obj, p) < 0)
            return -1;
    }
    return 0;
}

static int read_processes(struct where *w, json_t *root, struct gst_profile *p)
{
    json_t *procs = json_object_get(root, "processes");
    if (!procs) /* "gostat --json": the one process is the top level */
        return read_process(w, root, p);
    if (!json_is_array(procs))
        return bad(w, "processes", "an array");
    return read_objects(w, procs, "processes", read_process, p);
}

/* One bucket count of "histogram"."buckets". */
static int read_bucket(const struct where *w, json_t *v, uint64_t *out)
{
    if (!json_is_integer(v) || json_integer_value(v) < 0)
        return bad(w, "histogram.buckets", "an array of integers >= 0");
    *out = (uint64_t)json_integer_value(v);
    return 0;
}

/* "histogram" (gostat merge of stats files): the durations' histogram,
 * weighted calls per bucket in ticks of its clock. Absent or null: none. */
static int read_histogram(const struct where *w, json_t *obj, struct gst_pfunc *f, bool *present)
{
    json_t *h = json_object_get(obj, "histogram");
    bool has_k, has_min, has_max;
    *present = h && !json_is_null(h);
    if (!*present)
        return 0;
    if (!json_is_object(h))
        return bad(w, "histogram", "an object or null");
    if (get_ns(w, h, "ns_per_tick", &f->ns_per_tick, &has_k) < 0 ||
        get_uint(w, h, "min_ticks", UINT64_MAX, &f->min_ticks, &has_min) < 0 ||
        get_uint(w, h, "max_ticks", UINT64_MAX, &f->max_ticks, &has_max) < 0)
        return -1;
    if (!has_k || !(f->ns_per_tick > 0))
        return bad(w, "histogram.ns_per_tick", "a number > 0");
    if (!has_min || !has_max || f->min_ticks > f->max_ticks)
        return bad(w, "histogram.min_ticks", "an integer <= max_ticks");
    json_t *b = json_object_get(h, "buckets");
    if (!json_is_array(b) || json_array_size(b) != GS_HIST_BUCKETS)
        return bad(w, "histogram.buckets", "an array of 32 integers");
    for (unsigned i = 0; i < GS_HIST_BUCKETS; i++)
        if (read_bucket(w, json_array_get(b, i), &f->hist[i]) < 0)
            return -1;
    return 0;
}

/* The weighted timed calls behind the mean: the histogram's sum where
 * there is one; else, when sampled timing left calls untimed, the calls
 * (which gostat --json's estimated total_ns is the mean times); else the
 * calls timed. */
static uint64_t weighted_calls(const struct gst_pfunc *f, uint64_t timed, bool has_hist)
{
    uint64_t sum = 0;
    if (!has_hist)
        return f->estimated && f->calls > timed ? f->calls : timed;
    for (unsigned i = 0; i < GS_HIST_BUCKETS; i++)
        sum = gr_add_saturating(sum, f->hist[i]);
    return sum;
}

/* Durations: "timed_calls" is the calls actually timed (as gostat --json
 * prints it); the measured sum is the mean (rounded to whole ns) times
 * the weighted calls it is over. */
static int read_times(const struct where *w, json_t *obj, struct gst_pfunc *f)
{
    bool has_timed_calls, has_mean, has_min, has_max, has_hist;
    double mean = 0;
    uint64_t timed = 0;
    if (get_uint(w, obj, "timed_calls", UINT64_MAX, &timed, &has_timed_calls) < 0 ||
        get_ns(w, obj, "total_ns", &f->total_ns, &f->time_known) < 0 ||
        get_ns(w, obj, "oncpu_ns", &f->oncpu_ns, &f->oncpu_known) < 0 ||
        get_bool(w, obj, "time_estimated", &f->estimated) < 0 ||
        get_ns(w, obj, "mean_ns", &mean, &has_mean) < 0 ||
        get_ns(w, obj, "min_ns", &f->min_ns, &has_min) < 0 ||
        get_ns(w, obj, "max_ns", &f->max_ns, &has_max) < 0 ||
        get_ns(w, obj, "p50_ns", &f->median_ns, &f->median_known) < 0 ||
        read_histogram(w, obj, f, &has_hist) < 0)
        return -1;
    f->timed = has_timed_calls;
    if (get_bool(w, obj, "timed", &f->timed) < 0)
        return -1;
    f->timed_calls = has_timed_calls ? weighted_calls(f, timed, has_hist) : 0;
    f->any_time = timed > 0 && f->timed_calls > 0 && has_mean && has_min && has_max;
    if (f->any_time && f->min_ns > f->max_ns)
        return bad(w, "min_ns", "a value <= max_ns");
    f->timed_ns = f->any_time ? mean * (double)f->timed_calls : 0;
    f->samples = f->any_time ? timed : 0;
    f->hist_known = f->any_time && has_hist;
    f->median_known = f->any_time && f->median_known;
    return 0;
}

/* One element of "callers": {"name","calls","total_ns"} ("entry" and
 * anything else ignored: addresses differ between builds). */
static int read_caller(struct where *w, json_t *obj, struct gst_parc *c)
{
    const char *name = NULL;
    if (!json_is_object(obj))
        return gr_fail(w->err, "%s: %s: expected an object", w->file, w->at);
    if (get_string(w, obj, "name", &name) < 0 || need_uint(w, obj, "calls", &c->calls) < 0 ||
        get_ns(w, obj, "total_ns", &c->total_ns, &c->time_known) < 0)
        return -1;
    if (!name)
        return bad(w, "name", "a string");
    c->caller = (char *)name;   /* jansson's; gst_profile_add_func copies it */
    return 0;
}

/* "callers": absent or null: not recorded; else an array. f->callers is
 * malloc'ed (the names jansson's), freed by the caller. */
static int read_callers(struct where *w, json_t *obj, struct gst_pfunc *f)
{
    json_t *arr = json_object_get(obj, "callers");
    if (!arr || json_is_null(arr))
        return 0;
    if (!json_is_array(arr))
        return bad(w, "callers", "an array or null");
    f->has_callers = true;
    size_t n = json_array_size(arr);
    f->callers = calloc(n ? n : 1, sizeof *f->callers);
    if (!f->callers)
        return gr_fail(w->err, "%s: out of memory for %zu callers", w->file, n);
    char at[sizeof w->at];
    memcpy(at, w->at, sizeof at);
    for (size_t i = 0; i < n; i++) {
        snprintf(w->at, sizeof w->at, "%.40s.callers[%zu]", at, i);
        if (read_caller(w, json_array_get(arr, i), &f->callers[i]) < 0)
            return -1;
        f->ncallers = i + 1;
    }
    memcpy(w->at, at, sizeof at);
    return 0;
}

static int read_function(struct where *w, json_t *obj, struct gst_profile *p)
{
    struct gst_pfunc f = { .name = NULL };
    const char *name = NULL, *file = "";
    uint64_t line = 0;
    bool has_line;
    int rc = -1;
    if (get_string(w, obj, "name", &name) < 0 || get_string(w, obj, "file", &file) < 0 ||
        get_uint(w, obj, "line", UINT32_MAX, &line, &has_line) < 0 ||
        need_uint(w, obj, "calls", &f.calls) < 0 || read_times(w, obj, &f) < 0 ||
        get_ns(w, obj, "self_ns", &f.self_ns, &f.self_known) < 0)
        return -1;
    if (!name)
        return bad(w, "name", "a string");
    f.name = (char *)name;
    f.file = (char *)file;
    f.line = (uint32_t)line;
    if (read_callers(w, obj, &f) == 0)
        rc = gst_profile_add_func(p, &f, w->err);
    free(f.callers);
    return rc;
}

static int read_functions(struct where *w, json_t *root, struct gst_profile *p)
{
    json_t *funcs = json_object_get(root, "functions");
    w->at[0] = '\0';
    if (!json_is_array(funcs))
        return bad(w, "functions", "an array");
    return read_objects(w, funcs, "functions", read_function, p);
}

static int read_site(struct where *w, json_t *obj, struct gst_profile *p)
{
    struct gst_psite s = {.creator = "", .file = "", .start = ""};
    uint64_t line = 0;
    bool present;
    if (get_string(w, obj, "creator", (const char **)&s.creator) < 0 ||
        get_string(w, obj, "file", (const char **)&s.file) < 0 ||
        get_string(w, obj, "start", (const char **)&s.start) < 0 ||
        get_uint(w, obj, "line", UINT32_MAX, &line, &present) < 0 ||
        need_uint(w, obj, "created", &s.created) < 0 || need_uint(w, obj, "exited", &s.ended) < 0 ||
        need_uint(w, obj, "live", &s.live) < 0)
        return -1;
    s.line = (uint32_t)line;
    return gst_profile_add_site(p, &s, w->err);
}

/* "goroutine_sites" (gostat merge) or "goroutines" as an array (gostat
 * goroutines --json); absent: the profile keeps none. */
static int read_sites(struct where *w, json_t *root, struct gst_profile *p)
{
    json_t *sites = json_object_get(root, "goroutine_sites");
    if (!sites)
        sites = json_is_array(json_object_get(root, "goroutines")) ? json_object_get(root, "goroutines") : NULL;
    if (!sites || json_is_null(sites))
        return 0;
    if (!json_is_array(sites))
        return bad(w, "goroutine_sites", "an array");
    p->sites_known = true;
    return read_objects(w, sites, "goroutine_sites", read_site, p);
}

int gst_profile_read_json(const char *path, struct gst_profile *p, struct gr_error *err)
{
    struct where w = { .file = path, .err = err };
    json_error_t jerr;
    json_t *root = json_load_file(path, JSON_REJECT_DUPLICATES, &jerr);
    if (!root) {
        if (json_error_code(&jerr) == json_error_cannot_open_file)
            return gr_fail(err, "%s", jerr.text);
        return gr_fail(err, "%s:%d:%d: not valid JSON: %s", path, jerr.line, jerr.column, jerr.text);
    }
    int rc;
    if (!json_is_object(root))
        rc = gr_fail(err, "%s: expected a JSON object (gostat --json or gostat merge output)", path);
    else
        rc = read_processes(&w, root, p) < 0 || read_functions(&w, root, p) < 0 ||
             read_sites(&w, root, p) < 0 ? -1 : 0;
    json_decref(root);
    return rc;
}

/* A duration in whole nanoseconds, or null. */
static void put_ns(FILE *out, const char *key, bool known, double ns)
{
    if (known)
        fprintf(out, ",\"%s\":%.0f", key, ns);
    else
        fprintf(out, ",\"%s\":null", key);
}

static void put_process(FILE *out, const struct gst_process *proc)
{
    fprintf(out, "{\"pid\":%" PRId64 ",\"exe\":", proc->pid);
    gst_json_put_string(out, proc->exe);
    fprintf(out, ",\"live\":%s", proc->live ? "true" : "false");
    if (proc->ended_ns)
        fprintf(out, ",\"ended_ns\":%" PRIu64, proc->ended_ns);
    else
        fputs(",\"ended_ns\":null", out);
    fputs(",\"build_id\":", out);
    gst_json_put_string(out, proc->build_id);
    fputs(",\"go_version\":", out);
    gst_json_put_string(out, proc->go_version);
    fputs(",\"source\":", out);
    gst_json_put_string(out, proc->source);
    fputc('}', out);
}

static void put_callers(FILE *out, const struct gst_pfunc *f)
{
    fputs(",\"callers\":[", out);
    for (size_t i = 0; i < f->ncallers; i++) {
        fputs(i ? ",{\"name\":" : "{\"name\":", out);
        gst_json_put_string(out, f->callers[i].caller);
        fprintf(out, ",\"calls\":%" PRIu64, f->callers[i].calls);
        put_ns(out, "total_ns", f->callers[i].time_known, f->callers[i].total_ns);
        fputc('}', out);
    }
    fputc(']', out);
}

/* Percentiles of the summed duration histograms (stats files of one
 * clock: as gostat --json computes them for one file); else the median of
 * a single JSON input; else null (JSON keeps no histogram, and medians of
 * several processes do not make theirs). */
static void put_percentiles(FILE *out, const struct gst_pfunc *f)
{
    static const unsigned pcts[] = { 50, 90, 99 };
    static const char *const keys[] = { "p50_ns", "p90_ns", "p99_ns" };
    for (unsigned i = 0; i < 3; i++) {
        double ns;
        bool known = gst_pfunc_percentile(f, pcts[i], &ns);
        put_ns(out, keys[i], known, ns);
    }
}

/* The summed histogram of stats files of one clock, so that a diff of
 * merged files judges times per call as a diff of the stats files does. */
static void put_histogram(FILE *out, const struct gst_pfunc *f)
{
    if (!f->hist_known || f->samples == 0 || !f->any_time)
        return;
    fprintf(out, ",\"histogram\":{\"ns_per_tick\":%.17g,\"min_ticks\":%" PRIu64 ",\"max_ticks\":%" PRIu64
            ",\"buckets\":[", f->ns_per_tick, f->min_ticks, f->max_ticks);
    for (unsigned i = 0; i < GS_HIST_BUCKETS; i++)
        fprintf(out, i ? ",%" PRIu64 : "%" PRIu64, f->hist[i]);
    fputs("]}", out);
}

/* Any duration not measured is null. */
static void put_function(FILE *out, const struct gst_pfunc *f)
{
    fputs("{\"name\":", out);
    gst_json_put_string(out, f->name);
    fputs(",\"file\":", out);
    gst_json_put_string(out, f->file);
    fprintf(out, ",\"line\":%" PRIu32 ",\"calls\":%" PRIu64 ",\"timed\":%s", f->line, f->calls,
            f->timed ? "true" : "false");
    if (f->timed)
        fprintf(out, ",\"timed_calls\":%" PRIu64 ",\"time_estimated\":%s", f->samples,
                f->estimated ? "true" : "false");
    else
        fputs(",\"timed_calls\":null,\"time_estimated\":false", out);
    put_ns(out, "total_ns", f->time_known, f->total_ns);
    if (f->oncpu_known)
        put_ns(out, "oncpu_ns", true, f->oncpu_ns);
    put_ns(out, "mean_ns", f->any_time, f->any_time ? f->timed_ns / (double)f->timed_calls : 0);
    put_percentiles(out, f);
    put_ns(out, "min_ns", f->any_time, f->min_ns);
    put_ns(out, "max_ns", f->any_time, f->max_ns);
    if (f->self_known)
        put_ns(out, "self_ns", true, f->self_ns);
    put_histogram(out, f);
    if (f->has_callers)
        put_callers(out, f);
    fputc('}', out);
}

static void put_goroutines(FILE *out, const struct gst_profile *p)
{
    const struct gst_pfunc *create = gst_profile_find(p, GST_GOROUTINE_CREATE);
    const struct gst_pfunc *end = gst_profile_find(p, GST_GOROUTINE_END);
    struct gst_goroutines g = gst_goroutines_from(create && end, create ? create->calls : 0,
                                                  end ? end->calls : 0);
    if (!g.known) {
        fputs(",\"goroutines\":null", out);
        return;
    }
    fprintf(out, ",\"goroutines\":{\"created\":%" PRIu64 ",\"exited\":%" PRIu64 ",\"live\":%" PRIu64 "}",
            g.created, g.ended, g.live);
}

static void put_sites(FILE *out, const struct gst_profile *p)
{
    if (!p->sites_known)
        return;
    fputs(",\n\"goroutine_sites\":[", out);
    for (size_t i = 0; i < p->nsites; i++) {
        const struct gst_psite *s = &p->sites[i];
        fputs(i ? ",\n{\"creator\":" : "\n{\"creator\":", out);
        gst_json_put_string(out, s->creator);
        fputs(",\"file\":", out);
        gst_json_put_string(out, s->file);
        fprintf(out, ",\"line\":%" PRIu32 ",\"start\":", s->line);
        gst_json_put_string(out, s->start);
        fprintf(out, ",\"created\":%" PRIu64 ",\"exited\":%" PRIu64 ",\"live\":%" PRIu64 "}",
                s->created, s->ended, s->live);
    }
    fputs("]", out);
}

void gst_profile_write_json(FILE *out, const struct gst_profile *p)
{
    fputs("{\"processes\":[", out);
    for (size_t i = 0; i < p->nprocs; i++) {
        fputs(i ? ",\n" : "\n", out);
        put_process(out, &p->procs[i]);
    }
    fprintf(out, "],\n\"total_calls\":%" PRIu64, gst_profile_total_calls(p));
    put_goroutines(out, p);
    put_sites(out, p);
    fputs(",\n\"functions\":[", out);
    for (size_t i = 0; i < p->nfuncs; i++) {
        fputs(i ? ",\n" : "\n", out);
        put_function(out, &p->funcs[i]);
    }
    fputs("]}\n", out);
}
