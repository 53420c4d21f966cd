/* returns.c: finds where a function returns and what branches into it.
 *
 * A linear sweep decodes the whole function (Go puts no data in text).
 * Direct branches give their targets; an indirect jmp must be a Go switch
 * jump table (lea base,[rip+table] shortly before jmp [base+idx*8] or
 * jmp reg), whose 8-byte entries are read from the file for as long as
 * they point into the function: reading too far only adds targets, which
 * is safe. A jmp to another function (tail call) is a return like a ret
 * (compiled Go pops its frame first) where the caller allows it; a
 * conditional jump to another function, an unresolvable indirect jmp, or
 * a function with no ret leaves the function untimed. In compiled Go, a
 * jmp reg with the frame popped (right after pop rbp, or in a function
 * that never moves RSP) is a tail call through a register (Go 1.27's
 * method wrappers): its target is another function, so the function's
 * targets stay known, and it is a return as a direct tail call is.
 *
 * For each ret, the covered bytes grow backwards over instructions that
 * can be replayed elsewhere (no call or trap; conditional branches are
 * fine; one that can fault only behind a nil guard, as at a leaf's entry)
 * until there are 5, or forwards over int3 padding; the first covered
 * instruction may be a branch target, no later one may be. */
#include "rewriter/plan/returns.h"
#include "common/vec.h"
#include "common/x86.h"
#include "rewriter/find/insn_quick.h"
#include "rewriter/plan/leaf.h"

#include <stdlib.h>
#include <string.h>

#define JMP_LEN 5
#define TABLE_LOOKBACK 3      /* instructions between the lea and the jmp */
#define TABLE_MAX 65536

const char GR_RETURN_SHORT[] = "a return with fewer than 5 replaceable bytes";

void gr_return_scan_init(struct gr_return_scan *s)
{
    memset(s, 0, sizeof *s);
    ZydisDecoderInit(&s->zy, ZYDIS_MACHINE_MODE_LONG_64, ZYDIS_STACK_WIDTH_64);
    /* The sweep decodes every instruction of every function (most of the
     * rewrite's time) and needs only what minimal mode still fills in:
     * on Go's 1.22 compiler (2.3 million instructions) length, mnemonic,
     * category and raw immediates are the same as in full mode, and
     * the rewrite takes a fifth less time. */
    ZydisDecoderInit(&s->minimal, ZYDIS_MACHINE_MODE_LONG_64, ZYDIS_STACK_WIDTH_64);
    ZydisDecoderEnableMode(&s->minimal, ZYDIS_DECODER_MODE_MINIMAL, ZYAN_TRUE);
}

void gr_return_scan_free(struct gr_return_scan *s)
{
    free(s->starts);
    free(s->kind);
    free(s->targets);
    memset(s, 0, sizeof *s);
}

void gr_return_list_free(struct gr_return_list *list)
{
    free(list->items);
    memset(list, 0, sizeof *list);
}

static int add_insn(struct gr_return_scan *s, uint32_t off, uint8_t kind)
{
    if (s->ninsns == s->cap_insns) {
        /* Two arrays with one capacity: grow a copy, commit it last. */
        size_t cap = s->cap_insns, kind_cap = s->cap_insns;
        uint32_t *starts = gr_vec_grow(s->starts, &cap, s->ninsns + 1, sizeof *starts);
        if (!starts)
            return -1;
        s->starts = starts;
        uint8_t *kinds = gr_vec_grow(s->kind, &kind_cap, s->ninsns + 1, 1);
        if (!kinds)
            return -1;
        s->kind = kinds;
        s->cap_insns = cap;
    }
    s->starts[s->ninsns] = off;
    s->kind[s->ninsns++] = kind;
    return 0;
}

static int add_target(struct gr_return_scan *s, uint32_t off)
{
    return gr_vec_append(&s->targets, &s->ntargets, &s->cap_targets, &off, sizeof off);
}

enum insn_kind { OTHER, PLAIN, JCC, RET, PAD, TAIL };

static int is_plain(const ZydisDecodedInstruction *in)
{
    switch (in->meta.category) {
    case ZYDIS_CATEGORY_COND_BR:
    case ZYDIS_CATEGORY_UNCOND_BR:
    case ZYDIS_CATEGORY_CALL:
    case ZYDIS_CATEGORY_RET:
    case ZYDIS_CATEGORY_INTERRUPT:
    case ZYDIS_CATEGORY_SYSCALL:
    case ZYDIS_CATEGORY_SYSTEM:
        return 0;
    default:
        return in->mnemonic != ZYDIS_MNEMONIC_UD2 && in->mnemonic != ZYDIS_MNEMONIC_UD0 &&
               in->mnemonic != ZYDIS_MNEMONIC_UD1 && in->mnemonic != ZYDIS_MNEMONIC_INT3;
    }
}

