/* exported by gostat/profile */
/* profdiff_out.h: gostat diff's outputs, from what gst_diff_profiles and
 * gst_diff_sites found: a table (or JSON) on stdout, and for
 * --fail-on-regression one stderr line naming what grew. */
#ifndef GOSTAT_PROFDIFF_OUT_H
#define GOSTAT_PROFDIFF_OUT_H

#include "gostat/profile/profdiff.h"
#include "gostat/profile/psites.h"

#include <stddef.h>

/* The goroutine sites whose live goroutines grew (both profiles keep
 * sites): a leak caught between two runs. */
struct gst_site_report {
    const struct gst_site_growth *grew;
    size_t n;
};

/* The changed functions' and arcs' tables fitted to columns (0: no
 * limit), the summary, and the sites that grew. */
void gst_diff_print_text(const struct gst_diff_options *o, const struct gst_diff *d,
                         const struct gst_site_report *sites, size_t columns);

void gst_diff_print_json(const struct gst_diff_options *o, const struct gst_diff *d,
                         const struct gst_site_report *sites);

/* One stderr line naming the worst regression and how many more (needs
 * d->regressions > 0). */
void gst_diff_report_regressions(const struct gst_diff *d);

/* One stderr line naming the first site that grew and how many more
 * (needs r->n > 0). */
void gst_diff_report_site(const struct gst_site_report *r);

#endif
