/* program.c: merges pclntab, DWARF and the Go build ID into one function
 * list. DWARF is optional: a stripped binary is described by pclntab alone,
 * and unreadable DWARF only costs declaration lines (a warning, not an error). */
#include "rewriter/find/program.h"

#include "rewriter/find/go_version.h"
#include "rewriter/find/trace_types.h"

#include <stdlib.h>
#include <string.h>

/* The Go build ID note: namesz, descsz, type 4, "Go\0\0", then the ID. */
static void read_build_id(const struct gr_elf *elf, struct gr_program *prog)
{
    const struct gr_section *s = gr_elf_section(elf, ".note.go.buildid");
    prog->build_id[0] = 0;
    if (!s || s->size < 16)
        return;
    const uint8_t *p = elf->data + s->offset;
    uint32_t namesz, descsz, type;
    memcpy(&namesz, p, 4);
    memcpy(&descsz, p + 4, 4);
    memcpy(&type, p + 8, 4);
    if (namesz != 4 || type != 4 || memcmp(p + 12, "Go\0\0", 4) != 0 || descsz > s->size - 16)
        return;
    size_t n = descsz < sizeof prog->build_id - 1 ? descsz : sizeof prog->build_id - 1;
    memcpy(prog->build_id, p + 16, n);
    prog->build_id[n] = 0;
}

static void apply_dwarf(struct gr_program *prog)
{
    for (size_t i = 0; i < prog->nfuncs; i++) {
        struct gr_func *f = &prog->funcs[i];
        const struct gr_dwarf_func *d = gr_dwarf_find(&prog->dwarf, f->entry);
        if (!d)
            continue;
        if (d->decl_file && d->decl_line) {
            f->file = d->decl_file;
            f->line = d->decl_line;
        }
        f->inlined_elsewhere = d->inlined_elsewhere;
    }
}

/* A -race build links ThreadSanitizer and the runtime's race glue; both
 * are listed in pclntab, also in stripped binaries. */
static int is_race_build(const struct gr_program *prog)
{
    for (size_t i = 0; i < prog->nfuncs; i++) {
        const char *n = prog->funcs[i].name;
        if (strcmp(n, "runtime.racecallbackthunk") == 0 || strncmp(n, "__tsan_", 7) == 0)
            return 1;
    }
    return 0;
}

/* A program that links runtime/cgo: its Go asm (crosscall2) and Go
 * functions are in pclntab, also in stripped binaries and with external
 * linking; internally linked C (x_cgo_init, _cgo_*) too. */
static int links_runtime_cgo(const struct gr_program *prog)
{
    for (size_t i = 0; i < prog->nfuncs; i++) {
        const char *n = prog->funcs[i].name;
        if (strcmp(n, "crosscall2") == 0 || strncmp(n, "runtime/cgo.", 12) == 0 ||
            strncmp(n, "_cgo_", 5) == 0 || strncmp(n, "x_cgo_", 6) == 0)
            return 1;
    }
    return 0;
}

int gr_program_read(const struct gr_elf *elf, struct gr_program *prog, struct gr_error *err)
{
    memset(prog, 0, sizeof *prog);
    prog->elf = elf;
    if (gr_pclntab_read(elf, &prog->pcln, err) < 0)
        return -1;
    prog->nfuncs = prog->pcln.nfuncs;
    prog->funcs = calloc(prog->nfuncs, sizeof *prog->funcs);
    if (!prog->funcs)
        return gr_fail(err, "%s: out of memory", elf->path);
    for (size_t i = 0; i < prog->nfuncs; i++) {
        const struct gr_pcln_func *p = &prog->pcln.funcs[i];
        prog->funcs[i] = (struct gr_func){
            .entry = p->entry, .end = p->end, .name = p->name,
            .file = p->file, .line = p->line,
        };
    }
    prog->race = is_race_build(prog);
    prog->cgo = links_runtime_cgo(prog);
    if (gr_dwarf_read_fd(elf->path, elf->fd, &prog->dwarf, &prog->dwarf_error) < 0)
        prog->dwarf_ignored = 1;
    else
        apply_dwarf(prog);
    read_build_id(elf, prog);
    gr_go_version(elf, prog->go_version, sizeof prog->go_version);
    return 0;
}

void gr_program_free(struct gr_program *prog)
{
    gr_trace_types_close(prog->trace_types);
    gr_dwarf_free(&prog->dwarf);
    gr_pclntab_free(&prog->pcln);
    free(prog->funcs);
    memset(prog, 0, sizeof *prog);
}

const struct gr_func *gr_program_func_named(const struct gr_program *prog, const char *name)
{
    size_t n = strlen(name);
    for (size_t i = 0; i < prog->nfuncs; i++) {
        const char *f = prog->funcs[i].name;
        if (f && strncmp(f, name, n) == 0 && (f[n] == 0 || strcmp(f + n, ".abi0") == 0))
            return &prog->funcs[i];
    }
    return NULL;
}
