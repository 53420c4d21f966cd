/* exported by elf */
/* output_report.h: the output report (`gorewrite --layout-report FILE`),
 * a machine-readable account of what the writer put in the output (format:
 * format/output_report_format.h), so that the tests can compare it with
 * what an independent ELF reader (LIEF) finds there. */
#ifndef GR_OUTPUT_REPORT_H
#define GR_OUTPUT_REPORT_H

#include "elf/elf_read.h"
#include "elf/elf_write.h"
#include "common/error.h"

/* The functions record: counts the plan decided, which the ELF layer
 * cannot see. */
struct gr_output_funcs {
    size_t total, instrumented, left_out;
};

/* Writes the report of in -> out_path, as edit, written and funcs describe
 * it, to path, which must be neither file. Returns 0, or -1 with a reason
 * in err. */
int gr_output_report_write(const char *path, const struct gr_elf *in, const char *out_path,
                           const struct gr_elf_edit *edit, const struct gr_elf_written *written,
                           const struct gr_output_funcs *funcs, struct gr_error *err);

#endif
