/* callgraph.c: PLACEHOLDER on branch cg12out until cg12rec's recorder
 * lands (its callgraph.c replaces this file at the merge): no file has
 * paths yet, so build gives present == false; the arc look-ups follow the
 * header so that the outputs' unit tests can run on hand-built models. */
#include "callgraph.h"

#include <stdlib.h>
#include <string.h>

int gst_callgraph_build(const struct gst_stats *st, struct gst_callgraph *cg,
                        struct gr_error *err)
{
    (void)st;
    (void)err;
    memset(cg, 0, sizeof *cg);
    return 0;
}

void gst_callgraph_free(struct gst_callgraph *cg)
{
    free(cg->nodes);
    free(cg->arcs);
    memset(cg, 0, sizeof *cg);
}

static long collect(const struct gst_callgraph *cg, const struct gst_func *callee,
                    uint64_t caller_entry, const struct gst_cg_arc ***out, struct gr_error *err)
{
    *out = calloc(cg->narcs ? cg->narcs : 1, sizeof **out);
    if (!*out)
        return gr_fail(err, "out of memory for %zu arcs", cg->narcs);
    long n = 0;
    for (size_t i = 0; i < cg->narcs; i++)
        if (callee ? cg->arcs[i].callee == callee : cg->arcs[i].caller_entry == caller_entry)
            (*out)[n++] = &cg->arcs[i];
    return n;
}

long gst_callgraph_callers(const struct gst_callgraph *cg, const struct gst_func *callee,
                           const struct gst_cg_arc ***out, struct gr_error *err)
{
    return collect(cg, callee, 0, out, err);
}

static int by_calls_desc(const void *a, const void *b)
{
    const struct gst_cg_arc *x = *(const struct gst_cg_arc *const *)a;
    const struct gst_cg_arc *y = *(const struct gst_cg_arc *const *)b;
    if (x->calls != y->calls)
        return x->calls < y->calls ? 1 : -1;
    return strcmp(x->callee->name, y->callee->name);
}

long gst_callgraph_callees(const struct gst_callgraph *cg, uint64_t caller_entry,
                           const struct gst_cg_arc ***out, struct gr_error *err)
{
    long n = collect(cg, NULL, caller_entry, out, err);
    if (n > 0)
        qsort(*out, (size_t)n, sizeof **out, by_calls_desc);
    return n;
}
