/* leaf.c: can the first instructions of a function without a stack check
 * run from a trampoline?
 *
 * The jmp at entry covers at least 5 bytes of whole instructions; the
 * trampoline counts the call, runs those instructions re-encoded for their
 * new address, and jumps back (or ends with them, when they end in a ret
 * or jmp followed only by int3 padding). Each covered instruction must
 * behave the same there:
 * - it must fault as the original would: a fault at a PC outside Go text
 *   makes the runtime throw where the original panicked. Memory touched
 *   through RSP (the stack), RIP (static data) or FS with no base (the TLS
 *   slot of g) cannot fault; any other memory operand is guarded: the
 *   trampoline computes its address first and, when it lies in the
 *   never-mapped first page (a nil dereference), does what the runtime's
 *   signal handler would have done at the original instruction (see
 *   trampoline.c). No division, trap or system call;
 * - no call: its return address would point into the trampoline;
 * - it must not read R12, R13 or flags before a covered instruction sets
 *   them: the counting code clobbered them (they are scratch and dead at
 *   entry in Go's ABI; Go 1.21+ method wrappers load R12 from g._panic
 *   first). A guarded instruction must not read R12 or R13 at all;
 * Assembly functions (their source file is a .s) are skipped whole: some
 * are entered with R12, R13 or flags live (gcWriteBarrier, duffzero,
 * asyncPreempt), entered in the middle (duffzero), or run before thread-
 * local storage exists (rt0_go, settls), where counting cannot find g. */
#include "leaf.h"

#include <string.h>

#include "x86.h"

static const char ASM[] =
    "no stack check: assembly (may be entered with R12, R13 or flags live, or before TLS is set up)";
static const char FAULT[] =
    "no stack check: an instruction in the first 5 bytes can fault and its address cannot be "
    "checked first (several memory operands, a segment, 32-bit addressing, or R12/R13)";
static const char FAULT_NO_LAYOUT[] =
    "no stack check: an instruction in the first 5 bytes can fault (memory through a register), "
    "and the runtime's signal fields of this Go release are not verified (go_sigpanic.c)";
static const char CALL[] = "no stack check: a call in the first 5 bytes";
static const char TRAP[] = "no stack check: a system call, trap or division in the first 5 bytes";
static const char SCRATCH[] =
    "no stack check: the first instructions read R12, R13 or flags (a private register convention)";
static const char GUARD_CLOBBERS[] =
    "no stack check: a covered instruction that can fault follows one whose R12 or flags "
    "later code may read (its guard would overwrite them)";
static const char SHORT[] = "no stack check: the function ends within its first 5 bytes";

/* Does the instruction set all six status flags (written, set or left
 * undefined)? Then no flag from before it can be read after it. */
static int writes_all_flags(const ZydisDecodedInstruction *in)
{
    const ZydisAccessedFlagsMask all = ZYDIS_CPUFLAG_CF | ZYDIS_CPUFLAG_PF | ZYDIS_CPUFLAG_AF |
                                       ZYDIS_CPUFLAG_ZF | ZYDIS_CPUFLAG_SF | ZYDIS_CPUFLAG_OF;
    const ZydisAccessedFlags *f = in->cpu_flags;
    return f && ((f->modified | f->set_0 | f->set_1 | f->undefined) & all) == all;
}

static int is_asm(const struct gr_func *f)
{
    size_t n = f->file ? strlen(f->file) : 0;
    return n >= 2 && strcmp(f->file + n - 2, ".s") == 0;
}

/* A memory access that cannot fault in Go code: the stack, static data,
 * the TLS slot. LEA computes an address and touches nothing. */
static int safe_mem(const ZydisDecodedOperand *op)
{
    const ZydisDecodedOperandMem *m = &op->mem;
    if (m->type != ZYDIS_MEMOP_TYPE_MEM)
        return 1;
    if (m->segment == ZYDIS_REGISTER_FS)
        return m->base == ZYDIS_REGISTER_NONE && m->index == ZYDIS_REGISTER_NONE;
    return (m->base == ZYDIS_REGISTER_RSP || m->base == ZYDIS_REGISTER_RIP) &&
           m->index == ZYDIS_REGISTER_NONE;
}

static int gpr64_or_none(ZydisRegister r)
{
    return r == ZYDIS_REGISTER_NONE || ZydisRegisterGetClass(r) == ZYDIS_REGCLASS_GPR64;
}

/* A memory operand the trampoline can guard: the only one of the
 * instruction, explicit, addressed by 64-bit registers in the default
 * segment, so that lea gives exactly the address the kernel would report. */
