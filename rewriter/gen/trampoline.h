/* trampoline.h: generating the code of the new RX segment (stage 4). */
#ifndef GR_TRAMPOLINE_H
#define GR_TRAMPOLINE_H

#include "rewriter/gen/codebuf.h"
#include "elf/elf_read.h"
#include "common/error.h"
#include "rewriter/gen/segments.h"
#include "rewriter/plan/plan.h"

/* Run-time addresses of the shared routines in the stub blob (stubs/timing.S). */
struct gr_stub_routines {
    uint64_t claim_row;
    uint64_t row_slow;        /* gs_row_slow: the slow path with the row at fs:[0] */
    uint64_t time_enter;
    uint64_t time_return;
    uint64_t sample_enter;
    uint64_t sched_off;     /* stubs/oncpu.S */
    uint64_t sched_on;
    uint64_t trace_enter, trace_return, trace_commit;  /* --trace (stubs/trace.S) */
    uint64_t site_create;     /* stubs/sites.S */
    uint64_t site_end;
    uint64_t tail_return;       /* stubs/tail_return.S */
    uint64_t exit;            /* stubs/exit.S: replaces runtime.exit */
    uint64_t exec_before;     /* stubs/exit.S: before syscall.runtime_BeforeExec */
    uint64_t exec_after;      /* and syscall.runtime_AfterExec */
    uint64_t signal_gate;     /* stubs/signal_gate.S: before runtime.sigtramp */
    uint64_t stack_moved;     /* stubs/timing.S: at runtime.copystack's entry */
};

struct gr_tramp_addrs {
    uint64_t *entry;   /* per plan function: its entry trampoline, or 0 */
    uint64_t *returns; /* per plan->returns item: its return trampoline */
    uint64_t exit_stub;/* where runtime.exit's entry jumps (plan->exit_hook): the gate to gs_exit */
    uint64_t signal_gate;/* where runtime.sigtramp's entry jumps (plan->signal_gate), or 0 */
};

/* Emits one entry trampoline per instrumented function and one return
 * trampoline per patched return into code (whose base is where they will
 * run), recording their addresses in out. */
int gr_trampolines_generate(const struct gr_elf *elf, const struct gr_plan *plan,
                            const struct gr_segment_plan *l, const struct gr_stub_routines *stubs,
                            struct gr_codebuf *code, struct gr_tramp_addrs *out,
                            struct gr_error *err);

#endif
