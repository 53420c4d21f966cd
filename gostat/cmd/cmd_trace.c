/* cmd_trace.c: "gostat trace PID|FILE": the calls gorewrite --trace
 * recorded, one line each, oldest first (or JSON Lines), with the events
 * lost to full rings; --follow keeps reading a live process's rings. */
#include "gostat/cmd/cmdline.h"
#include "gostat/cmd/commands.h"
#include "gostat/cmd/exitcode.h"
#include "gostat/read/target.h"
#include "gostat/read/trace_read.h"
#include "common/saturate.h"
#include "gostat/render/json.h"
#include "gostat/render/outfile.h"
#include "gostat/render/term.h"
#include "gostat/render/trace_values.h"
#include "common/go_duration.h"
#include "common/regex_compile.h"
#include "common/strbuf.h"

#include <inttypes.h>
#include <regex.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <time.h>

struct trace_args {
    bool json, follow;
    const char *func, *slower, *goroutine, *chrome;
    regex_t func_re;
    uint64_t slower_ns;
    int64_t goid;
};

static const struct gr_opt trace_opts[] = {
    { "json", 0, NULL, GR_OPT_FLAG, GR_OPT_AT(struct trace_args, json),
      .help = GR_OPT_HELP("JSON Lines: one object per call"), .man = "JSON Lines: one object per call." },
    { "follow", 'f', NULL, GR_OPT_FLAG, GR_OPT_AT(struct trace_args, follow),
      .help = GR_OPT_HELP("keep printing calls as the process makes them"),
      .man = "Keep printing calls as a live process makes them (like tail -f) until it exits." },
    { "func", 0, "REGEX", GR_OPT_STRING, GR_OPT_AT(struct trace_args, func),
      .help = GR_OPT_HELP("only functions whose names match REGEX"), .man = "Only functions whose names match REGEX." },
    { "slower-than", 0, "DURATION", GR_OPT_STRING, GR_OPT_AT(struct trace_args, slower),
      .help = GR_OPT_HELP("only calls that took longer (250us, 20ms, 1.5s)"),
      .man = "Only calls that took longer than DURATION (Go's syntax: 250us, 20ms, 1.5s)." },
    { "goroutine", 0, "N", GR_OPT_STRING, GR_OPT_AT(struct trace_args, goroutine),
      .help = GR_OPT_HELP("only calls of goroutine N"), .man = "Only calls made by goroutine N." },
    { "chrome", 0, "FILE", GR_OPT_STRING, GR_OPT_AT(struct trace_args, chrome),
      .help = GR_OPT_HELP("write the calls as Chrome trace-event JSON to FILE",
                          "(a track per goroutine; Perfetto, chrome://tracing,",
                          "speedscope)"),
      .man = "Write the calls to FILE as Chrome trace-event JSON: one track per goroutine, each call an\n"
             "event with its arguments, results and caller (Perfetto, chrome://tracing, speedscope)." },
    GST_HELP_OPTION,
};

const struct gr_opt_table gst_trace_options = {
    .program = "gostat trace",
    .intro =
        "usage: gostat trace [options] PID|FILE\n"
        "\n"
        "Prints the calls of the functions traced by gorewrite --trace, oldest first:\n"
        "time since start, goroutine, the call with its arguments and results,\n"
        "duration and caller. Events lost to full rings are counted on stderr.\n"
        "\n",
    .outro = "\nexit status: 0 ok, 1 usage error, 2 no such process or file, or not traced\n",
    GR_OPT_TABLE_OPTS(trace_opts),
    .min_operands = 1, .max_operands = 1,
    .too_few = "missing PID|FILE", .too_many = "unexpected argument '%s'",
    .column = 22,
    .long_indent = 2,
};

/* Untrusted text (names, rendered values) for a terminal. */
static void term_put(FILE *o, const char *s)
{
    gst_put_cell(o, s, 0, false);
}