static int guardable(const ZydisDecodedInstruction *in, const ZydisDecodedOperand *ops, unsigned mem)
{
    const ZydisDecodedOperandMem *m = &ops[mem].mem;
    if (mem >= in->operand_count_visible || in->address_width != 64)
        return 0;
    if (m->segment != ZYDIS_REGISTER_NONE && m->segment != ZYDIS_REGISTER_DS &&
        m->segment != ZYDIS_REGISTER_SS)
        return 0;
    if (!gpr64_or_none(m->base) || !gpr64_or_none(m->index))   /* no VSIB (gathers) */
        return 0;
    for (unsigned i = 0; i < in->operand_count; i++)
        if (i != mem && ops[i].type == ZYDIS_OPERAND_TYPE_MEMORY &&
            ops[i].mem.type == ZYDIS_MEMOP_TYPE_MEM)
            return 0;
    return 1;
}

/* Bit of R12 (1) or R13 (2), or 0. */
static unsigned scratch_bit(ZydisRegister r)
{
    ZydisRegister big = ZydisRegisterGetLargestEnclosing(ZYDIS_MACHINE_MODE_LONG_64, r);
    return big == ZYDIS_REGISTER_R12 ? 1u : big == ZYDIS_REGISTER_R13 ? 2u : 0u;
}

/* The R12/R13 bits the instruction reads (register operands, addresses). */
static unsigned scratch_reads(const ZydisDecodedInstruction *in, const ZydisDecodedOperand *ops)
{
    unsigned bits = 0;
    for (unsigned i = 0; i < in->operand_count; i++) {
        const ZydisDecodedOperand *op = &ops[i];
        int reads = op->actions & (ZYDIS_OPERAND_ACTION_READ | ZYDIS_OPERAND_ACTION_CONDREAD);
        if (op->type == ZYDIS_OPERAND_TYPE_REGISTER && reads)
            bits |= scratch_bit(op->reg.value);
        if (op->type == ZYDIS_OPERAND_TYPE_MEMORY)
            bits |= scratch_bit(op->mem.base) | scratch_bit(op->mem.index);
    }
    return bits;
}

/* The R12/R13 bits the instruction sets whole (a 64- or 32-bit write). */
static unsigned scratch_writes(const ZydisDecodedInstruction *in, const ZydisDecodedOperand *ops)
{
    unsigned bits = 0;
    for (unsigned i = 0; i < in->operand_count; i++) {
        const ZydisDecodedOperand *op = &ops[i];
        if (op->type == ZYDIS_OPERAND_TYPE_REGISTER && (op->actions & ZYDIS_OPERAND_ACTION_WRITE) &&
            !(op->actions & ZYDIS_OPERAND_ACTION_CONDWRITE) && op->size >= 32)
            bits |= scratch_bit(op->reg.value);
    }
    return bits;
}

/* Why the operands keep the instruction out of a trampoline, or NULL;
 * *guard: it touches memory through a register (it can fault), which the
 * trampoline checks first, with R12 (leaf.h). *written: the R12/R13 bits
 * covered instructions have set; the counting code clobbers them before. */
static const char *check_operands(const ZydisDecodedInstruction *in, const ZydisDecodedOperand *ops,
                                  int allow_guard, int *guard, unsigned *written)
{
    *guard = 0;
    unsigned reads = scratch_reads(in, ops);
    if (reads & ~*written)
        return SCRATCH;
    for (unsigned i = 0; i < in->operand_count; i++) {
        const ZydisDecodedOperand *op = &ops[i];
        if (op->type != ZYDIS_OPERAND_TYPE_MEMORY || safe_mem(op))
            continue;
        if (!allow_guard)
            return FAULT_NO_LAYOUT;
        if (!guardable(in, ops, i) || reads)
            return FAULT;
        *guard = 1;
    }
    *written |= scratch_writes(in, ops);
    return NULL;
}

/* Why the instruction cannot run from the trampoline, or NULL. *flags_set:
 * the flags hold what a covered instruction wrote (a guard's cmp
 * overwrites them). */
static const char *check_insn(const ZydisDecodedInstruction *in, const ZydisDecodedOperand *ops,
                              int allow_guard, int *flags_set, unsigned *written, int *guard)
{
    switch (in->meta.category) {
    case ZYDIS_CATEGORY_CALL:
        return CALL;
    case ZYDIS_CATEGORY_INTERRUPT:
    case ZYDIS_CATEGORY_SYSCALL:
    case ZYDIS_CATEGORY_SYSTEM:
        return TRAP;
    default:
        break;
    }
    switch (in->mnemonic) {
    case ZYDIS_MNEMONIC_DIV:
    case ZYDIS_MNEMONIC_IDIV:
    case ZYDIS_MNEMONIC_UD0:
    case ZYDIS_MNEMONIC_UD1:
    case ZYDIS_MNEMONIC_UD2:
    case ZYDIS_MNEMONIC_INT3:
    case ZYDIS_MNEMONIC_HLT:
        return TRAP;
    default:
        break;
    }
    unsigned written_before = *written;
    const char *why = check_operands(in, ops, allow_guard, guard, written);
    if (why)
        return why;
    /* A guard's lea and cmp overwrite R12 and the flags: neither may hold
     * a covered instruction's result that later code could still read. */
    if (*guard && ((written_before & 1u) || (*flags_set && !writes_all_flags(in))))
        return GUARD_CLOBBERS;
    if (*guard)
        *flags_set = 0;
    if (in->cpu_flags && in->cpu_flags->tested && !*flags_set)
        return SCRATCH;
    if (in->cpu_flags && in->cpu_flags->modified)
        *flags_set = 1;
    return NULL;
}

