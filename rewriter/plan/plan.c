/* plan.c: decides which functions get an entry patch, and which of those
 * also get their returns patched to be timed. A function is instrumented
 * when its first bytes are exactly a stack-bound check we know, or, without
 * a check, when its first 5 bytes can be relocated (leaf.c) and the
 * program has a TLS load of g to copy; in executable text, the covered
 * instructions (which the 5-byte jmp and int3 filler replace) lie wholly
 * inside the function, and no branch lands inside them. A function with a
 * check is timed when every return can be patched (returns.c) and it can
 * return at all (goroutine_end.c); so is one without, outside the runtime
 * (leaf_timing.c). Before all this, the user's selection (--only,
 * --exclude: select.c) may leave a function out. */
#include "rewriter/plan/plan.h"

#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rewriter/plan/asm_callers.h"
#include "rewriter/plan/call_sites.h"
#include "rewriter/find/go_version.h"
#include "rewriter/plan/goroutine_end.h"
#include "rewriter/plan/sched_hooks.h"
#include "rewriter/plan/exit_hook.h"
#include "rewriter/plan/signal_gate.h"
#include "rewriter/plan/goroutine_sites.h"
#include "rewriter/plan/leaf_timing.h"
#include "common/x86.h"


static int in_exec_segment(const struct gr_elf *elf, uint64_t start, uint64_t end)
{
    for (size_t i = 0; i < elf->nsegments; i++) {
        const struct gr_segment *s = &elf->segments[i];
        if (s->type == PT_LOAD && (s->flags & PF_X) && start >= s->vaddr &&
            end <= s->vaddr + s->filesz)
            return 1;
    }
    return 0;
}

static const char NO_TLS[] =
    "no stack check, and no load of g from TLS in the program to copy";

/* A function without a check: its first instructions, relocated. */
static const char *decide_leaf(const struct gr_func *f, const uint8_t *code, int have_tls,
                               const struct gr_leaf_opts *opts, struct gr_insn *scratch,
                               struct gr_prologue *pro)
{
    const char *reason = gr_leaf_match(f, code, f->end - f->entry, opts, scratch, pro);
    if (!reason && !have_tls)
        reason = NO_TLS;
    return reason;
}

static const char ASM_CALLED[] =
    "no stack check: assembly called or jumped to by assembly that uses R12 or R13 (and may "
    "keep them across the call)";

static const char *decide(const struct gr_elf *elf, const struct gr_plan *plan,
                          const struct gr_asm_targets *asm_targets, const struct gr_func *f,
                          struct gr_insn *scratch, struct gr_prologue *pro)
{
    int stack_abi = gr_go_stack_abi(plan->rt->minor);
    if (f->end == f->entry)
        return "alias of the next function (same entry)";
    if (strncmp(f->name, "_Z", 2) == 0 || strncmp(f->name, "__", 2) == 0)
        return "C or C++ code listed in pclntab (ThreadSanitizer in -race builds)";
    if (!in_exec_segment(elf, f->entry, f->end))
        return "not inside executable text";
    const uint8_t *code = gr_elf_bytes_at(elf, f->entry, f->end - f->entry);
    if (!code)
        return "bytes not in the file";
    const char *reason = gr_prologue_match(code, f->end - f->entry, f->entry, scratch, pro);
    if (reason) {
        struct gr_leaf_opts opts = {.allow_guard = plan->sig != NULL, .register_abi = !stack_abi};
        reason = decide_leaf(f, code, plan->tls_ninsns > 0, &opts, scratch, pro);
        if (!reason && gr_asm_targets_has(asm_targets, f->entry) && f->file &&
            strlen(f->file) >= 2 && strcmp(f->file + strlen(f->file) - 2, ".s") == 0)
            reason = ASM_CALLED;
        return reason;
    }
    if (stack_abi && pro->g_reg != ZYDIS_REGISTER_RCX)
        return "register-ABI check in a Go <= 1.16 program (R14 is not g there)";
    if (!stack_abi && pro->g_reg != ZYDIS_REGISTER_R14)
        return "stack-ABI check (g in RCX) in a Go >= 1.17 program";
    if (pro->len < GR_X86_JMP_REL32_LEN)
        return "stack check shorter than a jmp";
    return NULL;
}