/* The instrumented function holding run-time address pc. */
static const char *caller_name(const struct gst_stats *st, uint64_t pc)
{
    uint64_t addr = pc - st->hdr.load_bias;
    const char *best = NULL;
    uint64_t best_entry = 0;
    for (uint32_t i = 0; i < st->hdr.nfuncs; i++)
        if (st->funcs[i].entry <= addr && st->funcs[i].entry >= best_entry) {
            best_entry = st->funcs[i].entry;
            best = st->funcs[i].name;
        }
    return best ? best : "?";
}

/* A capture part of an event: its words and byte copies. */
struct part {
    uint64_t words[64];
    const uint8_t *bytes[16];
    uint32_t lens[16], full[16];
    struct gst_trace_capture cap;
};

static void load_part(struct part *p, const uint8_t *slot, uint32_t off, uint32_t nw, uint32_t nb,
                      uint32_t bytes_max)
{
    memcpy(p->words, slot + off, 8u * nw);
    uint32_t lens = gs_trace_lens_off(off, nw), data = gs_trace_data_off(off, nw, nb);
    for (uint32_t j = 0; j < nb; j++) {
        memcpy(&p->lens[j], slot + lens + 4 * j, 4);
        if (p->lens[j] > bytes_max)
            p->lens[j] = 0;
        p->bytes[j] = slot + data + j * gs_trace_copy_size(bytes_max);
        p->full[j] = p->lens[j];
    }
    p->cap = (struct gst_trace_capture){.words = p->words, .nwords = nw, .bytes = p->bytes,
                                        .bytes_len = p->lens, .bytes_full = p->full, .nbytes = nb};
}

static void raw_words(struct gr_strbuf *b, const struct part *p, bool json)
{
    if (json)
        gr_strbuf_appendf(b, "[");
    for (size_t i = 0; i < p->cap.nwords; i++)
        gr_strbuf_appendf(b, json ? "%s{\"name\":null,\"type\":null,\"value\":\"0x%" PRIx64 "\"}"
                                  : "%s0x%" PRIx64, i ? (json ? "," : ", ") : "", p->words[i]);
    if (json)
        gr_strbuf_appendf(b, "]");
}

static void values(const struct gst_stats *st, const struct gst_trace *tr, const struct gst_trace_event *e,
                   bool json, struct gr_strbuf *args, struct gr_strbuf *res)
{
    const struct gs_trace_func *f = &tr->funcs[e->tfunc];
    static struct part in, out;
    bool panicked = e->flags & GS_EVF_PANICKED;
    load_part(&in, e->slot, f->entry_off, f->entry_nwords, f->entry_nbytes, tr->sec->bytes_max);
    load_part(&out, e->slot, f->return_off, f->return_nwords, f->return_nbytes, tr->sec->bytes_max);
    const uint8_t *desc = tr->section + f->desc_off;
    if (f->desc_len && gst_trace_desc_check(desc, f->desc_len) == 0) {
        (json ? gst_trace_values_json : gst_trace_values_text)(desc, f->desc_len, (int64_t)st->hdr.load_bias,
                                                               &in.cap, panicked ? NULL : &out.cap, args, res);
        return;
    }
    raw_words(args, &in, json);
    if (panicked)
        gr_strbuf_appendf(res, json ? "null" : "");
    else
        raw_words(res, &out, json);
}

/* One Chrome "complete" event: the goroutine is the track (tid). */
static void chrome_event(FILE *o, const struct gst_stats *st, const char *name, const char *caller,
                         const struct gst_trace_event *e, uint64_t start_ns, uint64_t dur_ns,
                         const char *args, const char *res, bool *first)
{
    fputs(*first ? "\n" : ",\n", o);
    *first = false;
    fputs("{\"name\":", o);
    gst_json_put_string(o, name);
    fprintf(o, ",\"cat\":\"call\",\"ph\":\"X\",\"ts\":%.3f,\"dur\":%.3f,\"pid\":%" PRId64 ",\"tid\":%" PRIu64
               ",\"args\":{\"caller\":", (double)start_ns / 1e3, (double)dur_ns / 1e3, st->hdr.pid, e->goid);
    gst_json_put_string(o, caller);
    fprintf(o, ",\"thread\":%" PRIu64 ",\"args\":%s,\"results\":%s%s}}", e->tid, args, res,
            e->flags & GS_EVF_PANICKED ? ",\"panicked\":true" : "");
}

