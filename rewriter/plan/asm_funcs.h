/* asm_funcs.h: which of the runtime's assembly functions may be counted
 * (part of stage 3, patch planning). Their entry state is known one by one
 * from the toolchains' amd64 assembly in src/runtime and src/internal/bytealg:
 * counted are those entered only by calls and jumps under Go's ABIs (R12,
 * R13 and flags dead) on a thread whose TLS already holds g; everything
 * else of the runtime's assembly stays skipped, with the reason. */
#ifndef GR_ASM_FUNCS_H
#define GR_ASM_FUNCS_H

#include <stddef.h>
#include <stdint.h>

#include <Zydis/Zydis.h>

#include "rewriter/find/program.h"

/* Is f assembly of the runtime's own packages (runtime, runtime/...,
 * internal/runtime/...), or one of the file-local bodies of
 * internal/bytealg and the runtime (memeqbody, aeshashbody, ...)? */
int gr_asm_is_runtime(const struct gr_func *f);

/* For such a function: NULL when its entry may be relocated and counted,
 * else why not. */
const char *gr_asm_runtime_reason(const struct gr_func *f);

/* Calls visit on each instruction of an assembly body, in linear order
 * (int3 padding skipped), until it returns non-zero; returns that value,
 * 0 at the end, -1 at bytes that do not decode. */
typedef int (*gr_asm_visit)(const ZydisDecodedInstruction *in, const ZydisDecodedOperand *ops,
                            void *ctx);
int gr_asm_sweep(const uint8_t *code, size_t size, gr_asm_visit visit, void *ctx);

/* Does the instruction write any part of R14? */
int gr_asm_writes_r14(const ZydisDecodedInstruction *in, const ZydisDecodedOperand *ops);

/* For assembly outside the runtime and package syscall (leaf_timing.c
 * rules those out first): NULL when a timed entry and timed returns may be
 * patched in, else why not. code: its size bytes; called_by_asm: some
 * assembly calls or jumps to it directly (asm_callers.h). */
const char *gr_asm_untimed_reason(const struct gr_func *f, const uint8_t *code, size_t size,
                                  int called_by_asm);

#endif
