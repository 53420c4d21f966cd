/* codebuf.c: encoding instructions into a gr_codebuf with Zydis. */
#include "codebuf.h"

#include <stdlib.h>
#include <string.h>

int gr_code_init(struct gr_codebuf *c, uint64_t base, struct gr_error *err)
{
    c->cap = 1 << 16;
    c->len = 0;
    c->base = base;
    c->bytes = malloc(c->cap);
    return c->bytes ? 0 : gr_fail(err, "out of memory for trampolines");
}

void gr_code_free(struct gr_codebuf *c)
{
    free(c->bytes);
    memset(c, 0, sizeof *c);
}

static int reserve(struct gr_codebuf *c, size_t n, struct gr_error *err)
{
    if (c->len + n <= c->cap)
        return 0;
    size_t cap = c->cap * 2 > c->len + n ? c->cap * 2 : c->len + n;
    uint8_t *p = realloc(c->bytes, cap);
    if (!p)
        return gr_fail(err, "out of memory for trampolines");
    c->bytes = p;
    c->cap = cap;
    return 0;
}

int gr_code_append(struct gr_codebuf *c, const void *bytes, size_t n, struct gr_error *err)
{
    if (reserve(c, n, err) < 0)
        return -1;
    memcpy(c->bytes + c->len, bytes, n);
    c->len += n;
    return 0;
}

int gr_code_pad(struct gr_codebuf *c, size_t align, uint8_t fill, struct gr_error *err)
{
    size_t n = (align - c->len % align) % align;
    if (reserve(c, n, err) < 0)
        return -1;
    memset(c->bytes + c->len, fill, n);
    c->len += n;
    return 0;
}

static int encode(struct gr_codebuf *c, ZydisEncoderRequest *req, struct gr_error *err)
{
    if (reserve(c, ZYDIS_MAX_INSTRUCTION_LENGTH, err) < 0)
        return -1;
    ZyanUSize len = ZYDIS_MAX_INSTRUCTION_LENGTH;
    ZyanStatus st = ZydisEncoderEncodeInstructionAbsolute(req, c->bytes + c->len, &len, gr_code_here(c));
    if (!ZYAN_SUCCESS(st))
        return gr_fail(err, "Zydis could not encode %s at 0x%llx (status 0x%x)",
                       ZydisMnemonicGetString(req->mnemonic), (unsigned long long)gr_code_here(c), st);
    c->len += len;
    return 0;
}

static ZydisEncoderRequest request(ZydisMnemonic m, unsigned nops)
{
    ZydisEncoderRequest r;
    memset(&r, 0, sizeof r);
    r.machine_mode = ZYDIS_MACHINE_MODE_LONG_64;
    r.mnemonic = m;
    r.operand_count = (ZyanU8)nops;
    return r;
}

static void op_reg(ZydisEncoderOperand *op, ZydisRegister reg)
{
    op->type = ZYDIS_OPERAND_TYPE_REGISTER;
    op->reg.value = reg;
}

static void op_mem(ZydisEncoderOperand *op, ZydisRegister base, int64_t disp)
{
    op->type = ZYDIS_OPERAND_TYPE_MEMORY;
    op->mem.base = base;
    op->mem.displacement = disp;
    op->mem.size = 8;
}

static void op_imm(ZydisEncoderOperand *op, int64_t imm)
{
    op->type = ZYDIS_OPERAND_TYPE_IMMEDIATE;
    op->imm.s = imm;
}

int gr_emit_relocated(struct gr_codebuf *c, const struct gr_insn *in, struct gr_error *err)
{
    ZydisEncoderRequest req;
    if (!ZYAN_SUCCESS(ZydisEncoderDecodedInstructionToEncoderRequest(
            &in->insn, in->ops, in->insn.operand_count_visible, &req)))
        return gr_fail(err, "cannot re-encode instruction at 0x%llx", (unsigned long long)in->addr);
    for (unsigned i = 0; i < in->insn.operand_count_visible; i++) {
        const ZydisDecodedOperand *op = &in->ops[i];
        int relative = (op->type == ZYDIS_OPERAND_TYPE_IMMEDIATE && op->imm.is_relative) ||
                       (op->type == ZYDIS_OPERAND_TYPE_MEMORY && op->mem.base == ZYDIS_REGISTER_RIP);
        uint64_t target;
        if (!relative)
            continue;
        if (!ZYAN_SUCCESS(ZydisCalcAbsoluteAddress(&in->insn, op, in->addr, &target)))
            return gr_fail(err, "cannot resolve target of instruction at 0x%llx",
                           (unsigned long long)in->addr);
        if (op->type == ZYDIS_OPERAND_TYPE_IMMEDIATE) {
            req.operands[i].imm.u = target;
            req.branch_type = ZYDIS_BRANCH_TYPE_NEAR;
            req.branch_width = ZYDIS_BRANCH_WIDTH_32;
        } else {
            req.operands[i].mem.displacement = (int64_t)target;
        }
    }
    return encode(c, &req, err);
}