static void print_event(FILE *o, const struct trace_args *a, const struct gst_stats *st,
                        const struct gst_trace *tr, const struct gst_trace_event *e, bool *first)
{
    const char *name = st->funcs[tr->funcs[e->tfunc].func].name;
    double tick = st->clock.known ? st->clock.ns_per_tick : 0;
    uint64_t dur_ns = (uint64_t)((double)e->dur * tick);
    uint64_t start_ns = e->start > st->hdr.tsc0 ? (uint64_t)((double)(e->start - st->hdr.tsc0) * tick) : 0;
    if ((a->func && regexec(&a->func_re, name, 0, NULL, 0) != 0) || (a->slower && dur_ns <= a->slower_ns) ||
        (a->goroutine && (int64_t)e->goid != a->goid))
        return;
    struct gr_strbuf args = {0}, res = {0};
    bool panicked = e->flags & GS_EVF_PANICKED;
    values(st, tr, e, a->json || a->chrome, &args, &res);
    const char *caller = caller_name(st, e->caller);
    if (a->chrome) {
        chrome_event(o, st, name, caller, e, start_ns, dur_ns, gr_strbuf_str(&args), gr_strbuf_str(&res), first);
    } else if (a->json) {
        fputs("{\"func\":", o);
        gst_json_put_string(o, name);
        fprintf(o, ",\"goid\":%" PRIu64 ",\"tid\":%" PRIu64 ",\"start_ns\":%" PRIu64 ",\"dur_ns\":%" PRIu64
                   ",\"caller\":", e->goid, e->tid, start_ns, dur_ns);
        gst_json_put_string(o, caller);
        fprintf(o, ",\"args\":%s,\"results\":%s%s}\n", gr_strbuf_str(&args), gr_strbuf_str(&res),
                panicked ? ",\"panicked\":true" : "");
    } else {
        fprintf(o, "%12.6f g%-5" PRIu64 " ", (double)start_ns / 1e9, e->goid);
        term_put(o, name);
        fputc('(', o);
        term_put(o, gr_strbuf_str(&args));
        fputc(')', o);
        if (panicked) {
            fputs(" panicked", o);
        } else if (*gr_strbuf_str(&res)) {
            fputs(" = ", o);
            term_put(o, gr_strbuf_str(&res));
        }
        fprintf(o, "  %" PRIu64 "ns  from ", dur_ns);
        term_put(o, caller);
        fputc('\n', o);
    }
    gr_strbuf_free(&args);
    gr_strbuf_free(&res);
}

/* The goroutines' track names. */
static void chrome_tracks(FILE *o, const struct gst_stats *st, const struct gst_trace_batch *b, bool first)
{
    for (size_t i = 0; i < b->n; i++) {
        bool seen = false;
        for (size_t k = 0; k < i && !seen; k++)
            seen = b->ev[k].goid == b->ev[i].goid;
        if (seen)
            continue;
        fprintf(o, "%s{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":%" PRId64 ",\"tid\":%" PRIu64
                   ",\"args\":{\"name\":\"goroutine %" PRIu64 "\"}}", first ? "\n" : ",\n", st->hdr.pid,
                b->ev[i].goid, b->ev[i].goid);
        first = false;
    }
}

static int write_chrome(const struct trace_args *a, struct gst_stats *st, struct gst_trace *tr,
                        const struct gst_trace_batch *b, struct gr_error *err)
{
    struct gst_outfile o;
    bool first = true;
    if (gst_outfile_open(&o, a->chrome, err) < 0)
        return -1;
    fputs("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[", o.fp);
    for (size_t i = 0; i < b->n; i++)
        print_event(o.fp, a, st, tr, &b->ev[i], &first);
    chrome_tracks(o.fp, st, b, first);
    fputs("\n]}\n", o.fp);
    return gst_outfile_commit(&o, err);
}

