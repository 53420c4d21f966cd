/* asm_funcs.c: see asm_funcs.h. A list of names, read from the runtime's
 * and internal/bytealg's amd64 assembly of Go 1.15 to 1.27; a function not
 * on it (a newer release's) stays skipped. Counting at entry needs no g:
 * the row comes from FS or TLS g, and a thread without one is counted in
 * row 0. So what rules a function out is how it is entered:
 * - R12, R13 or flags live: the write barrier (its callers keep both across
 *   the call), duffzero/duffcopy (entered in the middle), asyncPreempt and
 *   debugCall* (injected at any instruction), spillArgs (R12 is its argument);
 * - by the kernel or from C, with C's callee-saved R12 and R13: sigtramp,
 *   cgoSigtramp, sigreturn, setg_gcc, cgocallback, crosscall2, _rt0_*;
 * - before FS holds the thread's TLS: rt0_go, settls;
 * - switching stacks or goroutines, which the unwinder knows by name or
 *   funcID (gogo, mcall, systemstack, morestack, asmcgocall, ...); goexit,
 *   whose PC+1 is every goroutine's first return address; sigpanic0;
 * - by indirect calls from assembly, whose callers the sweep of
 *   asm_callers.c cannot see (Go 1.26+'s AVX-512 expanders of the GC).
 * Counted are those Go calls under its ABIs: memmove, memclr, memequal,
 * the hashes, bytealg's bodies, the panicIndex family (R12 is dead: they
 * never return) and the system-call wrappers. Some of these also run in
 * the signal handler or the vfork child, called from Go code there; that
 * is counted as the runtime's Go leaves are (leaf_timing.c). */
#include "rewriter/plan/asm_funcs.h"

#include <string.h>

#include "common/x86.h"

/* Entered by calls and jumps under Go's ABIs with nothing live in R12, R13
 * or flags (names as pclntab spells them; file-local bodies bare). */
static const char *const COUNTED[] = {
    /* memory, compare, hash (runtime/asm_amd64.s, memmove/memclr_amd64.s,
       internal/bytealg) */
    "runtime.memmove", "runtime.memclrNoHeapPointers", "runtime.memequal",
    "runtime.memequal_varlen", "runtime.cmpstring", "runtime.memhash", "runtime.strhash",
    "runtime.memhash32", "runtime.memhash64", "runtime.aeshash", "runtime.aeshashstr",
    "runtime.aeshash32", "runtime.aeshash64", "aeshashbody", "memeqbody", "cmpbody",
    "countbody", "indexbody", "indexbytebody", "internal/runtime/maps.memHashAES",
    "internal/runtime/maps.memHash32AES", "internal/runtime/maps.memHash64AES",
    "internal/runtime/maps.checkMasksAndShiftsAlignment",
    "internal/runtime/gc/scan.FilterNilAVX512", "internal/runtime/gc/scan.scanSpanPackedAVX512",
    /* small helpers called from Go */
    "runtime.procyield", "runtime.procyieldAsm", "runtime.publicationBarrier", "runtime.cputicks", "runtime.return0",
    "runtime.mapinitnoop", "runtime.getfp", "runtime.checkASM", "runtime.asminit",
    "runtime.stackcheck", "runtime.getcallerpc", "runtime.getcallersp", "runtime.reflectcall",
    /* bounds-check failures: arguments in registers, never return */
    "runtime.panicIndex", "runtime.panicIndexU", "runtime.panicSliceAlen",
    "runtime.panicSliceAlenU", "runtime.panicSliceAcap", "runtime.panicSliceAcapU",
    "runtime.panicSliceB", "runtime.panicSliceBU", "runtime.panicSlice3Alen",
    "runtime.panicSlice3AlenU", "runtime.panicSlice3Acap", "runtime.panicSlice3AcapU",
    "runtime.panicSlice3B", "runtime.panicSlice3BU", "runtime.panicSlice3C",
    "runtime.panicSlice3CU", "runtime.panicSliceConvert", "runtime.panicBounds",
    "runtime.panicExtend",
    /* system calls and the vDSO (runtime/sys_linux_amd64.s, time_linux_amd64.s);
       not runtime.exit, whose entry the stats file's exit hook takes (exit_hook.c) */
    "runtime.open", "runtime.closefd", "runtime.write1", "runtime.write",
    "runtime.read", "runtime.pipe", "runtime.pipe2", "runtime.usleep", "runtime.usleep_no_g",
    "runtime.gettid", "runtime.raise", "runtime.raiseproc", "runtime.getpid", "runtime.tgkill",
    "runtime.setitimer", "runtime.timer_create", "runtime.timer_settime",
    "runtime.timer_delete", "runtime.mincore", "runtime.nanotime1", "runtime.walltime",
    "runtime.walltime1", "runtime.rtsigprocmask", "runtime.rt_sigaction", "runtime.madvise",
    "runtime.futex", "runtime.sigaltstack", "runtime.osyield", "runtime.osyield_no_g",
    "runtime.sched_getaffinity", "runtime.sysMmap", "runtime.sysMunmap", "runtime.mmap",
    "runtime.munmap", "runtime.access", "runtime.connect", "runtime.socket", "runtime.sbrk0",
    "runtime.vgetrandom1", "time.now", "runtime/internal/syscall.Syscall6",
    "internal/runtime/syscall.Syscall6", "internal/runtime/syscall/linux.Syscall6",
};

