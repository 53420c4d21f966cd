/* exit_hook.h: where the program exits, so the stubs can finish its stats
 * file first (merge or shrink it: docs/stats-format.md "At exit"). Part
 * of stage 3, patch planning. */
#ifndef GR_EXIT_HOOK_H
#define GR_EXIT_HOOK_H

#include <stddef.h>
#include <stdint.h>

#include "elf/elf_read.h"
#include "rewriter/find/program.h"

/* The entry of runtime.exit when its code is the one every release
 * 1.15-1.27 has (sys_linux_amd64.s), else 0: the program then exits
 * without finishing its file, which stays as it was while running. */
uint64_t gr_exit_hook_find(const struct gr_elf *elf, const struct gr_program *prog);

/* The index in prog->funcs of the function named name, or SIZE_MAX: for
 * syscall.runtime_BeforeExec and syscall.runtime_AfterExec (runtime/proc.go
 * syscall_runtime_BeforeExec and AfterExec in 1.15-1.27: syscall.Exec calls
 * the first before execve and the second when execve fails), whose
 * entries the stubs' gs_exec_before and gs_exec_after precede, so the file
 * is finished before an exec and counting resumes after a failed one. */
size_t gr_exec_hook_find(const struct gr_program *prog, const char *name);

/* name is one of those two: kept whatever --only/--exclude say. */
int gr_exec_hook_name(const char *name);

#endif
