/* insn_quick.c: see insn_quick.h. The table covers only encodings whose
 * length and class follow from opcode, ModRM and SIB alone; prefixes other
 * than REX, 66, F2 and F3 (segment, lock, address size), one-byte opcodes
 * with F2/F3, VEX and EVEX (rare outside assembly, and with many undefined
 * opcodes Zydis rejects) and every opcode not listed fall back to Zydis. */
#include "rewriter/find/insn_quick.h"

#include <string.h>

enum { NONE, MODRM, MODRM_I8, MODRM_IZ, I8, IZ, ONE };   /* operand bytes after the opcode */

/* One-byte map, without F2/F3: what follows the opcode (0 = not here). */
static uint8_t one_byte_form(uint8_t op, uint8_t modrm_reg)
{
    if (op < 0x40 && (op & 7) < 6)   /* ALU: 00-05, 08-0D ... 38-3D */
        return (op & 7) < 4 ? MODRM : (op & 7) == 4 ? I8 : IZ;
    if (op >= 0x50 && op <= 0x5f)
        return ONE;
    if (op >= 0x84 && op <= 0x8b)
        return MODRM;
    if (op >= 0x90 && op <= 0x99)
        return ONE;
    if (op >= 0xd0 && op <= 0xd3)
        return MODRM;
    if (op >= 0xb0 && op <= 0xb7)
        return I8;
    switch (op) {
    case 0x63: return MODRM;
    case 0x68: return IZ;
    case 0x69: return MODRM_IZ;
    case 0x6a: return I8;
    case 0x6b: return MODRM_I8;
    case 0x80: case 0x83: case 0xc0: case 0xc1: return MODRM_I8;
    case 0x81: return MODRM_IZ;
    case 0x8d: return MODRM;      /* lea; a register operand is checked by the caller */
    case 0xa8: return I8;
    case 0xa9: return IZ;
    case 0xc6: return modrm_reg == 0 ? MODRM_I8 : NONE;
    case 0xc7: return modrm_reg == 0 ? MODRM_IZ : NONE;
    case 0xf6: return modrm_reg == 0 ? MODRM_I8 : modrm_reg >= 2 ? MODRM : NONE;
    case 0xf7: return modrm_reg == 0 ? MODRM_IZ : modrm_reg >= 2 ? MODRM : NONE;
    case 0xfe: return modrm_reg <= 1 ? MODRM : NONE;
    case 0xff: return modrm_reg <= 2 || modrm_reg == 4 || modrm_reg == 6 ? MODRM : NONE;
    default: return NONE;
    }
}

/* Two-byte map (0F xx): what follows the opcode. */
static uint8_t two_byte_form(uint8_t op)
{
    if ((op >= 0x10 && op <= 0x17) || op == 0x1f || (op >= 0x28 && op <= 0x2f) ||
        (op >= 0x40 && op <= 0x6f) || (op >= 0x74 && op <= 0x76) || op == 0x7e || op == 0x7f ||
        (op >= 0x90 && op <= 0x9f) || op == 0xa3 || op == 0xa5 || op == 0xab || op == 0xad ||
        op == 0xaf || op == 0xb3 || (op >= 0xb6 && op <= 0xb7) || (op >= 0xbb && op <= 0xc1) ||
        op == 0xc3 || (op >= 0xd0 && op <= 0xfe))
        return MODRM;
    if ((op >= 0x70 && op <= 0x73) || op == 0xa4 || op == 0xac || op == 0xba || op == 0xc2 ||
        (op >= 0xc4 && op <= 0xc6))
        return MODRM_I8;
    if (op >= 0xc8 && op <= 0xcf)
        return ONE;
    return NONE;
}

/* Bytes of ModRM, SIB and displacement at p; 0 when not in avail. */
static size_t modrm_len(const uint8_t *p, size_t avail)
{
    if (avail < 1)
        return 0;
    unsigned mod = p[0] >> 6, rm = p[0] & 7;
    size_t n = 1;
    if (mod == 3)
        return n;
    if (rm == 4) {
        if (avail < 2)
            return 0;
        n++;
        if (mod == 0 && (p[1] & 7) == 5)
            n += 4;
    } else if (mod == 0 && rm == 5) {
        n += 4;                  /* rip-relative */
    }
    n += mod == 1 ? 1 : mod == 2 ? 4 : 0;
    return n;
}

struct shape {
    size_t at;        /* offset of the byte after the opcode */
    uint8_t form;
    int imm_bytes;    /* for IZ forms: 2 with 66, else 4 */
};

/* The length the form gives, or 0 when it runs past avail or 15 bytes. */
static size_t form_len(const uint8_t *p, size_t avail, const struct shape *s)
{
    size_t n = s->at;
    switch (s->form) {
    case ONE: break;
    case I8: n += 1; break;
    case IZ: n += (size_t)s->imm_bytes; break;
    default: {
        size_t m = modrm_len(p + n, avail - n);
        if (!m)
            return 0;
        n += m + (s->form == MODRM_I8 ? 1 : s->form == MODRM_IZ ? (size_t)s->imm_bytes : 0);
    }
    }
    return n <= avail && n <= 15 ? n : 0;
}

