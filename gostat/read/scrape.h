/* exported by gostat/read */
/* scrape.h: one snapshot of every live process's stats in a directory,
 * the input of one exposition (openmetrics.h). Files of exited processes
 * are left out; files that cannot be opened or are invalid are counted,
 * not fatal, so one bad file never hides the others. */
#ifndef GOSTAT_SCRAPE_H
#define GOSTAT_SCRAPE_H

#include "common/error.h"
#include "gostat/read/statsfile.h"

#include <stddef.h>

struct gst_scrape {
    struct gst_stats **procs;  /* live processes, by pid; one per pid */
    size_t nprocs;
    unsigned invalid_files;    /* skipped: unreadable or invalid */
};

/* Opens and reads every live stats file in dir. Returns 0, or -1 with err
 * when dir cannot be read (or memory runs out); s then needs no free. */
int gst_scrape_collect(struct gst_scrape *s, const char *dir, struct gr_error *err);

void gst_scrape_free(struct gst_scrape *s);

#endif
