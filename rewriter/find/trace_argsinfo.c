/* trace_argsinfo.c: layouts without types (trace_argsinfo.h).
 *
 * Stack ABI (Go 1.15/1.16, ABI0 assembly): pclntab's _func.args is the
 * size of the argument area, results included, at [RSP+8] at entry and
 * at a ret; its first ARGS_SHOWN words are shown raw at both points, as
 * the tracebacks of those releases print them (runtime/traceback.go of
 * Go 1.15: at most 10 words). The results are the last words at the ret.
 *
 * Register ABI: _func.args is the spill area, sized by the types of the
 * register arguments (an int8 takes 1 byte), so it does not tell which
 * registers hold arguments; FUNCDATA_ArgInfo, which tracebacks use, is
 * not read yet. Arguments are left out; the result shown is RAX, the
 * first integer result register, raw. */
#include "rewriter/find/trace_argsinfo.h"
#include "rewriter/find/trace_desc_build.h"

#include <elf.h>
#include <string.h>

enum { ARGS_SHOWN = 10 };

int32_t gr_trace_args_size(const struct gr_program *prog, const struct gr_func *f)
{
    if (f < prog->funcs || f >= prog->funcs + prog->nfuncs || prog->pcln.nfuncs != prog->nfuncs)
        return 0;
    int32_t args = prog->pcln.funcs[f - prog->funcs].args;
    return args > 0 ? args : 0;
}

/* Does .symtab name the code at entry "….abi0"? pclntab names the ABI0
 * body of an assembly function without the suffix the linker gives its
 * symbol since Go 1.17; a stripped binary cannot tell (0). */
int gr_trace_is_abi0(const struct gr_program *prog, uint64_t entry)
{
    const struct gr_elf *elf = prog->elf;
    const struct gr_section *sym = elf ? gr_elf_section(elf, ".symtab") : NULL;
    const struct gr_section *str = elf ? gr_elf_section(elf, ".strtab") : NULL;
    if (!sym || !str || sym->offset > elf->size || sym->size > elf->size - sym->offset ||
        str->offset > elf->size || str->size > elf->size - str->offset)
        return 0;
    const char *names = (const char *)elf->data + str->offset;
    for (uint64_t off = 0; off + sizeof(Elf64_Sym) <= sym->size; off += sizeof(Elf64_Sym)) {
        Elf64_Sym s;
        memcpy(&s, elf->data + sym->offset + off, sizeof s);
        if (s.st_value != entry || s.st_name >= str->size)
            continue;
        const char *n = names + s.st_name;
        size_t len = strnlen(n, str->size - s.st_name);
        if (len > 5 && len < str->size - s.st_name && memcmp(n + len - 5, ".abi0", 5) == 0)
            return 1;
    }
    return 0;
}

/* The raw word at src as one unnamed value of capture c. */
static void raw_value(struct gr_tdb *b, uint16_t raw, struct gr_trace_capture *c, struct gr_trace_src src,
                      uint16_t flags)
{
    uint16_t word = c->nwords < GR_TRACE_MAX_WORDS ? c->nwords++ : GTD_NONE;
    if (word != GTD_NONE)
        c->words[word] = src;
    uint16_t l = gr_tdb_leaf(b, word, 0, GTD_NONE);
    gr_tdb_value(b, NULL, raw, l, 1, flags);
}

int gr_trace_argsinfo_layout(const struct gr_program *prog, const struct gr_func *f, int regabi,
                             struct gr_trace_layout *out, struct gr_error *err)
{
    struct gr_tdb b = {.flags = GTD_F_STRIPPED | GTD_F_RESULTS_RAW | (regabi ? GTD_F_REGABI : 0)};
    uint16_t raw = gr_tdb_type(&b, GTD_K_RAW, 8, NULL, 0, 0);
    if (regabi) {
        raw_value(&b, raw, &out->exit, (struct gr_trace_src){.kind = GR_TRACE_SRC_INT_REG, .reg = 0},
                  GTD_V_RESULT);
    } else {
        int32_t words = (gr_trace_args_size(prog, f) + 7) / 8;
        for (int32_t i = 0; i < words && i < ARGS_SHOWN; i++) {
            struct gr_trace_src src = {.kind = GR_TRACE_SRC_STACK, .stack_off = 8 + 8 * i};
            raw_value(&b, raw, &out->entry, src, 0);
            raw_value(&b, raw, &out->exit, src, GTD_V_RESULT);
        }
    }
    if (gr_tdb_finish(&b, &out->desc, &out->desc_len) < 0)
        return gr_fail(err, "%s: out of memory building its trace layout", f->name);
    return 0;
}
