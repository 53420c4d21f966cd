/* sched_hooks.c: where a goroutine leaves its thread and where it runs
 * again (docs/timing.md "On-CPU time"). Every way off a thread in Go
 * 1.15-1.27 ends in one of the g0-side functions below, called by mcall
 * (gopark, Gosched, goyield, asyncPreempt2, exitsyscall's slow path) or
 * directly by newstack (a preemption at a stack check), each with the
 * goroutine as its first argument; every way back on is runtime.execute(gp)
 * (schedule, and startlockedm's M). Left out: goexit0 (the goroutine ends)
 * and coroswitch_m (iter.Pull, Go 1.22+), which hands the thread straight
 * to another goroutine without execute: a coroutine switch counts as on-CPU,
 * like a call. Read in proc.go, preempt.go and coro.go of each release.
 * A goroutine's stack moves only in copystack(gp, newsize) (stack.go: growth
 * from newstack, shrinking from shrinkstack), in every release. */
#include "rewriter/plan/sched_hooks.h"

#include <string.h>

enum gr_sched_hook gr_sched_hook_of(const struct gr_func *f)
{
    static const char *const off[] = {
        "runtime.park_m",       "runtime.gosched_m",   "runtime.goschedguarded_m",
        "runtime.gopreempt_m",  "runtime.preemptPark", "runtime.goyield_m",
        "runtime.exitsyscall0", "runtime.exitsyscallNoP",
    };
    if (!f->name)
        return GR_HOOK_NONE;
    if (strcmp(f->name, "runtime.execute") == 0)
        return GR_HOOK_ON;
    if (strcmp(f->name, "runtime.copystack") == 0)
        return GR_HOOK_STACK;
    for (size_t i = 0; i < sizeof off / sizeof off[0]; i++)
        if (strcmp(f->name, off[i]) == 0)
            return GR_HOOK_OFF;
    return GR_HOOK_NONE;
}
