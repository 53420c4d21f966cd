/* test_returns.c: rewriter/plan/returns.c, which finds a function's returns
 * and branch targets and decides which returns can be patched.
 *
 * Real functions (bytes from `objdump -d` of programs built with go1.22.12,
 * /usr/lib/go-1.22, addresses and sizes from `nm -S`): main.small (two
 * returns), main.sw2 (a switch compiled to a jump table, whose 8 entries
 * are read from a fake gr_elf holding the real .rodata words), main.boom
 * (always panics: no ret) and runtime.morestack_noctxt.abi0 (a tail jump).
 * The source of main.sw2 and main.boom:
 *
 *   func f(x int) int { return x * 3 }   // go:noinline on all three
 *   func sw2(x int) int {
 *       switch x {
 *       case 0: return f(1)      case 1: return f(2) + 1
 *       case 2: return 5         case 3: return f(4) - 1
 *       case 4: return 9         case 5: return f(x) * 2
 *       case 6: return 1         case 7: return f(8)
 *       }
 *       return 0
 *   }
 *   func boom(x int) { panic(x) }
 *
 * The other shapes are hand-written in returns_fixtures.S. */
#include "rewriter/plan/returns.h"
#include "tests/unit/unit.h"

#include <elf.h>
#include <string.h>

/* go1.22 executable: main.small at 0x4644a0, 0x64 bytes */
static const uint8_t go122_small[0x64] = {
    0x49, 0x3b, 0x66, 0x10,                      /* +0x0: cmp rsp,[r14+0x10] */
    0x76, 0x4d,                                  /* +0x4: jbe 4644f3 (main.small+0x53) */
    0x55,                                        /* +0x6: push rbp */
    0x48, 0x89, 0xe5,                            /* +0x7: mov rbp,rsp */
    0x48, 0x83, 0xec, 0x10,                      /* +0xa: sub rsp,0x10 */
    0x48, 0x83, 0xf8, 0x02,                      /* +0xe: cmp rax,0x2 */
    0x7d, 0x06,                                  /* +0x12: jge 4644ba (main.small+0x1a) */
    0x48, 0x83, 0xc4, 0x10,                      /* +0x14: add rsp,0x10 */
    0x5d,                                        /* +0x18: pop rbp */
    0xc3,                                        /* +0x19: ret */
    0x48, 0x89, 0x44, 0x24, 0x20,                /* +0x1a: mov [rsp+0x20],rax */
    0x48, 0x8d, 0x48, 0xff,                      /* +0x1f: lea rcx,[rax-0x1] */
    0x48, 0x89, 0xc8,                            /* +0x23: mov rax,rcx */
    0xe8, 0xd5, 0xff, 0xff, 0xff,                /* +0x26: call 4644a0 (main.small) */
    0x48, 0x89, 0x44, 0x24, 0x08,                /* +0x2b: mov [rsp+0x8],rax */
    0x48, 0x8b, 0x4c, 0x24, 0x20,                /* +0x30: mov rcx,[rsp+0x20] */
    0x48, 0x83, 0xc1, 0xfe,                      /* +0x35: add rcx,0xfffffffffffffffe */
    0x48, 0x89, 0xc8,                            /* +0x39: mov rax,rcx */
    0x0f, 0x1f, 0x40, 0x00,                      /* +0x3c: nop DWORD PTR [rax+0x0] */
    0xe8, 0xbb, 0xff, 0xff, 0xff,                /* +0x40: call 4644a0 (main.small) */
    0x48, 0x8b, 0x4c, 0x24, 0x08,                /* +0x45: mov rcx,[rsp+0x8] */
    0x48, 0x01, 0xc8,                            /* +0x4a: add rax,rcx */
    0x48, 0x83, 0xc4, 0x10,                      /* +0x4d: add rsp,0x10 */
    0x5d,                                        /* +0x51: pop rbp */
    0xc3,                                        /* +0x52: ret */
    0x48, 0x89, 0x44, 0x24, 0x08,                /* +0x53: mov [rsp+0x8],rax */
    0xe8, 0x63, 0x83, 0xff, 0xff,                /* +0x58: call 45c860 (runtime.morestack_noctxt.abi0) */
    0x48, 0x8b, 0x44, 0x24, 0x08,                /* +0x5d: mov rax,[rsp+0x8] */
    0xeb, 0x9c,                                  /* +0x62: jmp 4644a0 (main.small) */
};
/* go1.22 executable: main.sw2 at 0x4645c0, 0xc7 bytes */
static const uint8_t go122_sw2[0xc7] = {
    0x49, 0x3b, 0x66, 0x10,                      /* +0x0: cmp rsp,[r14+0x10] */
    0x0f, 0x86, 0xa9, 0x00, 0x00, 0x00,          /* +0x4: jbe 464673 (main.sw2+0xb3) */
    0x55,                                        /* +0xa: push rbp */
    0x48, 0x89, 0xe5,                            /* +0xb: mov rbp,rsp */
    0x48, 0x83, 0xec, 0x08,                      /* +0xe: sub rsp,0x8 */
    0x48, 0x83, 0xf8, 0x07,                      /* +0x12: cmp rax,0x7 */
    0x0f, 0x87, 0x8f, 0x00, 0x00, 0x00,          /* +0x16: ja 46466b (main.sw2+0xab) */
    0x48, 0x8d, 0x0d, 0xdd, 0x09, 0x03, 0x00,    /* +0x1c: lea rcx,[rip+0x309dd] */
    0xff, 0x24, 0xc1,                            /* +0x23: jmp [rcx+rax*8] */
    0xb8, 0x01, 0x00, 0x00, 0x00,                /* +0x26: mov eax,0x1 */
    0xe8, 0xb0, 0xff, 0xff, 0xff,                /* +0x2b: call 4645a0 (main.f) */
    0x48, 0x83, 0xc4, 0x08,                      /* +0x30: add rsp,0x8 */
    0x5d,                                        /* +0x34: pop rbp */
    0xc3,                                        /* +0x35: ret */
    0xb8, 0x02, 0x00, 0x00, 0x00,                /* +0x36: mov eax,0x2 */
    0x0f, 0x1f, 0x44, 0x00, 0x00,                /* +0x3b: nop DWORD PTR [rax+rax*1+0x0] */
    0xe8, 0x9b, 0xff, 0xff, 0xff,                /* +0x40: call 4645a0 (main.f) */
    0x48, 0xff, 0xc0,                            /* +0x45: inc rax */
    0x48, 0x83, 0xc4, 0x08,                      /* +0x48: add rsp,0x8 */
    0x5d,                                        /* +0x4c: pop rbp */
    0xc3,                                        /* +0x4d: ret */
    0xb8, 0x05, 0x00, 0x00, 0x00,                /* +0x4e: mov eax,0x5 */
    0x48, 0x83, 0xc4, 0x08,                      /* +0x53: add rsp,0x8 */
    0x5d,                                        /* +0x57: pop rbp */
    0xc3,                                        /* +0x58: ret */
    0xb8, 0x04, 0x00, 0x00, 0x00,                /* +0x59: mov eax,0x4 */
    0x66, 0x90,                                  /* +0x5e: xchg ax,ax */
    0xe8, 0x7b, 0xff, 0xff, 0xff,                /* +0x60: call 4645a0 (main.f) */
    0x48, 0xff, 0xc8,                            /* +0x65: dec rax */
    0x48, 0x83, 0xc4, 0x08,                      /* +0x68: add rsp,0x8 */
    0x5d,                                        /* +0x6c: pop rbp */
    0xc3,                                        /* +0x6d: ret */
    0xb8, 0x09, 0x00, 0x00, 0x00,                /* +0x6e: mov eax,0x9 */
    0x48, 0x83, 0xc4, 0x08,                      /* +0x73: add rsp,0x8 */
    0x5d,                                        /* +0x77: pop rbp */
    0xc3,                                        /* +0x78: ret */
    0xb8, 0x05, 0x00, 0x00, 0x00,                /* +0x79: mov eax,0x5 */
    0x66, 0x90,                                  /* +0x7e: xchg ax,ax */
    0xe8, 0x5b, 0xff, 0xff, 0xff,                /* +0x80: call 4645a0 (main.f) */
    0x48, 0xd1, 0xe0,                            /* +0x85: shl rax,1 */
    0x48, 0x83, 0xc4, 0x08,                      /* +0x88: add rsp,0x8 */
    0x5d,                                        /* +0x8c: pop rbp */
    0xc3,                                        /* +0x8d: ret */
    0xb8, 0x01, 0x00, 0x00, 0x00,                /* +0x8e: mov eax,0x1 */
    0x48, 0x83, 0xc4, 0x08,                      /* +0x93: add rsp,0x8 */
    0x5d,                                        /* +0x97: pop rbp */
    0xc3,                                        /* +0x98: ret */
    0xb8, 0x08, 0x00, 0x00, 0x00,                /* +0x99: mov eax,0x8 */
    0x66, 0x90,                                  /* +0x9e: xchg ax,ax */
    0xe8, 0x3b, 0xff, 0xff, 0xff,                /* +0xa0: call 4645a0 (main.f) */
    0x48, 0x83, 0xc4, 0x08,                      /* +0xa5: add rsp,0x8 */
    0x5d,                                        /* +0xa9: pop rbp */
    0xc3,                                        /* +0xaa: ret */
    0x31, 0xc0,                                  /* +0xab: xor eax,eax */
    0x48, 0x83, 0xc4, 0x08,                      /* +0xad: add rsp,0x8 */
    0x5d,                                        /* +0xb1: pop rbp */
    0xc3,                                        /* +0xb2: ret */
    0x48, 0x89, 0x44, 0x24, 0x08,                /* +0xb3: mov [rsp+0x8],rax */
    0xe8, 0xe3, 0x81, 0xff, 0xff,                /* +0xb8: call 45c860 (runtime.morestack_noctxt.abi0) */
    0x48, 0x8b, 0x44, 0x24, 0x08,                /* +0xbd: mov rax,[rsp+0x8] */
    0xe9, 0x39, 0xff, 0xff, 0xff,                /* +0xc2: jmp 4645c0 (main.sw2) */
};
/* go1.22 executable: main.boom at 0x464500, 0x37 bytes */
static const uint8_t go122_boom[0x37] = {
    0x49, 0x3b, 0x66, 0x10,                      /* +0x0: cmp rsp,[r14+0x10] */
    0x76, 0x20,                                  /* +0x4: jbe 464526 (main.boom+0x26) */
    0x55,                                        /* +0x6: push rbp */
    0x48, 0x89, 0xe5,                            /* +0x7: mov rbp,rsp */
    0x48, 0x83, 0xec, 0x10,                      /* +0xa: sub rsp,0x10 */
    0xe8, 0x8d, 0x53, 0xfa, 0xff,                /* +0xe: call 4098a0 (runtime.convT64) */
    0x48, 0x89, 0xc3,                            /* +0x13: mov rbx,rax */
    0x48, 0x8d, 0x05, 0x83, 0x65, 0x00, 0x00,    /* +0x16: lea rax,[rip+0x6583] */
    0x0f, 0x1f, 0x00,                            /* +0x1d: nop DWORD PTR [rax] */
    0xe8, 0xbb, 0xb4, 0xfc, 0xff,                /* +0x20: call 42f9e0 (runtime.gopanic) */
    0x90,                                        /* +0x25: nop */
    0x48, 0x89, 0x44, 0x24, 0x08,                /* +0x26: mov [rsp+0x8],rax */
    0xe8, 0x30, 0x83, 0xff, 0xff,                /* +0x2b: call 45c860 (runtime.morestack_noctxt.abi0) */
    0x48, 0x8b, 0x44, 0x24, 0x08,                /* +0x30: mov rax,[rsp+0x8] */
    0xeb, 0xc9,                                  /* +0x35: jmp 464500 (main.boom) */
};
/* go1.22 executable: runtime.morestack_noctxt.abi0 at 0x45c860, 0xa bytes */
static const uint8_t go122_morestack_noctxt[0xa] = {
    0xba, 0x00, 0x00, 0x00, 0x00,                /* +0x0: mov edx,0x0 */
    0xe9, 0x76, 0xff, 0xff, 0xff,                /* +0x5: jmp 45c7e0 (runtime.morestack.abi0) */
};

