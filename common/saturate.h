/* exported by common */
/* saturate.h: sums of counters from untrusted files, which stop at the
 * largest value instead of wrapping to a small one. */
#ifndef GR_SATURATE_H
#define GR_SATURATE_H

#include <stdint.h>

static inline uint64_t gr_add_saturating(uint64_t a, uint64_t b)
{
    uint64_t sum;
    return __builtin_add_overflow(a, b, &sum) ? UINT64_MAX : sum;
}

#endif
