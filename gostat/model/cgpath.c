/* cgpath.c: a calling context's frames, from its node up to the root. */
#include "gostat/model/cgpath.h"
#include "common/vec.h"

#include <stdlib.h>

bool gst_cg_caller_is_frame(const struct gst_callgraph *cg, size_t i)
{
    const struct gst_cg_node *n = &cg->nodes[i];
    if (n->parent == GST_CG_ROOT)
        return true;
    return n->caller_entry != cg->nodes[n->parent].func->entry;
}

static int push(struct gst_cg_path *p, struct gst_cg_frame f, struct gr_error *err)
{
    struct gst_cg_frame *frames = gr_vec_grow(p->frames, &p->cap, p->count + 1, sizeof *frames);
    if (!frames)
        return gr_fail(err, "out of memory for a call path of %zu frames", p->count + 1);
    p->frames = frames;
    p->frames[p->count++] = f;
    return 0;
}

/* Adds f unless the path is full, which makes it truncated; 1 when added,
 * 0 when full, -1 when out of memory. */
static int add(struct gst_cg_path *p, struct gst_cg_frame f, struct gr_error *err)
{
    if (p->count == GST_CG_MAX_FRAMES) {
        p->truncated = true;
        return 0;
    }
    return push(p, f, err) < 0 ? -1 : 1;
}

/* Collected leaf first, then reversed: a node knows only its parent. The
 * walk stops at GST_CG_MAX_FRAMES, so its cost is bounded too. */
int gst_cg_path_of(const struct gst_callgraph *cg, size_t i, struct gst_cg_path *p,
                   struct gr_error *err)
{
    int rc = 1;
    p->count = 0;
    p->truncated = false;
    for (size_t k = i; rc == 1; k = cg->nodes[k].parent) {
        const struct gst_cg_node *n = &cg->nodes[k];
        struct gst_cg_frame callee = { n->func->name, n->func->entry, n->func };
        struct gst_cg_frame caller = { n->caller_name, n->caller_entry, NULL };
        rc = add(p, callee, err);
        if (rc == 1 && gst_cg_caller_is_frame(cg, k))
            rc = add(p, caller, err);
        if (n->parent == GST_CG_ROOT)
            break;
    }
    struct gst_cg_frame cut = { GST_CG_TRUNCATED_FRAME, 0, NULL };
    if (rc < 0 || (p->truncated && push(p, cut, err) < 0))
        return -1;
    for (size_t a = 0, b = p->count - 1; a < b; a++, b--) {
        struct gst_cg_frame t = p->frames[a];
        p->frames[a] = p->frames[b];
        p->frames[b] = t;
    }
    return 0;
}

void gst_cg_path_free(struct gst_cg_path *p)
{
    free(p->frames);
    p->frames = NULL;
    p->count = p->cap = 0;
}