static int print_batch(const struct trace_args *a, struct gst_stats *st, struct gst_trace *tr,
                       uint64_t *lost, uint64_t *dropped, struct gr_error *err)
{
    struct gst_trace_batch b;
    bool first = true;
    if (gst_trace_read(st, tr, &b, err) < 0)
        return -1;
    if (a->chrome && write_chrome(a, st, tr, &b, err) < 0) {
        gst_trace_batch_free(&b);
        return -1;
    }
    for (size_t i = 0; i < b.n && !a->chrome; i++)
        print_event(stdout, a, st, tr, &b.ev[i], &first);
    fflush(stdout);
    *lost = gr_add_saturating(*lost, b.lost);
    *dropped = b.dropped;
    gst_trace_batch_free(&b);
    return 0;
}

static int run(const struct trace_args *a, struct gst_stats *st, struct gr_error *err)
{
    struct gst_trace *tr = calloc(1, sizeof *tr);
    if (!tr)
        return gr_fail_as(err, GR_ERR_INTERNAL, "out of memory");
    int rc = gst_trace_open(st, tr, err);
    if (rc == 1)
        rc = gr_fail(err, "%s: not traced (gorewrite --trace)", st->path);
    uint64_t lost = 0, dropped = 0;
    /* The merge at exit adds counts; rings are events, kept as they were. */
    if (rc == 0 && st->hdr.processes > 1)
        fprintf(stderr, "gostat: trace: %s merges %" PRIu64 " processes; its rings hold the events of the"
                        " first of them only\n", st->path, st->hdr.processes);
    if (rc == 0)
        rc = print_batch(a, st, tr, &lost, &dropped, err);
    while (rc == 0 && a->follow && st->live) {
        nanosleep(&(struct timespec){.tv_nsec = 100000000}, NULL);
        rc = gst_stats_refresh(st, err);
        if (rc == 0)
            rc = print_batch(a, st, tr, &lost, &dropped, err);
    }
    if (rc == 0 && (lost || dropped))
        fprintf(stderr, "gostat: trace: %" PRIu64 " events lost (rings full: --trace-buffer), %" PRIu64
                        " not recorded (no room for their arguments)\n", lost, dropped);
    gst_trace_close(tr);
    free(tr);
    return rc;
}

static int check_args(struct trace_args *a, struct gr_error *err)
{
    if (a->chrome && (a->follow || a->json))
        return gr_fail_as(err, GR_ERR_USAGE, "--chrome writes a file once: not with --follow or --json");
    if (a->func && gr_regex_compile(&a->func_re, a->func, "--func", err) < 0)
        return -1;
    if (a->slower && gr_go_duration_parse(a->slower, &a->slower_ns) < 0)
        return gr_fail_as(err, GR_ERR_USAGE, "--slower-than: not a duration: '%s' (250us, 20ms, 1.5s)",
                          a->slower);
    char *end;
    if (a->goroutine && ((a->goid = strtoll(a->goroutine, &end, 10)) < 0 || *end || !*a->goroutine))
        return gr_fail_as(err, GR_ERR_USAGE, "--goroutine: not a goroutine id: '%s'", a->goroutine);
    return 0;
}

int gst_cmd_trace(int argc, char **argv)
{
    struct trace_args a = {0};
    struct gr_error err;
    struct gst_stats st;
    int next;
    int status = gst_parse_command(&gst_trace_options, argc, argv, &a, &next);
    if (status >= 0)
        return status;
    if (check_args(&a, &err) < 0) {
        fprintf(stderr, "gostat: trace: %s\n", err.msg);
        return gr_error_exit_status(err.kind);
    }
    if (gst_open_target(argv[next], &st, &err) < 0) {
        fprintf(stderr, "gostat: %s\n", err.msg);
        return gr_error_exit_status(err.kind);
    }
    int rc = run(&a, &st, &err);
    gst_stats_close(&st);
    if (a.func)
        regfree(&a.func_re);
    if (rc < 0) {
        fprintf(stderr, "gostat: %s\n", err.msg);
        return gr_error_exit_status(err.kind);
    }
    return GST_EXIT_OK;
}
