/* exported by gostat/model */
/* callgraph.h: who called whom. A program built to time every call
 * (--call-graph) records, per thread, the calling contexts (paths) of its
 * timed calls with exact counts and times; this merges them over threads
 * into one tree of nodes, and derives from it the caller -> callee arcs.
 * It is built here once for every output (JSON, --callers/--callees,
 * folded, pprof, callgrind, diff, merge), which reads only this model,
 * never the file's tables; what an output needs of its own (a file with
 * paths, its chosen functions) is a parameter (struct gst_cg_request).
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
#include "gostat/model/view.h"
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
    double oncpu_ns;                /* on-CPU, inclusive (gst_stats.oncpu; else 0) */
    double oncpu_self_ns;           /* oncpu_ns minus its child nodes', within
                                       0..self_ns */
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
    struct gst_table_fill path_fill, arc_fill; /* how full those tables got */
    const struct gst_func *funcs;   /* the file's functions, selected's index */
    bool *selected;                 /* by funcs index: in the request's view;
                                       NULL: every function */
    /* Per function, by funcs index (gst_callgraph_sum_functions), in the
     * whole nanoseconds every output writes (gst_cg_whole_ns of each
     * node's self time), so that their totals are one sum: */
    size_t nfuncs;
    uint64_t *self_ns;              /* its nodes' self times plus unplaced_ns */
    uint64_t *unplaced_ns;          /* self time of its calls in no node (their
                                       paths did not fit): known per function,
                                       in no path */
    uint64_t *cum_ns;               /* pprof's cum, recursion-safe inclusive
                                       time: the self time of every node whose
                                       path holds the function (as a node or a
                                       caller frame), once per path however
                                       often it recurs there; unplaced calls
                                       are in no path, so in no cum */
    uint64_t unplaced_total_ns;     /* unplaced_ns summed over all functions */
};

/* What an output asks of the call graph. */
struct gst_cg_request {
    bool required;                  /* a file without paths is an error */
    const struct gst_view *view;    /* NULL: every function is selected;
                                       else only the view's (pprof's and
                                       callgrind's --filter) */
};

/* Builds the call graph of st's last refresh as req asks (NULL: nothing
 * required, every function selected). A file without paths gives
 * present == false and returns 0, or with req->required fails with a
 * message naming the file. Returns 0, or -1 with err. */
int gst_callgraph_build(const struct gst_stats *st, const struct gst_cg_request *req,
                        struct gst_callgraph *cg, struct gr_error *err);

void gst_callgraph_free(struct gst_callgraph *cg);

/* A time as every output writes it: whole ns, rounded; 0 for what is not
 * above 0; saturating. */
uint64_t gst_cg_whole_ns(double ns);

/* Fills cg's per-function sums (self_ns, unplaced_ns, cum_ns) from its
 * nodes and st's functions (their self times hold every call's, placed or
 * not). gst_callgraph_build calls it; a graph built by hand can too.
 * Returns 0, or -1 with err. */
int gst_callgraph_sum_functions(struct gst_callgraph *cg, const struct gst_stats *st,
                                struct gr_error *err);

/* f's entries in those sums (0 for a function of no graph). */
uint64_t gst_callgraph_self_ns(const struct gst_callgraph *cg, const struct gst_func *f);
uint64_t gst_callgraph_unplaced_ns(const struct gst_callgraph *cg, const struct gst_func *f);
uint64_t gst_callgraph_cum_ns(const struct gst_callgraph *cg, const struct gst_func *f);

/* Whether f is among the functions the request selected. */
bool gst_callgraph_selected(const struct gst_callgraph *cg, const struct gst_func *f);

/* The arcs into callee (its callers): contiguous in cg->arcs (sorted by
 * callee first). Sets *first to the first; returns their count. */
size_t gst_callgraph_callers(const struct gst_callgraph *cg, const struct gst_func *callee,
                             const struct gst_cg_arc **first);

/* The arcs out of the function whose entry is caller_entry (its callees),
 * collected as pointers into cg->arcs, by calls descending. *out is
 * malloc'ed (free it); returns the count, or -1 with err. */
long gst_callgraph_callees(const struct gst_callgraph *cg, uint64_t caller_entry,
                           const struct gst_cg_arc ***out, struct gr_error *err);

#endif
