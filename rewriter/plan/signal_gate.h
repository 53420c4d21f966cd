/* exported by rewriter/plan */
/* signal_gate.h: where Go's signal handler starts, so the stubs see a
 * SIGBUS of a stats file cut short before any instrumented Go code runs
 * (stubs/signal_gate.S, stubs/file_cut.c). Part of stage 3, patch
 * planning. */
#ifndef GR_SIGNAL_GATE_H
#define GR_SIGNAL_GATE_H

#include <stdint.h>

#include "elf/elf_read.h"
#include "rewriter/find/program.h"

/* Bytes of runtime.sigtramp's entry that the gate runs in its place. */
#define GR_SIGTRAMP_COVERED 9

/* The entry of runtime.sigtramp when it begins as in every release
 * 1.15-1.27 (sys_linux_amd64.s: its frame, `sub $N, %rsp; mov %rbp,
 * M(%rsp)`), else 0: the program then dies of such a SIGBUS as it would
 * without gorewrite's gate, killed by the kernel. */
uint64_t gr_signal_gate_find(const struct gr_elf *elf, const struct gr_program *prog);

#endif
