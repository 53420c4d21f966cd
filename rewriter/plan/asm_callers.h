/* asm_callers.h: the functions that assembly may enter with R12 or R13
 * live (part of stage 3, patch planning). Hand-written assembly may keep a
 * value in R12 or R13 across a call to assembly it knows, which an entry
 * trampoline (it clobbers both) would destroy; compiled Go never does, as
 * both are scratch in Go's ABIs. Assembly that never names them cannot
 * (memequal's jump to memeqbody), unless it was itself so entered. */
#ifndef GR_ASM_CALLERS_H
#define GR_ASM_CALLERS_H

#include <stddef.h>
#include <stdint.h>

#include "elf/elf_read.h"
#include "rewriter/find/program.h"

struct gr_asm_targets {
    uint64_t *addr;        /* sorted: may be entered with R12 or R13 live */
    size_t n, cap;
    uint64_t *called;      /* sorted: every target of assembly */
    size_t ncalled, called_cap;
};

/* Collects the targets of the direct calls and jmps that leave an assembly
 * function (a .s file) of prog which names R12 or R13 or is such a target
 * itself. -1: out of memory. */
int gr_asm_targets_find(const struct gr_elf *elf, const struct gr_program *prog,
                        struct gr_asm_targets *out);

/* Is addr one of them? */
int gr_asm_targets_has(const struct gr_asm_targets *t, uint64_t addr);

/* Does any assembly function call or jump to addr directly? */
int gr_asm_targets_called(const struct gr_asm_targets *t, uint64_t addr);

void gr_asm_targets_free(struct gr_asm_targets *t);

#endif