static const char WHY_LIVE[] =
    "no stack check: assembly of the runtime entered with R12, R13 or flags live (write barrier, "
    "asyncPreempt, debugCall, spillArgs)";
static const char WHY_MIDDLE[] =
    "no stack check: assembly of the runtime entered in the middle (duffzero, duffcopy)";
static const char WHY_C[] =
    "no stack check: assembly of the runtime entered by the kernel or from C (a signal or C "
    "stack; R12 and R13 are callee-saved there)";
static const char WHY_TLS[] =
    "no stack check: assembly of the runtime that runs before the thread's TLS is set up";
static const char WHY_GOEXIT[] =
    "no stack check: runtime.goexit (its PC+1 is every goroutine's first return address)";
static const char WHY_INDIRECT[] =
    "no stack check: assembly of the runtime called indirectly from assembly (its callers "
    "are not known)";
static const char WHY_OTHER[] =
    "no stack check: assembly of the runtime that switches stacks or goroutines, calls C, or "
    "is not known to be entered with R12, R13 and flags dead (asm_funcs.c)";

/* Skipped, by how they are entered (the top comment); names are prefixes. */
static const struct {
    const char *name;
    const char *why;
} SKIPPED[] = {
    {"gcWriteBarrier", WHY_LIVE}, {"runtime.gcWriteBarrier", WHY_LIVE},
    {"runtime.asyncPreempt", WHY_LIVE}, {"runtime.debugCall", WHY_LIVE},
    {"debugCall", WHY_LIVE}, {"runtime.spillArgs", WHY_LIVE}, {"runtime.unspillArgs", WHY_LIVE},
    {"runtime.duffzero", WHY_MIDDLE}, {"runtime.duffcopy", WHY_MIDDLE},
    {"runtime.sigtramp", WHY_C}, {"runtime.cgoSigtramp", WHY_C}, {"runtime.sigreturn", WHY_C},
    {"runtime.sigprofNonGoWrapper", WHY_C}, {"runtime.sigfwd", WHY_C}, {"setg_gcc", WHY_C},
    {"runtime.cgocallback", WHY_C}, {"crosscall2", WHY_C}, {"_rt0_", WHY_C},
    {"internal/runtime/gc/scan.expandAVX512_", WHY_INDIRECT}, {"runtime.rt0_go", WHY_TLS}, {"runtime.settls", WHY_TLS}, {"runtime.goexit", WHY_GOEXIT},
};

static int starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* A runtime package: runtime, runtime/..., internal/runtime/... */
static int runtime_package(const char *name)
{
    return ((starts_with(name, "runtime") && (name[7] == '.' || name[7] == '/')) ||
            starts_with(name, "internal/runtime/"));
}

/* The file lies in the runtime's or internal/bytealg's source directory
 * (full GOROOT paths, or trimmed ones: Debian's runtime/asm_amd64.s). */
