/* exported by rewriter/find */
/* find.h: stage 2 in one call: the program's functions, the Go release
 * that built it and its runtime offsets, decided (offsets_decide.h). */
#ifndef GR_FIND_H
#define GR_FIND_H

#include <stdio.h>

#include "common/error.h"
#include "elf/elf_read.h"
#include "rewriter/find/program.h"

/* Reads prog from elf and decides its runtime offsets; strict refuses a
 * release newer than every verified row. 0, or -1 with the reason. */
int gr_find_program(const struct gr_elf *elf, int strict, struct gr_program *prog,
                    struct gr_error *err);

/* Announces on log what was accepted with a caveat: offsets no verified
 * row vouches for, DWARF that could not be read. */
void gr_find_warn(FILE *log, const struct gr_elf *elf, const struct gr_program *prog);

#endif