/* main.sw2's jump table at 0x494fc0 in .rodata, and the word after it
 * (0x409243, in another function: where reading the table stops). */
#define SW2_ENTRY 0x4645c0
#define SW2_TABLE 0x494fc0
static const uint64_t go122_sw2_table[9] = {
    0x4645e6, 0x4645f6, 0x46460e, 0x464619, 0x46462e, 0x464639, 0x46464e, 0x464659,
    0x409243,
};

/* Hand-written fixtures (returns_fixtures.S). */
#define FX(name) extern const uint8_t name[], name##_end[]
FX(fx_stack); FX(fx_fault); FX(fx_div); FX(fx_pad4); FX(fx_pad3); FX(fx_jcc); FX(fx_epi);
FX(fx_intocheck); FX(fx_repret); FX(fx_retimm); FX(fx_jmpreg); FX(fx_table3); FX(fx_table4);
FX(fx_bad); FX(fx_tailjcc); FX(fx_twoway); FX(fx_mov);
extern const uint64_t fx_table3_table[], fx_table4_table[];

#define CHECK_LEN 6     /* cmp rsp,[r14+0x10]; jbe rel8 */

static const char FEWER[] = "a return with fewer than 5 replaceable bytes";
static const char NOT_TABLE[] = "an indirect jump that is not a jump table";
static const char INSIDE_EPILOGUE[] = "a branch lands inside a return's epilogue";
static const char TAIL[] = "a jump to another function (tail call)";

