/* test_prologue.c: rewriter/plan/prologue.c, the stack-check matcher.
 *
 * Every shape the Go linker emits (docs/architecture.md, section 3) as the
 * bytes it really wrote, and near misses that must be refused. The
 * fixtures were copied from `objdump -d` of real programs (addresses and
 * sizes from `nm -S`):
 *   go1.22.12 (/usr/lib/go-1.22): a program with a small, a large (1000-byte
 *     array) and a huge (100000-byte array) frame, built as an executable
 *     ("go122"), with -buildmode=pie ("go122 pie"), and a cgo
 *     -buildmode=c-shared library ("go122 c-shared");
 *   go1.15.15 (build/toolchains/usr/lib/go-1.15): the same program as an
 *     executable, as PIE, and a c-shared library.
 * The runtime supplies the stackguard1 checks (functions callable from C)
 * and the ABI0 assembly functions that load g from TLS (debugCall*,
 * call16). A fixture marked "derived" is a real one with the one change
 * named, for the forms no program at hand had (huge frame against
 * stackguard1) and for the near misses.
 *
 * Each fixture is matched inside a buffer of the function's real size
 * (the rest int3), allocated exactly, so that a read past the function's
 * end is caught under ASan. */
#include "rewriter/plan/prologue.h"
#include "tests/unit/unit.h"

#include <stdlib.h>
#include <string.h>

struct fixture {
    const char *name;
    const uint8_t *bytes;
    size_t nbytes;
    uint64_t entry;
    size_t size;        /* the function's size: branch targets must lie below */
};

