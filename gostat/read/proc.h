/* exported by gostat/read */
/* proc.h: is the process that wrote a stats file still running? By its
 * pid, or by the lock it holds on the file. */
#ifndef GOSTAT_PROC_H
#define GOSTAT_PROC_H

#include <stdbool.h>
#include <stdint.h>

/* True when /proc/PID/stat exists, its start time (field 22, clock ticks
 * since boot) equals start_ticks, and the process is not a zombie. The
 * start time tells the writer from a later process that reused its pid. */
bool gst_process_is_live(int64_t pid, uint64_t start_ticks);

/* True when a process holds a lock on the file open as fd: a running
 * program holds a read lock on its stats file (stubs/startup.c) until it
 * exits, seen here whatever pid namespace it runs in. Never takes a lock. */
bool gst_writer_holds_lock(int fd);

#endif
