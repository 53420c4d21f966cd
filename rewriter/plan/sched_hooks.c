/* sched_hooks.c: where a goroutine leaves its thread and where it runs
 * again (docs/timing.md "On-CPU time"), found by what the runtime does.
 * A goroutine leaves its thread when a g0 function drops it and calls
 * runtime.schedule to run another: in Go 1.15-1.27 those are park_m
 * (gopark), goschedImpl (Gosched and every preemption to the run queue:
 * gosched_m, goschedguarded_m and gopreempt_m only call it, and gopreempt_m
 * is inlined into newstack from 1.22 and into asyncPreempt2's closure from
 * 1.26), preemptPark, goyield_m and exitsyscall0 (exitsyscallNoP from
 * 1.26), each with the goroutine as its first argument. The others that
 * call schedule hand nothing off: schedule itself, mstart1 (a new thread)
 * and goexit0 (the goroutine ended). So every function of the program that
 * calls or jumps to schedule is hooked when it is one of the known
 * hand-offs, and one that is not (a hand-off inlined into a function whose
 * argument is no goroutine, or a new one) turns on-CPU time off with its
 * name. Every way back on is runtime.execute(gp), too large to inline.
 * Left out: coroswitch_m (iter.Pull, 1.22+) hands the thread straight to
 * another goroutine without execute or schedule: a coroutine switch counts
 * as on-CPU, like a call. Read in proc.go, preempt.go, stack.go and coro.go
 * of each release. A goroutine's stack moves only in copystack(gp,
 * newsize) (stack.go: growth from newstack, shrinking from shrinkstack). */
#include "rewriter/plan/sched_hooks.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <Zydis/Zydis.h>

#include "common/x86.h"
#include "rewriter/find/insn_quick.h"

#define CALL_REL32 0xe8

static const char *const handoffs[] = {
    "runtime.park_m",    "runtime.goschedImpl", "runtime.gosched_m",    "runtime.goschedguarded_m",
    "runtime.gopreempt_m", "runtime.preemptPark", "runtime.goyield_m",  "runtime.exitsyscall0",
    "runtime.exitsyscallNoP",
};
static const char *const not_handoffs[] = {"runtime.schedule", "runtime.mstart1", "runtime.goexit0"};

static int named(const char *name, const char *const *list, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(name, list[i]) == 0)
            return 1;
    return 0;
}

#define NAMED(name, list) named(name, list, sizeof list / sizeof list[0])

int gr_sched_hook_candidate(const struct gr_func *f)
{
    return f->name && (NAMED(f->name, handoffs) || strcmp(f->name, "runtime.execute") == 0 ||
                       strcmp(f->name, "runtime.copystack") == 0);
}

void gr_sched_hooks_refuse(struct gr_sched_hooks *h, size_t nfuncs, const char *fmt, ...)
{
    if (!h->refused[0]) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(h->refused, sizeof h->refused, fmt, ap);
        va_end(ap);
    }
    for (size_t i = 0; h->hook && i < nfuncs; i++)
        if (h->hook[i] != GR_HOOK_STACK)
            h->hook[i] = GR_HOOK_NONE;
}

/* 1 when f's code calls or jumps to target directly, 0 when not, -1 when
 * its bytes do not decode. */
static int reaches(const ZydisDecoder *zy, const struct gr_elf *elf, const struct gr_func *f,
                   uint64_t target)
{
    size_t size = f->end > f->entry && f->end - f->entry <= (1u << 24) ? f->end - f->entry : 0;
    const uint8_t *code = size ? gr_elf_bytes_at(elf, f->entry, size) : NULL;
    if (!code)
        return -1;
    for (size_t off = 0; off < size;) {
        ZydisDecodedInstruction in;
        if (code[off] == GR_X86_INT3) {
            off++;
            continue;
        }
        if (!ZYAN_SUCCESS(gr_insn_quick(zy, code + off, size - off, &in)))
            return -1;
        if (in.length == 5 && (code[off] == CALL_REL32 || code[off] == GR_X86_JMP_REL32)) {
            int32_t rel;
            memcpy(&rel, code + off + 1, sizeof rel);
            if (f->entry + off + 5 + (uint64_t)(int64_t)rel == target)
                return 1;
        }
        off += in.length;
    }
    return 0;
}

/* Each runtime function that calls schedule: hooked, allowed, or the
 * reason on-CPU time is off. */
static void find_offs(const struct gr_elf *elf, const struct gr_program *prog, uint64_t schedule,
                      struct gr_sched_hooks *h)
{
    ZydisDecoder zy;
    ZydisDecoderInit(&zy, ZYDIS_MACHINE_MODE_LONG_64, ZYDIS_STACK_WIDTH_64);
    ZydisDecoderEnableMode(&zy, ZYDIS_DECODER_MODE_MINIMAL, ZYAN_TRUE);
    size_t noff = 0;
    for (size_t i = 0; i < prog->nfuncs && !h->refused[0]; i++) {
        const struct gr_func *f = &prog->funcs[i];
        if (!f->name || strncmp(f->name, "runtime.", 8) != 0 || f->end == f->entry)
            continue;
        int r = reaches(&zy, elf, f, schedule);
        if (r < 0)
            gr_sched_hooks_refuse(h, prog->nfuncs, "%s does not decode, so where it hands goroutines to "
                                  "the scheduler is unknown", f->name);
        else if (r && NAMED(f->name, handoffs)) {
            h->hook[i] = GR_HOOK_OFF;
            noff++;
        } else if (r && !NAMED(f->name, not_handoffs))
            gr_sched_hooks_refuse(h, prog->nfuncs, "%s calls runtime.schedule and is no hand-off known "
                                  "to take its goroutine as first argument", f->name);
    }
    if (!noff)
        gr_sched_hooks_refuse(h, prog->nfuncs, "no function hands a goroutine to runtime.schedule");
}

int gr_sched_hooks_find(const struct gr_elf *elf, const struct gr_program *prog,
                        struct gr_sched_hooks *h)
{
    memset(h, 0, sizeof *h);
    h->hook = calloc(prog->nfuncs ? prog->nfuncs : 1, 1);
    if (!h->hook)
        return -1;
    uint64_t schedule = 0;
    int have_execute = 0;
    for (size_t i = 0; i < prog->nfuncs; i++) {
        const struct gr_func *f = &prog->funcs[i];
        if (!f->name)
            continue;
        if (strcmp(f->name, "runtime.copystack") == 0)
            h->hook[i] = GR_HOOK_STACK;
        else if (strcmp(f->name, "runtime.execute") == 0) {
            h->hook[i] = GR_HOOK_ON;
            have_execute = 1;
        } else if (strcmp(f->name, "runtime.schedule") == 0)
            schedule = f->entry;
    }
    if (!schedule)
        gr_sched_hooks_refuse(h, prog->nfuncs, "runtime.schedule not found");
    else if (!have_execute)
        gr_sched_hooks_refuse(h, prog->nfuncs, "runtime.execute not found");
    else
        find_offs(elf, prog, schedule, h);
    return 0;
}

void gr_sched_hooks_free(struct gr_sched_hooks *h)
{
    free(h->hook);
    memset(h, 0, sizeof *h);
}
