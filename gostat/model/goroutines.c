/* goroutines.c: goroutine counts from two runtime functions' calls. */
#include "gostat/model/goroutines.h"

#include <string.h>

struct gst_goroutines gst_goroutines_from(bool known, uint64_t created, uint64_t ended)
{
    struct gst_goroutines g = { .known = known };
    if (!known)
        return g;
    g.created = created;
    g.ended = ended;
    /* Counters are read one after the other while the program runs, so an
     * end may be seen before its goroutine's creation. */
    g.live = created > ended ? created - ended : 0;
    return g;
}

static const struct gst_func *find(const struct gst_stats *st, const char *name)
{
    for (uint32_t i = 0; i < st->hdr.nfuncs; i++)
        if (strcmp(st->funcs[i].name, name) == 0)
            return &st->funcs[i];
    return NULL;
}

struct gst_goroutines gst_goroutines_of(const struct gst_stats *st)
{
    const struct gst_func *create = find(st, GST_GOROUTINE_CREATE);
    const struct gst_func *end = find(st, GST_GOROUTINE_END);
    return gst_goroutines_from(create && end, create ? create->calls : 0, end ? end->calls : 0);
}
