/* exported by gostat/read */
/* sites.h: a snapshot of a stats file's goroutine sites (GS_HDR_SITES,
 * docs/goroutines.md): per (creator PC, start PC), the goroutines created,
 * ended, their lifetimes, and the birth of the oldest one alive; and the
 * go statements' table that names creator PCs. */
#ifndef GOSTAT_SITES_H
#define GOSTAT_SITES_H

#include "gostat/read/statsfile.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct gst_gostmt {
    uint64_t pc;               /* link-time: g.gopc */
    const char *func;          /* into gst_stats.strtab */
    const char *file;          /* "" when unknown */
    uint32_t line;             /* 0 when unknown */
};

struct gst_site {
    uint64_t gopc, startpc;    /* link-time */
    uint64_t created, ended;
    uint64_t timed;            /* ends with a known lifetime: sum of hist */
    uint64_t total_ticks, max_ticks;
    uint64_t hist[GS_HIST_BUCKETS];
    uint64_t tracked;          /* goroutines of it in the live table */
    uint64_t oldest_tick;      /* TSC at the oldest one's creation; 0: none */
    uint64_t exit_oldest;      /* ticks: the oldest one's age at the process's
                                  end (gs_site.exit_oldest); 0: unknown */
    /* by_path (GS_HDR_SITE_PATHS): the creator's call path */
    uint64_t path;             /* its key; 0: no open timed call */
    uint32_t path_depth;       /* open timed calls (more than path_rec holds: cut) */
    uint32_t path_n;           /* in path_rec, innermost first */
    uint32_t path_rec[GS_SPATH_MAX];
};

struct gst_sites {
    bool present;              /* the file keeps goroutines by site */
    bool by_path;              /* sites are told apart by creator path too */
    struct gst_site *items;    /* in table order */
    size_t n;
    uint64_t no_site, no_live, unborn;  /* gs_site_head */
    struct gst_gostmt *stmts;  /* sorted by pc */
    size_t nstmts;
};

/* Reads st's sites now (an empty, not present, set for a file without),
 * one per (creator PC, start PC): those of a file keyed by creator path
 * too are added up. Returns 0, or -1 with err set (a corrupt file, or out
 * of memory). */
int gst_sites_read(const struct gst_stats *st, struct gst_sites *out, struct gr_error *err);

/* As gst_sites_read, keeping a file's sites of one go statement reached
 * by different creator paths apart (by_path set; docs/goroutines.md). */
int gst_sites_read_paths(const struct gst_stats *st, struct gst_sites *out, struct gr_error *err);

/* The go statement whose return address is gopc, or NULL. */
const struct gst_gostmt *gst_sites_stmt(const struct gst_sites *s, uint64_t gopc);

void gst_sites_free(struct gst_sites *s);

#endif
