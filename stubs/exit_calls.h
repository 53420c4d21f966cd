/* exit_calls.h: closing the exiting goroutine's open timed calls at the
 * process's exit (stubs/exit_calls.c), for gs_finish (stubs/finish.c). */
#ifndef GS_EXIT_CALLS_H
#define GS_EXIT_CALLS_H

#include "format/gostat_format.h"

#include <stdint.h>

struct gs_exit_closed {
    uint32_t n;                    /* entries of calls in use */
    struct gs_exit_call calls[GS_EXIT_CALLS_MAX];
    uint64_t total;                /* calls closed, all functions */
};

/* g: the exiting thread's g (0: unknown), rsp: the stack pointer at
 * runtime.exit's entry, end_tsc: the exit's time; img: the program's
 * header. Closes that goroutine's open timed calls into the thread's row
 * (the drops' closed_at_exit counts them) and says which in out. */
void gs_exit_close_calls(uint64_t g, uint64_t rsp, uint64_t end_tsc, const struct gs_header *img,
                         struct gs_exit_closed *out);

#endif
