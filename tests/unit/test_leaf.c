/* test_leaf.c: rewriter/plan/leaf.c, which first instructions of a
 * function without a stack check the entry jmp covers, and whether the
 * trampoline may end with the function's own ret.
 *
 * main.leaf is `func leaf(x int) int { return x*3 + 1 }` as Go 1.22.12
 * compiled it (testdata/bench, objdump -d); the other fixtures are that
 * one with the change named. Each is matched inside a buffer of the
 * function's size, allocated exactly (ASan catches a read past its end). */
#include "leaf.h"
#include "unit.h"

#include <stdlib.h>
#include <string.h>

struct leaf_want {
    unsigned len, ninsns;
    int ends_flow, ret_follows;
};

static const char *match(const uint8_t *bytes, size_t n, struct gr_prologue *out)
{
    struct gr_func f = {.entry = 0x482000, .end = 0x482000 + n, .name = "main.leaf", .file = "/src/bench/main.go"};
    struct gr_insn scratch[GR_PROLOGUE_MAX_INSNS];
    uint8_t *code = malloc(n);
    memcpy(code, bytes, n);
    const char *why = gr_leaf_match(&f, code, n, 1, scratch, out);
    free(code);
    return why;
}

static void check_leaf(const char *what, const uint8_t *bytes, size_t n, struct leaf_want w)
{
    struct gr_prologue p;
    unsigned before = unit_failures();
    const char *why = match(bytes, n, &p);
    CHECK_STR(why, NULL);
    CHECK_INT(p.len, w.len);
    CHECK_INT(p.ninsns, w.ninsns);
    CHECK_INT(p.ends_flow, w.ends_flow);
    CHECK_INT(p.ret_follows, w.ret_follows);
    if (unit_failures() != before)
        unit_fail(__FILE__, __LINE__, "fixture: %s", what);
}

/* lea rax, [rax+rax*2]; lea rax, [rax+1]; ret: the two leas are covered
 * (8 bytes) and the ret follows them. */
static void ret_after_covered(void)
{
    static const uint8_t leaf[] = {0x48, 0x8d, 0x04, 0x40, 0x48, 0x8d, 0x40, 0x01, 0xc3, 0xcc, 0xcc, 0xcc};
    check_leaf("main.leaf", leaf, sizeof leaf, (struct leaf_want){8, 2, 0, 1});
}

/* derived: an xor rax, rcx before the ret: the jmp back stays. */
static void no_ret_after_covered(void)
{
    static const uint8_t leaf[] = {0x48, 0x8d, 0x04, 0x40, 0x48, 0x8d, 0x40, 0x01,
                                   0x48, 0x31, 0xc8, 0xc3, 0xcc, 0xcc, 0xcc, 0xcc};
    check_leaf("main.leaf with an xor before its ret", leaf, sizeof leaf, (struct leaf_want){8, 2, 0, 0});
}

/* derived: xor eax, eax; ret: the ret is covered (then the int3 padding
 * up to 5 bytes): the trampoline ends with it, nothing follows. */
static void ret_covered(void)
{
    static const uint8_t leaf[] = {0x31, 0xc0, 0xc3, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc};
    check_leaf("xor eax, eax; ret", leaf, sizeof leaf, (struct leaf_want){5, 2, 1, 0});
}

/* derived: ret imm16 (0xc2) after the covered bytes is not a plain ret. */
static void ret_imm_is_not_plain(void)
{
    static const uint8_t leaf[] = {0x48, 0x8d, 0x04, 0x40, 0x48, 0x8d, 0x40, 0x01,
                                   0xc2, 0x08, 0x00, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc};
    check_leaf("main.leaf ending in ret 8", leaf, sizeof leaf, (struct leaf_want){8, 2, 0, 0});
}

/* derived: mov rax, r12 first: R12 is clobbered by the counting code. */
static void reads_r12(void)
{
    static const uint8_t leaf[] = {0x4c, 0x89, 0xe0, 0x48, 0x8d, 0x40, 0x01, 0xc3};
    struct gr_prologue p;
    const char *why = match(leaf, sizeof leaf, &p);
    CHECK(why && strstr(why, "R12, R13 or flags"));
}

UNIT_CASES("leaf",
           UNIT_CASE(ret_after_covered),
           UNIT_CASE(no_ret_after_covered),
           UNIT_CASE(ret_covered),
           UNIT_CASE(ret_imm_is_not_plain),
           UNIT_CASE(reads_r12));
