/* trace_capture.h: the code a traced function's trampolines run to store
 * its arguments (at entry) and results (at each return) into the pending
 * record that stubs/trace.S hands them in R12. */
#ifndef GR_TRACE_CAPTURE_H
#define GR_TRACE_CAPTURE_H

#include <stdint.h>

#include "common/error.h"
#include "rewriter/gen/codebuf.h"
#include "rewriter/plan/trace_plan.h"

/* The entry: r12 = record | traced | function << 32, r13 = the capture
 * below, jmp trace_enter; the capture (skipped when R12 is 0) then jumps
 * to back. */
int gr_trace_emit_entry(struct gr_codebuf *c, const struct gr_trace_plan *tp, uint32_t trace,
                        uint32_t record, uint64_t trace_enter, uint64_t back, struct gr_error *err);

/* A return (RSP at the return address, R14 = g): r12d = record | traced,
 * r13 = the capture, jmp trace_return; the capture ends in trace_commit. */
int gr_trace_emit_return(struct gr_codebuf *c, const struct gr_trace_plan *tp, uint32_t trace,
                       uint32_t record, uint64_t trace_return, uint64_t trace_commit,
                       struct gr_error *err);

#endif
