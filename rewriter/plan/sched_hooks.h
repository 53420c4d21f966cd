/* exported by rewriter/plan */
/* sched_hooks.h: the runtime functions whose entry tells the stubs that
 * the scheduler takes a goroutine off its thread or runs it again, for
 * on-CPU time, or that a goroutine's stack moves, for the timing marker
 * (part of stage 3, patch planning). */
#ifndef GR_SCHED_HOOKS_H
#define GR_SCHED_HOOKS_H

#include "rewriter/find/program.h"

enum gr_sched_hook {
    GR_HOOK_NONE,
    GR_HOOK_OFF,    /* its first argument, a goroutine, leaves its thread */
    GR_HOOK_ON,     /* its first argument, a goroutine, runs again */
    GR_HOOK_STACK,  /* its first argument, a goroutine, gets a new stack */
};

enum gr_sched_hook gr_sched_hook_of(const struct gr_func *f);

#endif
