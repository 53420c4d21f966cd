/* exported by rewriter/plan */
/* report.h: what `gorewrite -v` prints about the plan. */
#ifndef GR_REPORT_H
#define GR_REPORT_H

#include <stdio.h>

#include "rewriter/plan/plan.h"

/* One line per function with its decision, then a count per skip reason. */
void gr_report_plan(FILE *out, const struct gr_plan *plan);

#endif
