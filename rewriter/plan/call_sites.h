/* call_sites.h: direct calls and jumps that can go straight to a
 * trampoline (part of stage 3, patch planning). A `call rel32` or
 * `jmp rel32` whose target is the entry of an instrumented function would
 * reach the trampoline through the entry's jmp: retargeting its rel32 at
 * the trampoline itself saves that taken jump on every call, and is all
 * the cost counting has left (docs/counting.md). The call instruction stays
 * where it is, so the return address it pushes is the program's own, as
 * before. Calls through registers, and calls we could not prove are
 * instructions, keep going through the entry. */
#ifndef GR_CALL_SITES_H
#define GR_CALL_SITES_H

#include <stddef.h>
#include <stdint.h>

#include "elf/elf_read.h"
#include "rewriter/plan/plan.h"

/* Every direct call and jmp rel32 in the program's functions that targets
 * an instrumented function's entry and lies outside every patched range
 * (entries and returns). -1: out of memory. */
int gr_call_sites_find(const struct gr_elf *elf, const struct gr_plan *plan,
                       struct gr_call_sites *out);

void gr_call_sites_free(struct gr_call_sites *cs);

#endif