/* A gr_elf whose only loaded bytes are nwords words at addr. */
struct fake_elf {
    struct gr_elf elf;
    struct gr_segment seg;
};

static const struct gr_elf *fake_elf(struct fake_elf *f, uint64_t addr, const uint64_t *words,
                                     size_t nwords)
{
    memset(f, 0, sizeof *f);
    f->seg = (struct gr_segment){.type = PT_LOAD, .flags = PF_R, .offset = 0, .vaddr = addr,
                                 .filesz = 8 * nwords, .memsz = 8 * nwords, .align = 8};
    f->elf.path = "fake";
    f->elf.data = (const uint8_t *)words;
    f->elf.size = 8 * nwords;
    f->elf.fd = -1;
    f->elf.segments = &f->seg;
    f->elf.nsegments = 1;
    return &f->elf;
}

static const struct gr_elf no_elf = {.path = "empty", .fd = -1};

struct scan {
    struct gr_return_scan s;
    struct gr_return_list list;
    struct gr_body body;
};

static void scan_begin(struct scan *sc)
{
    gr_return_scan_init(&sc->s);
    memset(&sc->list, 0, sizeof sc->list);
}

static void scan_end(struct scan *sc)
{
    gr_return_scan_free(&sc->s);
    gr_return_list_free(&sc->list);
}

