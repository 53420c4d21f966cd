/* exported by gostat/profile */
/* profile.h: per-function totals of one or more processes, independent of
 * where they came from (a stats file, "gostat --json", "gostat merge"): the
 * common ground of gostat merge, diff and coverage. Functions are keyed by
 * name; two functions of the same name (in one program or across programs)
 * are one entry whose counts are summed. */
#ifndef GOSTAT_PROFILE_H
#define GOSTAT_PROFILE_H

#include "common/error.h"
#include "format/gostat_format.h"

#include <regex.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One process the profile's counts came from. */
struct gst_process {
    int64_t pid;
    bool live;                 /* still running when it was read */
    uint64_t ended_ns;         /* CLOCK_REALTIME at its end (a merged stats
                                  file's: the latest); 0: not recorded */
    char *exe, *build_id, *go_version;
    char *source;              /* the stats file or JSON it was read from */
};

/* One caller -> callee arc into a function, keyed by the caller's name
 * (entries differ between builds). */
struct gst_parc {
    char *caller;
    uint64_t calls;
    bool time_known;
    double total_ns;           /* the callee's inclusive time through the arc */
};

struct gst_pfunc {
    char *name;
    char *file;                /* "" when unknown */
    uint32_t line;             /* 0 when unknown */
    uint64_t calls;
    bool timed;                /* timed in at least one process */
    uint64_t timed_calls;      /* calls with a measured duration, weighted
                                  (with sampled timing, the calls those
                                  stand for: the histogram's sum) */
    double timed_ns;           /* sum of those durations: the mean is
                                  timed_ns / timed_calls */
    bool time_known;           /* total_ns is known (summed over the
                                  processes where it was) */
    double total_ns;           /* timed_ns, or with sampled timing its
                                  estimate for all calls (times.h) */
    bool estimated;            /* in some process a sampling mode left calls
                                  untimed: total_ns and oncpu_ns are partly
                                  estimates (JSON's "time_estimated") */
    bool oncpu_known;          /* oncpu_ns is known (summed like total_ns) */
    double oncpu_ns;           /* total_ns less the time descheduled */
    bool any_time;             /* at least one duration: min/max exist */
    double min_ns, max_ns;
    uint64_t samples;          /* calls actually timed (timed_calls unless
                                  sampled): the n of the spread's estimates,
                                  and JSON's "timed_calls" */
    bool hist_known;           /* a stats file's histogram of durations */
    uint64_t hist[GS_HIST_BUCKETS];  /* weighted calls per bucket (ticks) */
    uint64_t min_ticks, max_ticks;
    double ns_per_tick;        /* the histogram's clock */
    bool median_known;         /* median_ns holds (JSON's p50_ns) */
    double median_ns;
    bool self_known;           /* self_ns is known (summed like total_ns) */
    double self_ns;            /* time outside its timed callees */
    bool has_callers;          /* callers known (a --call-graph file, or JSON
                                  with "callers"); false: none recorded */
    struct gst_parc *callers;  /* by caller name, one per name once
                                  gst_profile_sort ran; owned */
    size_t ncallers;
};

/* Goroutines by creation site (psites.h). */
struct gst_psite {
    char *creator;             /* the function holding the go statement */
    char *file;                /* "" when unknown */
    uint32_t line;             /* of the go statement; 0 when unknown */
    char *start;               /* the goroutine's function */
    uint64_t created, ended, live;
};

struct gst_profile {
    struct gst_process *procs;
    size_t nprocs, procs_cap;
    struct gst_pfunc *funcs;   /* by name (strcmp), one per name, once
                                  gst_profile_sort ran */
    size_t nfuncs, funcs_cap;
    bool sites_known;          /* a source kept goroutines by site */
    struct gst_psite *sites;   /* sorted by key once gst_profile_sort ran */
    size_t nsites, sites_cap;
};

void gst_profile_init(struct gst_profile *p);
void gst_profile_free(struct gst_profile *p);

/* Appends a copy of proc (its strings duplicated). */
int gst_profile_add_process(struct gst_profile *p, const struct gst_process *proc,
                            struct gr_error *err);

/* Appends a copy of f (its callers too). Same-named functions stay
 * separate until gst_profile_sort folds them. */
int gst_profile_add_func(struct gst_profile *p, const struct gst_pfunc *f, struct gr_error *err);

/* Sorts by name and folds same-named functions into one: calls, timed
 * calls, their durations and known total and self times add up, min and
 * max are the smallest and largest seen; file and line are a known pair
 * (the first by file name, then line, so the result does not depend on
 * input order); callers are merged by caller name (calls and known times
 * add up) and sorted by it. */
void gst_profile_sort(struct gst_profile *p);

/* The arc from caller into f, or NULL (needs gst_profile_sort). */
const struct gst_parc *gst_pfunc_find_caller(const struct gst_pfunc *f, const char *caller);

/* The function called name, or NULL (needs gst_profile_sort). */
const struct gst_pfunc *gst_profile_find(const struct gst_profile *p, const char *name);

/* Moves src's processes and functions into dst, folding same-named
 * functions as gst_profile_sort does; both must be sorted, dst stays
 * sorted and src is left empty (also on error, -1: out of memory, when dst
 * is unchanged and src freed). Linear in their sizes: a merge of many
 * inputs holds the result and one input, never all of them. */
int gst_profile_absorb(struct gst_profile *dst, struct gst_profile *src, struct gr_error *err);

/* Removes the functions whose name filter (a compiled regex) does not
 * match. */
void gst_profile_keep_matching(struct gst_profile *p, const regex_t *filter);

/* f's pct-th percentile (50, 90 or 99) of durations in *ns: from its
 * histogram (summed over stats files of one clock), else for 50 the
 * median read from JSON. False when unknown. */
bool gst_pfunc_percentile(const struct gst_pfunc *f, unsigned pct, double *ns);

/* Sum of all functions' calls. */
uint64_t gst_profile_total_calls(const struct gst_profile *p);

#endif
