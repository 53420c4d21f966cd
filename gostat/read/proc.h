/* proc.h: is the process that wrote a stats file still running? */
#ifndef GOSTAT_PROC_H
#define GOSTAT_PROC_H

#include <stdbool.h>
#include <stdint.h>

/* True when /proc/PID/stat exists, its start time (field 22, clock ticks
 * since boot) equals start_ticks, and the process is not a zombie. The
 * start time tells the writer from a later process that reused its pid. */
bool gst_process_is_live(int64_t pid, uint64_t start_ticks);

#endif
