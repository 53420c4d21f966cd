/* patches.c: see patches.h. */
#include "rewriter/gen/patches.h"

#include <stdlib.h>
#include <string.h>

#include "common/x86.h"
#include "rewriter/plan/signal_gate.h"

/* A jmp rel32 to the trampoline; the rest of the covered bytes int3. */
static void jmp_patch(struct gr_patch *pt, uint64_t addr, unsigned len, uint64_t target)
{
    pt->addr = addr;
    pt->len = (uint8_t)len;
    int32_t rel = (int32_t)(int64_t)(target - (addr + 5));
    pt->bytes[0] = GR_X86_JMP_REL32;
    memcpy(pt->bytes + 1, &rel, 4);
    memset(pt->bytes + GR_X86_JMP_REL32_LEN, GR_X86_INT3, len - GR_X86_JMP_REL32_LEN);
}

/* The site's call or jmp, its rel32 aimed at the callee's trampoline. */
static void call_site_patch(struct gr_patch *pt, const struct gr_call_site *cs, uint64_t target)
{
    pt->addr = cs->addr;
    pt->len = GR_X86_JMP_REL32_LEN;
    pt->kind = GR_PATCH_CALL_SITE;
    int32_t rel = (int32_t)(int64_t)(target - (cs->addr + 5));
    pt->bytes[0] = cs->opcode;
    memcpy(pt->bytes + 1, &rel, 4);
}

struct gr_patch *gr_patches_build(const struct gr_plan *plan, const struct gr_tramp_addrs *t,
                                  size_t *npatches)
{
    struct gr_patch *p = calloc(plan->ninstrumented + plan->returns.n + plan->calls.n + 3, sizeof *p);
    size_t n = 0;
    for (size_t i = 0; p && i < plan->nfuncs; i++) {
        const struct gr_plan_func *pf = &plan->funcs[i];
        if (!pf->skip_reason)
            jmp_patch(&p[n++], pf->func->entry, pf->prologue.len, t->entry[i]);
    }
    for (size_t k = 0; p && k < plan->returns.n; k++) {
        const struct gr_return *e = &plan->returns.items[k];
        jmp_patch(&p[n++], e->addr, e->len, t->returns[k]);
    }
    for (size_t k = 0; p && k < plan->calls.n; k++)
        call_site_patch(&p[n++], &plan->calls.items[k], t->entry[plan->calls.items[k].callee]);
    if (p && plan->exit_hook && t->exit_stub)   /* runtime.exit: never returns, covers its first 5 bytes */
        jmp_patch(&p[n++], plan->exit_hook, GR_X86_JMP_REL32_LEN, t->exit_stub);
    if (p && plan->signal_gate && t->signal_gate)
        jmp_patch(&p[n++], plan->signal_gate, GR_SIGTRAMP_COVERED, t->signal_gate);
    *npatches = n;
    return p;
}
