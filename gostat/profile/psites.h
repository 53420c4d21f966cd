/* exported by gostat/profile */
/* psites.h: goroutine sites in a profile (gostat merge, diff): per
 * creator function, go statement file and line, and start function, the
 * goroutines created, ended and live when the profile was taken (at
 * exit, for a finished run): how gostat diff catches a leak in CI. */
#ifndef GOSTAT_PSITES_H
#define GOSTAT_PSITES_H

#include "common/error.h"
#include "gostat/profile/profdiff.h"
#include "gostat/profile/profile.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Appends a copy of s (strings duplicated). */
int gst_profile_add_site(struct gst_profile *p, const struct gst_psite *s, struct gr_error *err);

/* Sorts p's sites by their key and sums those with the same key. */
void gst_profile_sort_sites(struct gst_profile *p);

void gst_profile_free_sites(struct gst_profile *p);

/* A site whose live goroutines grew from BASE to NEW. */
struct gst_site_growth {
    const struct gst_psite *site;   /* NEW's */
    uint64_t base_live;             /* 0 when BASE lacks the site */
};

/* The sites of next whose live goroutines grew from base's (both sorted
 * and keeping sites) as gostat diff's calls must grow: NEW >= threshold x
 * BASE and NEW - BASE >= sigma sqrt(BASE + NEW), the spread of a count
 * (a goroutine that has signalled its end but not yet ended when the
 * program exits is one more, or not); the runtime's own creators count
 * only with runtime. *out is malloc'ed, most grown first. Returns -1 when
 * out of memory. */
int gst_diff_sites(const struct gst_profile *base, const struct gst_profile *next,
                   const struct gst_diff_options *o, struct gst_site_growth **out, size_t *n);

#endif
