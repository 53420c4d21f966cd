/* trace_argsinfo.h: the layout of a function DWARF does not describe (a
 * stripped binary) or describes without parameters (an assembly function,
 * an ABI wrapper): raw words, from the size of its argument area. */
#ifndef GR_TRACE_ARGSINFO_H
#define GR_TRACE_ARGSINFO_H

#include "rewriter/find/trace_layout.h"

/* Bytes of f's argument area (_func.args in pclntab; results included;
 * with the register ABI its spill area), 0 when unknown. */
int32_t gr_trace_args_size(const struct gr_program *prog, const struct gr_func *f);

/* Is the function at entry an ABI0 (stack ABI) body, by its .symtab name? */
int gr_trace_is_abi0(const struct gr_program *prog, uint64_t entry);

/* f's layout without types: a descriptor flagged GTD_F_STRIPPED and
 * GTD_F_RESULTS_RAW whose values are unnamed raw words (docs/trace.md "Values and ABIs"). */
int gr_trace_argsinfo_layout(const struct gr_program *prog, const struct gr_func *f, int regabi,
                             struct gr_trace_layout *out, struct gr_error *err);

#endif
