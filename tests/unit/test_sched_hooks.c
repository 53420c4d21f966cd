/* test_sched_hooks.c: rewriter/plan/sched_hooks.c, which functions are
 * hooked as the scheduler's hand-offs, found by their calls of
 * runtime.schedule, and when on-CPU time is refused instead.
 *
 * The text is one 16-byte slot per function: a direct call (e8) or jump
 * (e9) of runtime.schedule, of another function, or a ret, then int3
 * padding. The shapes are those of Go 1.26 (gopreempt_m gone, its
 * preemption in goschedImpl, which newstack and asyncPreempt2.func1 call),
 * and derived ones where a hand-off is inlined away from a function that
 * takes a goroutine. */
#include "rewriter/plan/sched_hooks.h"
#include "tests/unit/unit.h"

#include <elf.h>
#include <string.h>

#define TEXT 0x401000u
#define SLOT 16u
#define MAXF 10

enum what { RET, CALL, JMP };

struct fixture {
    uint8_t text[MAXF * SLOT];
    struct gr_segment seg;
    struct gr_elf elf;
    struct gr_func funcs[MAXF];
    struct gr_program prog;
    struct gr_sched_hooks hooks;
};

/* Function i named name: RET, or CALL/JMP to function target. */
static void put(struct fixture *x, size_t i, const char *name, enum what w, size_t target)
{
    uint8_t *p = x->text + i * SLOT;
    memset(p, 0xcc, SLOT);
    p[0] = 0xc3;
    if (w != RET) {
        int32_t rel = (int32_t)(target * SLOT) - (int32_t)(i * SLOT + 5);
        p[0] = w == CALL ? 0xe8 : 0xe9;
        memcpy(p + 1, &rel, 4);
        p[5] = 0xc3;
    }
    x->funcs[i] = (struct gr_func){.entry = TEXT + i * SLOT, .end = TEXT + (i + 1) * SLOT, .name = name};
    if (i + 1 > x->prog.nfuncs)
        x->prog.nfuncs = i + 1;
}

enum { SCHEDULE, EXECUTE, COPYSTACK, GOSCHEDIMPL, GOSCHED_M, PARK_M, MSTART1, NEWSTACK, ASYNC_FUNC1 };

/* Go 1.26's shape: the hand-offs call schedule, gosched_m and the
 * preemption paths call goschedImpl. */
static void setup(struct fixture *x)
{
    memset(x, 0, sizeof *x);
    x->seg = (struct gr_segment){.type = PT_LOAD, .flags = PF_R | PF_X, .vaddr = TEXT,
                                 .filesz = sizeof x->text, .memsz = sizeof x->text, .align = 16};
    x->elf = (struct gr_elf){.path = "fake", .data = x->text, .size = sizeof x->text, .fd = -1,
                             .segments = &x->seg, .nsegments = 1};
    put(x, SCHEDULE, "runtime.schedule", CALL, SCHEDULE);
    put(x, EXECUTE, "runtime.execute", RET, 0);
    put(x, COPYSTACK, "runtime.copystack", RET, 0);
    put(x, GOSCHEDIMPL, "runtime.goschedImpl", CALL, SCHEDULE);
    put(x, GOSCHED_M, "runtime.gosched_m", JMP, GOSCHEDIMPL);
    put(x, PARK_M, "runtime.park_m", JMP, SCHEDULE);
    put(x, MSTART1, "runtime.mstart1", CALL, SCHEDULE);
    put(x, NEWSTACK, "runtime.newstack", CALL, GOSCHEDIMPL);
    put(x, ASYNC_FUNC1, "runtime.asyncPreempt2.func1", CALL, GOSCHEDIMPL);
    x->prog.funcs = x->funcs;
    x->prog.elf = &x->elf;
}

static void find(struct fixture *x)
{
    CHECK_INT(gr_sched_hooks_find(&x->elf, &x->prog, &x->hooks), 0);
}

/* The functions that call schedule and take a goroutine are hooked, not
 * the wrappers and callers of goschedImpl; schedule and mstart1 hand
 * nothing off. */
