/* codebuf.c: encoding instructions into a gr_codebuf with Zydis.
 *
 * Encoding is a third of a rewrite's time, and most of what the
 * trampolines emit repeats (mov r12,[r14+g.m], test r12,r12, ...): an
 * instruction without a branch or rip-relative operand encodes to the
 * same bytes anywhere, so gr_emit keeps the last encoding of each in a
 * small direct-mapped table; near branches are written directly (E9 or
 * 0F 8x and a rel32, what Zydis writes for them). */
#include "rewriter/gen/codebuf.h"
#include "common/vec.h"

#include <stdlib.h>
#include <string.h>

#define MEMO_SLOTS 1024
#define MEMO_OPS 4

struct memo_key {
    ZydisMnemonic m;
    ZydisInstructionAttributes prefixes;
    unsigned nops;
    struct gr_operand ops[MEMO_OPS];
};

struct memo_slot {
    struct memo_key key;
    uint8_t len;            /* 0: empty */
    uint8_t bytes[ZYDIS_MAX_INSTRUCTION_LENGTH];
};

struct gr_emit_memo {
    struct memo_slot slot[MEMO_SLOTS];
};

int gr_code_init(struct gr_codebuf *c, uint64_t base, struct gr_error *err)
{
    c->cap = 1 << 16;
    c->len = 0;
    c->base = base;
    c->bytes = malloc(c->cap);
    c->memo = calloc(1, sizeof *c->memo);
    return c->bytes && c->memo ? 0 : gr_fail_as(err, GR_ERR_INTERNAL, "out of memory for trampolines");
}

void gr_code_free(struct gr_codebuf *c)
{
    free(c->bytes);
    free(c->memo);
    memset(c, 0, sizeof *c);
}

static int reserve(struct gr_codebuf *c, size_t n, struct gr_error *err)
{
    uint8_t *p = gr_vec_grow(c->bytes, &c->cap, c->len + n, 1);
    if (!p)
        return gr_fail_as(err, GR_ERR_INTERNAL, "out of memory for trampolines");
    c->bytes = p;
    return 0;
}

/* n more bytes at the end, counted in len: where they start, or NULL. */
static uint8_t *extend(struct gr_codebuf *c, size_t n, struct gr_error *err)
{
    if (reserve(c, n, err) < 0)
        return NULL;
    c->len += n;
    return c->bytes + c->len - n;
}

int gr_code_append(struct gr_codebuf *c, const void *bytes, size_t n, struct gr_error *err)
{
    uint8_t *at = extend(c, n, err);
    if (at)
        memcpy(at, bytes, n);
    return at ? 0 : -1;
}

int gr_code_fill(struct gr_codebuf *c, size_t n, uint8_t fill, struct gr_error *err)
{
    uint8_t *at = extend(c, n, err);
    if (at)
        memset(at, fill, n);
    return at ? 0 : -1;
}

int gr_code_pad(struct gr_codebuf *c, size_t align, uint8_t fill, struct gr_error *err)
{
    return gr_code_fill(c, (align - c->len % align) % align, fill, err);
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

int gr_emit_relocated(struct gr_codebuf *c, const struct gr_insn *in, struct gr_error *err)
{
    return gr_emit_relocated_reg(c, in, ZYDIS_REGISTER_NONE, ZYDIS_REGISTER_NONE, err);
}

int gr_emit_tls_load(struct gr_codebuf *c, const struct gr_insn *tls, unsigned ntls,
                     ZydisRegister to, struct gr_error *err)
{
    ZydisRegister from = ntls ? tls[0].ops[0].reg.value : ZYDIS_REGISTER_NONE;
    for (unsigned i = 0; i < ntls; i++)
        if (gr_emit_relocated_reg(c, &tls[i], from, to, err) < 0)
            return -1;
    return 0;
}

void gr_code_patch_rel32(struct gr_codebuf *c, size_t field)
{
    int32_t rel = (int32_t)(gr_code_here(c) - (c->base + field + 4));
    memcpy(c->bytes + field, &rel, sizeof rel);
}

/* Renames register from to to in a request's register and base operands. */
static void rename_reg(ZydisEncoderRequest *req, ZydisRegister from, ZydisRegister to)
{
    for (unsigned i = 0; from != ZYDIS_REGISTER_NONE && i < req->operand_count; i++) {
        ZydisEncoderOperand *op = &req->operands[i];
        if (op->type == ZYDIS_OPERAND_TYPE_REGISTER && op->reg.value == from)
            op->reg.value = to;
        if (op->type == ZYDIS_OPERAND_TYPE_MEMORY && op->mem.base == from)
            op->mem.base = to;
    }
}

int gr_emit_relocated_reg(struct gr_codebuf *c, const struct gr_insn *in, ZydisRegister from,
                          ZydisRegister to, struct gr_error *err)
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
    rename_reg(&req, from, to);
    return encode(c, &req, err);
}