#define FIXTURE(id, what, entry_, size_, ...)                            \
    static const uint8_t id##_bytes[] = {__VA_ARGS__};                   \
    static const struct fixture id = {what, id##_bytes, sizeof id##_bytes, entry_, size_}

/* ---- register ABI (Go >= 1.17): g in R14, scratch R12 ---- */

FIXTURE(go122_small, "go122 main.small", 0x4644a0, 0x64,
    0x49, 0x3b, 0x66, 0x10,                         /* cmp rsp,[r14+0x10] */
    0x76, 0x4d);                                    /* jbe main.small+0x53 */
FIXTURE(go122_small_sg1, "go122 runtime.(*mheap).enableMetadataHugePages", 0x40b520, 0xa6,
    0x49, 0x3b, 0x66, 0x18,                         /* cmp rsp,[r14+0x18] */
    0x0f, 0x86, 0x88, 0x00, 0x00, 0x00);            /* jbe +0x92 */
FIXTURE(go122_large, "go122 main.large", 0x464520, 0xdd,
    0x4c, 0x8d, 0xa4, 0x24, 0x80, 0xfc, 0xff, 0xff, /* lea r12,[rsp-0x380] */
    0x4d, 0x3b, 0x66, 0x10,                         /* cmp r12,[r14+0x10] */
    0x0f, 0x86, 0xb7, 0x00, 0x00, 0x00);            /* jbe +0xc9 */
FIXTURE(go122_large_sg1, "go122 runtime.scanstack", 0x419760, 0x765,
    0x4c, 0x8d, 0xa4, 0x24, 0x58, 0xff, 0xff, 0xff, /* lea r12,[rsp-0xa8] */
    0x4d, 0x3b, 0x66, 0x18,                         /* cmp r12,[r14+0x18] */
    0x0f, 0x86, 0x34, 0x07, 0x00, 0x00);            /* jbe +0x746 */
FIXTURE(go122_huge, "go122 main.huge", 0x464600, 0xcf,
    0x49, 0x89, 0xe4,                               /* mov r12,rsp */
    0x49, 0x81, 0xec, 0x40, 0x86, 0x01, 0x00,       /* sub r12,0x18640 */
    0x0f, 0x82, 0xaa, 0x00, 0x00, 0x00,             /* jb +0xba */
    0x4d, 0x3b, 0x66, 0x10,                         /* cmp r12,[r14+0x10] */
    0x0f, 0x86, 0xa0, 0x00, 0x00, 0x00);            /* jbe +0xba */
FIXTURE(go122_huge_sg1, "go122 main.huge, derived: [r14+0x18]", 0x464600, 0xcf,
    0x49, 0x89, 0xe4, 0x49, 0x81, 0xec, 0x40, 0x86, 0x01, 0x00, 0x0f, 0x82, 0xaa, 0x00, 0x00, 0x00,
    0x4d, 0x3b, 0x66, 0x18,                         /* cmp r12,[r14+0x18] */
    0x0f, 0x86, 0xa0, 0x00, 0x00, 0x00);
FIXTURE(go122_tls_small, "go122 runtime.call16.abi0", 0x45cc00, 0x8e,
    0x64, 0x4c, 0x8b, 0x34, 0x25, 0xf8, 0xff, 0xff, 0xff, /* mov r14,fs:[-8] */
    0x49, 0x3b, 0x66, 0x10,                         /* cmp rsp,[r14+0x10] */
    0x76, 0x67);                                    /* jbe +0x76 */
FIXTURE(go122_tls_large, "go122 debugCall128", 0x45c020, 0x56,
    0x64, 0x4c, 0x8b, 0x34, 0x25, 0xf8, 0xff, 0xff, 0xff, /* mov r14,fs:[-8] */
    0x4c, 0x8d, 0x64, 0x24, 0xf8,                   /* lea r12,[rsp-0x8] */
    0x4d, 0x3b, 0x66, 0x10,                         /* cmp r12,[r14+0x10] */
    0x76, 0x27);                                    /* jbe +0x3b */
FIXTURE(go122_pie_tls_large, "go122 pie debugCall128", 0x45c200, 0x58,
    0x49, 0xc7, 0xc6, 0xf8, 0xff, 0xff, 0xff,       /* mov r14,-8 */
    0x64, 0x4d, 0x8b, 0x36,                         /* mov r14,fs:[r14] */
    0x4c, 0x8d, 0x64, 0x24, 0xf8,                   /* lea r12,[rsp-0x8] */
    0x4d, 0x3b, 0x66, 0x10,                         /* cmp r12,[r14+0x10] */
    0x76, 0x27);                                    /* jbe +0x3d */
FIXTURE(go122_got_tls_large, "go122 c-shared debugCall128", 0x6f980, 0x58,
    0x4c, 0x8b, 0x35, 0x19, 0x36, 0x08, 0x00,       /* mov r14,[rip+0x83619] (GOT) */
    0x64, 0x4d, 0x8b, 0x36,                         /* mov r14,fs:[r14] */
    0x4c, 0x8d, 0x64, 0x24, 0xf8,                   /* lea r12,[rsp-0x8] */
    0x4d, 0x3b, 0x66, 0x10,                         /* cmp r12,[r14+0x10] */
    0x76, 0x27);                                    /* jbe +0x3d */
FIXTURE(go122_tls_nosplit, "go122 debugCall32", 0x45bf60, 0x41,
    0x64, 0x4c, 0x8b, 0x34, 0x25, 0xf8, 0xff, 0xff, 0xff, /* mov r14,fs:[-8] */
    0x55,                                           /* push rbp */
    0x48, 0x89, 0xe5);                              /* mov rbp,rsp */

/* ---- stack ABI (Go <= 1.16): g loaded into RCX, scratch RAX (RSI) ---- */

FIXTURE(go115_small, "go115 main.small", 0x466940, 0x8a,
    0x64, 0x48, 0x8b, 0x0c, 0x25, 0xf8, 0xff, 0xff, 0xff, /* mov rcx,fs:[-8] */
    0x48, 0x3b, 0x61, 0x10,                         /* cmp rsp,[rcx+0x10] */
    0x76, 0x71);                                    /* jbe +0x80 */
FIXTURE(go115_small_sg1, "go115 runtime.cgoCheckUsingType", 0x403900, 0x270,
    0x64, 0x48, 0x8b, 0x0c, 0x25, 0xf8, 0xff, 0xff, 0xff, /* mov rcx,fs:[-8] */
    0x48, 0x3b, 0x61, 0x18,                         /* cmp rsp,[rcx+0x18] */
    0x0f, 0x86, 0x53, 0x02, 0x00, 0x00);            /* jbe +0x266 */
FIXTURE(go115_large, "go115 main.large", 0x4669e0, 0xf4,
    0x64, 0x48, 0x8b, 0x0c, 0x25, 0xf8, 0xff, 0xff, 0xff, /* mov rcx,fs:[-8] */
    0x48, 0x8d, 0x84, 0x24, 0x80, 0xfc, 0xff, 0xff, /* lea rax,[rsp-0x380] */
    0x48, 0x3b, 0x41, 0x10,                         /* cmp rax,[rcx+0x10] */
    0x0f, 0x86, 0xcf, 0x00, 0x00, 0x00);            /* jbe +0xea */
FIXTURE(go115_huge, "go115 main.huge", 0x466ae0, 0xf0,
    0x64, 0x48, 0x8b, 0x0c, 0x25, 0xf8, 0xff, 0xff, 0xff, /* mov rcx,fs:[-8] */
    0x48, 0x8b, 0x71, 0x10,                         /* mov rsi,[rcx+0x10] */
    0x48, 0x81, 0xfe, 0xde, 0xfa, 0xff, 0xff,       /* cmp rsi,-0x522 (stackPreempt) */
    0x0f, 0x84, 0xcc, 0x00, 0x00, 0x00,             /* je +0xe6 */
    0x48, 0x8d, 0x84, 0x24, 0xa0, 0x03, 0x00, 0x00, /* lea rax,[rsp+0x3a0] */
    0x48, 0x29, 0xf0,                               /* sub rax,rsi */
    0x48, 0x3d, 0xd8, 0x89, 0x01, 0x00,             /* cmp rax,0x189d8 */
    0x0f, 0x86, 0xb5, 0x00, 0x00, 0x00);            /* jbe +0xe6 */
FIXTURE(go115_huge_sg1, "go115 main.huge, derived: [rcx+0x18]", 0x466ae0, 0xf0,
    0x64, 0x48, 0x8b, 0x0c, 0x25, 0xf8, 0xff, 0xff, 0xff,
    0x48, 0x8b, 0x71, 0x18,                         /* mov rsi,[rcx+0x18] */
    0x48, 0x81, 0xfe, 0xde, 0xfa, 0xff, 0xff, 0x0f, 0x84, 0xcc, 0x00, 0x00, 0x00,
    0x48, 0x8d, 0x84, 0x24, 0xa0, 0x03, 0x00, 0x00, 0x48, 0x29, 0xf0,
    0x48, 0x3d, 0xd8, 0x89, 0x01, 0x00, 0x0f, 0x86, 0xb5, 0x00, 0x00, 0x00);
FIXTURE(go115_pie_small, "go115 pie main.small", 0x467140, 0x8a,
    0x48, 0xc7, 0xc1, 0xf8, 0xff, 0xff, 0xff,       /* mov rcx,-8 */
    0x64, 0x48, 0x8b, 0x09,                         /* mov rcx,fs:[rcx] */
    0x48, 0x3b, 0x61, 0x10,                         /* cmp rsp,[rcx+0x10] */
    0x76, 0x6f);                                    /* jbe +0x80 */
FIXTURE(go115_pie_large, "go115 pie main.large", 0x4671e0, 0xf4,
    0x48, 0xc7, 0xc1, 0xf8, 0xff, 0xff, 0xff,       /* mov rcx,-8 */
    0x64, 0x48, 0x8b, 0x09,                         /* mov rcx,fs:[rcx] */
    0x48, 0x8d, 0x84, 0x24, 0x80, 0xfc, 0xff, 0xff, /* lea rax,[rsp-0x380] */
    0x48, 0x3b, 0x41, 0x10,                         /* cmp rax,[rcx+0x10] */
    0x0f, 0x86, 0xcd, 0x00, 0x00, 0x00);            /* jbe +0xea */
FIXTURE(go115_pie_huge, "go115 pie main.huge", 0x4672e0, 0xf4,
    0x48, 0xc7, 0xc1, 0xf8, 0xff, 0xff, 0xff,       /* mov rcx,-8 */
    0x64, 0x48, 0x8b, 0x09,                         /* mov rcx,fs:[rcx] */
    0x48, 0x8b, 0x71, 0x10,                         /* mov rsi,[rcx+0x10] */
    0x48, 0x81, 0xfe, 0xde, 0xfa, 0xff, 0xff,       /* cmp rsi,-0x522 (stackPreempt) */
    0x0f, 0x84, 0xce, 0x00, 0x00, 0x00,             /* je +0xea */
    0x48, 0x8d, 0x84, 0x24, 0xa0, 0x03, 0x00, 0x00, /* lea rax,[rsp+0x3a0] */
    0x48, 0x29, 0xf0,                               /* sub rax,rsi */
    0x48, 0x3d, 0xd8, 0x89, 0x01, 0x00,             /* cmp rax,0x189d8 */
    0x0f, 0x86, 0xb7, 0x00, 0x00, 0x00);            /* jbe +0xea */
FIXTURE(go115_got_small, "go115 c-shared internal/cpu.Initialize", 0x37300, 0x4e,
    0x48, 0x8b, 0x0d, 0xa9, 0x3c, 0x0d, 0x00,       /* mov rcx,[rip+0xd3ca9] (GOT) */
    0x64, 0x48, 0x8b, 0x09,                         /* mov rcx,fs:[rcx] */
    0x48, 0x3b, 0x61, 0x10,                         /* cmp rsp,[rcx+0x10] */
    0x76, 0x36);                                    /* jbe +0x47 */
FIXTURE(go115_got_large, "go115 c-shared internal/cpu.processOptions", 0x37360, 0x755,
    0x48, 0x8b, 0x0d, 0x49, 0x3c, 0x0d, 0x00,       /* mov rcx,[rip+0xd3c49] (GOT) */
    0x64, 0x48, 0x8b, 0x09,                         /* mov rcx,fs:[rcx] */
    0x48, 0x8d, 0x44, 0x24, 0xb0,                   /* lea rax,[rsp-0x50] */
    0x48, 0x3b, 0x41, 0x10,                         /* cmp rax,[rcx+0x10] */
    0x0f, 0x86, 0x31, 0x07, 0x00, 0x00);            /* jbe +0x74b */
/* A global loaded through RIP, not a TLS offset: the GOT form's first half. */
FIXTURE(go115_not_tls, "go115 pie (external link) runtime.gcPaceScavenger", 0x561a0, 0x152,
    0x48, 0x8b, 0x0d, 0x49, 0xbe, 0x0f, 0x00,       /* mov rcx,[rip+0xfbe49] */
    0x48, 0x85, 0xc9,                               /* test rcx,rcx */
    0x0f, 0x84, 0x36, 0x01, 0x00, 0x00);            /* je +0x146 */

static const char NO_CHECK[] = "no stack-bound check at entry (small leaf, NOSPLIT or assembly)";
static const char NO_JBE[] = "check not followed by jbe into the function";
static const char HUGE_OLD_BAD[] = "huge-frame check (stack ABI) does not match";

/* Matches f's bytes in a buffer of size bytes (the rest int3). */
static const char *match_sized(const struct fixture *f, size_t size, struct gr_insn *scratch,
                               struct gr_prologue *p)
{
    uint8_t *code = malloc(size ? size : 1);
    memset(code, 0xcc, size);
    memcpy(code, f->bytes, f->nbytes < size ? f->nbytes : size);
    memset(p, 0xa5, sizeof *p);               /* the match must set every field */
    const char *reason = gr_prologue_match(code, size, f->entry, scratch, p);
    free(code);
    return reason;
}

static const char *match(const struct fixture *f)
{
    struct gr_insn scratch[GR_PROLOGUE_MAX_INSNS];
    struct gr_prologue p;
    return match_sized(f, f->size, scratch, &p);
}

struct want {
    enum gr_prologue_shape shape;
    enum gr_tls_form tls;
    unsigned tls_ninsns;
    ZydisRegister g;
    int sg1;
    unsigned len, ninsns;
};

/* The decoded instructions tile [entry, entry + len). */
static void check_insns(const struct fixture *f, const struct gr_prologue *p)
{
    uint64_t addr = f->entry;
    for (unsigned i = 0; i < p->ninsns && i < GR_PROLOGUE_MAX_INSNS; i++) {
        CHECK_U64(p->insns[i].addr, addr);
        addr += p->insns[i].insn.length;
    }
    CHECK_U64(addr, f->entry + p->len);
}

/* gr_prologue_decode gives the same instructions again, and fails on
 * bytes that end too early. */
static void check_decode(const struct fixture *f, const struct gr_prologue *p)
{
    struct gr_insn again[GR_PROLOGUE_MAX_INSNS];
    if (!CHECK_INT(gr_prologue_decode(f->bytes, f->nbytes, f->entry, p->ninsns, again), 0))
        return;
    for (unsigned i = 0; i < p->ninsns; i++) {
        CHECK_U64(again[i].addr, p->insns[i].addr);
        CHECK_INT(again[i].insn.mnemonic, p->insns[i].insn.mnemonic);
        CHECK_INT(again[i].insn.length, p->insns[i].insn.length);
        CHECK(memcmp(again[i].ops, p->insns[i].ops, sizeof again[i].ops) == 0);
    }
    CHECK_INT(gr_prologue_decode(f->bytes, p->len - 1, f->entry, p->ninsns, again), -1);
}

static void expect(const struct fixture *f, const struct want *w)
{
    struct gr_insn scratch[GR_PROLOGUE_MAX_INSNS];
    struct gr_prologue p;
    unsigned before = unit_failures();
    if (CHECK_STR(match_sized(f, f->size, scratch, &p), NULL)) {
        CHECK_INT(p.shape, w->shape);
        CHECK_INT(p.tls_form, w->tls);
        CHECK_U64(p.tls_ninsns, w->tls_ninsns);
        CHECK_INT(p.loads_g_from_tls, w->tls_ninsns > 0);
        CHECK_INT(p.g_reg, w->g);
        CHECK_INT(p.stackguard1, w->sg1);
        CHECK_U64(p.len, w->len);
        CHECK_U64(p.ninsns, w->ninsns);
        CHECK(p.insns == scratch);
        CHECK_U64(w->len, f->nbytes);            /* the fixture is exactly the check */
        check_insns(f, &p);
        check_decode(f, &p);
    }
    /* Truncated: any shorter function is refused. */
    for (size_t size = 1; size < f->nbytes; size++)
        if (!match_sized(f, size, scratch, &p))
            unit_fail(__FILE__, __LINE__, "accepted when cut to %zu bytes", size);
    if (unit_failures() != before)
        unit_fail(__FILE__, __LINE__, "(fixture %s)", f->name);
}

#define R14 ZYDIS_REGISTER_R14
#define RCX ZYDIS_REGISTER_RCX

static void register_abi_small(void)
{
    expect(&go122_small, &(struct want){GR_PROLOGUE_SMALL, GR_TLS_NONE, 0, R14, 0, 6, 2});
    expect(&go122_small_sg1, &(struct want){GR_PROLOGUE_SMALL, GR_TLS_NONE, 0, R14, 1, 10, 2});
}

static void register_abi_large(void)
{
    expect(&go122_large, &(struct want){GR_PROLOGUE_LARGE, GR_TLS_NONE, 0, R14, 0, 18, 3});
    expect(&go122_large_sg1, &(struct want){GR_PROLOGUE_LARGE, GR_TLS_NONE, 0, R14, 1, 18, 3});
}

static void register_abi_huge(void)
{
    expect(&go122_huge, &(struct want){GR_PROLOGUE_HUGE, GR_TLS_NONE, 0, R14, 0, 26, 5});
    expect(&go122_huge_sg1, &(struct want){GR_PROLOGUE_HUGE, GR_TLS_NONE, 0, R14, 1, 26, 5});
}

/* ABI0 assembly: g into R14 from TLS in the three link forms. */
static void register_abi_tls_forms(void)
{
    expect(&go122_tls_small, &(struct want){GR_PROLOGUE_SMALL, GR_TLS_FS_DISP, 1, R14, 0, 15, 3});
    expect(&go122_tls_large, &(struct want){GR_PROLOGUE_LARGE, GR_TLS_FS_DISP, 1, R14, 0, 20, 4});
    expect(&go122_pie_tls_large, &(struct want){GR_PROLOGUE_LARGE, GR_TLS_FS_IMM, 2, R14, 0, 22, 5});
    expect(&go122_got_tls_large, &(struct want){GR_PROLOGUE_LARGE, GR_TLS_FS_GOT, 2, R14, 0, 22, 5});
}

static void stack_abi_small(void)
{
    expect(&go115_small, &(struct want){GR_PROLOGUE_SMALL, GR_TLS_FS_DISP, 1, RCX, 0, 15, 3});
    expect(&go115_small_sg1, &(struct want){GR_PROLOGUE_SMALL, GR_TLS_FS_DISP, 1, RCX, 1, 19, 3});
    expect(&go115_pie_small, &(struct want){GR_PROLOGUE_SMALL, GR_TLS_FS_IMM, 2, RCX, 0, 17, 4});
    expect(&go115_got_small, &(struct want){GR_PROLOGUE_SMALL, GR_TLS_FS_GOT, 2, RCX, 0, 17, 4});
}

static void stack_abi_large(void)
{
    expect(&go115_large, &(struct want){GR_PROLOGUE_LARGE, GR_TLS_FS_DISP, 1, RCX, 0, 27, 4});
    expect(&go115_pie_large, &(struct want){GR_PROLOGUE_LARGE, GR_TLS_FS_IMM, 2, RCX, 0, 29, 5});
    expect(&go115_got_large, &(struct want){GR_PROLOGUE_LARGE, GR_TLS_FS_GOT, 2, RCX, 0, 26, 5});
}

/* The stackPreempt form: 7 instructions, 9 with the PIE TLS load (the most
 * gr_prologue holds). */
static void stack_abi_huge(void)
{
    expect(&go115_huge, &(struct want){GR_PROLOGUE_HUGE_OLD, GR_TLS_FS_DISP, 1, RCX, 0, 49, 8});
    expect(&go115_huge_sg1, &(struct want){GR_PROLOGUE_HUGE_OLD, GR_TLS_FS_DISP, 1, RCX, 1, 49, 8});
    expect(&go115_pie_huge, &(struct want){GR_PROLOGUE_HUGE_OLD, GR_TLS_FS_IMM, 2, RCX, 0, 51, 9});
    CHECK_INT(GR_PROLOGUE_MAX_INSNS, 9);
}

/* f with the byte at offset at set to value, in buf (which the caller may
 * change further). */
static struct fixture patched(const struct fixture *f, uint8_t *buf, size_t at, uint8_t value)
{
    memcpy(buf, f->bytes, f->nbytes);
    buf[at] = value;
    struct fixture g = *f;
    g.bytes = buf;
    return g;
}

#define FIX_OF(arr, entry_, size_) \
    ((struct fixture){#arr, arr, sizeof arr, entry_, size_})

static void wrong_register_or_guard(void)
{
    uint8_t buf[64];
    struct fixture f;
    f = patched(&go122_small, buf, 0, 0x48);          /* cmp rsp,[rsi+0x10] */
    CHECK_STR(match(&f), NO_CHECK);
    f = patched(&go122_small, buf, 3, 0x20);          /* cmp rsp,[r14+0x20] */
    CHECK_STR(match(&f), NO_CHECK);
    f = patched(&go122_small, buf, 0, 0x41);          /* cmp esp,[r14+0x10] */
    CHECK_STR(match(&f), NO_CHECK);
    /* cmp rsp,[r14+rax+0x10]: an index register */
    static const uint8_t indexed[] = {0x49, 0x3b, 0x64, 0x06, 0x10, 0x76, 0x4d};
    CHECK_STR(match(&FIX_OF(indexed, 0x4644a0, 0x64)), NO_CHECK);
    /* the stack ABI's check without its TLS load: g is not in RCX */
    f = go115_small;
    f.bytes += 9, f.nbytes -= 9, f.entry += 9, f.size -= 9;
    CHECK_STR(match(&f), NO_CHECK);
    f = go115_large;                                  /* lea rax: R12 expected */
    f.bytes += 9, f.nbytes -= 9, f.entry += 9, f.size -= 9;
    CHECK_STR(match(&f), NO_CHECK);
    /* the register ABI's scratch R12 after an RCX TLS load */
    static const uint8_t r12_stack_abi[] = {
        0x64, 0x48, 0x8b, 0x0c, 0x25, 0xf8, 0xff, 0xff, 0xff, /* mov rcx,fs:[-8] */
        0x4c, 0x8d, 0xa4, 0x24, 0x80, 0xfc, 0xff, 0xff,       /* lea r12,[rsp-0x380] */
        0x4c, 0x3b, 0x61, 0x10,                               /* cmp r12,[rcx+0x10] */
        0x0f, 0x86, 0xcf, 0x00, 0x00, 0x00};
    CHECK_STR(match(&FIX_OF(r12_stack_abi, 0x4669e0, 0xf4)), NO_CHECK);
    f = patched(&go122_large, buf, 11, 0x20);         /* cmp r12,[r14+0x20] */
    CHECK_STR(match(&f), "lea not followed by cmp with [g+guard]");
    f = patched(&go122_large, buf, 10, 0x6e);         /* cmp r13,[r14+0x10] */
    CHECK_STR(match(&f), "lea not followed by cmp with [g+guard]");
    static const uint8_t lea_rbp[] = {
        0x4c, 0x8d, 0xa5, 0x80, 0xfc, 0xff, 0xff,     /* lea r12,[rbp-0x380] */
        0x4d, 0x3b, 0x66, 0x10, 0x0f, 0x86, 0xb7, 0x00, 0x00, 0x00};
    CHECK_STR(match(&FIX_OF(lea_rbp, 0x464520, 0xdd)), NO_CHECK);
}

static void huge_near_misses(void)
{
    uint8_t buf[64];
    struct fixture f;
    f = patched(&go122_huge, buf, 2, 0xe0);           /* mov r8,rsp */
    CHECK_STR(match(&f), NO_CHECK);
    f = patched(&go122_huge, buf, 5, 0xed);           /* sub r13,0x18640 */
    CHECK_STR(match(&f), "mov r12,rsp not followed by sub r12,N");
    f = patched(&go122_huge, buf, 19, 0x20);          /* cmp r12,[r14+0x20] */
    CHECK_STR(match(&f), "huge-frame check lacks cmp r12,[r14+guard]");
    f = patched(&go122_huge, buf, 11, 0x83);          /* jae instead of jb */
    CHECK_STR(match(&f), "sub r12,N not followed by jb into the function");
    f = patched(&go122_huge, buf, 21, 0x82);          /* jb instead of the final jbe */
    CHECK_STR(match(&f), NO_JBE);
    static const uint8_t sub_reg[] = {
        0x49, 0x89, 0xe4,                             /* mov r12,rsp */
        0x49, 0x29, 0xc4,                             /* sub r12,rax */
        0x0f, 0x82, 0xaa, 0x00, 0x00, 0x00, 0x4d, 0x3b, 0x66, 0x10, 0x0f, 0x86, 0xa0, 0x00, 0x00, 0x00};
    CHECK_STR(match(&FIX_OF(sub_reg, 0x464600, 0xcf)), "mov r12,rsp not followed by sub r12,N");

    f = patched(&go115_huge, buf, 16, 0xdf);          /* cmp rsi,-0x521: not stackPreempt */
    CHECK_STR(match(&f), HUGE_OLD_BAD);
    f = patched(&go115_huge, buf, 12, 0x20);          /* mov rsi,[rcx+0x20] */
    CHECK_STR(match(&f), NO_CHECK);
    f = patched(&go115_huge, buf, 21, 0x85);          /* jne instead of je */
    CHECK_STR(match(&f), HUGE_OLD_BAD);
    f = patched(&go115_huge, buf, 36, 0xf8);          /* sub rax,rdi */
    CHECK_STR(match(&f), HUGE_OLD_BAD);
    f = patched(&go115_huge, buf, 28, 0x85);          /* lea rax,[rbp+0x3a024] */
    CHECK_STR(match(&f), HUGE_OLD_BAD);
    f = patched(&go115_huge, buf, 38, 0x3c);          /* cmp al,0xd8, not cmp rax,N */
    CHECK_STR(match(&f), HUGE_OLD_BAD);
    f = patched(&go115_huge, buf, 44, 0x87);          /* ja instead of the final jbe */
    CHECK_STR(match(&f), NO_JBE);
    /* mov rsi,[rcx+0x10] in the register ABI (no RCX TLS load) */
    f = go115_huge;
    f.bytes += 9, f.nbytes -= 9, f.entry += 9, f.size -= 9;
    CHECK_STR(match(&f), NO_CHECK);
}

/* Branch targets must lie after the check and before the function's end. */
static void branch_target_bounds(void)
{
    uint8_t buf[64];
    struct fixture f = go122_small;                   /* jbe to +0x53 */
    f.size = 0x54;
    CHECK_STR(match(&f), NULL);
    f.size = 0x53;
    CHECK_STR(match(&f), NO_JBE);
    f = patched(&go122_small, buf, 5, 0x00);          /* jbe to +6: right after the check */
    CHECK_STR(match(&f), NULL);
    f = patched(&go122_small, buf, 5, 0xff);          /* jbe to +5: inside the check */
    CHECK_STR(match(&f), NO_JBE);
    f = patched(&go122_small, buf, 5, 0xfa);          /* jbe to the entry */
    CHECK_STR(match(&f), NO_JBE);
    f = patched(&go122_small, buf, 4, 0x72);          /* jb instead of jbe */
    CHECK_STR(match(&f), NO_JBE);

    f = go122_huge;                                   /* jb and jbe to +0xba */
    f.size = 0xbb;
    CHECK_STR(match(&f), NULL);
    f.size = 0xba;
    CHECK_STR(match(&f), "sub r12,N not followed by jb into the function");
    f = go115_huge;                                   /* je and jbe to +0xe6 */
    f.size = 0xe7;
    CHECK_STR(match(&f), NULL);
    f.size = 0xe6;
    CHECK_STR(match(&f), HUGE_OLD_BAD);
    f = go115_small;                                  /* jbe to +0x80 */
    f.size = 0x80;
    CHECK_STR(match(&f), NO_JBE);
}

static void tls_near_misses(void)
{
    uint8_t buf[64];
    struct fixture f;
    f = patched(&go115_small, buf, 5, 0x08);
    memset(buf + 6, 0, 3);                            /* mov rcx,fs:[8]: a positive offset */
    CHECK_STR(match(&f), NO_CHECK);
    f = patched(&go115_small, buf, 3, 0x1c);          /* mov rbx,fs:[-8] */
    CHECK_STR(match(&f), NO_CHECK);
    static const uint8_t mov32[] = {
        0x64, 0x8b, 0x0c, 0x25, 0xf8, 0xff, 0xff, 0xff, /* mov ecx,fs:[-8] */
        0x48, 0x3b, 0x61, 0x10, 0x76, 0x71};
    CHECK_STR(match(&FIX_OF(mov32, 0x466940, 0x8a)), NO_CHECK);
    f = patched(&go115_pie_small, buf, 3, 0x08);
    memset(buf + 4, 0, 3);                            /* mov rcx,8: not a TLS offset */
    CHECK_STR(match(&f), NO_CHECK);
    f = patched(&go115_pie_small, buf, 10, 0x11);     /* mov rdx,fs:[rcx] */
    CHECK_STR(match(&f), NO_CHECK);
    static const uint8_t fs_disp[] = {
        0x48, 0xc7, 0xc1, 0xf8, 0xff, 0xff, 0xff,     /* mov rcx,-8 */
        0x64, 0x48, 0x8b, 0x49, 0x08,                 /* mov rcx,fs:[rcx+8] */
        0x48, 0x3b, 0x61, 0x10, 0x76, 0x6f};
    CHECK_STR(match(&FIX_OF(fs_disp, 0x467140, 0x8a)), NO_CHECK);
    f = patched(&go122_got_tls_large, buf, 7, 0x65);  /* mov r14,gs:[r14] */
    CHECK_STR(match(&f), NO_CHECK);
    CHECK_STR(match(&go115_not_tls), NO_CHECK);       /* mov rcx,[rip+x] then test */
    CHECK_STR(match(&go122_tls_nosplit),
              "loads g from TLS but no stack-bound check follows (NOSPLIT wrapper)");
}

static void truncated_bytes(void)
{
    struct gr_insn scratch[GR_PROLOGUE_MAX_INSNS];
    struct gr_prologue p;
    static const uint8_t undecodable[] = {0x06, 0x76, 0x4d};
    CHECK_STR(match(&FIX_OF(undecodable, 0x1000, 0x10)), "first instruction does not decode");
    CHECK_STR(match_sized(&go115_small, 8, scratch, &p), "first instruction does not decode");
    CHECK_STR(match_sized(&go115_small, 9, scratch, &p), "nothing decodes after loading g from TLS");
    CHECK_STR(match_sized(&go115_pie_small, 7, scratch, &p), "nothing decodes after loading g from TLS");
    CHECK_STR(match_sized(&go122_got_tls_large, 7, scratch, &p),
              "nothing decodes after loading g from TLS");
    CHECK_STR(match_sized(&go122_small, 5, scratch, &p), NO_JBE);
    CHECK_STR(match_sized(&go122_large, 17, scratch, &p), NO_JBE);
    CHECK_STR(match_sized(&go122_large, 11, scratch, &p), "lea not followed by cmp with [g+guard]");
    CHECK_STR(match_sized(&go122_huge, 9, scratch, &p), "mov r12,rsp not followed by sub r12,N");
    CHECK_STR(match_sized(&go115_huge, 30, scratch, &p), HUGE_OLD_BAD);
}

/* A match resets every field an earlier one set (expect() fills the
 * struct with 0xa5 instead). */
static void fields_reset_between_matches(void)
{
    struct gr_insn scratch[GR_PROLOGUE_MAX_INSNS];
    struct gr_prologue p;
    CHECK_STR(match_sized(&go115_huge_sg1, go115_huge_sg1.size, scratch, &p), NULL);
    uint8_t *code = malloc(go122_small.size);
    memset(code, 0xcc, go122_small.size);
    memcpy(code, go122_small.bytes, go122_small.nbytes);
    CHECK_STR(gr_prologue_match(code, go122_small.size, go122_small.entry, scratch, &p), NULL);
    CHECK_INT(p.shape, GR_PROLOGUE_SMALL);
    CHECK_INT(p.tls_form, GR_TLS_NONE);
    CHECK_U64(p.tls_ninsns, 0);
    CHECK_INT(p.loads_g_from_tls, 0);
    CHECK_INT(p.g_reg, R14);
    CHECK_INT(p.stackguard1, 0);
    CHECK_U64(p.ninsns, 2);
    free(code);
}

static void names(void)
{
    struct gr_prologue p = {0};
    const char *shapes[] = {"small", "large", "huge", "huge"};
    const char *tls[] = {"", "TLS g, ", "TLS g (PIE), ", "TLS g (GOT), "};
    for (int i = 0; i < 4; i++) {
        p.shape = (enum gr_prologue_shape)i;
        p.tls_form = (enum gr_tls_form)i;
        CHECK_STR(gr_prologue_shape_name(&p), shapes[i]);
        CHECK_STR(gr_prologue_tls_name(&p), tls[i]);
    }
}

UNIT_CASES("prologue",
           UNIT_CASE(register_abi_small),
           UNIT_CASE(register_abi_large),
           UNIT_CASE(register_abi_huge),
           UNIT_CASE(register_abi_tls_forms),
           UNIT_CASE(stack_abi_small),
           UNIT_CASE(stack_abi_large),
           UNIT_CASE(stack_abi_huge),
           UNIT_CASE(wrong_register_or_guard),
           UNIT_CASE(huge_near_misses),
           UNIT_CASE(branch_target_bounds),
           UNIT_CASE(tls_near_misses),
           UNIT_CASE(truncated_bytes),
           UNIT_CASE(fields_reset_between_matches),
           UNIT_CASE(names));