static void scan(struct scan *sc, const struct gr_elf *elf, const uint8_t *code, size_t size,
                 uint64_t entry, unsigned entry_len)
{
    memset(&sc->body, 0xa5, sizeof sc->body);    /* the scan must set every field */
    CHECK_INT(gr_returns_scan(&sc->s, elf, code, size, entry, entry_len, &sc->list, &sc->body), 0);
}

/* Scans a hand-written fixture at its run-time address. */
static void scan_fx(struct scan *sc, const struct gr_elf *elf, const uint8_t *start,
                    const uint8_t *end, unsigned entry_len)
{
    scan(sc, elf, start, (size_t)(end - start), (uint64_t)(uintptr_t)start, entry_len);
}

struct want_return {
    uint64_t off;       /* from the entry */
    unsigned len, ret_off;
};

/* The function is timed with exactly these returns, appended at first. */
static void expect_returns(const struct scan *sc, uint64_t entry, size_t first,
                         const struct want_return *w, size_t n)
{
    CHECK_U64(sc->body.covered_targeted, 0);
    CHECK_STR(sc->body.untimed_reason, NULL);
    CHECK_U64(sc->body.first_return, first);
    if (!CHECK_U64(sc->body.nreturns, n) || !CHECK_U64(sc->list.n, first + n))
        return;
    for (size_t i = 0; i < n; i++) {
        const struct gr_return *e = &sc->list.items[first + i];
        CHECK_U64(e->addr - entry, w[i].off);
        CHECK_U64(e->len, w[i].len);
        CHECK_U64(e->ret_off, w[i].ret_off);
    }
}

/* Untimed for why (the covered bytes no target), nothing left in the list. */
static void expect_untimed(const struct scan *sc, size_t list_n, const char *why)
{
    CHECK_U64(sc->body.covered_targeted, 0);
    CHECK_STR(sc->body.untimed_reason, why);
    CHECK_U64(sc->body.nreturns, 0);
    CHECK_U64(sc->list.n, list_n);
}

static const struct want_return SW2_RETURNS[] = {
    {0x30, 6, 5}, {0x48, 6, 5}, {0x53, 6, 5}, {0x68, 6, 5}, {0x73, 6, 5},
    {0x88, 6, 5}, {0x93, 6, 5}, {0xa5, 6, 5}, {0xad, 6, 5},
};
#define NSW2 (sizeof SW2_RETURNS / sizeof SW2_RETURNS[0])

/* Each ret covers add rsp,0x10; pop rbp; ret: 6 bytes. */
static void go_function_two_returns(void)
{
    struct scan sc;
    scan_begin(&sc);
    scan(&sc, &no_elf, go122_small, sizeof go122_small, 0x4644a0, CHECK_LEN);
    expect_returns(&sc, 0x4644a0, 0, (const struct want_return[]){{0x14, 6, 5}, {0x4d, 6, 5}}, 2);
    scan_end(&sc);
}

static void go_jump_table(void)
{
    struct scan sc;
    struct fake_elf fe;
    scan_begin(&sc);
    scan(&sc, fake_elf(&fe, SW2_TABLE, go122_sw2_table, 9), go122_sw2, sizeof go122_sw2,
         SW2_ENTRY, 10);
    expect_returns(&sc, SW2_ENTRY, 0, SW2_RETURNS, NSW2);
    /* the table ends where the file's bytes end */
    scan(&sc, fake_elf(&fe, SW2_TABLE, go122_sw2_table, 8), go122_sw2, sizeof go122_sw2,
         SW2_ENTRY, 10);
    expect_returns(&sc, SW2_ENTRY, NSW2, SW2_RETURNS, NSW2);
    scan_end(&sc);
}

