/* fuzz_elf.c: libFuzzer harness over gorewrite's input side: the ELF
 * checks and table reading (elf_read.c), function discovery from pclntab and
 * DWARF (pclntab.c, dwarf_info.c, functions.c, go_version.c), the runtime
 * layout derivations and their cross-check (layout_types.c, layout_code.c,
 * dwarf_layout.c, go_layout_check.c) and the patch
 * planner with its Zydis decoding (prologue.c, plan.c, report.c). Every
 * input must end in a clean error or a plan; the sanitizers turn anything
 * else (out-of-bounds read, overflow, leak) into a crash report. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "elf/elf_read.h"
#include "rewriter/find/functions.h"
#include "rewriter/find/go_layout_check.h"
#include "rewriter/plan/plan.h"
#include "rewriter/plan/report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static FILE *devnull;
    if (!devnull)
        devnull = fopen("/dev/null", "w");
    struct gr_error err;
    struct gr_elf elf;
    struct gr_program prog = {0};
    struct gr_plan plan = {0};
    struct gr_layout_evidence ev;
    if (gr_elf_read_mem("fuzz-input", data, size, &elf, &err) == 0 &&
        gr_program_read(&elf, &prog, &err) == 0 &&
        (gr_layout_gather(&elf, &prog, &ev),
         gr_layout_decide("fuzz-input", prog.go_version, &ev, 0, &prog.layout,
                          &prog.layout_unverified, &err) == 0) &&
        gr_plan_build(&elf, &prog, 1 /* timing: exits too */, &plan, &err) == 0 && devnull)
        gr_report_plan(devnull, &plan);
    else if (getenv("FUZZ_VERBOSE")) /* why an input was rejected, when replaying by hand */
        fprintf(stderr, "rejected: %s\n", err.msg);
    gr_plan_free(&plan);
    gr_program_free(&prog);
    gr_elf_free(&elf);
    return 0;
}
