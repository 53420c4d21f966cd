/* codebuf.h: a growing buffer of machine code at a known run-time address,
 * written through the Zydis encoder (absolute-address requests, so every
 * rip-relative operand and branch is computed for where the code will run). */
#ifndef GR_CODEBUF_H
#define GR_CODEBUF_H

#include <stddef.h>
#include <stdint.h>

#include <Zydis/Zydis.h>

#include "common/error.h"
#include "rewriter/plan/prologue.h"

struct gr_emit_memo;

struct gr_codebuf {
    uint8_t *bytes;
    size_t len;
    size_t cap;
    uint64_t base;          /* run-time (link-time) address of bytes[0] */
    struct gr_emit_memo *memo; /* gr_emit's encodings of position-independent
                                  instructions (NULL: none kept) */
};

static inline uint64_t gr_code_here(const struct gr_codebuf *c)
{
    return c->base + c->len;
}

int gr_code_init(struct gr_codebuf *c, uint64_t base, struct gr_error *err);
void gr_code_free(struct gr_codebuf *c);

/* Appends bytes; n copies of fill; fill up to a multiple of align. */
int gr_code_append(struct gr_codebuf *c, const void *bytes, size_t n, struct gr_error *err);
int gr_code_fill(struct gr_codebuf *c, size_t n, uint8_t fill, struct gr_error *err);
int gr_code_pad(struct gr_codebuf *c, size_t align, uint8_t fill, struct gr_error *err);

/* Re-encodes a decoded instruction at the current address; relative
 * branches and rip-relative operands keep their absolute targets. */
int gr_emit_relocated(struct gr_codebuf *c, const struct gr_insn *in, struct gr_error *err);

/* The same with register from renamed to (64-bit registers; operands and
 * memory bases): replays the program's TLS load of g into a scratch
 * register. */
int gr_emit_relocated_reg(struct gr_codebuf *c, const struct gr_insn *in, ZydisRegister from,
                          ZydisRegister to, struct gr_error *err);

/* The program's TLS load of g (ntls instructions, decoded), replayed into
 * register to. */
int gr_emit_tls_load(struct gr_codebuf *c, const struct gr_insn *tls, unsigned ntls,
                     ZydisRegister to, struct gr_error *err);

/* Points the rel32 or disp32 at field (the last 4 bytes of an instruction
 * emitted earlier) at the current end of the code. */
void gr_code_patch_rel32(struct gr_codebuf *c, size_t field);

/* Returns -1 from the enclosing emitter when an emit fails. */
#define GR_TRY(emit) \
    do {                      \
        if ((emit) < 0)       \
            return -1;        \
    } while (0)

/* An operand of an instruction we emit ourselves. */
struct gr_operand {
    enum { GR_OP_REG, GR_OP_MEM, GR_OP_MEM32, GR_OP_IMM, GR_OP_FS } kind;
    ZydisRegister reg;      /* GR_OP_REG: the register; GR_OP_MEM: the base */
    int64_t value;          /* GR_OP_MEM: displacement (absolute address when
                               the base is RIP); GR_OP_IMM: the immediate;
                               GR_OP_FS: the qword at fs:[value] */
};

#define GR_REG(r) ((struct gr_operand){GR_OP_REG, (r), 0})
#define GR_MEM(base, disp) ((struct gr_operand){GR_OP_MEM, (base), (int64_t)(disp)})
#define GR_MEM32(base, disp) ((struct gr_operand){GR_OP_MEM32, (base), (int64_t)(disp)})
#define GR_ABS(addr) GR_MEM(ZYDIS_REGISTER_RIP, (addr))
#define GR_FS(disp) ((struct gr_operand){GR_OP_FS, ZYDIS_REGISTER_NONE, (int64_t)(disp)})
#define GR_IMM(v) ((struct gr_operand){GR_OP_IMM, ZYDIS_REGISTER_NONE, (int64_t)(v)})

/* Emits one instruction; memory operands are qwords (GR_MEM32: dwords). prefixes: 0 or
 * ZYDIS_ATTRIB_HAS_LOCK. */
int gr_emit(struct gr_codebuf *c, ZydisMnemonic m, ZydisInstructionAttributes prefixes,
            unsigned nops, const struct gr_operand *ops, struct gr_error *err);

#define GR_EMIT(c, err, m, ...) \
    gr_emit((c), ZYDIS_MNEMONIC_##m, 0, sizeof((struct gr_operand[]){__VA_ARGS__}) / sizeof(struct gr_operand), \
            (struct gr_operand[]){__VA_ARGS__}, (err))
#define GR_EMIT_LOCKED(c, err, m, ...) \
    gr_emit((c), ZYDIS_MNEMONIC_##m, ZYDIS_ATTRIB_HAS_LOCK, sizeof((struct gr_operand[]){__VA_ARGS__}) / sizeof(struct gr_operand), \
            (struct gr_operand[]){__VA_ARGS__}, (err))

/* lea dst, [the address of memory operand mem] (base, index, scale, disp;
 * not RIP-relative). */
int gr_emit_lea_of(struct gr_codebuf *c, ZydisRegister dst, const ZydisDecodedOperand *mem,
                   struct gr_error *err);

/* mov dword [base + disp], value */
int gr_emit_store32(struct gr_codebuf *c, ZydisRegister base, int64_t disp, uint32_t value,
                    struct gr_error *err);

/* A near branch to an absolute target, always rel32, so that sizes do not
 * depend on targets: a forward reference can be patched in place. */
int gr_emit_branch(struct gr_codebuf *c, ZydisMnemonic m, uint64_t target, struct gr_error *err);

/* A short (rel8) jmp or jcc to target, which must be in reach (-1
 * otherwise); a forward one aims at its own end and is patched by
 * gr_code_patch_rel8 (its rel8 byte at field), which checks the reach. */
int gr_emit_branch8(struct gr_codebuf *c, ZydisMnemonic m, uint64_t target, struct gr_error *err);
int gr_code_patch_rel8(struct gr_codebuf *c, size_t field, uint64_t target, struct gr_error *err);

/* A branch to a target already emitted: rel8 when in reach, else rel32. */
int gr_emit_branch_to(struct gr_codebuf *c, ZydisMnemonic m, uint64_t target, struct gr_error *err);

#endif
