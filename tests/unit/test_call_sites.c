/* test_call_sites.c: rewriter/plan/call_sites.c, which direct calls and
 * jumps are retargeted at their callee's trampoline.
 *
 * main.fib is `func fib(n int) int` of testdata/bench as Go 1.22.12
 * compiled it (objdump -d): two recursive `call main.fib` at 0x482086 and
 * 0x4820a0, `call runtime.morestack_noctxt` at 0x4820b8 and the short jmp
 * back to the entry. main.wrap (derived) is a tail call, `jmp main.fib`,
 * and int3 padding. The plan around them is built by hand. */
#include "rewriter/plan/call_sites.h"
#include "rewriter/plan/plan.h"
#include "tests/unit/unit.h"

#include <elf.h>
#include <string.h>

#define FIB 0x482060u
#define WRAP 0x4820e0u
#define MORESTACK 0x460680u

static const uint8_t go122_fib[0x80] = {
    0x49, 0x3b, 0x66, 0x10, 0x76, 0x4d, 0x55, 0x48, 0x89, 0xe5, 0x48, 0x83, 0xec, 0x10, 0x48, 0x83,
    0xf8, 0x02, 0x7d, 0x06, 0x48, 0x83, 0xc4, 0x10, 0x5d, 0xc3, 0x48, 0x89, 0x44, 0x24, 0x20, 0x48,
    0x8d, 0x48, 0xff, 0x48, 0x89, 0xc8, 0xe8, 0xd5, 0xff, 0xff, 0xff, 0x48, 0x89, 0x44, 0x24, 0x08,
    0x48, 0x8b, 0x4c, 0x24, 0x20, 0x48, 0x83, 0xc1, 0xfe, 0x48, 0x89, 0xc8, 0x0f, 0x1f, 0x40, 0x00,
    0xe8, 0xbb, 0xff, 0xff, 0xff, 0x48, 0x8b, 0x4c, 0x24, 0x08, 0x48, 0x01, 0xc8, 0x48, 0x83, 0xc4,
    0x10, 0x5d, 0xc3, 0x48, 0x89, 0x44, 0x24, 0x08, 0xe8, 0xc3, 0xe5, 0xfd, 0xff, 0x48, 0x8b, 0x44,
    0x24, 0x08, 0xeb, 0x9c, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc,
    0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc,
};

/* jmp main.fib (rel32 from 0x4820e5 back to 0x482060); int3 padding */
static const uint8_t wrap[16] = {0xe9, 0x7b, 0xff, 0xff, 0xff, 0xcc, 0xcc, 0xcc,
                                 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc};

struct fixture {
    uint8_t text[sizeof go122_fib + sizeof wrap];
    struct gr_segment seg;
    struct gr_elf elf;
    struct gr_func funcs[3];
    struct gr_plan_func pfuncs[3];
    struct gr_return returns[1];
    struct gr_plan plan;
    struct gr_call_sites sites;
};

/* morestack (not in the text) and wrap skipped, fib instrumented with its
 * 6-byte check patched; no returns. */
static void setup(struct fixture *x)
{
    memset(x, 0, sizeof *x);
    memcpy(x->text, go122_fib, sizeof go122_fib);
    memcpy(x->text + sizeof go122_fib, wrap, sizeof wrap);
    x->seg = (struct gr_segment){.type = PT_LOAD, .flags = PF_R | PF_X, .vaddr = FIB,
                                 .filesz = sizeof x->text, .memsz = sizeof x->text, .align = 16};
    x->elf = (struct gr_elf){.path = "fake", .data = x->text, .size = sizeof x->text, .fd = -1,
                             .segments = &x->seg, .nsegments = 1};
    x->funcs[0] = (struct gr_func){.entry = MORESTACK, .end = MORESTACK + 0x40,
                                   .name = "runtime.morestack_noctxt.abi0"};
    x->funcs[1] = (struct gr_func){.entry = FIB, .end = WRAP, .name = "main.fib"};
    x->funcs[2] = (struct gr_func){.entry = WRAP, .end = WRAP + sizeof wrap, .name = "main.wrap"};
    for (int i = 0; i < 3; i++)
        x->pfuncs[i] = (struct gr_plan_func){.func = &x->funcs[i], .skip_reason = "test: skipped"};
    x->pfuncs[1].skip_reason = NULL;
    x->pfuncs[1].prologue.len = 6;
    x->plan = (struct gr_plan){.funcs = x->pfuncs, .nfuncs = 3, .ninstrumented = 1,
                               .returns = {.items = x->returns, .n = 0, .cap = 1}};
}