static const char TAIL_PATHS[] =
    "a jump to another function (tail call), with --call-graph (whose exit has no tail-call form)";
static const char TAIL_ASM[] = "a jump to another function (tail call) in assembly (its frame may be live)";

/* Whether a jmp to another function may be a return: the compiler pops the
 * frame before a tail call (RSP is at the return address, as at a ret);
 * hand-written assembly need not. */
static void allow_tail(struct gr_return_scan *scan, const struct gr_func *f, int paths)
{
    size_t n = f->file ? strlen(f->file) : 0;
    int assembly = n >= 2 && strcmp(f->file + n - 2, ".s") == 0;
    scan->allow_tail = !paths && !assembly;
    scan->compiled = !assembly;
    scan->tail_refused = paths ? TAIL_PATHS : assembly ? TAIL_ASM : NULL;
}

/* A leaf whose first return is too near its entry for a return patch of its own
 * (GR_RETURN_SHORT: its bytes run into the entry's covered ones) gets an
 * entry that covers through that return, which the entry trampoline then
 * times (trampoline.c), when every instruction up to it can run from there
 * and no branch lands inside. *body is the scan with the wider entry when
 * that times the function. */
#define NEAR_RETURN_MAX 32      /* bytes from the entry */
static int cover_near_return(const struct gr_elf *elf, struct gr_return_scan *scan, struct gr_plan *plan,
                             struct gr_plan_func *pf, const uint8_t *code, struct gr_body *body)
{
    const struct gr_func *f = pf->func;
    if (pf->prologue.shape != GR_PROLOGUE_LEAF || body->untimed_reason != GR_RETURN_SHORT ||
        body->short_end > NEAR_RETURN_MAX)
        return 0;
    struct gr_leaf_opts opts = {.allow_guard = plan->sig != NULL, .register_abi = !gr_go_stack_abi(plan->rt->minor),
                                .cover_to = body->short_end};
    struct gr_insn scratch[GR_PROLOGUE_MAX_INSNS];
    struct gr_prologue pro;
    if (gr_leaf_match(f, code, f->end - f->entry, &opts, scratch, &pro) || !pro.ends_flow ||
        pro.len < body->short_end)
        return 0;
    struct gr_body wider;
    if (gr_returns_scan(scan, elf, code, f->end - f->entry, f->entry, pro.len, &plan->returns, &wider) < 0)
        return -1;
    if (wider.covered_targeted || wider.untimed_reason)
        return 0;                       /* the scan added no returns */
    pro.insns = NULL;
    pf->prologue = pro;
    *body = wider;
    return 0;
}

/* Scans the body of an instrumented function: a branch into its check
 * makes it skipped; returns that cannot all be patched make it untimed. */