int gr_emit_load(struct gr_codebuf *c, ZydisRegister dst, ZydisRegister base, int64_t disp,
                 struct gr_error *err)
{
    ZydisEncoderRequest r = request(ZYDIS_MNEMONIC_MOV, 2);
    op_reg(&r.operands[0], dst);
    op_mem(&r.operands[1], base, disp);
    return encode(c, &r, err);
}

int gr_emit_store(struct gr_codebuf *c, ZydisRegister base, int64_t disp, ZydisRegister src,
                  struct gr_error *err)
{
    ZydisEncoderRequest r = request(ZYDIS_MNEMONIC_MOV, 2);
    op_mem(&r.operands[0], base, disp);
    op_reg(&r.operands[1], src);
    return encode(c, &r, err);
}

int gr_emit_test(struct gr_codebuf *c, ZydisRegister reg, struct gr_error *err)
{
    ZydisEncoderRequest r = request(ZYDIS_MNEMONIC_TEST, 2);
    op_reg(&r.operands[0], reg);
    op_reg(&r.operands[1], reg);
    return encode(c, &r, err);
}

int gr_emit_branch(struct gr_codebuf *c, ZydisMnemonic m, uint64_t target, struct gr_error *err)
{
    ZydisEncoderRequest r = request(m, 1);
    op_imm(&r.operands[0], (int64_t)target);
    r.branch_type = ZYDIS_BRANCH_TYPE_NEAR;
    r.branch_width = ZYDIS_BRANCH_WIDTH_32;
    return encode(c, &r, err);
}

int gr_emit_jmp_reg(struct gr_codebuf *c, ZydisRegister reg, struct gr_error *err)
{
    ZydisEncoderRequest r = request(ZYDIS_MNEMONIC_JMP, 1);
    op_reg(&r.operands[0], reg);
    return encode(c, &r, err);
}

int gr_emit_inc_reg(struct gr_codebuf *c, ZydisRegister reg, struct gr_error *err)
{
    ZydisEncoderRequest r = request(ZYDIS_MNEMONIC_INC, 1);
    op_reg(&r.operands[0], reg);
    return encode(c, &r, err);
}

int gr_emit_inc_mem(struct gr_codebuf *c, ZydisRegister base, int64_t disp, struct gr_error *err)
{
    ZydisEncoderRequest r = request(ZYDIS_MNEMONIC_INC, 1);
    op_mem(&r.operands[0], base, disp);
    return encode(c, &r, err);
}

int gr_emit_lock_inc_abs(struct gr_codebuf *c, uint64_t addr, struct gr_error *err)
{
    ZydisEncoderRequest r = request(ZYDIS_MNEMONIC_INC, 1);
    op_mem(&r.operands[0], ZYDIS_REGISTER_RIP, (int64_t)addr);
    r.prefixes = ZYDIS_ATTRIB_HAS_LOCK;
    return encode(c, &r, err);
}

int gr_emit_lea_abs(struct gr_codebuf *c, ZydisRegister reg, uint64_t addr, struct gr_error *err)
{
    ZydisEncoderRequest r = request(ZYDIS_MNEMONIC_LEA, 2);
    op_reg(&r.operands[0], reg);
    op_mem(&r.operands[1], ZYDIS_REGISTER_RIP, (int64_t)addr);
    return encode(c, &r, err);
}

int gr_emit_mov_imm(struct gr_codebuf *c, ZydisRegister reg, int64_t imm, struct gr_error *err)
{
    ZydisEncoderRequest r = request(ZYDIS_MNEMONIC_MOV, 2);
    op_reg(&r.operands[0], reg);
    op_imm(&r.operands[1], imm);
    return encode(c, &r, err);
}

int gr_emit_lock_xadd_abs(struct gr_codebuf *c, uint64_t addr, ZydisRegister reg, struct gr_error *err)
{
    ZydisEncoderRequest r = request(ZYDIS_MNEMONIC_XADD, 2);
    op_mem(&r.operands[0], ZYDIS_REGISTER_RIP, (int64_t)addr);
    op_reg(&r.operands[1], reg);
    r.prefixes = ZYDIS_ATTRIB_HAS_LOCK;
    return encode(c, &r, err);
}

int gr_emit_cmp_imm(struct gr_codebuf *c, ZydisRegister reg, int64_t imm, struct gr_error *err)
{
    ZydisEncoderRequest r = request(ZYDIS_MNEMONIC_CMP, 2);
    op_reg(&r.operands[0], reg);
    op_imm(&r.operands[1], imm);
    return encode(c, &r, err);
}

int gr_emit_imul_imm(struct gr_codebuf *c, ZydisRegister reg, int64_t imm, struct gr_error *err)
{
    ZydisEncoderRequest r = request(ZYDIS_MNEMONIC_IMUL, 3);
    op_reg(&r.operands[0], reg);
    op_reg(&r.operands[1], reg);
    op_imm(&r.operands[2], imm);
    return encode(c, &r, err);
}

int gr_emit_add_abs(struct gr_codebuf *c, ZydisRegister reg, uint64_t addr, struct gr_error *err)
{
    ZydisEncoderRequest r = request(ZYDIS_MNEMONIC_ADD, 2);
    op_reg(&r.operands[0], reg);
    op_mem(&r.operands[1], ZYDIS_REGISTER_RIP, (int64_t)addr);
    return encode(c, &r, err);
}
