/* exported by gostat/read */
/* syms.h: which function of the program holds a code address, from the
 * stats file's symbol table (every function, instrumented or not): the
 * caller of a call is found from its return address. */
#ifndef GOSTAT_SYMS_H
#define GOSTAT_SYMS_H

#include "gostat/read/statsfile.h"

#include <stdint.h>

/* The function whose code holds link-time address addr, or NULL: outside
 * every function (or a file without call paths). */
const struct gst_sym *gst_stats_sym_at(const struct gst_stats *st, uint64_t addr);

#endif