/* The table not in the file, or not pointing into the function. */
static void go_jump_table_not_found(void)
{
    struct scan sc;
    struct fake_elf fe;
    scan_begin(&sc);
    scan(&sc, &no_elf, go122_sw2, sizeof go122_sw2, SW2_ENTRY, 10);
    expect_untimed(&sc, 0, NOT_TABLE);
    scan(&sc, fake_elf(&fe, SW2_TABLE, go122_sw2_table + 8, 1), go122_sw2,
         sizeof go122_sw2, SW2_ENTRY, 10);        /* its first word is outside */
    expect_untimed(&sc, 0, NOT_TABLE);
    scan(&sc, fake_elf(&fe, SW2_TABLE + 8, go122_sw2_table, 9), go122_sw2, sizeof go122_sw2,
         SW2_ENTRY, 10);                          /* the lea's address is not backed */
    expect_untimed(&sc, 0, NOT_TABLE);
    scan_end(&sc);
}

/* Table entries are branch targets: one into the middle of an epilogue's
 * instruction, or onto its pop rbp, makes that ret unpatchable. */
static void go_jump_table_targets_count(void)
{
    struct scan sc;
    struct fake_elf fe;
    uint64_t table[9];
    scan_begin(&sc);
    memcpy(table, go122_sw2_table, sizeof table);
    table[2] = SW2_ENTRY + 0x49;                  /* inside add rsp,8 at +0x48 */
    scan(&sc, fake_elf(&fe, SW2_TABLE, table, 9), go122_sw2, sizeof go122_sw2, SW2_ENTRY, 10);
    expect_untimed(&sc, 0, INSIDE_EPILOGUE);
    table[2] = SW2_ENTRY + 0x57;                  /* pop rbp of the ret at +0x58 */
    scan(&sc, fake_elf(&fe, SW2_TABLE, table, 9), go122_sw2, sizeof go122_sw2, SW2_ENTRY, 10);
    expect_untimed(&sc, 0, FEWER);
    /* Reading stops at the first word outside the function: an entry after
     * it is not a target. */
    table[2] = 0x409243;
    table[3] = SW2_ENTRY + 0x57;
    scan(&sc, fake_elf(&fe, SW2_TABLE, table, 9), go122_sw2, sizeof go122_sw2, SW2_ENTRY, 10);
    expect_returns(&sc, SW2_ENTRY, 0, SW2_RETURNS, NSW2);
    scan_end(&sc);
}

/* A branch into the 10 bytes the entry patch replaces: the morestack
 * block's jmp retargeted from the entry to entry+4 (derived). */
static void go_branch_into_check(void)
{
    struct scan sc;
    uint8_t code[sizeof go122_sw2];
    struct fake_elf fe;
    memcpy(code, go122_sw2, sizeof code);
    code[0xc3] = 0x3d;                            /* jmp rel32 -0xc3: entry + 4 */
    scan_begin(&sc);
    scan(&sc, fake_elf(&fe, SW2_TABLE, go122_sw2_table, 9), code, sizeof code, SW2_ENTRY, 10);
    CHECK_U64(sc.body.covered_targeted, 1);
    CHECK_U64(sc.body.nreturns, 0);
    CHECK_U64(sc.list.n, 0);
    /* the unchanged jmp to the entry itself is fine */
    scan(&sc, fake_elf(&fe, SW2_TABLE, go122_sw2_table, 9), go122_sw2, sizeof code, SW2_ENTRY, 10);
    CHECK_U64(sc.body.covered_targeted, 0);
    scan_end(&sc);
}

static void go_no_return(void)
{
    struct scan sc;
    scan_begin(&sc);
    scan(&sc, &no_elf, go122_boom, sizeof go122_boom, 0x464500, CHECK_LEN);
    expect_untimed(&sc, 0, "no return instruction");
    scan_end(&sc);
}

static void go_tail_jump(void)
{
    struct scan sc;
    scan_begin(&sc);
    scan(&sc, &no_elf, go122_morestack_noctxt, sizeof go122_morestack_noctxt, 0x45c860, 0);
    expect_untimed(&sc, 0, TAIL);
    scan_fx(&sc, &no_elf, fx_tailjcc, fx_tailjcc_end, CHECK_LEN);   /* je to another function */
    expect_untimed(&sc, 0, "a conditional jump to another function");
    sc.s.allow_tail = 1;            /* where the plan allows it, the jmp is a return */
    scan_fx(&sc, &no_elf, fx_tailjcc, fx_tailjcc_end, CHECK_LEN);
    expect_untimed(&sc, 0, "a conditional jump to another function");
    scan(&sc, &no_elf, go122_morestack_noctxt, sizeof go122_morestack_noctxt, 0x45c860, 5);
    static const struct want_return tail[] = {{0x5, 5, 0}};
    expect_returns(&sc, 0x45c860, 0, tail, 1);
    CHECK_U64(sc.list.items[0].tail_to, 0x45c7e0);
    CHECK_U64(sc.body.tail_calls, 1);
    scan_end(&sc);
}

