/* watch.c: the --watch loop. SIGINT is blocked except while waiting, and
 * the wait uses ppoll, which unblocks it atomically: a Ctrl-C that lands
 * while a table is being printed ends the next wait at once instead of
 * being lost or cutting a table in half. */
#include "gostat/cmd/watch.h"

#include "gostat/cmd/stop_signals.h"
#include "gostat/model/callgraph.h"
#include "gostat/render/table.h"
#include "gostat/render/term.h"

#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define CLEAR_SCREEN "\033[H\033[2J"

static volatile sig_atomic_t interrupted;

static void on_sigint(int sig)
{
    (void)sig;
    interrupted = 1;
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static struct timespec to_timespec(double seconds)
{
    struct timespec ts;
    ts.tv_sec = (time_t)seconds;
    ts.tv_nsec = (long)((seconds - (double)ts.tv_sec) * 1e9);
    if (ts.tv_nsec >= 1000000000L)
        ts.tv_nsec = 999999999L;
    return ts;
}

/* Sleeps for seconds with SIGINT deliverable. Returns true if interrupted. */
static bool wait_or_interrupt(double seconds, const sigset_t *wait_mask)
{
    double deadline = now_seconds() + seconds;
    while (!interrupted) {
        double left = deadline - now_seconds();
        if (left <= 0)
            return false;
        struct timespec ts = to_timespec(left);
        ppoll(NULL, 0, &ts, wait_mask);
    }
    return true;
}

static int show(FILE *out, const struct gst_stats *st, const struct gst_view_options *vo,
                const struct gst_rates *rates, bool first, bool wide, struct gr_error *err)
{
    struct gst_view view;
    struct gst_callgraph cg;
    struct gst_view_options with_cg = *vo;
    if (gst_callgraph_build(st, NULL, &cg, err) < 0)
        return -1;
    with_cg.cg = &cg;
    if (gst_view_build(st, &with_cg, &view, err) < 0) {
        gst_callgraph_free(&cg);
        return -1;
    }
    if (isatty(fileno(out)))
        fputs(CLEAR_SCREEN, out);
    else if (!first)
        fputc('\n', out); /* tables in a log stay apart */
    gst_table_print(out, st, &view, rates, &cg, wide ? 0 : gst_output_columns(out));
    fflush(out);
    gst_view_free(&view);
    gst_callgraph_free(&cg);
    return 0;
}

static int watch_loop(FILE *out, struct gst_stats *st, const struct gst_view_options *vo,
                      double interval, bool wide, const sigset_t *wait_mask, struct gr_error *err)
{
    uint64_t *prev = calloc(st->hdr.nfuncs ? st->hdr.nfuncs : 1, sizeof *prev);
    struct gst_rates rates = { .prev_calls = prev };
    double last = 0;
    int rc = 0;

    if (!prev)
        return gr_fail(err, "%s: out of memory", st->path);
    for (bool first = true;; first = false) {
        rc = gst_stats_refresh(st, err);
        double now = now_seconds();
        rates.seconds = now - last;
        if (rc == 0)
            rc = show(out, st, vo, &rates, first, wide, err);
        if (rc < 0 || !st->live)
            break;
        for (uint32_t i = 0; i < st->hdr.nfuncs; i++)
            prev[i] = st->funcs[i].calls;
        rates.known = true;
        last = now;
        if (wait_or_interrupt(interval, wait_mask))
            break;
    }
    free(prev);
    return rc;
}

int gst_watch(FILE *out, struct gst_stats *st, const struct gst_view_options *vo,
              double interval, bool wide, struct gr_error *err)
{
    static const int sigs[] = { SIGINT };
    struct gst_stop_signals stop;
    interrupted = 0;
    gst_stop_signals_catch(&stop, sigs, 1, 0, on_sigint);
    int rc = watch_loop(out, st, vo, interval, wide, &stop.wait_mask, err);
    gst_stop_signals_restore(&stop);
    return rc;
}
