/* print_offsets.h: `gorewrite --print-layout INPUT`: what each source (the
 * verified table row, DWARF, the runtime's type descriptors, rt0_go's
 * code) says about the runtime offsets of INPUT, and the decision. */
#ifndef GR_PRINT_OFFSETS_H
#define GR_PRINT_OFFSETS_H

#include <stdio.h>

#include "common/error.h"

/* Prints the report on out: 0 when INPUT would be accepted, -1 with the
 * reason (also for unreadable input) in err. */
int gr_print_offsets(const char *path, int strict, FILE *out, struct gr_error *err);

#endif
