/* options.h: gostat's command line. */
#ifndef GOSTAT_OPTIONS_H
#define GOSTAT_OPTIONS_H

#include "common/error.h"
#include "gostat/model/view.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct gst_options {
    const char *target;        /* PID or FILE; NULL lists the dir */
    bool help;
    bool json;
    bool nonzero;              /* table only: JSON always shows every function */
    bool wide;                 /* table: never cut to the terminal's width */
    enum gst_sort sort;
    bool runtime;              /* --sort oncpu keeps the scheduler's idle functions */
    size_t top;                /* 0: all */
    const char *filter;        /* POSIX extended regex, or NULL */
    double watch_seconds;      /* 0: print once */
    const char *callers;       /* --callers REGEX: list these functions'
                                  callers (cmd_arcs.c); NULL: no */
    const char *callees;       /* --callees REGEX, likewise */
};

/* Parses argv. Returns 0, or -1 with err describing the usage error. */
int gst_parse_options(int argc, char **argv, struct gst_options *o, struct gr_error *err);

void gst_print_usage(FILE *out);

#endif
