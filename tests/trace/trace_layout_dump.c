/* trace_layout_dump.c: prints gr_trace_layout_of for the named functions
 * of a Go binary, one line per captured word and per value with its leaves
 * (tests/rewriter/t_trace_layout.sh compares them with expected layouts).
 * Usage: trace_layout_dump BINARY FUNC... */
#include "rewriter/find/find.h"
#include "rewriter/find/program.h"
#include "rewriter/find/trace_layout.h"
#include "gostat/read/trace_desc_check.h"

#include <stdio.h>
#include <string.h>

static void print_capture(const char *what, const struct gr_trace_capture *c)
{
    static const char *regs[] = {"rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi",
                                 "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15"};
    printf("  %s:", what);
    for (unsigned i = 0; i < c->nwords; i++) {
        const struct gr_trace_src *s = &c->words[i];
        if (s->kind == GR_TRACE_SRC_INT_REG)
            printf(" %s", s->reg < 16 ? regs[s->reg] : "?");
        else if (s->kind == GR_TRACE_SRC_FLOAT_REG)
            printf(" x%u", s->reg);
        else
            printf(" [rsp+%d]", s->stack_off);
        if (s->deref)
            printf("->8");
    }
    for (unsigned i = 0; i < c->nbytes; i++)
        printf(" bytes(w%u,w%u)", c->bytes[i].ptr_word, c->bytes[i].len_word);
    printf("\n");
}

static void print_values(const uint8_t *desc, size_t len)
{
    struct gst_tdesc d;
    if (gst_tdesc_open(desc, len, &d) < 0 || gst_tdesc_check(&d) < 0) {
        printf("  bad descriptor\n");
        return;
    }
    printf("  flags:%s%s%s rtypes:%s\n", d.h.flags & GTD_F_REGABI ? " regabi" : " stackabi",
           d.h.flags & GTD_F_STRIPPED ? " stripped" : "", d.h.flags & GTD_F_RESULTS_RAW ? " results-raw" : "",
           d.h.nrtypes ? "yes" : "no");
    for (unsigned i = 0; i < d.h.nvalues; i++) {
        struct gtd_value v = gst_tdesc_value(&d, i);
        const char *name = gst_tdesc_name(&d, v.name);
        const char *type = gst_tdesc_name(&d, gst_tdesc_type(&d, v.type).name);
        printf("  %s %s %s:", v.flags & GTD_V_RESULT ? "result" : "arg", name ? name : "-", type ? type : "-");
        for (unsigned l = v.first_leaf; l < (unsigned)v.first_leaf + v.nleaves; l++) {
            struct gtd_leaf lf = gst_tdesc_leaf(&d, l);
            if (lf.word == GTD_NONE)
                printf(" none");
            else
                printf(" w%u", lf.word);
            if (lf.shift)
                printf("+%u", lf.shift);
            if (lf.bytes != GTD_NONE)
                printf("/b%u", lf.bytes);
        }
        printf("\n");
    }
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s BINARY FUNC...\n", argv[0]);
        return 2;
    }
    struct gr_elf elf;
    struct gr_program prog;
    struct gr_error err;
    if (gr_elf_read(argv[1], &elf, &err) < 0 || gr_find_program(&elf, 0, &prog, &err) < 0) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    int rc = 0;
    for (int i = 2; i < argc; i++) {
        const struct gr_func *f = gr_program_func_named(&prog, argv[i]);
        struct gr_trace_layout l;
        if (!f || gr_trace_layout_of(&prog, f, &l, &err) < 0) {
            printf("%s: %s\n", argv[i], f ? err.msg : "no such function");
            rc = 1;
            continue;
        }
        printf("%s\n", argv[i]);
        print_capture("entry", &l.entry);
        print_capture("exit", &l.ret);
        print_values(l.desc, l.desc_len);
        gr_trace_layout_free(&l);
    }
    gr_program_free(&prog);
    gr_elf_free(&elf);
    return rc;
}
