/* offsets_code.h: g.m, g.stack.hi and m.tls read from the program's own
 * runtime.rt0_go, which every Go binary carries (pclntab names it even in
 * stripped ones). Its amd64 assembly (runtime/asm_amd64.s, the same shape
 * in Go 1.15 to 1.27) does, in this order:
 *     LEAQ runtime·g0(SB), DI;  MOVQ SP, (g_stack+stack_hi)(DI)
 *     LEAQ runtime·m0+m_tls(SB), DI;  CALL runtime·settls(SB)
 *     LEAQ runtime·g0(SB), CX;  LEAQ runtime·m0(SB), AX
 *     MOVQ CX, m_g0(AX);  MOVQ AX, g_m(CX)
 * so the offsets are the displacements of those stores, and m.tls is the
 * settls argument minus the address of m0. */
#ifndef GR_OFFSETS_CODE_H
#define GR_OFFSETS_CODE_H

#include "elf/elf_read.h"
#include "rewriter/find/program.h"
#include "rewriter/find/runtime_offsets.h"

/* Sets in *out what rt0_go shows; leaves the rest unset. */
void gr_offsets_from_code(const struct gr_elf *elf, const struct gr_program *prog,
                         struct gr_go_found *out);

#endif
