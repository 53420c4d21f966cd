/* syms.c: address -> function, by binary search of the sorted symbol
 * table (statsfile.c checked the order when it loaded it). */
#include "gostat/read/syms.h"

#include <stddef.h>

const struct gst_sym *gst_stats_sym_at(const struct gst_stats *st, uint64_t addr)
{
    size_t lo = 0, hi = st->nsyms;
    while (lo < hi) {   /* the first symbol with entry > addr */
        size_t mid = lo + (hi - lo) / 2;
        if (st->syms[mid].entry <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0 || addr >= st->syms[lo - 1].end)
        return NULL;
    return &st->syms[lo - 1];
}
