/* exported by rewriter/plan */
/* plan.h: the patch plan (stage 3): for every function, instrument it or
 * skip it with a reason. Deciding is kept apart from writing, as in
 * E9Patch: nothing here touches output bytes. */
#ifndef GR_PLAN_H
#define GR_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "elf/elf_read.h"
#include "common/error.h"
#include "rewriter/plan/returns.h"
#include "rewriter/plan/copy_select.h"
#include "rewriter/find/program.h"
#include "rewriter/find/runtime_offsets.h"
#include "rewriter/find/go_sigpanic.h"
#include "format/gostat_format.h"
#include "format/timing_mode.h"
#include "rewriter/plan/goroutine_sites.h"
#include "rewriter/plan/leaf.h"
#include "rewriter/plan/prologue.h"
#include "rewriter/plan/select.h"
#include "rewriter/plan/sched_hooks.h"

struct gr_plan_func {
    const struct gr_func *func;
    const char *skip_reason;   /* NULL: instrumented */
    struct gr_prologue prologue; /* its summary; insns is NULL */
    uint32_t counter;          /* index into the counter rows */
    uint32_t timing;           /* index of its timing record, or GR_UNTIMED */
    const char *untimed_reason;/* instrumented but not timed: why */
    size_t first_return, nreturns; /* its returns, in gr_plan.returns (timed, or
                                  newproc1's for goroutine sites) */
    int site_role;             /* enum gr_site_role (goroutine_sites.h) */
    uint8_t sched_hook;        /* enum gr_sched_hook (sched_hooks.h) */
    int tail_calls;            /* it ends in a jump to another function (timed:
                                  its return runs before the jump) */
    int traced;                /* --trace: index trace in gr_plan.trace (trace_plan.h) */
    uint32_t trace;
};

#define GR_UNTIMED GS_UNTIMED  /* the stats file's own marker */

/* A direct call or jmp retargeted at its callee's trampoline (call_sites.h). */
struct gr_call_site {
    uint64_t addr;          /* of the 5-byte call or jmp */
    uint32_t callee;        /* index into gr_plan.funcs: an instrumented function */
    uint8_t opcode;         /* 0xe8 call, 0xe9 jmp: kept */
};

struct gr_call_sites {
    struct gr_call_site *items;  /* sorted by addr */
    size_t n, cap;
    size_t funcs_unswept;   /* functions with bytes that do not decode: their calls stay */
};

struct gr_plan {
    const struct gr_runtime_offsets *rt; /* the program's runtime offsets */
    struct gr_plan_func *funcs; /* one per program function, same order */
    size_t nfuncs;
    size_t ninstrumented;
    size_t ntimed;
    size_t nleft_out;           /* skipped as GR_SELECT_LEFT_OUT (--only, --exclude) */
    int paths;                  /* timing with call paths (GS_MODE_CALL_GRAPH) */
    struct gr_return_list returns;  /* every timed function's returns */
    int sites;                  /* goroutines are kept by creation site: the
                                   g offsets are known, newproc1's returns and
                                   goexit1's entry are hooked */
    struct gr_go_stmts go_stmts;  /* sites: every go statement's gopc and line */
    /* The program's own load of g from TLS (the entry of a function that
     * starts with one, and its instruction count): entry trampolines of
     * functions without a stack check replay it to find g, since they may
     * run where R14 is not g. tls_ninsns 0: none found. */
    uint64_t tls_entry;
    unsigned tls_ninsns;
    /* The trampolines read the thread's row as fs:[0] instead of through
     * g.m: without runtime/cgo the runtime itself points FS at &m.tls[1]
     * on every thread (rt0_go's settls, and clone for each new m), and
     * there are no threads Go did not make. row_access says which and why
     * (gorewrite -v). */
    int row_from_fs;
    const char *row_access;
    /* Where a nil dereference in a relocated instruction goes, as the
     * runtime's signal handler would send it (go_sigpanic.h); sig NULL:
     * possibly-faulting entries are not relocated. */
    const struct gr_go_sigfields *sig;
    struct gr_go_sigfields sig_fields;  /* sig points here: the program's offsets */
    uint64_t sigpanic;
    /* runtime.sigpanic (the Go function in every release): its entry
     * trampoline gives a fault in a relocated instruction its original PC
     * and frame (docs/architecture.md "Faults in relocated instructions");
     * always instrumented when sig is set. 0: none. */
    uint64_t sigpanic_go;
    /* Direct calls and jumps retargeted at their callee's trampoline
     * (call_sites.h); empty with --keep-call-sites. */
    struct gr_call_sites calls;
    /* On-CPU time (sched_hooks.h): the hand-offs hooked, off and on; kept
     * only when both are and nothing refused it (gr_plan_oncpu). */
    size_t hooks_off, hooks_on;
    char oncpu_refused[GR_SCHED_REASON_MAX]; /* non-empty: why on-CPU time is off */
    /* runtime.copystack hooked (the timing marker, stubs/timing.S
     * gs_stack_moved): needed when any function is timed */
    size_t hooks_stack;
    /* runtime.exit's entry, replaced by a jmp to the stubs' gs_exit
     * (exit_hook.h); 0: not found, the stats file is not finished at exit */
    uint64_t exit_hook;
    /* runtime.sigtramp's entry, preceded by the stubs' gs_signal_gate
     * (signal_gate.h); 0: not found, a stats file cut short kills the
     * program */
    uint64_t signal_gate;
    /* syscall.runtime_BeforeExec and AfterExec (plan function indices),
     * their entries preceded by the stubs' gs_exec_before and
     * gs_exec_after (exit_hook.h); SIZE_MAX, both: not hooked (no exit
     * hook, a function missing or left out) */
    size_t exec_before, exec_after;
    /* --trace: the traced functions (trace_plan.h), set by rewrite.c */
    const struct gr_trace_plan *trace;
    /* --engine copy: the functions in the copy engine's module, set by
     * rewrite.c (NULL: none) */
    const struct gr_copy_set *copy;
};

/* The skip reason of a function the copy engine took. */
extern const char GR_PLAN_COPIED[];

/* Whether the plan hooks the scheduler's hand-offs both ways. */
int gr_plan_oncpu(const struct gr_plan *plan);

/* mode: what is timed (format/timing_mode.h): nothing, calls, or calls
 * with their paths (GS_MODE_CALL_GRAPH, whose return routine has no
 * tail-call form); keep_call_sites: leave calls empty
 * (--keep-call-sites); select: the functions to instrument at all
 * (select.h), NULL: every one. */
int gr_plan_build(const struct gr_elf *elf, const struct gr_program *prog, enum gs_mode mode,
                  int keep_call_sites, const struct gr_select *select, struct gr_plan *plan,
                  struct gr_error *err);
void gr_plan_free(struct gr_plan *plan);

#endif
