/* exported by gostat/top */
/* top_model.h: what "gostat top" shows, without a terminal: the watched
 * processes (one target, or every live stats file in a directory), their
 * rates between refreshes, and the selected, sorted function rows.
 * top_format.h turns this into text, top_screen.h draws it. */
#ifndef GOSTAT_TOP_MODEL_H
#define GOSTAT_TOP_MODEL_H

#include "common/error.h"
#include "gostat/model/goroutines.h"
#include "gostat/read/statsfile.h"
#include "gostat/model/times.h"

#include <regex.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

enum top_sort {
    TOP_SORT_RATE,             /* calls/s, descending */
    TOP_SORT_CALLS,            /* calls, descending */
    TOP_SORT_TIME,             /* time share, descending */
    TOP_SORT_MEAN,             /* mean duration, descending */
    TOP_SORT_P99,              /* 99th percentile, descending */
    TOP_SORT_NAME,             /* function name, ascending */
};

/* One watched stats file. */
struct top_proc {
    struct gst_stats st;
    dev_t dev;                 /* the file, to recognise it in a later scan */
    ino_t ino;
    uint64_t *prev_calls;      /* per function, at the previous refresh */
    double *prev_total_ns;     /* per function; 0 where unknown */
    double *total_ns;          /* per function, at the last refresh */
    uint64_t prev_total_calls;
    double refreshed_at;       /* CLOCK_MONOTONIC seconds of the last refresh */
    double interval;           /* seconds since the refresh before; 0: none yet */
    double up_seconds;         /* age of the process when last seen running */
    bool seen;                 /* found by the latest directory scan */
};

struct top_row {
    const struct top_proc *proc;
    const struct gst_func *func;
    bool rate_known, share_known;
    double rate;               /* calls/s over the last interval */
    double share;              /* percent of the interval spent in the function */
    struct gst_times times;    /* cumulative */
    double key;                /* what the numeric sorts order by; -1: unknown */
    bool shared;               /* another row of its process has its name:
                                  shown with its entry address */
};

struct top_totals {
    size_t procs, running;
    bool rate_known;
    double rate;               /* calls/s over the last interval */
    uint64_t calls;
    uint64_t funcs;
    struct gst_goroutines goroutines; /* known if known for every process */
};

struct top_model {
    bool all;                  /* no target: every live file in dir, PID column */
    const char *dir;
    struct top_proc **procs;
    size_t nprocs, procs_cap;
    enum top_sort sort;
    bool show_uncalled;        /* also functions with no calls */
    bool has_filter;
    regex_t filter;            /* on the function name */
    char filter_text[256];
    struct top_row *rows;      /* after top_model_build_rows */
    size_t nrows, rows_cap;
};

/* Seconds on CLOCK_MONOTONIC. */
double top_now(void);

/* A model watching the one stats file target names ("PID" or "FILE"). */
int top_model_open_target(struct top_model *m, const char *target, struct gr_error *err);

/* A model watching every live stats file in dir; top_model_refresh scans. */
void top_model_open_dir(struct top_model *m, const char *dir);

/* Re-reads every process's counters (with a directory: picks up new live
 * files and drops those whose process exited or that became unreadable).
 * Returns -1 with err if the one target became unreadable, or the
 * directory cannot be read. */
int top_model_refresh(struct top_model *m, struct gr_error *err);

/* Sets the filter from an extended regular expression; "" clears it.
 * Returns -1 with err (the pattern and regerror's reason) if text does not
 * filter is then unchanged. */
int top_model_set_filter(struct top_model *m, const char *text, struct gr_error *err);

/* Selects and sorts the rows. Returns -1 with err if out of memory. */
int top_model_build_rows(struct top_model *m, struct gr_error *err);

struct top_totals top_model_totals(const struct top_model *m);

void top_model_close(struct top_model *m);

#endif
