/* json.c: JSON output with correct string escaping. */
#include "gostat/render/json.h"

#include "gostat/model/callgraph.h"
#include "gostat/model/goroutines.h"
#include "gostat/model/times.h"
#include "common/safe_text.h"
#include "gostat/render/utf8.h"

#include <inttypes.h>
#include <stdbool.h>

static void put_escaped_ascii(FILE *out, unsigned char c)
{
    if (c == '"' || c == '\\')
        fprintf(out, "\\%c", c);
    else if (c < 0x20 || c == 0x7F)
        fprintf(out, "\\u%04x", c);
    else
        fputc(c, out);
}

void gst_json_put_string(FILE *out, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;

    fputc('"', out);
    while (*p) {
        size_t len = gr_utf8_sequence_length(p);
        if (len == 0) {
            fputs("\\ufffd", out);
            p++;
        } else if (len == 1) {
            put_escaped_ascii(out, *p++);
        } else if (gr_text_is_control(p, len)) {
            /* C1 or bidi control: same string, escaped, so --json on a terminal
             * cannot drive it either */
            fprintf(out, "\\u%04x", gr_utf8_code_point(p, len));
            p += len;
        } else {
            fwrite(p, 1, len, out);
            p += len;
        }
    }
    fputc('"', out);
}

/* A duration in whole nanoseconds, or null. */
static void put_ns(FILE *out, const char *key, bool known, double ns)
{
    if (known)
        fprintf(out, ",\"%s\":%.0f", key, ns);
    else
        fprintf(out, ",\"%s\":null", key);
}

static void put_timing(FILE *out, const struct gst_stats *st, const struct gst_callgraph *cg,
                       const struct gst_func *f)
{
    struct gst_times t = gst_times_of(st, f);

    fprintf(out, ",\"timed\":%s", f->timed ? "true" : "false");
    if (!f->timed) {
        fputs(",\"untimed_reason\":", out);
        gst_json_put_string(out, f->untimed[0] ? f->untimed
                                 : gst_timed(st) ? "unknown" : "not built for timing");
    }
    if (f->timed)
        fprintf(out, ",\"timed_calls\":%" PRIu64 ",\"time_estimated\":%s", f->samples,
                gst_time_estimated(st, f) ? "true" : "false");
    else
        fputs(",\"timed_calls\":null,\"time_estimated\":false", out);
    put_ns(out, "total_ns", t.known, t.total_ns);
    if (st->oncpu)                  /* files that record on-CPU time */
        put_ns(out, "oncpu_ns", t.known, t.oncpu_ns);
    put_ns(out, "mean_ns", t.any, t.mean_ns);
    put_ns(out, "p50_ns", t.any, t.p50_ns);
    put_ns(out, "p90_ns", t.any, t.p90_ns);
    put_ns(out, "p99_ns", t.any, t.p99_ns);
    put_ns(out, "min_ns", t.any, t.min_ns);
    put_ns(out, "max_ns", t.any, t.max_ns);
    if (t.self_known)
        put_ns(out, "self_ns", true, t.self_ns);
    if (f->timed && cg->present && gst_callgraph_cum_over(cg, f))   /* a defect, not a figure */
        fputs(",\"cum_ns\":null,\"cum_exceeds_total\":true", out);
    else if (f->timed && cg->present)    /* as --sort cum: a caller frame's cum counts too */
        fprintf(out, ",\"cum_ns\":%" PRIu64, gst_callgraph_cum_ns(cg, f));
    if (f->closed_at_exit)          /* still open when the process exited: timed to the exit */
        fprintf(out, ",\"closed_at_exit\":%" PRIu64, f->closed_at_exit);
}

/* Its callers (files with call paths, timed functions): exact calls and
 * inclusive time per calling function. */