static void go126_shape(void)
{
    struct fixture x;
    setup(&x);
    find(&x);
    CHECK_STR(x.hooks.refused, "");
    static const uint8_t want[] = {GR_HOOK_NONE, GR_HOOK_ON, GR_HOOK_STACK, GR_HOOK_OFF, GR_HOOK_NONE,
                                   GR_HOOK_OFF, GR_HOOK_NONE, GR_HOOK_NONE, GR_HOOK_NONE};
    for (size_t i = 0; i < sizeof want; i++)
        if (!CHECK_INT(x.hooks.hook[i], want[i]))
            unit_fail(__FILE__, __LINE__, "function %s", x.funcs[i].name);
    gr_sched_hooks_free(&x.hooks);
}

/* goschedImpl inlined into newstack, whose argument is no goroutine:
 * refused with newstack's name, only copystack's hook kept. */
static void inlined_into_newstack(void)
{
    struct fixture x;
    setup(&x);
    put(&x, NEWSTACK, "runtime.newstack", CALL, SCHEDULE);
    find(&x);
    CHECK_STR(x.hooks.refused, "runtime.newstack calls runtime.schedule and is no hand-off known to "
                               "take its goroutine as first argument");
    for (size_t i = 0; i < x.prog.nfuncs; i++)
        CHECK_INT(x.hooks.hook[i], i == COPYSTACK ? GR_HOOK_STACK : GR_HOOK_NONE);
    gr_sched_hooks_free(&x.hooks);
}

/* goschedImpl inlined into its wrappers, which take the goroutine: they
 * are hooked instead. */
static void inlined_into_wrappers(void)
{
    struct fixture x;
    setup(&x);
    put(&x, GOSCHEDIMPL, "runtime.gopreempt_m", CALL, SCHEDULE);
    put(&x, GOSCHED_M, "runtime.gosched_m", JMP, SCHEDULE);
    put(&x, NEWSTACK, "runtime.newstack", CALL, GOSCHEDIMPL);
    find(&x);
    CHECK_STR(x.hooks.refused, "");
    CHECK_INT(x.hooks.hook[GOSCHEDIMPL], GR_HOOK_OFF);
    CHECK_INT(x.hooks.hook[GOSCHED_M], GR_HOOK_OFF);
    CHECK_INT(x.hooks.hook[NEWSTACK], GR_HOOK_NONE);
    gr_sched_hooks_free(&x.hooks);
}

/* No execute: nothing tells when a goroutine runs again. */
static void no_execute(void)
{
    struct fixture x;
    setup(&x);
    put(&x, EXECUTE, "runtime.execute2", RET, 0);
    find(&x);
    CHECK_STR(x.hooks.refused, "runtime.execute not found");
    CHECK_INT(x.hooks.hook[PARK_M], GR_HOOK_NONE);
    CHECK_INT(x.hooks.hook[COPYSTACK], GR_HOOK_STACK);
    gr_sched_hooks_free(&x.hooks);
}

/* A runtime function whose bytes do not decode (0x06 is invalid in
 * 64-bit mode) may hide a hand-off: refused. */
static void undecodable(void)
{
    struct fixture x;
    setup(&x);
    x.text[COPYSTACK * SLOT + 1] = 0x06;
    find(&x);
    CHECK_STR(x.hooks.refused, "runtime.copystack does not decode, so where it hands goroutines to the "
                               "scheduler is unknown");
    gr_sched_hooks_free(&x.hooks);
}

/* A later refusal (plan.c: a hand-off without a check) keeps the first
 * reason and drops the on/off hooks. */
static void refuse_keeps_first(void)
{
    struct fixture x;
    setup(&x);
    find(&x);
    gr_sched_hooks_refuse(&x.hooks, x.prog.nfuncs, "first %d", 1);
    gr_sched_hooks_refuse(&x.hooks, x.prog.nfuncs, "second");
    CHECK_STR(x.hooks.refused, "first 1");
    CHECK_INT(x.hooks.hook[EXECUTE], GR_HOOK_NONE);
    CHECK_INT(x.hooks.hook[GOSCHEDIMPL], GR_HOOK_NONE);
    CHECK_INT(x.hooks.hook[COPYSTACK], GR_HOOK_STACK);
    gr_sched_hooks_free(&x.hooks);
}

UNIT_CASES("sched_hooks", UNIT_CASE(go126_shape), UNIT_CASE(inlined_into_newstack),
           UNIT_CASE(inlined_into_wrappers), UNIT_CASE(no_execute), UNIT_CASE(undecodable),
           UNIT_CASE(refuse_keeps_first));
