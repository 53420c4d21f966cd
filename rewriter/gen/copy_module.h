/* copy_module.h: the copy engine's module (gorewrite --engine copy): a
 * second Go module appended to the RX segment, whose text holds a copy of
 * each chosen function laid out byte for byte as the original, with the
 * runtime's tables for it (ftab, findfunctab, the _func records, a
 * pcHeader, a moduledata template), and the start-up code that links the
 * module into the runtime's list before the stubs' own start-up runs
 * (docs/architecture.md, "The copy engine's module"). */
#ifndef GR_COPY_MODULE_H
#define GR_COPY_MODULE_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "elf/elf_write.h"
#include "rewriter/find/program.h"
#include "rewriter/gen/codebuf.h"
#include "rewriter/plan/copy_select.h"

struct gr_copy_module {
    uint64_t entry;             /* the start-up code */
    uint64_t text, etext;       /* the copies */
    uint64_t *copy;             /* per set->funcs: the copy's entry */
    struct gr_patch *patches;   /* each original entry: a jmp to its copy */
    size_t npatches;
};

/* Appends the module for set to code (from a page boundary). rw_module:
 * where the start-up code puts the moduledata (set->first.layout->size
 * bytes of the RW segment); next: where it continues (the stubs' entry).
 * Free *out with gr_copy_module_free, also after a failure. */
int gr_copy_module_append(struct gr_codebuf *code, const struct gr_program *prog,
                          const struct gr_copy_set *set, uint64_t rw_module, uint64_t next,
                          struct gr_copy_module *out, struct gr_error *err);
void gr_copy_module_free(struct gr_copy_module *m);

/* The copies' text (copy_code.c): each function's bytes at the same
 * offsets from its copy's entry, aligned as Go aligns functions; fills
 * m->copy, text, etext. */
int gr_copy_code_place(struct gr_codebuf *code, const struct gr_program *prog,
                       const struct gr_copy_set *set, struct gr_copy_module *m, struct gr_error *err);
/* Re-aims every rel32 branch and rip-relative operand that leaves a
 * function at the same target (a call of a copied function at its copy). */
int gr_copy_code_fix(struct gr_codebuf *code, const struct gr_program *prog,
                     const struct gr_copy_set *set, const struct gr_copy_module *m, struct gr_error *err);

#endif