/* Go 1.27 method wrappers from buf: jmp reg after loading the method from
 * an itab, frameless (context.(*stopCtx).Deadline) or after the epilogue
 * (reporter.(*errorWithSpan).End, shortened): tail calls, targets known,
 * returns where the plan allows tail calls (the register kept for the
 * trampoline's jump), else untimed. The same jmp with the frame live, or
 * in assembly, is not; nor is one through R12, which the return
 * overwrites. */
static const uint8_t go127_frameless[] = {
    0x48, 0x8b, 0x08, 0x48, 0x8b, 0x40, 0x08, 0x48, 0x8b, 0x49, 0x18, 0xff, 0xe1,
};
static const uint8_t go127_popped[] = {
    0x55, 0x48, 0x89, 0xe5, 0x48, 0x83, 0xec, 0x28, 0x48, 0x8b, 0x08, 0x48, 0x8b,
    0x49, 0x18, 0x48, 0x83, 0xc4, 0x28, 0x5d, 0xff, 0xe1,
};
static const uint8_t go127_frame_live[] = {   /* the popped one without add/pop */
    0x55, 0x48, 0x89, 0xe5, 0x48, 0x83, 0xec, 0x28, 0x48, 0x8b, 0x08, 0x48, 0x8b,
    0x49, 0x18, 0xff, 0xe1,
};
static const uint8_t through_r12[] = {         /* the popped one, loading R12 */
    0x55, 0x48, 0x89, 0xe5, 0x48, 0x83, 0xec, 0x28, 0x48, 0x8b, 0x08, 0x4c, 0x8b,
    0x61, 0x18, 0x48, 0x83, 0xc4, 0x28, 0x5d, 0x41, 0xff, 0xe4,
};
static const char REG_TAIL[] = "a tail call through a register";

static void register_tail_calls(void)
{
    struct scan sc;
    scan_begin(&sc);
    sc.s.compiled = 1;
    scan(&sc, &no_elf, go127_frameless, sizeof go127_frameless, 0x4c9a20, 7);
    expect_untimed(&sc, 0, REG_TAIL);
    CHECK_U64(sc.body.targets_unknown, 0);
    sc.s.allow_tail = sc.s.allow_guard = 1;
    scan(&sc, &no_elf, go127_frameless, sizeof go127_frameless, 0x4c9a20, 7);
    expect_returns(&sc, 0x4c9a20, 0, (const struct want_return[]){{0x7, 6, 4}}, 1);
    CHECK_U64(sc.list.items[0].tail_reg, ZYDIS_REGISTER_RCX);
    CHECK_U64(sc.list.items[0].tail_to, 0);
    CHECK_U64(sc.list.items[0].guard_mask, 1);     /* the itab load */
    CHECK_U64(sc.body.tail_calls, 1);
    sc.list.n = 0;
    scan(&sc, &no_elf, go127_popped, sizeof go127_popped, 0x8de5e0, 0);
    expect_returns(&sc, 0x8de5e0, 0, (const struct want_return[]){{0xf, 7, 5}}, 1);
    CHECK_U64(sc.list.items[0].tail_reg, ZYDIS_REGISTER_RCX);
    sc.list.n = 0;
    scan(&sc, &no_elf, through_r12, sizeof through_r12, 0x8de5e0, 0);
    expect_untimed(&sc, 0, "a tail call through R12 (the exit's scratch register)");
    scan(&sc, &no_elf, go127_frame_live, sizeof go127_frame_live, 0x8de5e0, 0);
    expect_untimed(&sc, 0, NOT_TABLE);
    CHECK_U64(sc.body.targets_unknown, 1);
    sc.s.compiled = 0;              /* assembly: its frame may be live */
    scan(&sc, &no_elf, go127_frameless, sizeof go127_frameless, 0x4c9a20, 7);
    expect_untimed(&sc, 0, NOT_TABLE);
    CHECK_U64(sc.body.targets_unknown, 1);
    scan_end(&sc);
}

/* A mid-function ret after a store through a pointer: with guards allowed
 * the store is replayed behind one (guard_mask), the jcc before it plainly;
 * a flag read after a guarded instruction keeps the function untimed. */
static const uint8_t guarded_ret[] = {
    0x48, 0x85, 0xc0,        /* +0x0: test rax, rax (the "entry") */
    0x74, 0x04,              /* +0x3: je +0x9 */
    0x48, 0x89, 0x18,        /* +0x5: mov [rax], rbx */
    0xc3,                    /* +0x8: ret */
    0x31, 0xc0,              /* +0x9: xor eax, eax */
    0xc3,                    /* +0xb: ret */
    0xcc, 0xcc, 0xcc,        /* padding */
};
static const uint8_t guard_then_flags[] = {
    0x48, 0x85, 0xc0, 0x90, 0x90,   /* test rax, rax; nop; nop (the "entry") */
    0x48, 0x89, 0x18,               /* +0x5: mov [rax], rbx */
    0x0f, 0x94, 0xc1,               /* +0x8: sete cl: reads the flags the guard overwrote */
    0xc3,                           /* +0xb: ret */
    0x31, 0xc0, 0xc3,               /* +0xc: xor eax, eax; ret */
};