static void find(struct fixture *x)
{
    CHECK_INT(gr_call_sites_find(&x->elf, &x->plan, &x->sites), 0);
}

static void check_site(const struct gr_call_site *s, uint64_t addr, uint8_t opcode)
{
    CHECK_U64(s->addr, addr);
    CHECK_INT(s->callee, 1);
    CHECK_INT(s->opcode, opcode);
}

/* fib's two recursive calls and wrap's tail jmp: morestack is not
 * instrumented, the short jmp back to the entry is not rel32. */
static void recursive_calls_and_tail_jmp(void)
{
    struct fixture x;
    setup(&x);
    find(&x);
    if (CHECK_INT(x.sites.n, 3)) {
        check_site(&x.sites.items[0], 0x482086, 0xe8);
        check_site(&x.sites.items[1], 0x4820a0, 0xe8);
        check_site(&x.sites.items[2], WRAP, 0xe9);
    }
    CHECK_INT(x.sites.funcs_unswept, 0);
    gr_call_sites_free(&x.sites);
}

/* A callee that is skipped has no trampoline: its calls stay. */
static void skipped_callee(void)
{
    struct fixture x;
    setup(&x);
    x.pfuncs[1].skip_reason = "test: skipped";
    x.plan.ninstrumented = 0;
    find(&x);
    CHECK_INT(x.sites.n, 0);
    gr_call_sites_free(&x.sites);
}

/* A call inside bytes a patch covers (here a return's range starting
 * one byte into it) moved into a trampoline: it stays as it is. So does
 * wrap's jmp once wrap's own entry is patched. */
static void inside_patched_bytes(void)
{
    struct fixture x;
    setup(&x);
    x.returns[0] = (struct gr_return){.addr = 0x4820a4, .len = 5, .ret_off = 4};
    x.plan.returns.n = 1;
    x.pfuncs[2].skip_reason = NULL;
    x.pfuncs[2].prologue.len = 5;
    x.plan.ninstrumented = 2;
    find(&x);
    if (CHECK_INT(x.sites.n, 1))
        check_site(&x.sites.items[0], 0x482086, 0xe8);
    gr_call_sites_free(&x.sites);
}

/* Bytes that do not decode (0x06, push es, is invalid in 64-bit mode) in
 * place of fib's padding: none of fib's calls is trusted, wrap's still is. */
static void undecodable_function(void)
{
    struct fixture x;
    setup(&x);
    x.text[0x70] = 0x06;
    find(&x);
    if (CHECK_INT(x.sites.n, 1))
        check_site(&x.sites.items[0], WRAP, 0xe9);
    CHECK_INT(x.sites.funcs_unswept, 1);
    gr_call_sites_free(&x.sites);
}

/* A call whose target is inside fib, not its entry, is not a site. */
static void target_not_an_entry(void)
{
    struct fixture x;
    setup(&x);
    x.text[0x27] = 0xd6;   /* the first call's rel32 -0x2b -> -0x2a: 0x482061 */
    find(&x);
    if (CHECK_INT(x.sites.n, 2))
        check_site(&x.sites.items[0], 0x4820a0, 0xe8);
    gr_call_sites_free(&x.sites);
}

UNIT_CASES("call_sites",
           UNIT_CASE(recursive_calls_and_tail_jmp),
           UNIT_CASE(skipped_callee),
           UNIT_CASE(inside_patched_bytes),
           UNIT_CASE(undecodable_function),
           UNIT_CASE(target_not_an_entry));
