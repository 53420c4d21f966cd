/* intern.c: distinct strings with stable indexes, on glibc's hsearch_r. */
#include "gostat/render/intern.h"

#include "gostat/render/utf8.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int gst_intern_init(struct gst_intern *t, size_t max, struct gr_error *err)
{
    memset(t, 0, sizeof *t);
    /* hsearch_r's table never grows; keep it at most about half full. */
    if (!hcreate_r(max * 2 + 16, &t->index))
        return gr_fail(err, "out of memory for a table of %zu strings", max);
    t->strings = calloc(max ? max : 1, sizeof *t->strings);
    if (!t->strings) {
        hdestroy_r(&t->index);
        return gr_fail(err, "out of memory for a table of %zu strings", max);
    }
    t->max = max;
    return 0;
}

long gst_intern_add(struct gst_intern *t, const char *s, bool *added, struct gr_error *err)
{
    ENTRY want, *found;
    char *clean = gst_utf8_clean(s);

    if (added)
        *added = false;
    if (!clean)
        return gr_fail(err, "out of memory for a string of %zu bytes", strlen(s));
    want.key = clean;
    want.data = NULL;
    if (hsearch_r(want, FIND, &found, &t->index)) {
        free(clean);
        return (long)((uintptr_t)found->data - 1);
    }
    if (t->count == t->max) {
        free(clean);
        return gr_fail(err, "more than %zu distinct strings", t->max);
    }
    want.data = (void *)(uintptr_t)(t->count + 1);
    if (!hsearch_r(want, ENTER, &found, &t->index)) {
        free(clean);
        return gr_fail(err, "out of memory for a table of %zu strings", t->max);
    }
    t->strings[t->count] = clean;
    if (added)
        *added = true;
    return (long)t->count++;
}

void gst_intern_free(struct gst_intern *t)
{
    for (size_t i = 0; i < t->count; i++)
        free(t->strings[i]);
    free(t->strings);
    hdestroy_r(&t->index);   /* safe on a zeroed table too */
    memset(t, 0, sizeof *t);
}
