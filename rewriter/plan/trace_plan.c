/* trace_plan.c: chooses the traced functions (timed ones only: a traced
 * call is timed on every call, through its entry and return patches) and
 * lays out their events. A function whose layout is not known (refused,
 * or no words in a stripped binary) keeps raw words: the first integer argument registers
 * (register ABI) or stack words (stack ABI), shown without names. */
#include "rewriter/plan/trace_plan.h"

#include <stdlib.h>
#include <string.h>

#include "format/stub_abi.h"
#include "format/trace_desc.h"
#include "format/trace_format.h"
#include "rewriter/find/runtime_offsets.h"
#include "rewriter/plan/select.h"

enum { RAX = 0, RCX = 1, RBX = 3, RDI = 7 };

static void raw_words(struct gr_trace_capture *c, int stack_abi, const uint8_t *regs, unsigned n)
{
    c->nwords = (uint16_t)n;
    for (unsigned i = 0; i < n; i++)
        c->words[i] = stack_abi ? (struct gr_trace_src){.kind = GR_TRACE_SRC_STACK, .stack_off = 8 + 8 * (int32_t)i}
                                : (struct gr_trace_src){.kind = GR_TRACE_SRC_INT_REG, .reg = regs[i]};
}

/* The layout's stand-in when it has no words at all. */
static void raw_layout(const struct gr_plan *plan, const struct gr_func *f, struct gr_trace_func *tf)
{
    static const uint8_t in[] = {RAX, RBX, RCX, RDI}, out[] = {RAX, RBX};
    gr_trace_layout_free(&tf->layout);
    size_t len = f->file ? strlen(f->file) : 0;
    int stack_abi = gr_go_stack_abi(plan->rt->minor) || (len >= 2 && strcmp(f->file + len - 2, ".s") == 0);
    raw_words(&tf->layout.entry, stack_abi, in, 4);
    raw_words(&tf->layout.ret, stack_abi, out, stack_abi ? 6 : 2);
    tf->layout.entry.nbytes = tf->layout.ret.nbytes = 0;
    tf->raw = 1;
}

/* No words at all, and no types to say the function has no values
 * (a stripped binary whose metadata gave nothing). */
static int layout_unknown(const struct gr_trace_layout *l)
{
    struct gtd_header h;
    if (l->entry.nwords || l->ret.nwords)
        return 0;
    if (l->desc_len < sizeof h)
        return 1;
    memcpy(&h, l->desc, sizeof h);
    return (h.flags & GTD_F_STRIPPED) != 0;
}

static uint32_t place(struct gr_trace_func *tf, uint32_t bytes_max)
{
    const struct gr_trace_capture *en = &tf->layout.entry, *ex = &tf->layout.ret;
    tf->entry_off = GS_EV_DATA;
    tf->return_off = gs_trace_part_end(tf->entry_off, en->nwords, en->nbytes, bytes_max);
    tf->used = gs_trace_part_end(tf->return_off, ex->nwords, ex->nbytes, bytes_max);
    return tf->used;
}

static int add_func(const struct gr_program *prog, struct gr_plan *plan, size_t i, struct gr_trace_plan *tp,
                    struct gr_error *err)
{
    struct gr_trace_func *tf = &tp->funcs[tp->n];
    memset(tf, 0, sizeof *tf);
    tf->plan_index = i;
    struct gr_error unknown;
    if (gr_trace_layout_of(prog, plan->funcs[i].func, &tf->layout, &unknown) < 0 || layout_unknown(&tf->layout))
        raw_layout(plan, plan->funcs[i].func, tf);
    if (place(tf, tp->bytes_max) > GS_TRACE_MAX_EVENT) {
        gr_trace_layout_free(&tf->layout);
        return gr_fail(err, "%s: its arguments and results do not fit an event of %u bytes "
                            "(--trace-bytes smaller?)", plan->funcs[i].func->name, GS_TRACE_MAX_EVENT);
    }
    if (tf->used > tp->event_size)
        tp->event_size = tf->used;
    plan->funcs[i].traced = 1;
    plan->funcs[i].trace = (uint32_t)tp->n++;
    return 0;
}

int gr_trace_plan_build(const struct gr_program *prog, struct gr_plan *plan, const char *const *patterns,
                        size_t npatterns, uint32_t bytes_max, struct gr_trace_plan *tp,
                        struct gr_error *err)
{
    memset(tp, 0, sizeof *tp);
    tp->bytes_max = bytes_max;
    if (!npatterns)
        return 0;
    struct gr_regex_set re;     /* checked while the command line was read */
    if (gr_regex_set_compile(&re, patterns, npatterns, "--trace", err) < 0)
        return -1;
    tp->funcs = calloc(plan->nfuncs ? plan->nfuncs : 1, sizeof *tp->funcs);
    int rc = tp->funcs ? 0 : gr_fail(err, "out of memory for the trace plan");
    for (size_t i = 0; i < plan->nfuncs && rc == 0; i++) {
        const struct gr_plan_func *pf = &plan->funcs[i];
        if (!pf->skip_reason && pf->timing != GR_UNTIMED && !pf->tail_calls &&   /* no tail-call return */
            gr_regex_set_any(&re, pf->func->name))
            rc = add_func(prog, plan, i, tp, err);
    }
    gr_regex_set_free(&re);
    tp->event_size = (tp->event_size + GS_ENT_SIZE - 1) / GS_ENT_SIZE * GS_ENT_SIZE;
    return rc;
}

void gr_trace_plan_free(struct gr_trace_plan *tp)
{
    for (size_t i = 0; i < tp->n; i++)
        gr_trace_layout_free(&tp->funcs[i].layout);
    free(tp->funcs);
    memset(tp, 0, sizeof *tp);
}