/* The table address of "lea reg, [rip + table]" among the few
 * instructions before instruction index i, or 0. */
static uint64_t table_before(struct gr_return_scan *s, const uint8_t *code, uint64_t entry, size_t i)
{
    for (size_t k = 1; k <= TABLE_LOOKBACK && k <= i; k++) {
        uint32_t off = s->starts[i - k];
        ZydisDecodedInstruction in;
        ZydisDecodedOperand ops[ZYDIS_MAX_OPERAND_COUNT];
        if (!ZYAN_SUCCESS(ZydisDecoderDecodeFull(&s->zy, code + off, 15, &in, ops)))
            continue;
        if (in.mnemonic != ZYDIS_MNEMONIC_LEA || ops[1].mem.base != ZYDIS_REGISTER_RIP)
            continue;
        uint64_t addr;
        if (ZYAN_SUCCESS(ZydisCalcAbsoluteAddress(&in, &ops[1], entry + off, &addr)))
            return addr;
    }
    return 0;
}

/* Does instruction index i leave the stack as at entry? Right after the
 * epilogue's pop rbp (Go 1.21+ frames), or with no instruction before it
 * that pushes, pops, calls or writes RSP or RBP (a frameless function: Go
 * puts the prologue first). A jump table's jmp follows its load instead. */
static int frame_popped(struct gr_return_scan *s, const uint8_t *code, size_t i)
{
    if (i > 0 && code[s->starts[i - 1]] == 0x5d)      /* pop rbp */
        return 1;
    for (size_t k = 0; k < i; k++) {
        ZydisDecodedInstruction in;
        ZydisDecodedOperand ops[ZYDIS_MAX_OPERAND_COUNT];
        if (s->kind[k] == PAD)
            continue;
        if (!ZYAN_SUCCESS(ZydisDecoderDecodeFull(&s->zy, code + s->starts[k], 15, &in, ops)) ||
            in.meta.category == ZYDIS_CATEGORY_CALL || in.meta.category == ZYDIS_CATEGORY_PUSH ||
            in.meta.category == ZYDIS_CATEGORY_POP)
            return 0;
        for (unsigned o = 0; o < in.operand_count; o++)
            if (ops[o].type == ZYDIS_OPERAND_TYPE_REGISTER && (ops[o].actions & ZYDIS_OPERAND_ACTION_MASK_WRITE) &&
                (ops[o].reg.value == ZYDIS_REGISTER_RSP || ops[o].reg.value == ZYDIS_REGISTER_RBP))
                return 0;
    }
    return 1;
}

/* The register of the indirect jmp at instruction index i when it is a
 * tail call through a register (jmp reg, not through memory, in compiled
 * Go, frame popped), else ZYDIS_REGISTER_NONE. */
static ZydisRegister register_tail_call(struct gr_return_scan *s, const uint8_t *code, size_t size, size_t i)
{
    ZydisDecodedInstruction in;
    ZydisDecodedOperand ops[ZYDIS_MAX_OPERAND_COUNT];
    uint32_t off = s->starts[i];
    if (s->compiled && ZYAN_SUCCESS(ZydisDecoderDecodeFull(&s->zy, code + off, size - off, &in, ops)) &&
        ops[0].type == ZYDIS_OPERAND_TYPE_REGISTER && frame_popped(s, code, i))
        return ops[0].reg.value;
    return ZYDIS_REGISTER_NONE;
}

/* Adds a jump table's targets; 0 if none point into the function. */
static int add_table(struct gr_return_scan *s, const struct gr_elf *elf, uint64_t table,
                     uint64_t entry, size_t size, size_t *found)
{
    *found = 0;
    for (size_t k = 0; k < TABLE_MAX; k++) {
        const uint8_t *p = gr_elf_bytes_at(elf, table + 8 * k, 8);
        if (!p)
            break;
        uint64_t t;
        memcpy(&t, p, 8);
        if (t < entry || t >= entry + size)
            break;
        if (add_target(s, (uint32_t)(t - entry)) < 0)
            return -1;
        (*found)++;
    }
    return 0;
}

/* Pass 1: instruction boundaries and branch targets. Returns -1 on out of
 * memory; sets *why when the function cannot be timed. */
