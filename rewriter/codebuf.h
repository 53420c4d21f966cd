/* codebuf.h: a growing buffer of machine code at a known run-time address,
 * written through the Zydis encoder (absolute-address requests, so every
 * rip-relative operand and branch is computed for where the code will run). */
#ifndef GR_CODEBUF_H
#define GR_CODEBUF_H

#include <stddef.h>
#include <stdint.h>

#include <Zydis/Zydis.h>

#include "error.h"
#include "prologue.h"

struct gr_codebuf {
    uint8_t *bytes;
    size_t len;
    size_t cap;
    uint64_t base;          /* run-time (link-time) address of bytes[0] */
};

static inline uint64_t gr_code_here(const struct gr_codebuf *c)
{
    return c->base + c->len;
}

int gr_code_init(struct gr_codebuf *c, uint64_t base, struct gr_error *err);
void gr_code_free(struct gr_codebuf *c);

/* Appends bytes, or fill bytes up to a multiple of align. */
int gr_code_append(struct gr_codebuf *c, const void *bytes, size_t n, struct gr_error *err);
int gr_code_pad(struct gr_codebuf *c, size_t align, uint8_t fill, struct gr_error *err);

/* Re-encodes a decoded instruction at the current address; relative
 * branches and rip-relative operands keep their absolute targets. */
int gr_emit_relocated(struct gr_codebuf *c, const struct gr_insn *in, struct gr_error *err);

/* Our own instructions. Branches are always rel32, so sizes do not depend
 * on targets and a two-pass layout is exact. */
int gr_emit_load(struct gr_codebuf *c, ZydisRegister dst, ZydisRegister base, int64_t disp,
                 struct gr_error *err);
int gr_emit_store(struct gr_codebuf *c, ZydisRegister base, int64_t disp, ZydisRegister src,
                  struct gr_error *err);
int gr_emit_test(struct gr_codebuf *c, ZydisRegister reg, struct gr_error *err);
int gr_emit_branch(struct gr_codebuf *c, ZydisMnemonic m, uint64_t target, struct gr_error *err);
int gr_emit_jmp_reg(struct gr_codebuf *c, ZydisRegister reg, struct gr_error *err);
int gr_emit_inc_reg(struct gr_codebuf *c, ZydisRegister reg, struct gr_error *err);
int gr_emit_inc_mem(struct gr_codebuf *c, ZydisRegister base, int64_t disp, struct gr_error *err);
int gr_emit_lock_inc_abs(struct gr_codebuf *c, uint64_t addr, struct gr_error *err);
int gr_emit_lea_abs(struct gr_codebuf *c, ZydisRegister reg, uint64_t addr, struct gr_error *err);
int gr_emit_mov_imm(struct gr_codebuf *c, ZydisRegister reg, int64_t imm, struct gr_error *err);
int gr_emit_lock_xadd_abs(struct gr_codebuf *c, uint64_t addr, ZydisRegister reg, struct gr_error *err);
int gr_emit_cmp_imm(struct gr_codebuf *c, ZydisRegister reg, int64_t imm, struct gr_error *err);
int gr_emit_imul_imm(struct gr_codebuf *c, ZydisRegister reg, int64_t imm, struct gr_error *err);
int gr_emit_add_abs(struct gr_codebuf *c, ZydisRegister reg, uint64_t addr, struct gr_error *err);

#endif
