/* leaf.h: the entry of a function without a stack check (part of stage 3,
 * patch planning): which first instructions the 5-byte jmp covers, and
 * whether they can run unchanged from a trampoline. */
#ifndef GR_LEAF_H
#define GR_LEAF_H

#include <stddef.h>
#include <stdint.h>

#include "rewriter/find/program.h"
#include "rewriter/plan/prologue.h"

/* What the program allows. */
struct gr_leaf_opts {
    int allow_guard;    /* instructions that can fault may be relocated, each
                           marked in guard_mask (the program's signal fields
                           are known) */
    int register_abi;   /* Go >= 1.17: compiled Go keeps g in R14, so its
                           fields are read without a guard */
    unsigned cover_to;  /* cover at least this many bytes (0: a jmp's 5), to
                           take in a return too close to the entry for an
                           return patch of its own (plan.c) */
};

/* Decodes the instructions that the jmp at entry covers into scratch and
 * fills out (shape GR_PROLOGUE_LEAF; len: the covered bytes, int3 padding
 * after a final ret or jmp included; ninsns: the instructions to relocate).
 * Returns NULL when every one can run from a trampoline, else the reason
 * not. The function's own branches into the covered bytes are checked
 * later, with the rest of its body (returns.c). */
const char *gr_leaf_match(const struct gr_func *f, const uint8_t *code, size_t size,
                          const struct gr_leaf_opts *opts, struct gr_insn scratch[GR_PROLOGUE_MAX_INSNS],
                          struct gr_prologue *out);

/* The guard of a relocated instruction that can fault (trampoline.c:
 * lea r12, [its address]; cmp r12, 0x1000; jb <nil fault>), shared with
 * the returns (returns.c): can memory operand mem be guarded; which of R12
 * (bit 1) and R13 (bit 2) the instruction reads, and sets whole; does it
 * set all six status flags. */
int gr_leaf_guardable(const ZydisDecodedInstruction *in, const ZydisDecodedOperand *ops, unsigned mem);
unsigned gr_leaf_scratch_reads(const ZydisDecodedInstruction *in, const ZydisDecodedOperand *ops);
unsigned gr_leaf_scratch_writes(const ZydisDecodedInstruction *in, const ZydisDecodedOperand *ops);
int gr_leaf_writes_all_flags(const ZydisDecodedInstruction *in);

#endif
