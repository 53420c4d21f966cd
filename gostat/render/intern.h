/* intern.h: a table of distinct strings, each with a stable index, for
 * formats that name a string once and refer to it by number after that
 * (pprof's string table, callgrind's name compression). Strings are
 * stored cleaned (gst_utf8_clean), so what the table holds is safe to
 * write. */
#ifndef GOSTAT_INTERN_H
#define GOSTAT_INTERN_H

#include "common/error.h"

#include <search.h>
#include <stdbool.h>
#include <stddef.h>

struct gst_intern {
    struct hsearch_data index; /* cleaned string -> its position + 1 */
    char **strings;            /* cleaned, owned; in the order added */
    size_t count, max;
};

/* An empty table for at most max distinct strings. */
int gst_intern_init(struct gst_intern *t, size_t max, struct gr_error *err);

/* The index of s's cleaned form, added at the end if new (*added then
 * true; added may be NULL). Returns -1 with err when out of memory or
 * over max. */
long gst_intern_add(struct gst_intern *t, const char *s, bool *added, struct gr_error *err);

void gst_intern_free(struct gst_intern *t);

#endif
