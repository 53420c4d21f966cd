/* exported by common */
/* align.h: page size and power-of-two rounding, shared by the segment
 * planner and the ELF writer (both lay out pages of the output). */
#ifndef GR_ALIGN_H
#define GR_ALIGN_H

#include <stdint.h>

#define GR_PAGE 4096u

/* v rounded up to a multiple of a, a power of two. */
static inline uint64_t gr_align_up(uint64_t v, uint64_t a)
{
    return (v + a - 1) & ~(a - 1);
}

#endif
