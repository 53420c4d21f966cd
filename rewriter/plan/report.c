/* report.c: the per-function decision list and the per-reason summary. */
#include "rewriter/plan/report.h"

#include "rewriter/find/offsets_decide.h"

#include <string.h>

#define MAX_REASONS 32

struct reason_count {
    const char *reason;
    size_t count;
};

static void count_reason(struct reason_count *rc, size_t *n, const char *reason)
{
    for (size_t i = 0; i < *n; i++)
        if (strcmp(rc[i].reason, reason) == 0) {
            rc[i].count++;
            return;
        }
    if (*n < MAX_REASONS)
        rc[(*n)++] = (struct reason_count){reason, 1};
}

/* "signal fields: g.sig=0xd8 ... (from the table row, type descriptors)":
 * what the leaf fault path uses, and which sources stated it. */
static void print_sig_fields(FILE *out, const struct gr_runtime_offsets *rt)
{
    if (rt->have_sig)
        fprintf(out, "signal fields: g.sig=0x%x g.sigcode0=0x%x g.sigcode1=0x%x g.sigpc=0x%x (from",
                rt->g_sig, rt->g_sigcode0, rt->g_sigcode1, rt->g_sigpc);
    else
        fprintf(out, "signal fields: not used (no verified row, and not two sources in the "
                "binary; stated by");
    const char *sep = " ";
    for (int s = 0; s < GR_NSOURCES; s++)
        if ((rt->sig_sources >> s) & 1) {
            fprintf(out, "%s%s", sep, gr_offsets_source_name(s));
            sep = ", ";
        }
    fprintf(out, "%s)\n", rt->sig_sources ? "" : " none");
}

/* A fault at a non-nil address in relocated code gets its original PC and
 * frame in runtime.sigpanic's entry trampoline (gen/fault_pc.h): say so
 * when it has none. */
static void print_fault_fix(FILE *out, const struct gr_plan *plan)
{
    if (!plan->sig)
        return;
    for (size_t i = 0; i < plan->nfuncs; i++)
        if (plan->funcs[i].func->entry == plan->sigpanic_go && !plan->funcs[i].skip_reason)
            return;
    fprintf(out, "faults: runtime.sigpanic is not instrumented: a fault at a non-nil address in a "
            "relocated instruction loses its function's frame\n");
}

void gr_report_plan(FILE *out, const struct gr_plan *plan)
{
    struct reason_count reasons[MAX_REASONS], untimed[MAX_REASONS];
    size_t nreasons = 0, nuntimed = 0;
    for (size_t i = 0; i < plan->nfuncs; i++) {
        const struct gr_plan_func *pf = &plan->funcs[i];
        const struct gr_func *f = pf->func;
        if (pf->skip_reason == GR_SELECT_LEFT_OUT) {
            fprintf(out, "left out    %#10llx %s\n", (unsigned long long)f->entry, f->name);
        } else if (pf->skip_reason) {
            fprintf(out, "skip        %#10llx %s: %s\n", (unsigned long long)f->entry, f->name,
                    pf->skip_reason);
            count_reason(reasons, &nreasons, pf->skip_reason);
        } else if (pf->prologue.shape == GR_PROLOGUE_LEAF) {
            fprintf(out, "%s %#10llx %s (no stack check; %u entry bytes relocated; %zu returns)%s%s\n",
                    pf->untimed_reason ? "count      " : "count+time ",
                    (unsigned long long)f->entry, f->name, pf->prologue.len, pf->nreturns,
                    pf->untimed_reason ? ": untimed: " : "",
                    pf->untimed_reason ? pf->untimed_reason : "");
            if (pf->untimed_reason)
                count_reason(untimed, &nuntimed, pf->untimed_reason);
        } else {
            fprintf(out, "%s %#10llx %s (%s%s frame check%s; %zu returns)%s%s\n",
                    pf->untimed_reason ? "count      " : "count+time ",
                    (unsigned long long)f->entry, f->name,
                    gr_prologue_tls_name(&pf->prologue),
                    gr_prologue_shape_name(&pf->prologue),
                    pf->prologue.stackguard1 ? ", stackguard1" : "", pf->nreturns,
                    pf->untimed_reason ? ": untimed: " : "",
                    pf->untimed_reason ? pf->untimed_reason : "");
            if (pf->untimed_reason)
                count_reason(untimed, &nuntimed, pf->untimed_reason);
        }
    }
    fprintf(out, "row access: %s\n", plan->row_access);
    print_sig_fields(out, plan->rt);
    print_fault_fix(out, plan);
    fprintf(out, "call sites: %zu direct calls and jumps go straight to a trampoline "
            "(%zu functions not swept: bytes that do not decode)\n",
            plan->calls.n, plan->calls.funcs_unswept);
    fprintf(out, "summary: %zu instrumented (%zu timed, %zu untimed), %zu skipped",
            plan->ninstrumented, plan->ntimed, plan->ninstrumented - plan->ntimed,
            plan->nfuncs - plan->ninstrumented - plan->nleft_out);
    if (plan->nleft_out)
        fprintf(out, ", %zu left out by --only/--exclude", plan->nleft_out);
    fputc('\n', out);
    for (size_t i = 0; i < nreasons; i++)
        fprintf(out, "  skipped %6zu: %s\n", reasons[i].count, reasons[i].reason);
    for (size_t i = 0; i < nuntimed; i++)
        fprintf(out, "  untimed %6zu: %s\n", untimed[i].count, untimed[i].reason);
}
