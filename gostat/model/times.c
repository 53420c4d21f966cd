/* times.c: per-function durations in nanoseconds. */
#include "gostat/model/times.h"

#include "gostat/model/hist.h"

bool gst_time_estimated(const struct gst_stats *st, const struct gst_func *f)
{
    /* a weight above 1, or calls after a thread's last timed one that a
     * later timed call would have weighed */
    return gst_sampled(st) && f->timed && (f->timed_calls != f->samples || f->gap > 1);
}

struct gst_times gst_times_of(const struct gst_stats *st, const struct gst_func *f)
{
    struct gst_times t = { 0 };
    double k = st->clock.ns_per_tick;

    if (!f->timed || !st->clock.known)
        return t;
    if (f->timed_calls == 0 && f->calls > 0)
        return t;   /* no call got a duration (not drawn, unwound, left open
                       by the scheduler): unknown, not 0, in every mode */
    t.known = true;
    t.total_ns = (double)f->total_ticks * k;
    t.self_known = gst_has_paths(st);
    t.self_ns = (double)f->self_ticks * k;
    t.oncpu_known = st->oncpu;
    t.oncpu_ns = (double)f->oncpu_ticks * k;
    if (f->timed_calls == 0)
        return t;
    t.any = true;
    t.mean_ns = t.total_ns / (double)f->timed_calls;   /* both weighted */
    t.estimated = gst_time_estimated(st, f);
    if (t.estimated) {  /* not every call timed: estimate the rest */
        t.total_ns = t.mean_ns * (double)f->calls;
        t.oncpu_ns = t.oncpu_ns / (double)f->timed_calls * (double)f->calls;
    }
    t.p50_ns = gst_hist_percentile(f->hist, f->min_ticks, f->max_ticks, 50) * k;
    t.p90_ns = gst_hist_percentile(f->hist, f->min_ticks, f->max_ticks, 90) * k;
    t.p99_ns = gst_hist_percentile(f->hist, f->min_ticks, f->max_ticks, 99) * k;
    t.min_ns = (double)f->min_ticks * k;
    t.max_ns = (double)f->max_ticks * k;
    return t;
}
