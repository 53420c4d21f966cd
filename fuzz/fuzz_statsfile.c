/* fuzz_statsfile.c: libFuzzer harness over gostat's stats-file reader:
 * validation (statsfile_check.c), loading and counter snapshots (statsfile.c), and
 * the views and outputs built from a file that passed (view.c, json.c,
 * table.c, pprof.c, callgrind.c, openmetrics.c), and the call graph
 * (callgraph.c) with the outputs that read it (folded.c, arcs.c, pprof.c
 * and callgrind.c with paths), top's model (top_model.c: two refreshes,
 * the rows in every sort, a filter) with its text frame (top_format.c),
 * the goroutine sites (sites.c, gsites.c, gsites_out.c), and the trace
 * section with its thread rings (trace_read.c), read twice. The input is
 * served from a memfd, as a file in $GOSTAT_DIR would be (top opens it by
 * its /proc/self/fd path). Run with -malloc_limit_mb so that sizing a buffer from an
 * unchecked header field counts as a crash. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz/fuzz_input.h"
#include "gostat/render/arcs.h"
#include "gostat/model/callgraph.h"
#include "gostat/render/callgrind.h"
#include "gostat/render/folded.h"
#include "gostat/render/json.h"
#include "gostat/render/openmetrics.h"
#include "gostat/render/pprof.h"
#include "gostat/read/statsfile.h"
#include "gostat/render/table.h"
#include "gostat/model/view.h"
#include "gostat/top/top_format.h"
#include "gostat/top/top_model.h"
#include "gostat/model/gsites.h"
#include "gostat/read/sites.h"
#include "gostat/render/gsites_out.h"
#include "gostat/read/trace_read.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* What gostat top does with the file, without a terminal. */
static void top(FILE *out, int fd)
{
    static const enum top_sort sorts[] = { TOP_SORT_RATE, TOP_SORT_CALLS, TOP_SORT_TIME,
                                           TOP_SORT_MEAN, TOP_SORT_P99, TOP_SORT_NAME };
    char path[64];
    struct top_model m;
    struct gr_error err;
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    if (top_model_open_target(&m, path, &err) == 0 && top_model_refresh(&m, &err) == 0) {
        m.show_uncalled = true;
        for (size_t k = 0; k < sizeof sorts / sizeof sorts[0]; k++) {
            m.sort = sorts[k];
            if (top_model_build_rows(&m, &err) == 0)
                top_format_print(out, &m, k % 2 == 0, 0, 50, 120);
        }
        if (top_model_set_filter(&m, "main\\.", &err) == 0 && top_model_build_rows(&m, &err) == 0)
            top_format_print(out, &m, false, 1, 10, 60);
        top_model_totals(&m);
    }
    top_model_close(&m);
}

/* What gostat trace reads: every ring, then what is newer (nothing, or
 * what a changed head claims). */
static void trace_rings(const struct gst_stats *st)
{
    struct gst_trace tr;
    struct gst_trace_batch b;
    struct gr_error err;
    if (gst_trace_open(st, &tr, &err) != 0)
        return;
    for (int pass = 0; pass < 2; pass++)
        if (gst_trace_read(st, &tr, &b, &err) == 0)
            gst_trace_batch_free(&b);
    gst_trace_close(&tr);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FILE *devnull = fuzz_sink();
    int fd = fuzz_input_fd(data, size);
    if (fd < 0 || !devnull)
        return 0;
    struct gst_stats st;
    struct gr_error err;
    if (gst_stats_open_fd(&st, fd, "fuzz-input", &err) < 0)
        return 0;
    struct gst_view view = {0};
    struct gst_view_options opt = {.sort = GST_SORT_CALLS};
    if (gst_stats_refresh(&st, &err) == 0 && gst_view_build(&st, &opt, &view, &err) == 0) {
        gst_json_print(devnull, &st, &view);
        struct gst_callgraph cg;
        struct gst_cg_request req = {.required = true, .view = &view};
        bool graph = gst_callgraph_build(&st, &req, &cg, &err) == 0;
        gst_table_print(devnull, &st, &view, NULL, graph ? &cg : NULL, 80); /* cut to fit, as on a terminal */
        gst_pprof_write(devnull, "/dev/null", &st, &view, graph ? &cg : NULL, &err);
        gst_callgrind_write(devnull, &st, &view, graph ? &cg : NULL, &err);
        if (graph) {
            gst_folded_write(devnull, &cg, GST_FOLDED_SELF, &err);
            gst_folded_write(devnull, &cg, GST_FOLDED_CALLS, &err);
            for (size_t i = 0; i < view.count && i < 8; i++) {
                gst_arcs_print(devnull, &st, &cg, view.funcs[i], GST_ARCS_CALLERS, &err);
                gst_arcs_print(devnull, &st, &cg, view.funcs[i], GST_ARCS_CALLEES, &err);
            }
            gst_callgraph_free(&cg);
        }
        struct gst_stats *procs[] = { &st };
        struct gst_scrape scrape = { .procs = procs, .nprocs = 1 };
        struct gst_expo_opts expo = { .buckets = gst_expo_default_buckets() };
        gst_expo_write(devnull, GST_EXPO_OPENMETRICS, &scrape, &expo);
        top(devnull, fd);
        struct gst_sites sites;
        struct gst_gsites g;
        for (int by_path = 0; by_path < 2; by_path++) {
            int rc = by_path ? gst_sites_read_paths(&st, &sites, &err) : gst_sites_read(&st, &sites, &err);
            if (rc != 0)
                continue;
            if (gst_gsites_build(&st, &sites, &g) == 0) {
                gst_gsites_table(devnull, &g, 0);
                gst_gsites_json(devnull, &g, 1000000);
                gst_gsites_free(&g);
            }
            gst_sites_free(&sites);
        }
        trace_rings(&st);
    }
    gst_view_free(&view);
    gst_stats_close(&st);
    return 0;
}
