/* sigbus_guard.h: runs a read of a mapped stats file so that pages lost
 * to a truncation (another process of the user shrinking the file while
 * it is read) end the read with an error instead of killing gostat. */
#ifndef GOSTAT_SIGBUS_GUARD_H
#define GOSTAT_SIGBUS_GUARD_H

/* Runs fn(arg) and returns what it returns, or 1 when a SIGBUS cut it
 * short. fn must not allocate what it does not free before it touches
 * the mapping: a SIGBUS leaves it without unwinding. Not reentrant. */
int gst_sigbus_guarded(int (*fn)(void *arg), void *arg);

#endif
