/* exported by gostat/read */
/* statsfile.h: opening a stats file, validating it, and taking snapshots of
 * its counters. The read-only prefix (header, function and string tables) is
 * copied once, so a later change to the file cannot invalidate strings we
 * hold; the counters are mapped shared so each refresh sees live values. */
#ifndef GOSTAT_STATSFILE_H
#define GOSTAT_STATSFILE_H

#include "gostat/read/clock.h"
#include "common/error.h"
#include "format/gostat_format.h"
#include "format/timing_mode.h"

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct gst_func {
    const char *name;          /* points into gst_stats.strtab */
    const char *file;          /* "" when unknown */
    uint64_t entry;            /* link-time address */
    uint64_t calls;            /* summed over rows at the last refresh */
    uint32_t line;             /* 0 when unknown */
    bool inlined;              /* GS_FUNC_INLINED */
    /* timing, summed over thread rows at the last refresh (ticks) */
    bool timed;                /* has a timing record in a timing file */
    const char *untimed;       /* why not timed (into strtab; may be ""); NULL when timed */
    uint32_t timing;           /* record index, or GS_UNTIMED */
    uint64_t timed_calls;      /* sum of hist: the calls the timed ones stand
                               for (each timed call weighs the gap since the
                               previous one when sampling; 1 otherwise) */
    uint64_t samples;          /* calls actually timed */
    uint64_t gap;              /* sampling: the largest gs_timing.gap of its rows;
                                  above 1, calls after a row's last timed one
                                  may be untimed */
    uint64_t total_ticks;
    uint64_t self_ticks;       /* call paths (gst_stats.paths) only: total
                                  minus the timed callees' (gs_timing.self_total) */
    uint64_t oncpu_ticks;      /* gst_stats.oncpu only: total less the time its
                                  calls' goroutines were descheduled */
    uint64_t min_ticks;        /* 0 when nothing was timed */
    uint64_t max_ticks;
    uint64_t hist[GS_HIST_BUCKETS];
    uint64_t closed_at_exit;   /* of its timed calls, those still open when the
                                  process exited, timed to the exit (the
                                  header's exit_calls) */
};

/* Calls of timed functions that got no duration, summed over all rows. */
struct gst_drops {
    uint64_t unwound, too_deep, no_slot, unmatched, no_space;
    uint64_t abandoned;        /* left open by the scheduler (on g0) */
    uint64_t path_overflow;    /* call paths: calls in the arc table only */
    uint64_t arc_overflow;     /* call paths: calls in neither table */
    uint64_t sampled_probes;   /* the sampled modes: probes measured, and */
    uint64_t sampled_probe_ticks; /* their ticks outside the calls, summed */
    uint64_t rowless_calls;    /* counted in the shared row 0 by threads that
                                  found no row of their own: never timed */
    uint64_t closed_at_exit;   /* not a drop: calls timed to the process's exit */
};

/* A function of the program, instrumented or not (gs_sym): what a return
 * address belongs to. */
struct gst_sym {
    uint64_t entry;            /* link-time */
    uint64_t end;
    const char *name;          /* into strtab */
};

/* One entry of a thread's path table (arc == false) or arc table (arc ==
 * true), as read at the last refresh (gs_path). Rows are not merged here. */
struct gst_path {
    uint64_t key;
    uint64_t parent;           /* 0: the goroutine's first timed call, or arc */
    uint64_t ret;              /* link-time return address (load_bias removed) */
    const struct gst_func *callee; /* NULL: the record matches no timed function */
    bool arc;
    uint64_t calls, total_ticks, self_ticks;
    uint64_t oncpu_ticks;      /* gst_stats.oncpu only (gs_path.oncpu) */
};

/* How full one kind of per-thread table (paths or arcs) is, over the rows
 * at the last refresh. */
struct gst_table_fill {
    uint64_t fullest;          /* entries in use in the fullest row's table */
    uint64_t used;             /* entries in use, all rows */
    uint64_t rows;             /* rows with an entry in use */
};

/* used of max entries in percent (0 when max is 0). */
static inline double gst_table_fill_percent(uint64_t used, uint64_t max)
{
    return max ? 100.0 * (double)used / (double)max : 0.0;
}

struct gst_stats {
    char path[PATH_MAX];
    struct gs_header hdr;      /* validated; exe and build_id NUL-terminated */
    char *strtab;              /* private copy of the string table */
    struct gst_func *funcs;    /* hdr.nfuncs entries, in file order */
    uint64_t total_calls;      /* at the last refresh */
    struct gs_timing_mode timing; /* from the header (format/timing_mode.h);
                                  sampled: counters hold calls - next;
                                  call graph: self time and call paths */
    struct gst_drops drops;    /* at the last refresh */
    bool oncpu;                /* GS_HDR_ONCPU: on-CPU time recorded */
    bool oncpu_off;            /* GS_HDR_ONCPU_OFF: timed, but on-CPU time
                                  could not be kept for this program */
    struct gst_sym *syms;      /* paths: every function, sorted by entry */
    size_t nsyms;
    struct gst_path *path_entries; /* paths: at the last refresh, all rows */
    size_t npaths, paths_cap;
    bool paths_oom;            /* the last refresh ran out of memory for them */
    struct gst_table_fill path_fill, arc_fill; /* paths: at the last refresh */
    struct gst_func **timing_funcs; /* paths: by timing record index */
    struct gst_clock clock;    /* ticks to ns, at the last refresh */
    bool live;                 /* at the last refresh */
    const unsigned char *map;  /* live page and rows, PROT_READ MAP_SHARED */
    size_t map_len;
    size_t map_skew;           /* live_off minus the page-aligned map offset */
    int fd;                    /* kept open: its allocated size bounds what is read */
    bool fd_open;
};

/* Opens path (following symlinks), validates it and takes a first snapshot.
 * Returns 0, or -1 with err naming the file and the problem; st then needs
 * no close. */
int gst_stats_open(struct gst_stats *st, const char *path, struct gr_error *err);

/* Like gst_stats_open for an fd the caller opened; the fd is always
 * consumed (kept until gst_stats_close, or closed on failure). */
int gst_stats_open_fd(struct gst_stats *st, int fd, const char *path, struct gr_error *err);

/* Re-reads liveness and all counters. */
int gst_stats_refresh(struct gst_stats *st, struct gr_error *err);

void gst_stats_close(struct gst_stats *st);

/* Why a process kept its own file instead of merging (gs_header.merge_error). */
const char *gst_merge_error_name(uint32_t merge_error);

/* What gostat may read of a file, from the disk space it occupies (a
 * hostile sparse file must not cost more than a small multiple of it). */
struct stat;
uint64_t gst_read_budget(const struct stat *sb);

/* Reads len bytes at off of fd (pread, EINTR retried). Returns 0, or -1
 * with errno set (EIO when the file ended first). */
int gst_read_exact(int fd, void *buf, size_t len, uint64_t off);

/* The timed function whose record sits at row offset rec (gs_path.rec,
 * gs_spath.rec), or NULL (a corrupt value). */
struct gst_func *gst_stats_func_of_record(const struct gst_stats *st, uint32_t rec);

/* What st's mode keeps: durations, sampled durations, call paths. */
static inline bool gst_timed(const struct gst_stats *st)
{
    return gs_mode_times(st->timing.mode);
}

static inline bool gst_sampled(const struct gst_stats *st)
{
    return st->timing.mode == GS_MODE_SAMPLED;
}

static inline bool gst_has_paths(const struct gst_stats *st)
{
    return st->timing.mode == GS_MODE_CALL_GRAPH;
}

#endif
