/* offsets_sigcode.c: see offsets_sigcode.h. In runtime.sigpanic: the
 * first 32-bit load [B+sig] compared with 7 (SIGBUS), then the 64-bit
 * compares [B+sigcode0] with 2 (BUS_ADRERR) and [B+sigcode1] with 0x1000.
 * In runtime.sighandler: the 32-bit store into [B+sig] (the offset found
 * in sigpanic), then the next three 64-bit stores through the same B,
 * before any call: sigcode0, sigcode1, sigpc. */
#include "rewriter/find/offsets_sigcode.h"

#include "rewriter/find/code_walk.h"

enum {
    SIGBUS_NUM = 7, BUS_ADRERR_CODE = 2, NIL_PAGE = 0x1000,
    MAX_SIGPANIC_INSNS = 60, MAX_HANDLER_INSNS = 2000, MAX_OFFSET = 0x1000,
};

/* Operand i of the current instruction is [B+disp] of size bits, with a
 * base register other than RSP and RIP and no index. */
static int g_field(const struct gr_code_walk *w, unsigned i, unsigned bits, ZydisRegister *base,
                   int64_t *disp)
{
    const ZydisDecodedOperand *op = &w->ops[i];
    if (i >= w->insn.operand_count_visible || op->type != ZYDIS_OPERAND_TYPE_MEMORY ||
        op->size != bits || op->mem.index != ZYDIS_REGISTER_NONE ||
        op->mem.base == ZYDIS_REGISTER_RSP || op->mem.base == ZYDIS_REGISTER_RIP ||
        gr_code_gpr64(op->mem.base) == ZYDIS_REGISTER_NONE || op->mem.disp.value <= 0 ||
        op->mem.disp.value >= MAX_OFFSET)
        return 0;
    *base = op->mem.base;
    *disp = op->mem.disp.value;
    return 1;
}

static int imm_is(const struct gr_code_walk *w, unsigned i, uint64_t v)
{
    return i < w->insn.operand_count_visible && w->ops[i].type == ZYDIS_OPERAND_TYPE_IMMEDIATE &&
           w->ops[i].imm.value.u == v;
}

/* off[0..2] = sig, sigcode0, sigcode1 as sigpanic tests them. */
static int from_sigpanic(const struct gr_elf *elf, const struct gr_program *prog, int64_t off[3])
{
    struct gr_code_walk w;
    ZydisRegister base, loaded = ZYDIS_REGISTER_NONE;
    int64_t disp, sig = 0;
    int have = 0;
    if (gr_code_walk_start(&w, elf, gr_program_func_named(prog, "runtime.sigpanic")) < 0)
        return -1;
    for (int n = 0; n < MAX_SIGPANIC_INSNS && have < 3 && gr_code_walk_next(&w); n++) {
        ZydisMnemonic m = w.insn.mnemonic;
        if (have == 0 && m == ZYDIS_MNEMONIC_MOV && g_field(&w, 1, 32, &base, &disp) &&
            w.ops[0].type == ZYDIS_OPERAND_TYPE_REGISTER) {
            loaded = w.ops[0].reg.value;
            sig = disp;
        } else if (have == 0 && m == ZYDIS_MNEMONIC_CMP && loaded != ZYDIS_REGISTER_NONE &&
                   w.ops[0].type == ZYDIS_OPERAND_TYPE_REGISTER && w.ops[0].reg.value == loaded &&
                   imm_is(&w, 1, SIGBUS_NUM)) {
            off[have++] = sig;
        } else if (have > 0 && m == ZYDIS_MNEMONIC_CMP && g_field(&w, 0, 64, &base, &disp) &&
                   imm_is(&w, 1, have == 1 ? BUS_ADRERR_CODE : NIL_PAGE)) {
            off[have++] = disp;
        }
    }
    return have == 3 ? 0 : -1;
}

/* off[0..3] = sig, sigcode0, sigcode1, sigpc as sighandler stores them,
 * knowing sig. */
static int from_sighandler(const struct gr_elf *elf, const struct gr_program *prog, int64_t sig,
                           int64_t off[4])
{
    struct gr_code_walk w;
    ZydisRegister base, gbase = ZYDIS_REGISTER_NONE;
    int64_t disp;
    int have = 0;
    if (gr_code_walk_start(&w, elf, gr_program_func_named(prog, "runtime.sighandler")) < 0)
        return -1;
    for (int n = 0; n < MAX_HANDLER_INSNS && have < 4 && gr_code_walk_next(&w); n++) {
        ZydisMnemonic m = w.insn.mnemonic;
        if (have > 0 && m == ZYDIS_MNEMONIC_CALL)
            have = 0;                               /* not the four in a row */
        else if (have == 0 && m == ZYDIS_MNEMONIC_MOV && g_field(&w, 0, 32, &base, &disp) &&
                 disp == sig) {
            gbase = base;
            off[have++] = disp;
        } else if (have > 0 && m == ZYDIS_MNEMONIC_MOV && g_field(&w, 0, 64, &base, &disp) &&
                   base == gbase) {
            off[have++] = disp;
        }
    }
    return have == 4 ? 0 : -1;
}

void gr_offsets_from_sigcode(const struct gr_elf *elf, const struct gr_program *prog,
                             struct gr_go_found *out)
{
    int64_t tested[3], stored[4];
    if (from_sigpanic(elf, prog, tested) < 0 || from_sighandler(elf, prog, tested[0], stored) < 0 ||
        stored[1] != tested[1] || stored[2] != tested[2])
        return;
    for (int i = 0; i < 4; i++)
        gr_go_found_set(out, GR_G_SIG + i, (uint32_t)stored[i]);
}
