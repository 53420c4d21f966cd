/* folded.c: writing folded stacks. Readers split a line at its last space
 * and the stack at each ';', so a name keeps its spaces (Go's shape types
 * have them) but not its semicolons. */
#include "gostat/render/folded.h"

#include "gostat/model/cgpath.h"
#include "gostat/render/utf8.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define OVERFLOW_FRAME "(path overflow)"

char *gst_folded_frame_name(const char *name)
{
    char *s = gst_utf8_clean(name);
    if (!s)
        return NULL;
    for (char *p = s; (p = strchr(p, ';')); p++)
        *p = ',';
    return s;
}

/* The node's value in whole units, times as every output rounds them. */
static uint64_t value_of(const struct gst_cg_node *n, enum gst_folded_value v)
{
    if (v == GST_FOLDED_CALLS)
        return n->calls;
    if (v == GST_FOLDED_ONCPU)
        return gst_cg_whole_ns(n->oncpu_self_ns);
    return gst_cg_whole_ns(v == GST_FOLDED_TIME ? n->total_ns : n->self_ns);
}

static int put_path(FILE *out, const struct gst_cg_path *p, uint64_t value, struct gr_error *err)
{
    for (size_t k = 0; k < p->count; k++) {
        char *name = gst_folded_frame_name(p->frames[k].name);
        if (!name)
            return gr_fail(err, "out of memory for a frame name");
        fprintf(out, "%s%s", k ? ";" : "", name);
        free(name);
    }
    fprintf(out, " %" PRIu64 "\n", value);
    return 0;
}

int gst_folded_write(FILE *out, const struct gst_callgraph *cg, enum gst_folded_value v,
                     struct gr_error *err)
{
    struct gst_cg_path p = { 0 };
    int rc = 0;
    for (size_t i = 0; i < cg->nnodes && rc == 0; i++) {
        uint64_t value = value_of(&cg->nodes[i], v);
        if (value > 0)
            rc = gst_cg_path_of(cg, i, &p, err) < 0 ? -1 : put_path(out, &p, value, err);
    }
    gst_cg_path_free(&p);
    uint64_t in_no_path = v == GST_FOLDED_CALLS ? cg->path_overflow_calls
                          : v == GST_FOLDED_SELF ? cg->unplaced_total_ns : 0;
    if (rc == 0 && in_no_path > 0)
        fprintf(out, OVERFLOW_FRAME " %" PRIu64 "\n", in_no_path);
    return rc;
}
