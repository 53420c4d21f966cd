/* exported by gostat/model */
/* goroutines.h: goroutines created, ended and live, from the call counts
 * of runtime.newproc1 (every go statement, and the runtime's own
 * goroutines, main's included) and runtime.goexit1 (every goroutine that
 * returns or calls runtime.Goexit). gorewrite instruments both on every
 * supported Go release. */
#ifndef GOSTAT_GOROUTINES_H
#define GOSTAT_GOROUTINES_H

#include "gostat/read/statsfile.h"

#include <stdbool.h>
#include <stdint.h>

#define GST_GOROUTINE_CREATE "runtime.newproc1"
#define GST_GOROUTINE_END "runtime.goexit1"

struct gst_goroutines {
    bool known;                /* both functions are in the file */
    uint64_t created, ended;
    uint64_t live;             /* created - ended: includes main and the
                                  runtime's own goroutines */
};

/* From counts already summed (e.g. by gostat merge); known says whether
 * both functions were found. */
struct gst_goroutines gst_goroutines_from(bool known, uint64_t created, uint64_t ended);

/* From st's counts at its last refresh. */
struct gst_goroutines gst_goroutines_of(const struct gst_stats *st);

#endif