static void put_callers(FILE *out, const struct gst_callgraph *cg, const struct gst_func *f)
{
    if (!cg->present || !f->timed)
        return;
    fputs(",\"callers\":[", out);
    const struct gst_cg_arc *arcs;
    size_t n = gst_callgraph_callers(cg, f, &arcs);
    for (size_t i = 0; i < n; i++) {
        const struct gst_cg_arc *a = &arcs[i];
        fputs(i ? ",{\"name\":" : "{\"name\":", out);
        gst_json_put_string(out, a->caller_name);
        if (a->caller_entry)
            fprintf(out, ",\"entry\":\"0x%" PRIx64 "\"", a->caller_entry);
        else
            fputs(",\"entry\":null", out);
        fprintf(out, ",\"calls\":%" PRIu64 ",\"total_ns\":%.0f}", a->calls, a->total_ns);
    }
    fputc(']', out);
}

static void put_function(FILE *out, const struct gst_stats *st, const struct gst_callgraph *cg,
                         const struct gst_func *f)
{
    fputs("{\"name\":", out);
    gst_json_put_string(out, f->name);
    fprintf(out, ",\"entry\":\"0x%" PRIx64 "\",\"calls\":%" PRIu64 ",\"file\":", f->entry, f->calls);
    gst_json_put_string(out, f->file);
    fprintf(out, ",\"line\":%" PRIu32 ",\"inlined\":%s", f->line, f->inlined ? "true" : "false");
    put_timing(out, st, cg, f);
    put_callers(out, cg, f);
    fputc('}', out);
}

/* "timing_mode"'s documented values, older than "mode": the sampled mode
 * split by its period, the call graph's counted as time-all. */
static const char *timing_mode_word(struct gs_timing_mode t)
{
    switch (t.mode) {
    case GS_MODE_COUNT: return "count-only";
    case GS_MODE_SAMPLED: return t.sample_every ? "sample" : "default";
    case GS_MODE_EVERY_CALL:
    case GS_MODE_CALL_GRAPH: break;
    }
    return "time-all";
}

static void put_clock(FILE *out, const struct gst_stats *st)
{
    const struct gst_drops *d = &st->drops;

    fprintf(out, ",\"timing\":%s,\"timing_mode\":\"%s\",\"mode\":\"%s\",\"sample_every\":%" PRIu32,
            gst_timed(st) ? "true" : "false", timing_mode_word(st->timing), gs_mode_name(st->timing.mode),
            gst_sampled(st) ? st->timing.sample_every : 1);
    if (st->oncpu_off)                /* timed, but on-CPU time could not be kept */
        fputs(",\"oncpu_unavailable\":true", out);
    fputs(",\"tsc_hz\":", out);
    if (st->clock.known)
        fprintf(out, "%.0f,\"clock_source\":", 1e9 / st->clock.ns_per_tick);
    else
        fputs("null,\"clock_source\":", out);
    if (st->clock.known)
        gst_json_put_string(out, st->clock.source);
    else
        fputs("null", out);
    if (gst_timed(st) && st->clock.known && st->hdr.probe_ticks) {  /* compensated */
        const struct gs_header *h = &st->hdr;
        double ns = st->clock.ns_per_tick;
        fprintf(out, ",\"probe_cost_ns\":{\"timed\":%.2f,\"timed_inside\":%.2f,\"untimed\":%.3f,\"sampled\":",
                h->probe_ticks * ns, h->probe_inner_ticks * ns, h->probe_untimed_q8 * ns / 256);
        if (st->drops.sampled_probes)
            fprintf(out, "%.2f}", (double)st->drops.sampled_probe_ticks / st->drops.sampled_probes * ns);
        else
            fputs("null}", out);
    } else {
        fputs(",\"probe_cost_ns\":null", out);
    }
    fprintf(out, ",\"drops\":{\"unwound\":%" PRIu64 ",\"too_deep\":%" PRIu64 ",\"no_slot\":%" PRIu64
            ",\"unmatched\":%" PRIu64 ",\"no_space\":%" PRIu64 ",\"abandoned\":%" PRIu64
            ",\"rowless_calls\":%" PRIu64 ",\"closed_at_exit\":%" PRIu64 "}",
            d->unwound, d->too_deep, d->no_slot, d->unmatched, d->no_space, d->abandoned, d->rowless_calls,
            d->closed_at_exit);
}