static int runtime_file(const char *file)
{
    static const char *const dirs[] = {"runtime/", "internal/runtime/", "internal/bytealg/"};
    if (!file)
        return 0;
    for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++) {
        if (starts_with(file, dirs[i]))
            return 1;
        for (const char *p = strstr(file, dirs[i]); p; p = strstr(p + 1, dirs[i]))
            if (p - file >= 4 && strncmp(p - 4, "src/", 4) == 0)
                return 1;
    }
    return 0;
}

int gr_asm_is_runtime(const struct gr_func *f)
{
    const char *name = f->name ? f->name : "";
    if (runtime_package(name) || starts_with(name, "_rt0_"))
        return 1;
    /* time.now is runtime/time_linux_amd64.s; memeqbody internal/bytealg's */
    return runtime_file(f->file) && (!strchr(name, '.') || starts_with(name, "time."));
}

const char *gr_asm_runtime_reason(const struct gr_func *f)
{
    const char *name = f->name ? f->name : "";
    for (size_t i = 0; i < sizeof COUNTED / sizeof *COUNTED; i++)
        if (strcmp(name, COUNTED[i]) == 0)
            return NULL;
    for (size_t i = 0; i < sizeof SKIPPED / sizeof *SKIPPED; i++) {
        if (starts_with(name, SKIPPED[i].name))
            return SKIPPED[i].why;
    }
    return WHY_OTHER;
}

static const char UNTIMED_CALLED[] =
    "no stack check, assembly entered from assembly (its caller may read the flags, R12 or R13 "
    "a timed return changes, and need not keep g in R14): counted at entry, not timed";
static const char UNTIMED_R14[] =
    "no stack check, assembly that writes R14 or does not decode (R14 need not be g at its "
    "returns): counted at entry, not timed";

int gr_asm_sweep(const uint8_t *code, size_t size, gr_asm_visit visit, void *ctx)
{
    ZydisDecoder zy;
    ZydisDecoderInit(&zy, ZYDIS_MACHINE_MODE_LONG_64, ZYDIS_STACK_WIDTH_64);
    for (size_t off = 0; off < size;) {
        ZydisDecodedInstruction in;
        ZydisDecodedOperand ops[ZYDIS_MAX_OPERAND_COUNT];
        if (code[off] == GR_X86_INT3) {
            off++;
            continue;
        }
        if (!ZYAN_SUCCESS(ZydisDecoderDecodeFull(&zy, code + off, size - off, &in, ops)))
            return -1;
        int rc = visit(&in, ops, ctx);
        if (rc)
            return rc;
        off += in.length;
    }
    return 0;
}

int gr_asm_writes_r14(const ZydisDecodedInstruction *in, const ZydisDecodedOperand *ops)
{
    for (unsigned i = 0; i < in->operand_count; i++)
        if (ops[i].type == ZYDIS_OPERAND_TYPE_REGISTER &&
            (ops[i].actions & (ZYDIS_OPERAND_ACTION_WRITE | ZYDIS_OPERAND_ACTION_CONDWRITE)) &&
            ZydisRegisterGetLargestEnclosing(ZYDIS_MACHINE_MODE_LONG_64, ops[i].reg.value) ==
                ZYDIS_REGISTER_R14)
            return 1;
    return 0;
}

static int visit_writes_r14(const ZydisDecodedInstruction *in, const ZydisDecodedOperand *ops,
                            void *ctx)
{
    (void)ctx;
    return gr_asm_writes_r14(in, ops);
}

/* Compiled Go calls such a function (through an ABI wrapper when it is
 * ABI0) with R14 = g, and reads neither flags nor R12/R13 after it: both
 * are dead at a return in Go's ABIs. Assembly that calls it may rely on
 * anything; a body that writes R14 returns without g there. */
const char *gr_asm_untimed_reason(const struct gr_func *f, const uint8_t *code, size_t size,
                                  int called_by_asm)
{
    (void)f;
    if (called_by_asm)
        return UNTIMED_CALLED;
    return gr_asm_sweep(code, size, visit_writes_r14, NULL) ? UNTIMED_R14 : NULL;
}
