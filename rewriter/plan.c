/* plan.c: decides which functions get an entry patch. A function is
 * instrumented only when its first bytes are exactly a stack-bound check we
 * know, in executable text, and the check's instructions (which the 5-byte
 * jmp and int3 filler replace) lie wholly inside the function. */
#include "plan.h"

#include <elf.h>
#include <stdlib.h>
#include <string.h>

#include "go_version.h"

#define JMP_REL32_LEN 5

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

static const char *decide(const struct gr_elf *elf, const struct gr_func *f, int stack_abi,
                          struct gr_insn *scratch, struct gr_prologue *pro)
{
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
    if (reason)
        return reason;
    if (stack_abi && pro->g_reg != ZYDIS_REGISTER_RCX)
        return "register-ABI check in a Go <= 1.16 program (R14 is not g there)";
    if (!stack_abi && pro->g_reg != ZYDIS_REGISTER_R14)
        return "stack-ABI check (g in RCX) in a Go >= 1.17 program";
    if (pro->len < JMP_REL32_LEN)
        return "stack check shorter than a jmp";
    return NULL;
}

/* Appends the matched check's instructions (still in the decoder's
 * scratch) to plan->insns; pointers are set once the array stops moving. */
static int keep_insns(struct gr_plan *plan, size_t *n, size_t *cap, struct gr_plan_func *pf)
{
    unsigned k = pf->prologue.ninsns;
    if (*n + k > *cap) {
        size_t ncap = *cap ? *cap * 2 : 4096;
        struct gr_insn *p = realloc(plan->insns, ncap * sizeof *p);
        if (!p)
            return -1;
        plan->insns = p;
        *cap = ncap;
    }
    memcpy(plan->insns + *n, pf->prologue.insns, k * sizeof *plan->insns);
    *n += k;
    pf->prologue.insns = NULL;
    return 0;
}

int gr_plan_build(const struct gr_elf *elf, const struct gr_program *prog,
                  struct gr_plan *plan, struct gr_error *err)
{
    memset(plan, 0, sizeof *plan);
    plan->rt = gr_go_layout(gr_go_minor(prog->go_version));
    if (!plan->rt)
        return gr_fail(err, "%s: no runtime layout for %s", elf->path, prog->go_version);
    plan->funcs = calloc(prog->nfuncs ? prog->nfuncs : 1, sizeof *plan->funcs);
    if (!plan->funcs)
        return gr_fail(err, "%s: out of memory for the patch plan", elf->path);
    plan->nfuncs = prog->nfuncs;
    int stack_abi = plan->rt->minor <= 16;   /* Go <= 1.16: no register ABI, g from TLS */
    struct gr_insn scratch[GR_PROLOGUE_MAX_INSNS];
    size_t ninsns = 0, cap = 0;
    for (size_t i = 0; i < prog->nfuncs; i++) {
        struct gr_plan_func *pf = &plan->funcs[i];
        pf->func = &prog->funcs[i];
        pf->skip_reason = decide(elf, pf->func, stack_abi, scratch, &pf->prologue);
        if (pf->skip_reason) {
            pf->prologue.insns = NULL;
            pf->prologue.ninsns = 0;
            continue;
        }
        pf->counter = (uint32_t)plan->ninstrumented++;
        if (keep_insns(plan, &ninsns, &cap, pf) < 0)
            return gr_fail(err, "%s: out of memory for the patch plan", elf->path);
    }
    for (size_t i = 0, at = 0; i < prog->nfuncs; i++) {   /* the array has settled */
        struct gr_prologue *p = &plan->funcs[i].prologue;
        if (p->ninsns) {
            p->insns = plan->insns + at;
            at += p->ninsns;
        }
    }
    return 0;
}

void gr_plan_free(struct gr_plan *plan)
{
    free(plan->insns);
    free(plan->funcs);
    memset(plan, 0, sizeof *plan);
}