/* Whether self time, arcs and paths were recorded, and what did not fit. */
static void put_call_paths(FILE *out, const struct gst_stats *st, const struct gst_callgraph *cg,
                           bool failed)
{
    if (!cg->present) {
        fputs(",\"call_paths\":{\"recorded\":false,\"why\":", out);
        gst_json_put_string(out, failed ? "could not be read"
                                 : st->timing.mode == GS_MODE_EVERY_CALL
                                     ? "built with --time-all: recorded only with gorewrite --call-graph"
                                     : "recorded only with gorewrite --call-graph");
        fputc('}', out);
        return;
    }
    fprintf(out, ",\"call_paths\":{\"recorded\":true,\"max_paths\":%" PRIu64 ",\"max_arcs\":%" PRIu64
            ",\"nodes\":%zu,\"arcs\":%zu,\"path_overflow_calls\":%" PRIu64 ",\"overflow_calls\":%" PRIu64,
            cg->max_paths, cg->max_arcs, cg->nnodes, cg->narcs, cg->path_overflow_calls, cg->overflow_calls);
    fprintf(out, ",\"fullest_paths\":%" PRIu64 ",\"fullest_arcs\":%" PRIu64 ",\"threads_with_paths\":%" PRIu64,
            cg->path_fill.fullest, cg->arc_fill.fullest, cg->path_fill.rows);
    if (cg->path_overflow_calls)   /* the --max-paths to rebuild with */
        fprintf(out, ",\"suggested_max_paths\":%" PRIu64, gst_callgraph_suggested_paths(cg));
    fputc('}', out);
}

static void put_goroutines(FILE *out, const struct gst_stats *st)
{
    struct gst_goroutines g = gst_goroutines_of(st);
    if (!g.known) {
        fputs(",\"goroutines\":null", out);
        return;
    }
    fprintf(out, ",\"goroutines\":{\"created\":%" PRIu64 ",\"exited\":%" PRIu64 ",\"live\":%" PRIu64,
            g.created, g.ended, g.live);
    if (!st->live && st->hdr.end_tsc)   /* ended: those were still running at the end */
        fprintf(out, ",\"running_at_exit\":%" PRIu64, g.live);
    fputc('}', out);
}

void gst_json_print(FILE *out, const struct gst_stats *st, const struct gst_view *view)
{
    fprintf(out, "{\"pid\":%" PRId64 ",\"exe\":", st->hdr.pid);
    gst_json_put_string(out, st->hdr.exe);
    fprintf(out, ",\"live\":%s", st->live ? "true" : "false");
    if (st->hdr.processes)
        fprintf(out, ",\"processes\":%" PRIu64, st->hdr.processes);
    if (st->hdr.merge_error)
        fprintf(out, ",\"merge_error\":\"%s\"", gst_merge_error_name(st->hdr.merge_error));
    fputs(",\"build_id\":", out);
    gst_json_put_string(out, st->hdr.build_id);
    fputs(",\"go_version\":", out);
    gst_json_put_string(out, st->hdr.go_version);
    fprintf(out, ",\"start_time_ns\":%" PRIu64, st->hdr.start_time_ns);
    if (!st->live && st->hdr.end_tsc)   /* the latest end of a merged file's processes */
        fprintf(out, ",\"ended_ns\":%" PRIu64, st->hdr.end_time_ns);
    else
        fputs(",\"ended_ns\":null", out);
    fprintf(out, ",\"total_calls\":%" PRIu64, st->total_calls);
    put_clock(out, st);
    put_goroutines(out, st);
    struct gst_callgraph cg;
    struct gr_error err;
    bool failed = gst_callgraph_build(st, NULL, &cg, &err) < 0;
    put_call_paths(out, st, &cg, failed);
    fputs(",\"functions\":[", out);
    for (size_t i = 0; i < view->count; i++) {
        if (i)
            fputc(',', out);
        put_function(out, st, &cg, view->funcs[i]);
    }
    fputs("]}\n", out);
    gst_callgraph_free(&cg);
}
