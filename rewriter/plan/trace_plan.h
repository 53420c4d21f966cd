/* exported by rewriter/plan */
/* trace_plan.h: which functions gorewrite --trace traces, the layout of
 * each one's arguments and results (rewriter/find/trace_layout.h), and
 * where each captured value lies in its events (format/trace_format.h). */
#ifndef GR_TRACE_PLAN_H
#define GR_TRACE_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "rewriter/find/trace_layout.h"
#include "rewriter/plan/plan.h"

struct gr_trace_func {
    size_t plan_index;          /* into gr_plan.funcs */
    struct gr_trace_layout layout;
    int raw;                    /* no layout known: raw words, no descriptor */
    uint32_t entry_off, return_off, used;  /* in an event */
};

struct gr_trace_plan {
    struct gr_trace_func *funcs;
    size_t n;
    uint32_t event_size;        /* every function's events fit; a multiple of
                                   the timing entry's size (stub_abi.h GS_CFG_TRACE_M) */
    uint32_t bytes_max;         /* --trace-bytes */
    uint64_t slower_ns;         /* --trace-slower-than */
    uint64_t ring_size;         /* --trace-buffer */
};

/* Marks the timed functions of plan whose names match one of the
 * patterns as traced (gr_plan_func.trace) and fills tp. */
int gr_trace_plan_build(const struct gr_program *prog, struct gr_plan *plan, const char *const *patterns,
                        size_t npatterns, uint32_t bytes_max, struct gr_trace_plan *tp,
                        struct gr_error *err);
void gr_trace_plan_free(struct gr_trace_plan *tp);

#endif
