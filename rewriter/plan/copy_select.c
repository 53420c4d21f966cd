/* copy_select.c: see copy_select.h. */
#include "rewriter/plan/copy_select.h"

#include <elf.h>
#include <stdlib.h>
#include <string.h>

#include <Zydis/Zydis.h>

#include "rewriter/plan/exit_hook.h"

#define FUNC_FLAG_ASM 4   /* internal/abi FuncFlagAsm (Go >= 1.17) */

/* The runtime compares PCs with its own functions' entries (morestack,
 * goexit, asyncPreempt, sigpanic ...): it stays in the first module. */
static int runtime_code(const char *name)
{
    return !strncmp(name, "runtime.", 8) || !strncmp(name, "runtime/internal/", 17) ||
           !strncmp(name, "runtime/cgo.", 12) || !strncmp(name, "internal/runtime/", 17);
}

static int ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), k = strlen(tail);
    return n >= k && !strcmp(s + n - k, tail);
}

/* Why the code of [entry, end) cannot be moved verbatim, or NULL. */
static const char *code_reason(const ZydisDecoder *zy, const uint8_t *code, uint64_t entry, uint64_t size)
{
    ZydisDecodedInstruction in;
    for (uint64_t off = 0; off < size; off += in.length) {
        if (!ZYAN_SUCCESS(ZydisDecoderDecodeInstruction(zy, NULL, code + off, size - off, &in)))
            return "an instruction does not decode";
        int branch = in.meta.category == ZYDIS_CATEGORY_COND_BR || in.meta.category == ZYDIS_CATEGORY_UNCOND_BR;
        if (branch && !in.raw.imm[0].is_relative)
            return "an indirect jump (a switch's jump table holds addresses in the original)";
        if (in.raw.imm[0].is_relative && in.raw.imm[0].size == 8) {
            uint64_t target = entry + off + in.length + (uint64_t)in.raw.imm[0].value.s;
            if (target < entry || target >= entry + size)
                return "a short branch leaves the function";
        }
    }
    return NULL;
}

/* Why the chosen function i is not copied, or NULL. */
static const char *copy_reason(const struct gr_program *prog, const ZydisDecoder *zy, size_t i)
{
    const struct gr_func *f = &prog->funcs[i];
    const struct gr_pcln_func *p = &prog->pcln.funcs[i];
    struct gr_func_record rec;
    if (runtime_code(f->name))
        return "runtime code (the runtime compares its own PCs)";
    if (gr_exec_hook_name(f->name))
        return "the exec's hook (its entry trampoline finishes the stats file first)";
    if (f->end - f->entry < 5)
        return "shorter than the jump to its copy";
    if (gr_pclntab_func_record(prog->elf, &prog->pcln, p, &rec) < 0)
        return "its _func record does not fit pclntab";
    if (rec.func_id != 0)
        return "a special function (funcID not normal)";
    if ((rec.flag & FUNC_FLAG_ASM) || (f->file && ends_with(f->file, ".s")))
        return "assembly";
    const uint8_t *code = gr_elf_bytes_at(prog->elf, f->entry, f->end - f->entry);
    if (!code)
        return "its code is not in the file";
    return code_reason(zy, code, f->entry, f->end - f->entry);
}

int gr_copy_select(const struct gr_program *prog, const struct gr_select *select,
                   struct gr_copy_set *set, struct gr_error *err)
{
    memset(set, 0, sizeof *set);
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)prog->elf->data;
    if (gr_moduledata_find(prog, &set->first, err) < 0)
        return -1;
    /* before Go 1.18 ftab and _func hold absolute entries, which a PIE
       would need moved at start-up */
    if (eh->e_type != ET_EXEC && prog->offsets.minor < 18)
        return gr_fail(err, "%s: the copy engine takes a PIE of Go 1.18 or later only, not Go 1.%d",
                       prog->elf->path, prog->offsets.minor);
    set->funcs = calloc(prog->nfuncs ? prog->nfuncs : 1, sizeof *set->funcs);
    set->skip = calloc(prog->nfuncs ? prog->nfuncs : 1, sizeof *set->skip);
    if (!set->funcs || !set->skip) {
        gr_copy_set_free(set);
        return gr_fail(err, "%s: out of memory for the copy engine's choice", prog->elf->path);
    }
    ZydisDecoder zy;
    ZydisDecoderInit(&zy, ZYDIS_MACHINE_MODE_LONG_64, ZYDIS_STACK_WIDTH_64);
    for (size_t i = 0; i < prog->nfuncs; i++) {
        const struct gr_func *f = &prog->funcs[i];
        int alias = i + 1 < prog->nfuncs && prog->funcs[i + 1].entry == f->entry;
        if ((select && !gr_select_chosen(select, f->name)) || f->end == f->entry || alias)
            continue;
        set->skip[i] = copy_reason(prog, &zy, i);
        if (set->skip[i])
            set->nskipped++;
        else
            set->funcs[set->n++] = (uint32_t)i;
    }
    return 0;
}

long gr_copy_index(const struct gr_program *prog, const struct gr_copy_set *set, uint64_t entry)
{
    size_t lo = 0, hi = set->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        uint64_t e = prog->funcs[set->funcs[mid]].entry;
        if (e == entry)
            return (long)mid;
        if (e < entry)
            lo = mid + 1;
        else
            hi = mid;
    }
    return -1;
}

/* The layout in DWARF's names of runtime.moduledata's members, for the
 * tests to compare with a build's DWARF. */
static void report_layout(FILE *log, const struct gr_moduledata *md)
{
    const struct gr_moduledata_layout *l = md->layout;
    fprintf(log, "gorewrite: copy engine: runtime.firstmoduledata at 0x%llx: size %u", (unsigned long long)md->addr,
            l->size);
    if (!l->go12)
        fprintf(log, " pcHeader %u funcnametab %u cutab %u pctab %u gofunc %u", l->pcheader, l->funcnametab,
                l->cutab, l->pctab, l->gofunc);
    if (l->epclntab)
        fprintf(log, " epclntab %u", l->epclntab);
    fprintf(log, " filetab %u pclntable %u ftab %u findfunctab %u minpc %u maxpc %u text %u etext %u gcdata %u gcbss %u hasmain %u next %u\n",
            l->filetab, l->pclntable, l->ftab, l->findfunctab, l->minpc, l->maxpc, l->text, l->etext, l->gcdata,
            l->gcbss, l->hasmain, l->next);
}

void gr_copy_report(FILE *log, const struct gr_program *prog, const struct gr_copy_set *set)
{
    report_layout(log, &set->first);
    fprintf(log, "gorewrite: copy engine: %zu functions copied, %zu chosen left in place\n", set->n,
            set->nskipped);
    for (size_t i = 0; i < prog->nfuncs; i++)
        if (set->skip[i])
            fprintf(log, "  not copied: %s: %s\n", prog->funcs[i].name, set->skip[i]);
}

void gr_copy_set_free(struct gr_copy_set *set)
{
    free(set->funcs);
    free(set->skip);
    memset(set, 0, sizeof *set);
}