static int plan_body(const struct gr_elf *elf, struct gr_return_scan *scan, const char *no_timing,
                     const struct gr_asm_targets *asm_targets, struct gr_plan *plan,
                     struct gr_plan_func *pf)
{
    const struct gr_func *f = pf->func;
    allow_tail(scan, f, plan->paths);
    const uint8_t *code = gr_elf_bytes_at(elf, f->entry, f->end - f->entry);
    struct gr_body body;
    if (gr_returns_scan(scan, elf, code, f->end - f->entry, f->entry, pf->prologue.len,
                      &plan->returns, &body) < 0)
        return -1;
    struct gr_prologue narrow = pf->prologue;
    if (!no_timing && cover_near_return(elf, scan, plan, pf, code, &body) < 0)
        return -1;
    pf->timing = GR_UNTIMED;
    pf->tail_calls = body.tail_calls;
    int leaf = pf->prologue.shape == GR_PROLOGUE_LEAF;
    if (body.covered_targeted)
        pf->skip_reason = leaf ? "no stack check: a branch lands inside the first 5 bytes"
                               : "a branch lands inside the stack check";
    else if (leaf && body.entry_targeted)
        pf->skip_reason = "no stack check: a branch lands on the entry (a loop would count each turn)";
    else if (leaf && body.targets_unknown)
        pf->skip_reason = "no stack check: branch targets unknown (undecodable bytes or an "
                          "indirect jump that is not a jump table)";
    if (pf->skip_reason) {
        plan->returns.n -= body.nreturns;   /* skipped: its returns stay */
        return 0;
    }
    pf->untimed_reason = no_timing ? no_timing : body.untimed_reason;
    if (leaf && !pf->untimed_reason)
        pf->untimed_reason = gr_leaf_untimed_reason(f, code, f->end - f->entry,
                                                    gr_asm_targets_called(asm_targets, f->entry));
    if (!pf->untimed_reason)
        pf->untimed_reason = gr_goroutine_end_reason(f);
    pf->site_role = plan->rt->have_site && !leaf ? (int)gr_site_role(f) : GR_SITE_NONE;
    if (pf->site_role == GR_SITE_CREATE && body.untimed_reason)
        pf->site_role = GR_SITE_NONE;   /* a return that cannot be patched */
    if (pf->untimed_reason && pf->site_role == GR_SITE_CREATE) {
        pf->first_return = body.first_return;   /* untimed, but its returns are hooked */
        pf->nreturns = body.nreturns;
        return 0;
    }
    if (pf->untimed_reason) {
        pf->prologue = narrow;          /* a wider entry serves timing only */
        plan->returns.n -= body.nreturns;   /* timing is off: its returns stay */
        return 0;
    }
    pf->timing = (uint32_t)plan->ntimed++;
    pf->first_return = body.first_return;
    pf->nreturns = body.nreturns;
    return 0;
}

/* A hand-off of the scheduler (sched_hooks.h) is hooked where its argument
 * is known: in a checked function, in RAX (register ABI: g in R14 at its
 * check) or at [RSP+8] (Go <= 1.16); not in ABI0 wrappers of Go >= 1.17. */
static void plan_hook(struct gr_plan *plan, const struct gr_sched_hooks *hooks, struct gr_plan_func *pf)
{
    enum gr_sched_hook h = hooks->hook[pf - plan->funcs];
    if (h == GR_HOOK_NONE || pf->prologue.shape == GR_PROLOGUE_LEAF ||
        (!gr_go_stack_abi(plan->rt->minor) && pf->prologue.tls_form != GR_TLS_NONE))
        return;
    pf->sched_hook = (uint8_t)h;
}

/* The hooks planned, counted once every function is planned. A hand-off
 * left unhooked (skipped, or without a check) turns on-CPU time off, and
 * a refusal drops every on/off hook. */
static void count_hooks(struct gr_plan *plan, struct gr_sched_hooks *hooks)
{
    for (size_t i = 0; i < plan->nfuncs; i++) {
        const struct gr_plan_func *pf = &plan->funcs[i];
        uint8_t h = hooks->hook[i];
        if ((h == GR_HOOK_OFF || h == GR_HOOK_ON) && pf->sched_hook != h)
            gr_sched_hooks_refuse(hooks, plan->nfuncs, "%s, a hand-off of the scheduler, cannot be hooked: %s",
                                  pf->func->name, pf->skip_reason ? pf->skip_reason : "no stack check");
    }
    for (size_t i = 0; i < plan->nfuncs; i++) {
        struct gr_plan_func *pf = &plan->funcs[i];
        if (pf->sched_hook != GR_HOOK_NONE && hooks->hook[i] == GR_HOOK_NONE)
            pf->sched_hook = GR_HOOK_NONE;
        plan->hooks_on += pf->sched_hook == GR_HOOK_ON;
        plan->hooks_off += pf->sched_hook == GR_HOOK_OFF;
        plan->hooks_stack += pf->sched_hook == GR_HOOK_STACK;
    }
    snprintf(plan->oncpu_refused, sizeof plan->oncpu_refused, "%s", hooks->refused);
}

const char GR_PLAN_COPIED[] = "in the copy engine's module (not counted yet)";

/* What one function's plan needs besides the function. */
struct plan_ctx {
    const struct gr_elf *elf;
    struct gr_return_scan scan;
    struct gr_asm_targets asm_targets;
    const struct gr_select *select;
    const char *no_timing;
    struct gr_sched_hooks hooks;
    struct gr_insn scratch[GR_PROLOGUE_MAX_INSNS];
};

