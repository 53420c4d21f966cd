/* test_asm_callers.c: rewriter/plan/asm_callers.c, which assembly may be
 * entered with R12 or R13 live. Six small functions in a fake text
 * segment: A (assembly) sets R12 and calls B, B jumps to C, D (assembly,
 * no R12/R13) jumps to E, G (compiled Go) sets R13 and calls E, H
 * (assembly) uses R13 only through an address and jumps to D. Kept: B
 * (A's R12 is live through it), C (through B), D (H); not A, E (D names
 * neither, G is not assembly) or G. */
#include "rewriter/plan/asm_callers.h"
#include "tests/unit/fake_elf.h"
#include "tests/unit/unit.h"

#include <string.h>

enum { BASE = 0x401000, SLOT = 0x20 };

/* rel32 of a 5-byte call/jmp at slot from, byte off, to slot to */
static void branch(struct fake_elf *fe, unsigned from, unsigned off, uint8_t op, unsigned to)
{
    size_t at = from * SLOT + off;
    fe->bytes[at] = op;
    fake_elf_put32(fe, at + 1, (uint32_t)((int64_t)(to * SLOT) - (int64_t)(at + 5)));
}

static void put(struct fake_elf *fe, unsigned slot, unsigned off, const uint8_t *b, size_t n)
{
    memcpy(fe->bytes + slot * SLOT + off, b, n);
}

static void propagation(void)
{
    static struct fake_elf fe;
    fake_elf_clear(&fe);
    memset(fe.bytes, 0xcc, 8 * SLOT);
    static const uint8_t mov_r12_rax[] = {0x49, 0x89, 0xc4}, mov_r13_rax[] = {0x49, 0x89, 0xc5},
                         lea_rax_r13[] = {0x49, 0x8d, 0x45, 0x08}, ret[] = {0xc3};
    put(&fe, 0, 0, mov_r12_rax, 3);      /* A: mov r12, rax; call B; ret */
    branch(&fe, 0, 3, 0xe8, 1);
    put(&fe, 0, 8, ret, 1);
    branch(&fe, 1, 0, 0xe9, 2);          /* B: jmp C */
    put(&fe, 2, 0, ret, 1);              /* C: ret */
    branch(&fe, 3, 0, 0xe9, 4);          /* D: jmp E */
    put(&fe, 4, 0, ret, 1);              /* E: ret */
    put(&fe, 5, 0, mov_r13_rax, 3);      /* G: mov r13, rax; call E; ret */
    branch(&fe, 5, 3, 0xe8, 4);
    put(&fe, 5, 8, ret, 1);
    put(&fe, 6, 0, lea_rax_r13, 4);      /* H: lea rax, [r13+8]; jmp I */
    branch(&fe, 6, 4, 0xe9, 7);
    put(&fe, 7, 0, ret, 1);              /* I: ret */
    const struct gr_elf *elf = fake_elf_map(&fe, BASE, 8 * SLOT);
    struct gr_func funcs[8];
    const char *names[] = {"A", "B", "C", "D", "E", "G", "H", "I"};
    for (unsigned i = 0; i < 8; i++)
        funcs[i] = (struct gr_func){.entry = BASE + i * SLOT, .end = BASE + (i + 1) * SLOT,
                                    .name = names[i], .file = i == 5 ? "g.go" : "a_amd64.s"};
    struct gr_program prog = {.funcs = funcs, .nfuncs = 8};
    struct gr_asm_targets t;
    CHECK_INT(gr_asm_targets_find(elf, &prog, &t), 0);
    const int want[] = {0, 1, 1, 0, 0, 0, 0, 1};
    for (unsigned i = 0; i < 8; i++)
        if (!CHECK_INT(gr_asm_targets_has(&t, funcs[i].entry), want[i]))
            unit_fail(__FILE__, __LINE__, "function %s", names[i]);
    gr_asm_targets_free(&t);
}

UNIT_CASES("asm_callers", UNIT_CASE(propagation));