/* Can Zydis's encoder write the instruction again (trampoline.c does, at
 * another address)? Tried here at its own address, so that an unusual
 * encoding makes the function skipped rather than the rewrite fail. */
static int reencodable(const ZydisDecodedInstruction *in, const ZydisDecodedOperand *ops,
                       uint64_t addr)
{
    ZydisEncoderRequest req;
    uint8_t buf[ZYDIS_MAX_INSTRUCTION_LENGTH];
    ZyanUSize len = sizeof buf;
    if (!ZYAN_SUCCESS(ZydisEncoderDecodedInstructionToEncoderRequest(in, ops, in->operand_count_visible,
                                                                     &req)))
        return 0;
    for (unsigned i = 0; i < in->operand_count_visible; i++) {   /* as gr_emit_relocated */
        const ZydisDecodedOperand *op = &ops[i];
        int branch = op->type == ZYDIS_OPERAND_TYPE_IMMEDIATE && op->imm.is_relative;
        uint64_t target;
        if (!branch && !(op->type == ZYDIS_OPERAND_TYPE_MEMORY && op->mem.base == ZYDIS_REGISTER_RIP))
            continue;
        if (!ZYAN_SUCCESS(ZydisCalcAbsoluteAddress(in, op, addr, &target)))
            return 0;
        if (branch) {
            req.operands[i].imm.u = target;
            req.branch_type = ZYDIS_BRANCH_TYPE_NEAR;
            req.branch_width = ZYDIS_BRANCH_WIDTH_32;
        } else {
            req.operands[i].mem.displacement = (int64_t)target;
        }
    }
    return ZYAN_SUCCESS(ZydisEncoderEncodeInstructionAbsolute(&req, buf, &len, addr));
}

static int ends_flow(const ZydisDecodedInstruction *in)
{
    return in->meta.category == ZYDIS_CATEGORY_RET || in->meta.category == ZYDIS_CATEGORY_UNCOND_BR;
}

const char *gr_leaf_match(const struct gr_func *f, const uint8_t *code, size_t size, int allow_guard,
                          struct gr_insn scratch[GR_PROLOGUE_MAX_INSNS], struct gr_prologue *out)
{
    memset(out, 0, sizeof *out);
    out->shape = GR_PROLOGUE_LEAF;
    out->insns = scratch;
    out->g_reg = ZYDIS_REGISTER_NONE;
    if (is_asm(f))
        return ASM;
    ZydisDecoder zy;
    ZydisDecoderInit(&zy, ZYDIS_MACHINE_MODE_LONG_64, ZYDIS_STACK_WIDTH_64);
    size_t off = 0;
    int flags_set = 0;
    unsigned written = 0;
    while (off < GR_X86_JMP_REL32_LEN) {
        if (off >= size || out->ninsns == GR_PROLOGUE_MAX_INSNS)
            return SHORT;
        struct gr_insn *in = &scratch[out->ninsns];
        ZydisDecodedOperand ops[ZYDIS_MAX_OPERAND_COUNT];
        if (!ZYAN_SUCCESS(ZydisDecoderDecodeFull(&zy, code + off, size - off, &in->insn, ops)))
            return "no stack check: the first instructions do not decode";
        int guard;
        const char *why = check_insn(&in->insn, ops, allow_guard, &flags_set, &written, &guard);
        if (why)
            return why;
        if (!reencodable(&in->insn, ops, f->entry + off))
            return "no stack check: Zydis cannot re-encode an instruction in the first 5 bytes";
        if (guard)
            out->guard_mask |= 1u << out->ninsns;
        memcpy(in->ops, ops, sizeof in->ops);
        in->addr = f->entry + off;
        out->ninsns++;
        off += in->insn.length;
        if (ends_flow(&in->insn)) {
            out->ends_flow = 1;
            break;
        }
    }
    /* After a ret or jmp the covered bytes are never run from the patch:
     * int3 padding, or code that only a branch reaches, which exits.c
     * finds as a target inside the covered bytes (the function is then
     * skipped). Whole instructions are covered, to leave no torn one. */
    while (off < GR_X86_JMP_REL32_LEN) {
        ZydisDecoderContext ctx;
        ZydisDecodedInstruction in;
        if (off >= size)
            return SHORT;
        if (code[off] == GR_X86_INT3) {
            off++;
            continue;
        }
        if (!ZYAN_SUCCESS(ZydisDecoderDecodeInstruction(&zy, &ctx, code + off, size - off, &in)))
            return "no stack check: the first instructions do not decode";
        off += in.length;
    }
    out->len = (unsigned)off;
    return NULL;
}