/* Plans one function: left out, skipped, or instrumented (and maybe timed). */
static int plan_func(struct plan_ctx *c, struct gr_plan *plan, struct gr_plan_func *pf)
{
    const struct gr_elf *elf = c->elf;
    /* the scheduler's hand-offs stay: on-CPU time needs every one; so
       does sigpanic, which gives faults in relocated code their frame, and
       so do syscall.Exec's runtime_BeforeExec and AfterExec, whose entries
       finish the file before an exec (exit_hook.h) */
    if (c->select && c->select->copied && c->select->copied[pf - plan->funcs]) {
        pf->skip_reason = GR_PLAN_COPIED;
        pf->timing = GR_UNTIMED;
        return 0;
    }
    if (c->select && !gr_select_chosen(c->select, pf->func->name) &&
        !gr_sched_hook_candidate(pf->func) && pf->func->entry != plan->sigpanic_go &&
        !gr_exec_hook_name(pf->func->name)) {
        pf->skip_reason = GR_SELECT_LEFT_OUT;
        pf->timing = GR_UNTIMED;
        plan->nleft_out++;
        return 0;
    }
    pf->skip_reason = decide(elf, plan, &c->asm_targets, pf->func, c->scratch, &pf->prologue);
    pf->prologue.insns = NULL;   /* scratch: reused by the next function */
    if (!pf->skip_reason && plan_body(elf, &c->scan, c->no_timing, &c->asm_targets, plan, pf) < 0)
        return -1;
    if (pf->skip_reason) {
        pf->prologue.ninsns = 0;
        pf->timing = GR_UNTIMED;
        return 0;
    }
    pf->counter = (uint32_t)plan->ninstrumented++;
    if (!c->no_timing)
        plan_hook(plan, &c->hooks, pf);
    return 0;
}

int gr_plan_oncpu(const struct gr_plan *plan)
{
    return plan->hooks_on > 0 && plan->hooks_off > 0 && !plan->oncpu_refused[0];
}

/* The first function that starts by loading g from TLS (ABI0 wrappers and
 * assembly; every function of a Go <= 1.16 program with a check). */
static void find_tls_load(const struct gr_elf *elf, const struct gr_program *prog,
                          struct gr_insn *scratch, struct gr_plan *plan)
{
    for (size_t i = 0; i < prog->nfuncs; i++) {
        const struct gr_func *f = &prog->funcs[i];
        const uint8_t *code = f->end > f->entry && in_exec_segment(elf, f->entry, f->end)
                                  ? gr_elf_bytes_at(elf, f->entry, f->end - f->entry)
                                  : NULL;
        struct gr_prologue pro;
        if (!code || strncmp(f->name, "_Z", 2) == 0 || strncmp(f->name, "__", 2) == 0)
            continue;                 /* C code's own TLS (ThreadSanitizer) */
        gr_prologue_match(code, f->end - f->entry, f->entry, scratch, &pro);
        if (pro.tls_ninsns > 0) {
            plan->tls_entry = f->entry;
            plan->tls_ninsns = pro.tls_ninsns;
            return;
        }
    }
}

/* Sites are kept when both a creation and an end hook are planned; else
 * no function gets one (newproc1's returns then just return). */
static void decide_sites(struct gr_plan *plan)
{
    unsigned roles = 0;
    for (size_t i = 0; i < plan->nfuncs; i++)
        if (!plan->funcs[i].skip_reason)
            roles |= 1u << plan->funcs[i].site_role;
    plan->sites = (roles & (1u << GR_SITE_CREATE)) && (roles & (1u << GR_SITE_END));
}