static void set_operand(ZydisEncoderOperand *op, const struct gr_operand *src)
{
    switch (src->kind) {
    case GR_OP_REG:
        op->type = ZYDIS_OPERAND_TYPE_REGISTER;
        op->reg.value = src->reg;
        break;
    case GR_OP_MEM:
    case GR_OP_MEM32:
        op->type = ZYDIS_OPERAND_TYPE_MEMORY;
        op->mem.base = src->reg;
        op->mem.displacement = src->value;
        op->mem.size = src->kind == GR_OP_MEM32 ? 4 : 8;
        break;
    case GR_OP_FS:
        op->type = ZYDIS_OPERAND_TYPE_MEMORY;
        op->mem.base = ZYDIS_REGISTER_NONE;
        op->mem.displacement = src->value;
        op->mem.size = 8;
        break;
    case GR_OP_IMM:
        op->type = ZYDIS_OPERAND_TYPE_IMMEDIATE;
        op->imm.s = src->value;
        break;
    }
}

/* The memo key of an instruction whose bytes do not depend on where it is
 * (no branch, no rip-relative operand), or 0. Keys are compared whole:
 * zeroed first, so padding is equal too. */
static int memo_key(ZydisMnemonic m, ZydisInstructionAttributes prefixes, unsigned nops,
                    const struct gr_operand *ops, struct memo_key *k)
{
    const char *name = ZydisMnemonicGetString(m);
    if (nops > MEMO_OPS || !name || name[0] == 'j' || m == ZYDIS_MNEMONIC_CALL)
        return 0;
    memset(k, 0, sizeof *k);
    k->m = m;
    k->prefixes = prefixes;
    k->nops = nops;
    for (unsigned i = 0; i < nops; i++) {
        if (ops[i].kind == GR_OP_MEM && ops[i].reg == ZYDIS_REGISTER_RIP)
            return 0;
        k->ops[i].kind = ops[i].kind;
        k->ops[i].reg = ops[i].reg;
        k->ops[i].value = ops[i].value;
    }
    return 1;
}

static struct memo_slot *memo_slot(struct gr_emit_memo *memo, const struct memo_key *k)
{
    const uint8_t *p = (const uint8_t *)k;
    uint64_t h = 1469598103934665603ull;          /* FNV-1a */
    for (size_t i = 0; i < sizeof *k; i++)
        h = (h ^ p[i]) * 1099511628211ull;
    return &memo->slot[h % MEMO_SLOTS];
}

int gr_emit(struct gr_codebuf *c, ZydisMnemonic m, ZydisInstructionAttributes prefixes,
            unsigned nops, const struct gr_operand *ops, struct gr_error *err)
{
    struct memo_key k;
    struct memo_slot *slot = NULL;
    if (c->memo && memo_key(m, prefixes, nops, ops, &k)) {
        slot = memo_slot(c->memo, &k);
        if (slot->len && memcmp(&slot->key, &k, sizeof k) == 0)
            return gr_code_append(c, slot->bytes, slot->len, err);
    }
    ZydisEncoderRequest r = request(m, nops);
    r.prefixes = prefixes;
    for (unsigned i = 0; i < nops && i < ZYDIS_ENCODER_MAX_OPERANDS; i++) {
        set_operand(&r.operands[i], &ops[i]);
        if (ops[i].kind == GR_OP_FS)
            r.prefixes |= ZYDIS_ATTRIB_HAS_SEGMENT_FS;
    }
    size_t at = c->len;
    if (encode(c, &r, err) < 0)
        return -1;
    if (slot) {
        slot->key = k;
        slot->len = (uint8_t)(c->len - at);
        memcpy(slot->bytes, c->bytes + at, slot->len);
    }
    return 0;
}

/* The opcode bytes of a near rel32 jmp or jcc, or 0 for other mnemonics. */
static unsigned branch_opcode(ZydisMnemonic m, uint8_t op[2])
{
    static const struct {
        ZydisMnemonic m;
        uint8_t cc;
    } jcc[] = {
        {ZYDIS_MNEMONIC_JO, 0x80},  {ZYDIS_MNEMONIC_JNO, 0x81}, {ZYDIS_MNEMONIC_JB, 0x82},
        {ZYDIS_MNEMONIC_JNB, 0x83}, {ZYDIS_MNEMONIC_JZ, 0x84},  {ZYDIS_MNEMONIC_JNZ, 0x85},
        {ZYDIS_MNEMONIC_JBE, 0x86}, {ZYDIS_MNEMONIC_JNBE, 0x87}, {ZYDIS_MNEMONIC_JS, 0x88},
        {ZYDIS_MNEMONIC_JNS, 0x89}, {ZYDIS_MNEMONIC_JP, 0x8a},  {ZYDIS_MNEMONIC_JNP, 0x8b},
        {ZYDIS_MNEMONIC_JL, 0x8c},  {ZYDIS_MNEMONIC_JNL, 0x8d}, {ZYDIS_MNEMONIC_JLE, 0x8e},
        {ZYDIS_MNEMONIC_JNLE, 0x8f},
    };
    if (m == ZYDIS_MNEMONIC_JMP) {
        op[0] = 0xe9;
        return 1;
    }
    for (size_t i = 0; i < sizeof jcc / sizeof jcc[0]; i++)
        if (jcc[i].m == m) {
            op[0] = 0x0f;
            op[1] = jcc[i].cc;
            return 2;
        }
    return 0;
}

