/* asm_callers.h: the functions that assembly calls or jumps to directly
 * (part of stage 3, patch planning). Hand-written assembly may keep a
 * value in R12 or R13 across a call to assembly it knows, which an entry
 * trampoline (it clobbers both) would destroy; compiled Go never does, as
 * both are scratch in Go's ABIs. */
#ifndef GR_ASM_CALLERS_H
#define GR_ASM_CALLERS_H

#include <stddef.h>
#include <stdint.h>

#include "elf/elf_read.h"
#include "rewriter/find/program.h"

struct gr_asm_targets {
    uint64_t *addr;        /* sorted */
    size_t n, cap;
};

/* Collects the targets of every direct call and jmp in an assembly
 * function (a .s file) of prog that leave it. -1: out of memory. */
int gr_asm_targets_find(const struct gr_elf *elf, const struct gr_program *prog,
                        struct gr_asm_targets *out);

/* Is addr one of them? */
int gr_asm_targets_has(const struct gr_asm_targets *t, uint64_t addr);

void gr_asm_targets_free(struct gr_asm_targets *t);

#endif
