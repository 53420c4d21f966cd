/* exported by gostat/model */
/* callgraph.h: who called whom. A program built to time every call
 * (--call-graph) records, per thread, the calling contexts (paths) of its
 * timed calls with exact counts and times; this merges them over threads
 * into one tree of nodes, and derives from it the caller -> callee arcs.
 * The outputs (JSON, --callers/--callees, folded, pprof, callgrind, diff,
 * merge) read only this model, never the file's tables.
 *
 * A node is one calling context: a timed function reached through its
 * parent node (the nearest enclosing timed call on the same goroutine).
 * Its caller is the function whose code made the call, found from the
 * return address: usually the parent's function, but another function when
 * the call came through code that is not timed (then that function is a
 * frame between parent and node in a path), or "(unknown)" when the return
 * address is outside Go code. */
#ifndef GOSTAT_CALLGRAPH_H
#define GOSTAT_CALLGRAPH_H

#include "common/error.h"
#include "gostat/read/statsfile.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define GST_CG_ROOT UINT32_MAX      /* parent of a goroutine's first timed call */
#define GST_CG_UNKNOWN_NAME "(unknown)"

struct gst_cg_node {
    uint32_t parent;                /* index into nodes (smaller than this
                                       node's), or GST_CG_ROOT */
    const struct gst_func *func;    /* the callee */
    uint64_t caller_entry;          /* link-time entry of the calling function;
                                       0 when unknown */
    const char *caller_name;        /* GST_CG_UNKNOWN_NAME when unknown */
    uint64_t calls;
    double total_ns;                /* inclusive */
    double self_ns;                 /* total minus its timed callees' totals */
    bool truncated;                 /* parent GST_CG_ROOT although the call
                                       had a timed parent whose context was
                                       not recorded: one that has not returned
                                       (yet), like runtime.main, or whose path
                                       did not fit. The path shown starts here. */
};

struct gst_cg_arc {
    uint64_t caller_entry;          /* 0 when unknown */
    const char *caller_name;        /* GST_CG_UNKNOWN_NAME when unknown */
    const struct gst_func *callee;
    uint64_t calls;                 /* exact */
    double total_ns;                /* inclusive time of the callee through this arc */
};

struct gst_callgraph {
    bool present;                   /* the file records paths (--call-graph);
                                       false: everything below is empty */
    struct gst_cg_node *nodes;      /* parents before their children */
    size_t nnodes;
    struct gst_cg_arc *arcs;        /* by callee (file order), then calls
                                       descending, then caller name */
    size_t narcs;
    uint64_t overflow_calls;        /* timed calls whose path did not fit in
                                       the bounded tables: in no node and no
                                       arc (counted and shown, never guessed) */
    uint64_t path_overflow_calls;   /* timed calls whose path did not fit: in
                                       no node; in the arcs (exact) unless also
                                       among overflow_calls, which it holds */
    uint64_t max_paths;             /* the per-thread bound chosen at rewrite time */
    uint64_t max_arcs;              /* the per-thread arc table (overflowed paths) */
};

/* Builds the call graph of st's last refresh. A file without paths gives
 * present == false and returns 0. Returns 0, or -1 with err. */
int gst_callgraph_build(const struct gst_stats *st, struct gst_callgraph *cg,
                        struct gr_error *err);

void gst_callgraph_free(struct gst_callgraph *cg);

/* The arcs into callee (its callers) or out of the function whose entry is
 * caller_entry (its callees): a contiguous or collected list, pointers into
 * cg->arcs, in the order of cg->arcs for callers and by calls descending for
 * callees. *out is malloc'ed (free it); returns the count, or -1 with err. */
long gst_callgraph_callers(const struct gst_callgraph *cg, const struct gst_func *callee,
                           const struct gst_cg_arc ***out, struct gr_error *err);
long gst_callgraph_callees(const struct gst_callgraph *cg, uint64_t caller_entry,
                           const struct gst_cg_arc ***out, struct gr_error *err);

#endif
