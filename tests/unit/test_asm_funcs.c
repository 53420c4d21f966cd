/* test_asm_funcs.c: rewriter/plan/asm_funcs.c, which of the runtime's
 * assembly is counted (by name and file, as trimmed and full GOROOT paths
 * spell it), and which assembly outside it is timed. */
#include "rewriter/plan/asm_funcs.h"
#include "tests/unit/unit.h"

#include <string.h>

static struct gr_func fn(const char *name, const char *file)
{
    return (struct gr_func){.entry = 0x401000, .end = 0x401020, .name = name, .file = file};
}

static void runtime_by_name_or_file(void)
{
    struct gr_func f = fn("runtime.memmove", "runtime/memmove_amd64.s");
    CHECK(gr_asm_is_runtime(&f));
    f = fn("memeqbody", "/usr/lib/go-1.22/src/internal/bytealg/equal_amd64.s");
    CHECK(gr_asm_is_runtime(&f));
    f = fn("time.now", "/usr/lib/go-1.22/src/runtime/time_linux_amd64.s");
    CHECK(gr_asm_is_runtime(&f));
    f = fn("internal/runtime/syscall.Syscall6", "internal/runtime/syscall/asm_linux_amd64.s");
    CHECK(gr_asm_is_runtime(&f));
    f = fn("_rt0_amd64_linux", "x/rt0.s");
    CHECK(gr_asm_is_runtime(&f));
    f = fn("internal/bytealg.IndexByte", "/usr/lib/go-1.22/src/internal/bytealg/indexbyte_amd64.s");
    CHECK(!gr_asm_is_runtime(&f));              /* a package of its own: counted by the usual rules */
    f = fn("_expand_key_128", "/usr/lib/go-1.27/src/crypto/aes/asm_amd64.s");
    CHECK(!gr_asm_is_runtime(&f));
    f = fn("main.body", "/home/u/myruntime/runtime/x_amd64.s");   /* no src/ before runtime/ */
    CHECK(!gr_asm_is_runtime(&f));
}

static void runtime_reasons(void)
{
    const char *counted[] = {"runtime.memmove", "runtime.memequal", "memeqbody", "aeshashbody",
                             "indexbytebody", "runtime.panicIndex", "runtime.futex", "time.now"};
    for (size_t i = 0; i < sizeof counted / sizeof *counted; i++) {
        struct gr_func f = fn(counted[i], "runtime/asm_amd64.s");
        if (!CHECK(gr_asm_runtime_reason(&f) == NULL))
            unit_fail(__FILE__, __LINE__, "%s not counted", counted[i]);
    }
    struct {
        const char *name, *why;
    } skipped[] = {
        {"runtime.gcWriteBarrier2", "R12, R13 or flags live"}, {"gcWriteBarrier", "R12, R13 or flags live"},
        {"runtime.asyncPreempt", "R12, R13 or flags live"}, {"runtime.duffzero", "in the middle"},
        {"runtime.sigtramp", "by the kernel or from C"}, {"_rt0_amd64", "by the kernel or from C"},
        {"runtime.settls", "before the thread's TLS"}, {"runtime.goexit", "PC+1"},
        {"runtime.morestack", "switches stacks"}, {"runtime.systemstack", "switches stacks"},
        {"runtime.newInGo1_99", "switches stacks"},
    };
    for (size_t i = 0; i < sizeof skipped / sizeof *skipped; i++) {
        struct gr_func f = fn(skipped[i].name, "runtime/asm_amd64.s");
        const char *why = gr_asm_runtime_reason(&f);
        if (!CHECK(why && strstr(why, skipped[i].why)))
            unit_fail(__FILE__, __LINE__, "%s: %s", skipped[i].name, why ? why : "counted");
    }
}

static void timed_outside_runtime(void)
{
    static const uint8_t plain[] = {0x48, 0x89, 0xc3, 0xc3},            /* mov rbx, rax; ret */
        r14[] = {0x49, 0x89, 0xc6, 0xc3},                              /* mov r14, rax; ret */
        r14d[] = {0x45, 0x31, 0xf6, 0xc3},                             /* xor r14d, r14d; ret */
        undecodable[] = {0x0f, 0x0b, 0x0f};                            /* ud2, then a torn one */
    struct gr_func f = fn("math.archFloor", "math/floor_amd64.s");
    CHECK(gr_asm_untimed_reason(&f, plain, sizeof plain, 0) == NULL);
    const char *why = gr_asm_untimed_reason(&f, plain, sizeof plain, 1);
    CHECK(why && strstr(why, "entered from assembly"));
    why = gr_asm_untimed_reason(&f, r14, sizeof r14, 0);
    CHECK(why && strstr(why, "writes R14"));
    why = gr_asm_untimed_reason(&f, r14d, sizeof r14d, 0);
    CHECK(why && strstr(why, "writes R14"));
    why = gr_asm_untimed_reason(&f, undecodable, sizeof undecodable, 0);
    CHECK(why && strstr(why, "does not decode"));
}

UNIT_CASES("asm_funcs", UNIT_CASE(runtime_by_name_or_file), UNIT_CASE(runtime_reasons),
           UNIT_CASE(timed_outside_runtime));
