/* leaf_timing.c: which functions without a stack check are timed.
 *
 * The timing routines (stubs/timing.S) find the goroutine's stack of open
 * calls through R14. Compiled Go code of the register ABI (Go >= 1.17)
 * has R14 = g at entry and keeps it to its returns; ABI0 callers reach it
 * through a wrapper that loads g from TLS into R14 first. The trampoline
 * does not rely on this alone: a leaf's timed path is taken only when TLS
 * g is not nil and equals R14 (Go <= 1.16: R14 is loaded from TLS g, as
 * every register but RSP and RDX is dead at entry there), and each timed
 * return checks the same before handing over to gs_time_return, else it
 * just returns. So a call whose R14 is not g is counted, never timed.
 *
 * Left untimed, whatever R14 holds: the runtime's own packages (runtime,
 * runtime/internal/..., internal/runtime/..., runtime/cgo). Their
 * functions without a check run in signal handlers (sigtrampgo's callees,
 * on the signal stack), on a C thread before needm, on g0 while g is being
 * switched (gogo, mcall's callees, systemstack) and during exit and
 * throw; timing there would push on a goroutine's timing stack from code
 * that the goroutine did not call. Also package syscall's: its functions
 * without a check run in the vfork child (forkAndExecInChild1) on the
 * parent's stack. Both are counted exactly, their assembly included. Other
 * assembly is timed when only compiled Go calls it and its body never
 * writes R14 (asm_funcs.c): in ABI0 code R14 is an ordinary register
 * (sha256's block function uses it as a scratch). */
#include "rewriter/plan/leaf_timing.h"

#include <string.h>

#include "rewriter/plan/asm_funcs.h"

static const char RUNTIME[] =
    "no stack check, in the runtime (may run in a signal handler, on a C thread or while g "
    "is switched): counted at entry, not timed";
static const char SYSCALL[] =
    "no stack check, in package syscall (may run in the vfork child): counted at entry, not timed";

static int in_package(const char *name, const char *pkg)
{
    size_t n = strlen(pkg);
    return strncmp(name, pkg, n) == 0 && (name[n] == '.' || name[n] == '/');
}

const char *gr_leaf_untimed_reason(const struct gr_func *f, const uint8_t *code, size_t size,
                                   int called_by_asm)
{
    const char *name = f->name ? f->name : "";
    size_t n = f->file ? strlen(f->file) : 0;
    int is_asm = n >= 2 && strcmp(f->file + n - 2, ".s") == 0;
    if (is_asm && gr_asm_is_runtime(f))
        return RUNTIME;
    if (in_package(name, "runtime") && strncmp(name, "runtime/", 8) != 0)
        return RUNTIME;
    if (strncmp(name, "runtime/internal/", 17) == 0 || in_package(name, "runtime/cgo") ||
        strncmp(name, "internal/runtime/", 17) == 0)
        return RUNTIME;
    if (in_package(name, "syscall"))
        return SYSCALL;
    return is_asm ? gr_asm_untimed_reason(f, code, size, called_by_asm) : NULL;
}
