/* goroutine_sites.c: newproc1 returns every new goroutine (Go 1.15-1.27:
 * in RAX with the register ABI, in the result slot after its five stack
 * arguments before), complete and not yet runnable; every goroutine ends
 * by entering goexit1 (a return from its function, or runtime.Goexit) or,
 * for iter.Pull's coroutines (Go >= 1.22), coroexit, on its own stack. */
#include "rewriter/plan/goroutine_sites.h"

#include <stdlib.h>
#include <string.h>


enum gr_site_role gr_site_role(const struct gr_func *f)
{
    if (!f->name)
        return GR_SITE_NONE;
    if (strcmp(f->name, "runtime.newproc1") == 0)
        return GR_SITE_CREATE;
    if (strcmp(f->name, "runtime.goexit1") == 0 || strcmp(f->name, "runtime.coroexit") == 0)
        return GR_SITE_END;
    return GR_SITE_NONE;
}

/* Entries of the functions a go statement calls. */
static size_t creation_targets(const struct gr_program *prog, uint64_t *targets)
{
    size_t n = 0;
    for (size_t i = 0; i < prog->nfuncs && n < 2; i++)
        if (strcmp(prog->funcs[i].name, "runtime.newproc") == 0 ||
            strcmp(prog->funcs[i].name, "runtime.newcoro") == 0)
            targets[n++] = prog->funcs[i].entry;
    return n;
}

static int add_stmt(const struct gr_program *prog, size_t fi, uint64_t pc, struct gr_go_stmts *out,
                    size_t *cap)
{
    if (out->n == *cap) {
        size_t ncap = *cap ? 2 * *cap : 64;
        struct gr_go_stmt *p = realloc(out->items, ncap * sizeof *p);
        if (!p)
            return -1;
        out->items = p;
        *cap = ncap;
    }
    struct gr_go_stmt *st = &out->items[out->n++];
    *st = (struct gr_go_stmt){.pc = pc, .creator = &prog->funcs[fi]};
    if (gr_pclntab_line_at(&prog->pcln, &prog->pcln.funcs[fi], pc - 1, &st->file, &st->line) < 0) {
        st->file = NULL;
        st->line = 0;
    }
    return 0;
}

int gr_go_stmts_find(const struct gr_elf *elf, const struct gr_program *prog,
                     struct gr_go_stmts *out)
{
    uint64_t targets[2];
    size_t ntargets = creation_targets(prog, targets), cap = 0;
    memset(out, 0, sizeof *out);
    for (size_t i = 0; i < prog->nfuncs && ntargets; i++) {
        const struct gr_func *f = &prog->funcs[i];
        if (f->end <= f->entry || f->end - f->entry < 5)
            continue;
        const uint8_t *code = gr_elf_bytes_at(elf, f->entry, f->end - f->entry);
        for (uint64_t off = 0; code && off + 5 <= f->end - f->entry; off++) {
            if (code[off] != 0xe8)
                continue;
            int32_t rel;
            memcpy(&rel, code + off + 1, 4);
            uint64_t pc = f->entry + off + 5, to = pc + (uint64_t)(int64_t)rel;
            for (size_t k = 0; k < ntargets; k++)
                if (to == targets[k] && add_stmt(prog, i, pc, out, &cap) < 0)
                    return -1;
        }
    }
    return 0;   /* functions are in address order: so are the pcs */
}

void gr_go_stmts_free(struct gr_go_stmts *s)
{
    free(s->items);
    memset(s, 0, sizeof *s);
}