static void set(ZydisDecodedInstruction *in, size_t len, ZydisMnemonic mn, ZydisInstructionCategory cat,
                int rel, int64_t value)
{
    in->length = (ZyanU8)len;
    in->mnemonic = mn;
    in->meta.category = cat;
    in->raw.imm[0].is_relative = (ZyanBool)rel;
    in->raw.imm[0].value.s = value;
}

/* Branches, calls, ret and int3 without prefixes; 1 when p is one. */
static int control(const uint8_t *p, size_t avail, ZydisDecodedInstruction *in)
{
    uint8_t op = p[0];
    if (op == 0xc3 || op == 0xcc) {
        set(in, 1, op == 0xc3 ? ZYDIS_MNEMONIC_RET : ZYDIS_MNEMONIC_INT3,
            op == 0xc3 ? ZYDIS_CATEGORY_RET : ZYDIS_CATEGORY_INTERRUPT, 0, 0);
        return 1;
    }
    if (((op >= 0x70 && op <= 0x7f) || op == 0xeb) && avail >= 2) {
        set(in, 2, op == 0xeb ? ZYDIS_MNEMONIC_JMP : ZYDIS_MNEMONIC_JNZ,
            op == 0xeb ? ZYDIS_CATEGORY_UNCOND_BR : ZYDIS_CATEGORY_COND_BR, 1, (int8_t)p[1]);
        return 1;
    }
    if ((op == 0xe8 || op == 0xe9) && avail >= 5) {
        int32_t rel;
        memcpy(&rel, p + 1, 4);
        set(in, 5, op == 0xe8 ? ZYDIS_MNEMONIC_CALL : ZYDIS_MNEMONIC_JMP,
            op == 0xe8 ? ZYDIS_CATEGORY_CALL : ZYDIS_CATEGORY_UNCOND_BR, 1, rel);
        return 1;
    }
    if (op == 0x0f && avail >= 6 && p[1] >= 0x80 && p[1] <= 0x8f) {
        int32_t rel;
        memcpy(&rel, p + 2, 4);
        set(in, 6, ZYDIS_MNEMONIC_JNZ, ZYDIS_CATEGORY_COND_BR, 1, rel);
        return 1;
    }
    return 0;
}

ZyanStatus gr_insn_quick(const ZydisDecoder *minimal, const uint8_t *p, size_t avail,
                         ZydisDecodedInstruction *in)
{
    size_t n = 0;
    int opsize = 0, rep = 0;
    for (; n < 4 && n < avail; n++) {
        if (p[n] == 0x66)
            opsize = 1;
        else if (p[n] == 0xf2 || p[n] == 0xf3)
            rep = 1;
        else
            break;
    }
    int rexw = 0;
    if (n + 1 < avail && (p[n] & 0xf0) == 0x40) {
        rexw = (p[n] & 8) != 0;                         /* REX.W wins over 66 */
        n++;
    }
    size_t len = 0;
    if (n < avail) {
        uint8_t op = p[n];
        if (n == 0 && control(p, avail, in))
            return ZYAN_STATUS_SUCCESS;
        struct shape s = {n + 1, NONE, opsize && !rexw ? 2 : 4};
        if (op == 0x0f && n + 1 < avail) {
            uint8_t op2 = p[n + 1];
            s.at = n + 2;
            s.form = op2 == 0x38 ? MODRM : op2 == 0x3a ? MODRM_I8 : two_byte_form(op2);
            if (op2 == 0x38 || op2 == 0x3a) {
                s.at = n + 3;
                if (!opsize)          /* SSSE3/SSE4/AES forms: 66 is mandatory */
                    s.form = NONE;
            }
            if (!(opsize && rep) && s.form != NONE && s.at <= avail)
                len = form_len(p, avail, &s);
        } else if (!rep && !(op >= 0xb8 && op <= 0xbf)) {
            uint8_t reg = n + 1 < avail ? (p[n + 1] >> 3) & 7 : 0;
            s.form = one_byte_form(op, reg);
            if (op == 0x8d && n + 1 < avail && p[n + 1] >= 0xc0)
                s.form = NONE;                          /* lea with a register: invalid */
            if (s.form != NONE)
                len = form_len(p, avail, &s);
        } else if (!rep && n + 1 <= avail) {             /* mov reg, imm16/32/64 */
            s.form = IZ;
            s.imm_bytes = rexw ? 8 : opsize ? 2 : 4;
            len = form_len(p, avail, &s);
        }
    }
    if (!len)
        return ZydisDecoderDecodeInstruction(minimal, NULL, p, avail, in);
    set(in, len, ZYDIS_MNEMONIC_INVALID, ZYDIS_CATEGORY_INVALID, 0, 0);
    if (p[n] == 0xff) {              /* FF /2 call, FF /4 jmp: through a register or memory */
        unsigned reg = (p[n + 1] >> 3) & 7;
        if (reg == 2 || reg == 4)
            set(in, len, reg == 2 ? ZYDIS_MNEMONIC_CALL : ZYDIS_MNEMONIC_JMP,
                reg == 2 ? ZYDIS_CATEGORY_CALL : ZYDIS_CATEGORY_UNCOND_BR, 0, 0);
    }
    return ZYAN_STATUS_SUCCESS;
}
