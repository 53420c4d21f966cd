/* top_gsites.h: gostat top's goroutines view (key g): every watched
 * process's goroutine sites, most live first (docs/goroutines.md). */
#ifndef GOSTAT_TOP_GSITES_H
#define GOSTAT_TOP_GSITES_H

#include "gostat/model/gsites.h"
#include "gostat/read/sites.h"
#include "gostat/top/screen_line.h"
#include "gostat/top/top_model.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct top_gsite_row {
    int64_t pid;
    const struct gst_gsite *site;
};

struct top_gsites {
    struct gst_sites *sites;   /* per process */
    struct gst_gsites *named;
    size_t nprocs;
    struct top_gsite_row *rows;
    size_t nrows;
    bool pid_column;           /* several processes */
};

/* Reads every process's sites now; processes without any add no rows.
 * Returns -1 when out of memory (g then needs no free). */
int top_gsites_collect(const struct top_model *m, struct top_gsites *g);

void top_gsites_format_names(struct gst_line *l, const struct top_gsites *g);
void top_gsites_format_row(struct gst_line *l, const struct top_gsites *g, size_t i);

void top_gsites_free(struct top_gsites *g);

#endif
