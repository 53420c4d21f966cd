/* trace_layout.c: a traced function's argument and result layout
 * (trace_layout.h). First version: no values known yet, an empty
 * descriptor. */
#include "rewriter/find/trace_layout.h"
#include "rewriter/find/trace_desc_build.h"

#include <stdlib.h>
#include <string.h>

int gr_trace_layout_of(const struct gr_program *prog, const struct gr_func *f,
                       struct gr_trace_layout *out, struct gr_error *err)
{
    (void)prog;
    memset(out, 0, sizeof *out);
    struct gr_tdb b = {0};
    if (gr_tdb_finish(&b, &out->desc, &out->desc_len) < 0)
        return gr_fail(err, "%s: out of memory building its trace layout", f->name);
    return 0;
}

void gr_trace_layout_free(struct gr_trace_layout *l)
{
    free(l->desc);
    memset(l, 0, sizeof *l);
}