static int sweep(struct gr_return_scan *s, const struct gr_elf *elf, const uint8_t *code,
                 size_t size, uint64_t entry, const char **why, size_t *nrets)
{
    *why = NULL;
    *nrets = 0;
    for (size_t off = 0; off < size;) {
        if (code[off] == GR_X86_INT3) {   /* padding: 9 % of the instructions swept in esbuild */
            if (add_insn(s, (uint32_t)off++, PAD) < 0)
                return -1;
            continue;
        }
        ZydisDecodedInstruction in;
        if (!ZYAN_SUCCESS(gr_insn_quick(&s->minimal, code + off, size - off, &in))) {
            *why = "undecodable bytes in the function";
            s->targets_unknown = 1;
            return 0;
        }
        int plain_ret = in.mnemonic == ZYDIS_MNEMONIC_RET && in.length == 1;
        uint8_t kind = plain_ret                                     ? RET
                       : is_plain(&in)                               ? PLAIN
                       : in.meta.category == ZYDIS_CATEGORY_COND_BR  ? JCC
                       : in.mnemonic == ZYDIS_MNEMONIC_INT3          ? PAD
                                                                     : OTHER;
        uint64_t next = entry + off + in.length;
        uint64_t t = next + (uint64_t)in.raw.imm[0].value.s;
        int outside = in.raw.imm[0].is_relative && (t < entry || t >= entry + size);
        if (outside && in.meta.category == ZYDIS_CATEGORY_UNCOND_BR && s->allow_tail) {
            kind = TAIL;        /* a return, as a ret (the frame is popped) */
            (*nrets)++;
        }
        if (add_insn(s, (uint32_t)off, kind) < 0)
            return -1;
        if (in.meta.category == ZYDIS_CATEGORY_RET) {
            if (!plain_ret)
                *why = "a return with a prefix or an operand";
            (*nrets)++;
        } else if (in.raw.imm[0].is_relative) {
            if (!outside) {
                if (add_target(s, (uint32_t)(t - entry)) < 0)
                    return -1;
            } else if (in.meta.category == ZYDIS_CATEGORY_COND_BR) {
                *why = "a conditional jump to another function";
            } else if (kind != TAIL && in.meta.category != ZYDIS_CATEGORY_CALL) {
                *why = s->tail_refused ? s->tail_refused : "a jump to another function (tail call)";
            }
        } else if (in.meta.category == ZYDIS_CATEGORY_UNCOND_BR) {
            uint64_t table = table_before(s, code, entry, s->ninsns - 1);
            size_t found = 0;
            if (table && add_table(s, elf, table, entry, size, &found) < 0)
                return -1;
            ZydisRegister reg = found ? ZYDIS_REGISTER_NONE : register_tail_call(s, code, size, s->ninsns - 1);
            if (reg != ZYDIS_REGISTER_NONE && !s->allow_tail) {
                *why = s->tail_refused ? s->tail_refused : "a tail call through a register";
            } else if (reg == ZYDIS_REGISTER_R12) {     /* the return trampoline overwrites it (the record, a leaf's TLS test) */
                *why = "a tail call through R12 (the exit's scratch register)";
            } else if (reg != ZYDIS_REGISTER_NONE) {
                s->kind[s->ninsns - 1] = TAIL;
                (*nrets)++;
            } else if (!found) {
                *why = "an indirect jump that is not a jump table";
                s->targets_unknown = 1;
            }
        }
        off += in.length;
    }
    if (*nrets == 0 && !*why)
        *why = "no return instruction";
    return 0;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* Is there a target t with lo < t < hi? */
static int target_inside(const struct gr_return_scan *s, uint32_t lo, uint32_t hi)
{
    size_t a = 0, b = s->ntargets;
    while (a < b) {                       /* first target > lo */
        size_t m = (a + b) / 2;
        if (s->targets[m] <= lo)
            a = m + 1;
        else
            b = m;
    }
    return a < s->ntargets && s->targets[a] < hi;
}

static int is_target(const struct gr_return_scan *s, uint32_t off)
{
    return off == 0 || target_inside(s, off - 1, off + 1);
}

enum replay { REPLAY_NO, REPLAY_PLAIN, REPLAY_GUARDED };

/* Can the instruction at off run from a return trampoline? A fault at a PC
 * outside Go text is fatal, where in the function it would have been a
 * recoverable panic (a nil dereference, say). Memory on the stack (RSP or
 * RBP based) or static (RIP-relative) cannot fault; other memory is
 * guarded (its address checked first, a nil one sent where the runtime's
 * signal handler would send it) when the program allows and the operand
 * is the instruction's only one and addressed without R12 or R13; never a
 * division. */
static enum replay replayable(struct gr_return_scan *s, const uint8_t *code, size_t size, uint32_t off)
{
    ZydisDecodedInstruction in;
    ZydisDecodedOperand ops[ZYDIS_MAX_OPERAND_COUNT];
    if (!ZYAN_SUCCESS(ZydisDecoderDecodeFull(&s->zy, code + off, size - off, &in, ops)))
        return REPLAY_NO;
    if (in.mnemonic == ZYDIS_MNEMONIC_DIV || in.mnemonic == ZYDIS_MNEMONIC_IDIV)
        return REPLAY_NO;
    enum replay r = REPLAY_PLAIN;
    for (unsigned i = 0; i < in.operand_count; i++) {
        ZydisRegister base = ops[i].mem.base;
        if (ops[i].type != ZYDIS_OPERAND_TYPE_MEMORY || ops[i].mem.type != ZYDIS_MEMOP_TYPE_MEM ||
            base == ZYDIS_REGISTER_RSP || base == ZYDIS_REGISTER_RBP || base == ZYDIS_REGISTER_RIP)
            continue;
        if (!s->allow_guard || !gr_leaf_guardable(&in, ops, i) || gr_leaf_scratch_reads(&in, ops) ||
            gr_leaf_scratch_writes(&in, ops))
            return REPLAY_NO;
        r = REPLAY_GUARDED;
    }
    return r;
}

/* Can the covered bytes grow back over instruction first - 1, and how?
 * Plain instructions and conditional branches are re-encoded exactly (a
 * taken branch still goes to its target in the function); calls never
 * are, as their return address would point at our code. */
static enum replay can_grow_back(struct gr_return_scan *s, const uint8_t *code, size_t size,
                                 size_t first, unsigned entry_len)
{
    if (first == 0 || is_target(s, s->starts[first]) || s->starts[first - 1] < entry_len ||
        (s->kind[first - 1] != PLAIN && s->kind[first - 1] != JCC))
        return REPLAY_NO;
    return replayable(s, code, size, s->starts[first - 1]);
}

/* A guard's lea and cmp overwrite R12 and the flags: no replayed
 * instruction at or after a guard may read either unless one after the
 * guard set it again (R12 and the flags are dead at the ret). */
static int guards_clobber(struct gr_return_scan *s, const uint8_t *code, size_t size, size_t first,
                          size_t ret, unsigned mask)
{
    int r12_ok = 1, flags_ok = 1;
    for (size_t x = first; x < ret; x++) {
        ZydisDecodedInstruction in;
        ZydisDecodedOperand ops[ZYDIS_MAX_OPERAND_COUNT];
        if (!ZYAN_SUCCESS(ZydisDecoderDecodeFull(&s->zy, code + s->starts[x], size - s->starts[x], &in, ops)))
            return 1;
        if (mask & (1u << (x - first)))
            r12_ok = flags_ok = 0;
        if (((gr_leaf_scratch_reads(&in, ops) & 1u) && !r12_ok) ||
            (in.cpu_flags && in.cpu_flags->tested && !flags_ok))
            return 1;
        if (gr_leaf_scratch_writes(&in, ops) & 1u)
            r12_ok = 1;
        if (gr_leaf_writes_all_flags(&in))
            flags_ok = 1;
    }
    return 0;
}

/* Where the tail call at ret (a return: sweep) goes: its jmp's target, or
 * the register it jumps through. */
static const char *cover_tail(struct gr_return_scan *s, const uint8_t *code, size_t size, uint32_t ret,
                              uint64_t after, struct gr_return *out)
{
    ZydisDecodedInstruction in;
    ZydisDecodedOperand ops[ZYDIS_MAX_OPERAND_COUNT];
    if (!ZYAN_SUCCESS(ZydisDecoderDecodeFull(&s->zy, code + ret, size - ret, &in, ops)))
        return "a tail call that does not decode";
    if (ops[0].type == ZYDIS_OPERAND_TYPE_REGISTER)
        out->tail_reg = ops[0].reg.value;
    else
        out->tail_to = after + (uint64_t)in.raw.imm[0].value.s;
    return NULL;
}

/* Pass 2: the covered bytes for the ret at instruction index i: back over
 * replayable instructions, then forward over int3 padding that follows
 * the ret (never executed), until there are 5. */
static const char *cover_ret(struct gr_return_scan *s, const uint8_t *code, size_t size, size_t i,
                             unsigned entry_len, uint64_t entry, struct gr_return *out)
{
    uint32_t ret = s->starts[i];
    uint32_t after = i + 1 < s->ninsns ? s->starts[i + 1] : (uint32_t)size;  /* past the ret or jmp */
    uint32_t end = after;
    size_t first = i;
    unsigned back_guards = 0;   /* bit d: the instruction d before the ret is guarded */
    enum replay r;
    while (end - s->starts[first] < JMP_LEN &&
           (r = can_grow_back(s, code, size, first, entry_len)) != REPLAY_NO) {
        first--;
        if (r == REPLAY_GUARDED)
            back_guards |= 1u << (i - first);
    }
    unsigned mask = 0;          /* bit k: the k-th replayed instruction */
    for (size_t x = first; x < i; x++)
        if (back_guards & (1u << (i - x)))
            mask |= 1u << (x - first);
    for (size_t j = i + 1; end - s->starts[first] < JMP_LEN && j < s->ninsns; j++) {
        if (s->kind[j] != PAD || is_target(s, s->starts[j]))
            break;
        end = s->starts[j] + 1;
    }
    /* A shorter return would need a jmp rel8 to code placed in the trailing
     * padding; the function's pc tables do not cover the padding, and a
     * signal landing there (async preemption, the profiler) makes the
     * runtime throw "invalid runtime symbol table". */
    if (end - s->starts[first] < JMP_LEN) {
        s->short_end = after;
        return GR_RETURN_SHORT;
    }
    if (target_inside(s, s->starts[first], end))
        return "a branch lands inside a return's epilogue";
    if (mask && guards_clobber(s, code, size, first, i, mask))
        return "a return whose guarded instructions would overwrite R12 or flags read after them";
    out->addr = entry + s->starts[first];
    out->len = (uint8_t)(end - s->starts[first]);
    out->ret_off = (uint8_t)(ret - s->starts[first]);
    out->guard_mask = (uint8_t)mask;
    out->tail_to = 0;
    out->tail_reg = ZYDIS_REGISTER_NONE;
    if (s->kind[i] == TAIL)
        return cover_tail(s, code, size, ret, entry + after, out);
    return NULL;
}

static int add_return(struct gr_return_list *list, const struct gr_return *e)
{
    return gr_vec_append(&list->items, &list->n, &list->cap, e, sizeof *e);
}

int gr_returns_scan(struct gr_return_scan *s, const struct gr_elf *elf, const uint8_t *code,
                  size_t size, uint64_t entry, unsigned entry_len, struct gr_return_list *list,
                  struct gr_body *out)
{
    memset(out, 0, sizeof *out);
    s->ninsns = s->ntargets = 0;
    s->short_end = 0;
    s->targets_unknown = 0;
    size_t nrets;
    if (sweep(s, elf, code, size, entry, &out->untimed_reason, &nrets) < 0)
        return -1;
    if (s->ntargets > 1)    /* targets is NULL until the first one: qsort wants a pointer */
        qsort(s->targets, s->ntargets, sizeof *s->targets, cmp_u32);
    out->targets_unknown = s->targets_unknown;
    for (size_t i = 0; i < s->ninsns && !out->tail_calls; i++)
        out->tail_calls = s->kind[i] == TAIL;
    out->entry_targeted = s->ntargets > 0 && s->targets[0] == 0;
    out->covered_targeted = target_inside(s, 0, entry_len);
    if (out->covered_targeted || out->untimed_reason)
        return 0;
    out->first_return = list->n;
    for (size_t i = 0; i < s->ninsns; i++) {
        /* A ret or tail call among the entry's covered bytes (a function
         * without a check, a few bytes long) runs from the entry
         * trampoline, which times it there (trampoline.c); any later one
         * in them is never reached (no branch lands there, or the
         * function is skipped). */
        if ((s->kind[i] != RET && s->kind[i] != TAIL) || s->starts[i] < entry_len)
            continue;
        struct gr_return e;
        out->untimed_reason = cover_ret(s, code, size, i, entry_len, entry, &e);
        if (out->untimed_reason) {
            out->short_end = s->short_end;
            list->n = out->first_return;
            return 0;
        }
        if (add_return(list, &e) < 0)
            return -1;
    }
    out->nreturns = list->n - out->first_return;
    return 0;
}
