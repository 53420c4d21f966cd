/* exit_hook.c: runtime.exit, the one way out of a Go program on Linux
 * (main returning, os.Exit, a fatal panic or error all end there), is
 * replaced by the stubs' gs_exit, which reads the same argument and makes
 * the same system call after finishing the stats file. Its bytes are
 * checked exactly: anything else is left alone. The same finish runs
 * before an exec (syscall.runtime_BeforeExec), and a failed exec
 * (syscall.runtime_AfterExec) starts a new file: docs/stats-format.md
 * "At exit". */
#include "rewriter/plan/exit_hook.h"

#include <stdint.h>
#include <string.h>

/* TEXT runtime·exit(SB),NOSPLIT,$0-4: MOVL code+0(FP), DI;
 * MOVL $SYS_exit_group, AX; SYSCALL; RET */
static const uint8_t EXIT_CODE[] = { 0x8b, 0x7c, 0x24, 0x08, 0xb8, 0xe7, 0x00, 0x00, 0x00,
                                     0x0f, 0x05, 0xc3 };

uint64_t gr_exit_hook_find(const struct gr_elf *elf, const struct gr_program *prog)
{
    for (size_t i = 0; i < prog->nfuncs; i++) {
        const struct gr_func *f = &prog->funcs[i];
        if (strcmp(f->name, "runtime.exit") != 0 || f->end - f->entry < sizeof EXIT_CODE)
            continue;
        const uint8_t *code = gr_elf_bytes_at(elf, f->entry, sizeof EXIT_CODE);
        return code && memcmp(code, EXIT_CODE, sizeof EXIT_CODE) == 0 ? f->entry : 0;
    }
    return 0;
}

size_t gr_exec_hook_find(const struct gr_program *prog, const char *name)
{
    for (size_t i = 0; i < prog->nfuncs; i++)
        if (strcmp(prog->funcs[i].name, name) == 0)
            return i;
    return SIZE_MAX;
}

int gr_exec_hook_name(const char *name)
{
    return strcmp(name, "syscall.runtime_BeforeExec") == 0 || strcmp(name, "syscall.runtime_AfterExec") == 0;
}
