/* exported by rewriter/plan */
/* sched_hooks.h: the runtime functions whose entry tells the stubs that
 * the scheduler takes a goroutine off its thread or runs it again, for
 * on-CPU time, or that a goroutine's stack moves, for the timing marker
 * (part of stage 3, patch planning). The hand-offs are found in the
 * program's code, or on-CPU time is refused with the reason. */
#ifndef GR_SCHED_HOOKS_H
#define GR_SCHED_HOOKS_H

#include <stddef.h>
#include <stdint.h>

#include "elf/elf_read.h"
#include "rewriter/find/program.h"

enum gr_sched_hook {
    GR_HOOK_NONE,
    GR_HOOK_OFF,    /* its first argument, a goroutine, leaves its thread */
    GR_HOOK_ON,     /* its first argument, a goroutine, runs again */
    GR_HOOK_STACK,  /* its first argument, a goroutine, gets a new stack */
};

#define GR_SCHED_REASON_MAX 200

/* The hooks of one program. */
struct gr_sched_hooks {
    uint8_t *hook;          /* enum gr_sched_hook per program function, same order */
    char refused[GR_SCHED_REASON_MAX]; /* non-empty: on-CPU time is off, and why */
};

/* Whether f may be hooked (a hand-off or copystack, by name): such
 * functions stay instrumented whatever --only and --exclude say. */
int gr_sched_hook_candidate(const struct gr_func *f);

/* Decides every function's hook from the program's code. Returns -1 when
 * out of memory only; a program whose hand-offs cannot all be hooked gets
 * no on/off hooks and a reason in refused. */
int gr_sched_hooks_find(const struct gr_elf *elf, const struct gr_program *prog,
                        struct gr_sched_hooks *h);

/* On-CPU time off for the reason given (the first one is kept); the
 * on/off hooks are dropped, copystack's stays. */
void gr_sched_hooks_refuse(struct gr_sched_hooks *h, size_t nfuncs, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

void gr_sched_hooks_free(struct gr_sched_hooks *h);

#endif
