/* trace_argsinfo.c: layouts without DWARF (trace_argsinfo.h). Not yet
 * reading FUNCDATA_ArgInfo: the descriptor says the values are unknown
 * (GTD_F_STRIPPED, no values), and results are the first return word
 * (RAX with the register ABI), raw. */
#include "rewriter/find/trace_argsinfo.h"
#include "rewriter/find/trace_desc_build.h"

#include <string.h>

int gr_trace_argsinfo_has(const struct gr_program *prog, const struct gr_func *f)
{
    (void)prog;
    (void)f;
    return 0;
}

int gr_trace_argsinfo_layout(const struct gr_program *prog, const struct gr_func *f, int regabi,
                             struct gr_trace_layout *out, struct gr_error *err)
{
    (void)prog;
    struct gr_tdb b = {.flags = GTD_F_STRIPPED | GTD_F_RESULTS_RAW | (regabi ? GTD_F_REGABI : 0)};
    if (regabi) {
        uint16_t raw = gr_tdb_type(&b, GTD_K_RAW, 8, NULL, 0, 0);
        out->exit.words[0] = (struct gr_trace_src){.kind = GR_TRACE_SRC_INT_REG, .reg = 0};
        out->exit.nwords = 1;
        uint16_t l = gr_tdb_leaf(&b, 0, 0, GTD_NONE);
        gr_tdb_value(&b, NULL, raw, l, 1, GTD_V_RESULT);
    }
    if (gr_tdb_finish(&b, &out->desc, &out->desc_len) < 0)
        return gr_fail(err, "%s: out of memory building its trace layout", f->name);
    return 0;
}
