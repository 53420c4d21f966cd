/* go_runtime.h: offsets inside the Go runtime's g and m structures that
 * the trampolines rely on, per Go release. Each row was read from the DWARF
 * of a binary built by that release (objdump --dwarf=info; see
 * docs/counting.md). A release without a row is refused rather than guessed
 * at: a wrong offset would make every trampoline write into the wrong field
 * of the runtime's g or m. */
#ifndef GR_GO_RUNTIME_H
#define GR_GO_RUNTIME_H

#include <stdint.h>

struct gr_go_layout {
    int minor;                /* Go 1.<minor> */
    uint32_t g_m;             /* g.m: the thread (m) running the goroutine */
    uint32_t g_stack_hi;      /* g.stack.hi: top of the goroutine's stack */
    uint32_t g_racectx;       /* g.racectx: unused unless built with -race;
                                 holds the goroutine's timing slot */
    uint32_t m_tls;           /* m.tls[6]: slot 0 holds g on linux/amd64 */
};

/* m.tls[1]: this thread's counter row. Unused by Go on linux/amd64 (only
 * m.tls[0] is), zero in every new m, and in static binaries the same word
 * as fs:[0], since settls points FS at &m.tls[1]. */
static inline uint32_t gr_m_row_slot(const struct gr_go_layout *l)
{
    return l->m_tls + 8;
}

/* The layout of Go 1.<minor>, or NULL when it has not been verified. */
const struct gr_go_layout *gr_go_layout(int minor);

/* "1.19, 1.21-1.24": the releases with a layout, for messages. */
const char *gr_go_layouts_known(void);

#endif