int gr_emit_branch(struct gr_codebuf *c, ZydisMnemonic m, uint64_t target, struct gr_error *err)
{
    uint8_t insn[6];
    unsigned n = branch_opcode(m, insn);
    int64_t rel = (int64_t)(target - (gr_code_here(c) + n + 4));
    if (n && rel >= INT32_MIN && rel <= INT32_MAX) {
        int32_t rel32 = (int32_t)rel;
        memcpy(insn + n, &rel32, 4);
        return gr_code_append(c, insn, n + 4, err);
    }
    ZydisEncoderRequest r = request(m, 1);
    r.operands[0].type = ZYDIS_OPERAND_TYPE_IMMEDIATE;
    r.operands[0].imm.u = target;
    r.branch_type = ZYDIS_BRANCH_TYPE_NEAR;
    r.branch_width = ZYDIS_BRANCH_WIDTH_32;
    return encode(c, &r, err);
}

int gr_emit_lea_of(struct gr_codebuf *c, ZydisRegister dst, const ZydisDecodedOperand *mem,
                   struct gr_error *err)
{
    ZydisEncoderRequest r = request(ZYDIS_MNEMONIC_LEA, 2);
    r.operands[0].type = ZYDIS_OPERAND_TYPE_REGISTER;
    r.operands[0].reg.value = dst;
    r.operands[1].type = ZYDIS_OPERAND_TYPE_MEMORY;
    r.operands[1].mem.base = mem->mem.base;
    r.operands[1].mem.index = mem->mem.index;
    r.operands[1].mem.scale = mem->mem.index != ZYDIS_REGISTER_NONE ? mem->mem.scale : 0;
    r.operands[1].mem.displacement = mem->mem.disp.value;
    r.operands[1].mem.size = 8;
    return encode(c, &r, err);
}

int gr_emit_store32(struct gr_codebuf *c, ZydisRegister base, int64_t disp, uint32_t value,
                    struct gr_error *err)
{
    ZydisEncoderRequest r = request(ZYDIS_MNEMONIC_MOV, 2);
    r.operands[0].type = ZYDIS_OPERAND_TYPE_MEMORY;
    r.operands[0].mem.base = base;
    r.operands[0].mem.displacement = disp;
    r.operands[0].mem.size = 4;
    r.operands[1].type = ZYDIS_OPERAND_TYPE_IMMEDIATE;
    r.operands[1].imm.u = value;
    return encode(c, &r, err);
}

/* Short forms: a jcc rel8 is 0x70 + cc where the rel32 form is 0f 80 + cc. */
int gr_emit_branch8(struct gr_codebuf *c, ZydisMnemonic m, uint64_t target, struct gr_error *err)
{
    uint8_t op[2];
    unsigned n = branch_opcode(m, op);
    int64_t rel = (int64_t)(target - (gr_code_here(c) + 2));
    if (!n || rel < INT8_MIN || rel > INT8_MAX)
        return gr_fail_as(err, GR_ERR_INTERNAL, "internal error: no short branch from 0x%llx to 0x%llx",
                          (unsigned long long)gr_code_here(c), (unsigned long long)target);
    uint8_t insn[2] = {n == 1 ? 0xeb : (uint8_t)(op[1] - 0x10), (uint8_t)(int8_t)rel};
    return gr_code_append(c, insn, sizeof insn, err);
}

int gr_emit_branch_to(struct gr_codebuf *c, ZydisMnemonic m, uint64_t target, struct gr_error *err)
{
    int64_t rel = (int64_t)(target - (gr_code_here(c) + 2));
    if (target < gr_code_here(c) && rel >= INT8_MIN)
        return gr_emit_branch8(c, m, target, err);
    return gr_emit_branch(c, m, target, err);
}

int gr_code_patch_rel8(struct gr_codebuf *c, size_t field, uint64_t target, struct gr_error *err)
{
    int64_t rel = (int64_t)(target - (c->base + field + 1));
    if (rel < INT8_MIN || rel > INT8_MAX)
        return gr_fail_as(err, GR_ERR_INTERNAL, "internal error: short branch at 0x%llx cannot reach 0x%llx",
                          (unsigned long long)(c->base + field - 1), (unsigned long long)target);
    c->bytes[field] = (uint8_t)(int8_t)rel;
    return 0;
}
