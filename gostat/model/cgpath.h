/* exported by gostat/model */
/* cgpath.h: the frames of a calling context, root first, as the path
 * outputs (folded, pprof, callgrind) print them. A node's parent is the
 * nearest enclosing TIMED call; when the node's caller (from its return
 * address) is another function than the parent's, that caller ran in
 * between, untimed, and becomes a frame of its own between the two. A
 * goroutine's first timed call (parent GST_CG_ROOT) gets its caller as the
 * root frame ("(unknown)" when outside Go code), so each path says where
 * it started.
 *
 * A path keeps at most GST_CG_MAX_FRAMES frames, the innermost, as Go's
 * CPU profiles cap stack depth (runtime/cpuprof.go, maxCPUProfStack): a
 * deeper one starts with the frame GST_CG_TRUNCATED_FRAME instead of its
 * outer frames. Writing every path whole would cost depth^2/2 frames for a
 * chain of nested calls; capped, every path output is linear in the
 * nodes. */
#ifndef GOSTAT_CGPATH_H
#define GOSTAT_CGPATH_H

#include "gostat/model/callgraph.h"
#include "common/error.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct gst_cg_frame {
    const char *name;
    uint64_t entry;                 /* link-time entry; 0 when unknown */
    const struct gst_func *func;    /* the timed function; NULL for a
                                       caller frame (untimed or unknown) */
};

#define GST_CG_MAX_FRAMES 64
#define GST_CG_TRUNCATED_FRAME "(truncated)"

/* A reusable buffer of frames. */
struct gst_cg_path {
    struct gst_cg_frame *frames;    /* root first */
    size_t count, cap;
    bool truncated;                 /* frames[0] is GST_CG_TRUNCATED_FRAME */
};

/* Whether node i's caller is a frame of its own (see above). */
bool gst_cg_caller_is_frame(const struct gst_callgraph *cg, size_t i);

/* Fills p with node i's frames, root first (the node's function last),
 * at most GST_CG_MAX_FRAMES of them plus the truncation frame. Returns 0,
 * or -1 with err when out of memory. */
int gst_cg_path_of(const struct gst_callgraph *cg, size_t i, struct gst_cg_path *p,
                   struct gr_error *err);

void gst_cg_path_free(struct gst_cg_path *p);

#endif
