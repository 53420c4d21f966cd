/* exported by gostat/profile */
/* profile_table.h: the text table of a profile read from JSON ("gostat
 * merged.json"): what gostat merge and gostat --json wrote, shown like a
 * stats file's table, with the processes it sums. */
#ifndef GOSTAT_PROFILE_TABLE_H
#define GOSTAT_PROFILE_TABLE_H

#include "gostat/model/view.h"
#include "gostat/profile/profile.h"

#include <regex.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct gst_profile_table_options {
    const char *source;        /* the file named, for the summary line */
    enum gst_sort sort;        /* GST_SORT_SELF by self time; GST_SORT_CUM
                                  (a profile keeps no cum) by total time */
    const regex_t *filter;     /* on the function name; NULL: all */
    bool nonzero;              /* drop functions with zero calls */
    size_t top;                /* keep the first top; 0: all */
    size_t columns;            /* fit rows to these (term.h); 0: no limit */
};

/* Prints the summary line (processes, calls, functions), the column names
 * (FUNCTION CALLS TOTAL MEAN P50 MIN MAX FILE:LINE; "-" where a time is
 * unknown) and one row per function selected. Returns -1 when out of
 * memory, else 0. */
int gst_profile_table_print(FILE *out, const struct gst_profile *p,
                            const struct gst_profile_table_options *o);

#endif
