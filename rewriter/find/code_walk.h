/* code_walk.h: decoding a runtime function of the input one instruction
 * at a time (Zydis), for the runtime offsets' derivations (offsets_code.c,
 * offsets_types.c). */
#ifndef GR_CODE_WALK_H
#define GR_CODE_WALK_H

#include <stddef.h>
#include <stdint.h>

#include <Zydis/Zydis.h>

#include "elf/elf_read.h"
#include "rewriter/find/program.h"

struct gr_code_walk {
    ZydisDecoder zy;
    const uint8_t *code;
    size_t size, off;
    uint64_t base;            /* address of code[0] */
    uint64_t addr;            /* address of insn */
    ZydisDecodedInstruction insn;
    ZydisDecodedOperand ops[ZYDIS_MAX_OPERAND_COUNT];
};

/* Starts at f's entry; -1 when its bytes are not in the file. */
int gr_code_walk_start(struct gr_code_walk *w, const struct gr_elf *elf, const struct gr_func *f);

/* Decodes the next instruction into w: 1, or 0 at the end or on bytes
 * that do not decode. */
int gr_code_walk_next(struct gr_code_walk *w);

/* The absolute address a RIP-relative memory operand or a relative
 * branch operand names: 0 with *addr set, -1 for other operands. */
int gr_code_walk_target(const struct gr_code_walk *w, const ZydisDecodedOperand *op,
                        uint64_t *addr);

/* The 64-bit register holding r (EAX -> RAX), or ZYDIS_REGISTER_NONE
 * when r is not a general-purpose register. */
ZydisRegister gr_code_gpr64(ZydisRegister r);

#endif
