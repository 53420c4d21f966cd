/* patches.h: the bytes that send the program's code into the new
 * segment: a jmp rel32 over each instrumented entry's stack check and
 * each patched return, and each call site's rel32 aimed at its callee's
 * trampoline. */
#ifndef GR_PATCHES_H
#define GR_PATCHES_H

#include <stddef.h>

#include "elf/elf_write.h"
#include "rewriter/gen/trampoline.h"
#include "rewriter/plan/plan.h"

/* Entry patches over the stack checks, return patches over the rets,
 * the call sites, then runtime.exit's entry; NULL when out of memory. */
struct gr_patch *gr_patches_build(const struct gr_plan *plan, const struct gr_tramp_addrs *t,
                                  size_t *npatches);

#endif