static void guarded_returns(void)
{
    struct scan sc;
    scan_begin(&sc);
    scan(&sc, &no_elf, guarded_ret, sizeof guarded_ret, 0x1000, 3);
    expect_untimed(&sc, 0, "a return with fewer than 5 replaceable bytes");
    sc.s.allow_guard = 1;
    scan(&sc, &no_elf, guarded_ret, sizeof guarded_ret, 0x1000, 3);
    static const struct want_return want[] = {{0x3, 6, 5}, {0x9, 5, 2}};   /* the second: 2 bytes of padding */
    expect_returns(&sc, 0x1000, 0, want, 2);
    CHECK_U64(sc.list.items[0].guard_mask, 2);     /* the store, not the je */
    CHECK_U64(sc.list.items[1].guard_mask, 0);
    sc.list.n = 0;
    scan(&sc, &no_elf, guard_then_flags, sizeof guard_then_flags, 0x2000, 5);
    expect_untimed(&sc, 0, "a return whose guarded instructions would overwrite R12 or flags read after them");
    scan_end(&sc);
}

/* Covering grows back over replayable instructions: a load from the
 * stack yes, one through another register or a div no (they may fault). */
static void cover_replayable_only(void)
{
    struct scan sc;
    scan_begin(&sc);
    scan_fx(&sc, &no_elf, fx_stack, fx_stack_end, CHECK_LEN);
    expect_returns(&sc, (uintptr_t)fx_stack, 0, (const struct want_return[]){{0xa, 7, 6}}, 1);
    scan_fx(&sc, &no_elf, fx_fault, fx_fault_end, CHECK_LEN);
    expect_untimed(&sc, 1, FEWER);
    scan_fx(&sc, &no_elf, fx_div, fx_div_end, CHECK_LEN);
    expect_untimed(&sc, 1, FEWER);
    scan_end(&sc);
}

/* Forward over int3 padding after the ret: 4 bytes of it make 5. */
static void cover_padding(void)
{
    struct scan sc;
    scan_begin(&sc);
    scan_fx(&sc, &no_elf, fx_pad4, fx_pad4_end, CHECK_LEN);
    expect_returns(&sc, (uintptr_t)fx_pad4, 0, (const struct want_return[]){{0xb, 5, 0}}, 1);
    scan_fx(&sc, &no_elf, fx_pad3, fx_pad3_end, CHECK_LEN);
    expect_untimed(&sc, 1, FEWER);
    scan_end(&sc);
}

/* Back over cmp; je (a conditional branch replays exactly); and a ret
 * whose first covered instruction is a branch target, padded forwards. */
static void cover_conditional_branch_and_target(void)
{
    struct scan sc;
    scan_begin(&sc);
    scan_fx(&sc, &no_elf, fx_jcc, fx_jcc_end, CHECK_LEN);
    expect_returns(&sc, (uintptr_t)fx_jcc, 0,
                 (const struct want_return[]){{0x6, 6, 5}, {0x13, 5, 2}}, 2);
    scan_end(&sc);
}

/* jz to the pop rbp of add rsp,16; pop rbp; ret: only pop; ret coverable. */
static void branch_into_epilogue(void)
{
    struct scan sc;
    scan_begin(&sc);
    scan_fx(&sc, &no_elf, fx_epi, fx_epi_end, CHECK_LEN);
    expect_untimed(&sc, 0, FEWER);
    scan_end(&sc);
}

/* The covered bytes never reach into the entry's patch; a branch into
 * the check is counted from entry+1 on. */
static void entry_bytes_are_not_replayed(void)
{
    struct scan sc;
    scan_begin(&sc);
    scan_fx(&sc, &no_elf, fx_mov, fx_mov_end, 0);
    expect_returns(&sc, (uintptr_t)fx_mov, 0, (const struct want_return[]){{0, 6, 5}}, 1);
    scan_fx(&sc, &no_elf, fx_mov, fx_mov_end, 1);
    expect_untimed(&sc, 1, FEWER);
    /* A leaf's entry patch covers mov and ret (6 bytes): the ret runs from
     * the entry trampoline, which times it; no return to patch, timed. */
    scan_fx(&sc, &no_elf, fx_mov, fx_mov_end, 6);
    expect_returns(&sc, (uintptr_t)fx_mov, 1, NULL, 0);
    scan_fx(&sc, &no_elf, fx_intocheck, fx_intocheck_end, 2);     /* jmp to entry+2 */
    expect_returns(&sc, (uintptr_t)fx_intocheck, 1, (const struct want_return[]){{0x6, 6, 5}}, 1);
    scan_fx(&sc, &no_elf, fx_intocheck, fx_intocheck_end, 3);
    CHECK_U64(sc.body.covered_targeted, 1);
    CHECK_U64(sc.list.n, 2);
    scan_fx(&sc, &no_elf, fx_intocheck, fx_intocheck_end, CHECK_LEN);
    CHECK_U64(sc.body.covered_targeted, 1);
    scan_end(&sc);
}

