/* exported by gostat/model */
/* gsites.h: goroutines by creation site, ready to show: each site's
 * creator (the function holding the go statement, its file and line), its
 * start function, counts, the age of its oldest live goroutine and the
 * lifetimes of those that ended (docs/goroutines.md). */
#ifndef GOSTAT_GSITES_H
#define GOSTAT_GSITES_H

#include "gostat/read/sites.h"
#include "gostat/read/statsfile.h"

#include <stddef.h>
#include <stdint.h>

struct gst_gsite {
    const char *creator;       /* function name, or creator_hex */
    const char *file;          /* "" when unknown */
    uint32_t line;             /* of the go statement; 0 when unknown */
    const char *start;         /* function name, or start_hex */
    uint64_t created, ended, live;
    uint64_t oldest_live_ns;   /* 0: none live, or the age is unknown; of
                                  an ended process: the age at its end */
    uint64_t timed;            /* ended goroutines with a known lifetime */
    double p50_ns, p90_ns, p99_ns, max_ns;
    char creator_hex[24], start_hex[24];
    const struct gst_site *raw;  /* its entry in the snapshot (histogram, ticks) */
    /* by path (gst_sites.by_path): the creator's call path, root first,
       ending with the creator; path[0] is GST_CUT_PATH when its root
       side was not kept */
    const char *path[GS_SPATH_MAX + 2];
    size_t npath;
};

#define GST_CUT_PATH "..."

struct gst_gsites {
    struct gst_gsite *items;   /* most live first, then most created */
    size_t n;
    uint64_t no_site, no_live, unborn;
    int ages_known;            /* the clock is known, and the process alive or
                                  its end recorded */
    int ended;                 /* the process's end is recorded (an exited
                                  process's file, or a merged one): live
                                  counts the goroutines still running then,
                                  oldest_live_ns is their age then */
    uint64_t ended_ns;         /* ended: CLOCK_REALTIME at the end (the latest
                                  of a merged file's processes) */
    int by_path;               /* items carry their creator's call path */
};

/* From the snapshot s of st. Returns -1 only when out of memory. */
int gst_gsites_build(const struct gst_stats *st, const struct gst_sites *s, struct gst_gsites *out);

void gst_gsites_free(struct gst_gsites *g);

#endif