int gr_plan_build(const struct gr_elf *elf, const struct gr_program *prog, enum gs_mode mode,
                  int keep_call_sites, const struct gr_select *select, struct gr_plan *plan,
                  struct gr_error *err)
{
    memset(plan, 0, sizeof *plan);
    plan->rt = &prog->offsets;
    plan->paths = mode == GS_MODE_CALL_GRAPH;
    if (!plan->rt->minor)
        return gr_fail_as(err, GR_ERR_INTERNAL, "%s: internal error: no runtime offsets decided for %s", elf->path, prog->go_version);
    plan->funcs = calloc(prog->nfuncs ? prog->nfuncs : 1, sizeof *plan->funcs);
    if (!plan->funcs)
        return gr_fail_as(err, GR_ERR_INTERNAL, "%s: out of memory for the patch plan", elf->path);
    plan->nfuncs = prog->nfuncs;
    /* -race builds keep the race detector's context in g.racectx, the word
       the timing code uses for the goroutine's timing stack */
    struct plan_ctx ctx = {
        .elf = elf, .select = select,
        .no_timing = !gs_mode_times(mode) ? "--count-only"
                     : prog->race ? "built with -race (g.racectx is in use)"
                                  : NULL,
    };
    struct plan_ctx *c = &ctx;
    find_tls_load(elf, prog, c->scratch, plan);
    plan->row_from_fs = !prog->cgo && !prog->race;
    plan->row_access = plan->row_from_fs
                           ? "fs:[0] (no runtime/cgo: the runtime points FS at m.tls[1] on every thread)"
                           : "g.m.tls[1] (links runtime/cgo: FS belongs to the C library)";
    plan->sigpanic = gr_go_sigpanic_entry(prog, plan->rt->minor);
    if (plan->sigpanic && plan->rt->have_sig) {
        plan->sig_fields = (struct gr_go_sigfields){.minor = plan->rt->minor, .sig = plan->rt->g_sig,
                                                    .sigcode0 = plan->rt->g_sigcode0,
                                                    .sigcode1 = plan->rt->g_sigcode1,
                                                    .sigpc = plan->rt->g_sigpc};
        plan->sig = &plan->sig_fields;
        plan->sigpanic_go = gr_go_sigpanic_go(prog);
    }
    int rc = gr_asm_targets_find(elf, prog, &c->asm_targets);
    if (rc == 0 && !c->no_timing)
        rc = gr_sched_hooks_find(elf, prog, &c->hooks);
    gr_return_scan_init(&c->scan);
    c->scan.allow_guard = plan->sig != NULL && plan->tls_ninsns > 0;   /* as leaf entries */
    for (size_t i = 0; i < prog->nfuncs && rc == 0; i++) {
        plan->funcs[i].func = &prog->funcs[i];
        rc = plan_func(c, plan, &plan->funcs[i]);
    }
    gr_return_scan_free(&c->scan);
    gr_asm_targets_free(&c->asm_targets);
    if (rc == 0 && c->hooks.hook)
        count_hooks(plan, &c->hooks);
    gr_sched_hooks_free(&c->hooks);
    if (rc == 0 && plan->ntimed && !plan->hooks_stack)
        return gr_fail(err, "%s: runtime.copystack not found or not instrumented: timing needs to know "
                            "when a goroutine's stack moves (try --count-only)", elf->path);
    decide_sites(plan);
    plan->exit_hook = gr_exit_hook_find(elf, prog);
    plan->signal_gate = gr_signal_gate_find(elf, prog);
    plan->exec_before = plan->exec_after = SIZE_MAX;
    if (plan->exit_hook) {
        size_t b = gr_exec_hook_find(prog, "syscall.runtime_BeforeExec");
        size_t a = gr_exec_hook_find(prog, "syscall.runtime_AfterExec");
        if (b != SIZE_MAX && a != SIZE_MAX && !plan->funcs[b].skip_reason && !plan->funcs[a].skip_reason)
            plan->exec_before = b, plan->exec_after = a;
    }
    if (rc == 0 && plan->sites)
        rc = gr_go_stmts_find(elf, prog, &plan->go_stmts);
    if (rc < 0)
        return gr_fail_as(err, GR_ERR_INTERNAL, "%s: out of memory for the patch plan", elf->path);
    if (!keep_call_sites && gr_call_sites_find(elf, plan, &plan->calls) < 0)
        return gr_fail_as(err, GR_ERR_INTERNAL, "%s: out of memory for the call sites", elf->path);
    return 0;
}

void gr_plan_free(struct gr_plan *plan)
{
    free(plan->funcs);
    gr_return_list_free(&plan->returns);
    gr_call_sites_free(&plan->calls);
    gr_go_stmts_free(&plan->go_stmts);
    memset(plan, 0, sizeof *plan);
}