static void unpatchable_returns(void)
{
    struct scan sc;
    scan_begin(&sc);
    scan_fx(&sc, &no_elf, fx_repret, fx_repret_end, CHECK_LEN);
    expect_untimed(&sc, 0, "a return with a prefix or an operand");
    scan_fx(&sc, &no_elf, fx_retimm, fx_retimm_end, CHECK_LEN);
    expect_untimed(&sc, 0, "a return with a prefix or an operand");
    scan_fx(&sc, &no_elf, fx_bad, fx_bad_end, CHECK_LEN);
    expect_untimed(&sc, 0, "undecodable bytes in the function");
    scan_end(&sc);
}

/* The lea of the table at most 3 instructions before the jmp. */
static void table_lookback(void)
{
    struct scan sc;
    struct fake_elf fe;
    scan_begin(&sc);
    scan_fx(&sc, &no_elf, fx_jmpreg, fx_jmpreg_end, CHECK_LEN);
    expect_untimed(&sc, 0, NOT_TABLE);
    scan_fx(&sc, fake_elf(&fe, (uintptr_t)fx_table3_table, fx_table3_table, 3), fx_table3,
            fx_table3_end, CHECK_LEN);
    expect_returns(&sc, (uintptr_t)fx_table3, 0,
                 (const struct want_return[]){{0x12, 6, 5}, {0x18, 6, 5}}, 2);
    scan_fx(&sc, fake_elf(&fe, (uintptr_t)fx_table4_table, fx_table4_table, 3), fx_table4,
            fx_table4_end, CHECK_LEN);
    expect_untimed(&sc, 2, NOT_TABLE);
    scan_end(&sc);
}

/* One list for many functions: each appends its returns, and one whose
 * later ret fails takes back those of its earlier rets. */
static void list_across_functions(void)
{
    struct scan sc;
    struct fake_elf fe;
    scan_begin(&sc);
    scan(&sc, fake_elf(&fe, SW2_TABLE, go122_sw2_table, 9), go122_sw2, sizeof go122_sw2,
         SW2_ENTRY, 10);
    expect_returns(&sc, SW2_ENTRY, 0, SW2_RETURNS, NSW2);
    scan(&sc, &no_elf, go122_small, sizeof go122_small, 0x4644a0, CHECK_LEN);
    expect_returns(&sc, 0x4644a0, NSW2, (const struct want_return[]){{0x14, 6, 5}, {0x4d, 6, 5}}, 2);
    scan_fx(&sc, &no_elf, fx_twoway, fx_twoway_end, CHECK_LEN);
    expect_untimed(&sc, NSW2 + 2, FEWER);
    scan_fx(&sc, &no_elf, fx_pad4, fx_pad4_end, CHECK_LEN);
    expect_returns(&sc, (uintptr_t)fx_pad4, NSW2 + 2, (const struct want_return[]){{0xb, 5, 0}}, 1);
    /* the earlier functions' returns are intact */
    if (CHECK(sc.list.n >= NSW2 + 2)) {
        CHECK_U64(sc.list.items[NSW2 - 1].addr, SW2_ENTRY + 0xad);
        CHECK_U64(sc.list.items[NSW2 + 1].addr, 0x4644a0 + 0x4d);
    }
    scan_end(&sc);
}

UNIT_CASES("returns",
           UNIT_CASE(go_function_two_returns),
           UNIT_CASE(go_jump_table),
           UNIT_CASE(go_jump_table_not_found),
           UNIT_CASE(go_jump_table_targets_count),
           UNIT_CASE(go_branch_into_check),
           UNIT_CASE(go_no_return),
           UNIT_CASE(go_tail_jump),
           UNIT_CASE(register_tail_calls),
           UNIT_CASE(guarded_returns),
           UNIT_CASE(cover_replayable_only),
           UNIT_CASE(cover_padding),
           UNIT_CASE(cover_conditional_branch_and_target),
           UNIT_CASE(branch_into_epilogue),
           UNIT_CASE(entry_bytes_are_not_replayed),
           UNIT_CASE(unpatchable_returns),
           UNIT_CASE(table_lookback),
           UNIT_CASE(list_across_functions));
