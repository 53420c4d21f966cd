/* exported by rewriter/find */
/* insn_quick.h: the instruction sweeps' decoder (returns.c, call_sites.c).
 * Zydis, even in minimal mode, spends ~800 host instructions per decoded
 * instruction, and the sweeps decode every instruction of every function
 * twice: most of the rewrite. The common encodings of Go's compiler
 * (integer ALU, moves, SSE with ModRM, branches) are measured here from
 * a table; anything else goes to Zydis, so the answer is always Zydis's. */
#ifndef GR_INSN_QUICK_H
#define GR_INSN_QUICK_H

#include <stddef.h>
#include <stdint.h>

#include <Zydis/Zydis.h>

/* Decodes the instruction at p (avail bytes readable) like
 * ZydisDecoderDecodeInstruction with minimal, a decoder in minimal mode.
 * Only length, mnemonic (exact for ret, int3 and branches), meta.category
 * (exact for branches, calls and ret; ZYDIS_CATEGORY_INVALID for an
 * instruction that neither branches nor traps) and raw.imm[0]'s
 * is_relative and value.s are set when the table answers; the sweeps read
 * nothing else. Returns Zydis's status. */
ZyanStatus gr_insn_quick(const ZydisDecoder *minimal, const uint8_t *p, size_t avail,
                         ZydisDecodedInstruction *in);

#endif
