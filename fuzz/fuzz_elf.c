/* fuzz_elf.c: libFuzzer harness over gorewrite's input side: the ELF
 * checks and table reading (elf_read.c), function discovery from pclntab and
 * DWARF (pclntab.c, dwarf_info.c, program.c, go_version.c), the runtime
 * offsets' derivations and their cross-check (offsets_types.c,
 * offsets_code.c, dwarf_offsets.c, offsets_decide.c) and the patch
 * planner with its Zydis decoding (prologue.c, plan.c, report.c), and
 * the --trace layouts of main's first functions (trace_layout.c: DWARF
 * types, ABI assignment, descriptors). Every
 * input must end in a clean error or a plan; the sanitizers turn anything
 * else (out-of-bounds read, overflow, leak) into a crash report. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "elf/elf_read.h"
#include "rewriter/find/program.h"
#include "rewriter/find/find.h"
#include "rewriter/find/trace_layout.h"
#include "rewriter/plan/plan.h"
#include "rewriter/plan/report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The trace layouts of up to 8 functions of package main (errors are
 * fine; crashes, leaks and bad reads are not). */
static void trace_layouts(const struct gr_program *prog)
{
    unsigned done = 0;
    for (size_t i = 0; i < prog->nfuncs && done < 8; i++) {
        const char *n = prog->funcs[i].name;
        if (!n || strncmp(n, "main.", 5) != 0)
            continue;
        struct gr_trace_layout l;
        struct gr_error err;
        if (gr_trace_layout_of(prog, &prog->funcs[i], &l, &err) == 0)
            gr_trace_layout_free(&l);
        done++;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static FILE *devnull;
    if (!devnull)
        devnull = fopen("/dev/null", "w");
    struct gr_error err;
    struct gr_elf elf;
    struct gr_program prog = {0};
    struct gr_plan plan = {0};
    if (gr_elf_read_mem("fuzz-input", data, size, &elf, &err) == 0 &&
        gr_find_program(&elf, 0, &prog, &err) == 0 && (trace_layouts(&prog), 1) &&
        gr_plan_build(&elf, &prog, GS_MODE_SAMPLED /* returns too */, 1 /* keep call sites */, NULL, &plan,
                      &err) == 0 && devnull)
        gr_report_plan(devnull, &plan);
    else if (getenv("FUZZ_VERBOSE")) /* why an input was rejected, when replaying by hand */
        fprintf(stderr, "rejected: %s\n", err.msg);
    gr_plan_free(&plan);
    gr_program_free(&prog);
    gr_elf_free(&elf);
    return 0;
}
