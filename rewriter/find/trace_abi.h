/* trace_abi.h: where Go passes each argument and result (trace_layout.c):
 * the register ABI's assignment algorithm (cmd/compile/abi-internal.md,
 * Go >= 1.17, ABIInternal) and the stack ABI (Go 1.15/1.16 and ABI0). */
#ifndef GR_TRACE_ABI_H
#define GR_TRACE_ABI_H

#include <stddef.h>
#include <stdint.h>

#include "rewriter/find/trace_types.h"

#define GR_ABI_INT_REGS 9    /* RAX RBX RCX RDI RSI R8 R9 R10 R11 */
#define GR_ABI_FLOAT_REGS 15 /* X0 .. X14 */

struct gr_abi_place {
    int on_stack;
    uint32_t stack_off;      /* from the first argument's byte ([RSP+8] at entry) */
    uint8_t int_reg;         /* first register index in each sequence */
    uint8_t float_reg;
};

/* Places the n parameters (arguments then results, params[i].result set
 * for results) by the register ABI when regabi, else all on the stack. */
void gr_abi_assign(const struct gr_tv_param *params, size_t n, int regabi, struct gr_abi_place *out);

/* x86 encoding of integer register index i of the register ABI. */
uint8_t gr_abi_int_reg(unsigned i);

#endif
