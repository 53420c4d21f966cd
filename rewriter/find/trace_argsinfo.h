/* trace_argsinfo.h: the layout of a function DWARF does not describe (a
 * stripped binary, an assembly function, an ABI wrapper). */
#ifndef GR_TRACE_ARGSINFO_H
#define GR_TRACE_ARGSINFO_H

#include "rewriter/find/trace_layout.h"

/* Does the binary hold argument metadata for f? */
int gr_trace_argsinfo_has(const struct gr_program *prog, const struct gr_func *f);

/* f's layout without DWARF: a descriptor flagged GTD_F_STRIPPED whose
 * values are unnamed raw words. */
int gr_trace_argsinfo_layout(const struct gr_program *prog, const struct gr_func *f, int regabi,
                             struct gr_trace_layout *out, struct gr_error *err);

#endif
