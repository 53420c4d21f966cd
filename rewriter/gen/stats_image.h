/* stats_image.h: the read-only prefix of the stats file (header, function
 * table, strings), prepared at rewrite time and embedded in the output; the
 * start-up stub fills in the run-time fields and writes it out. */
#ifndef GR_STATS_IMAGE_H
#define GR_STATS_IMAGE_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "rewriter/find/program.h"
#include "rewriter/gen/segments.h"
#include "rewriter/plan/plan.h"

struct gr_stats_image {
    uint8_t *bytes;
    size_t len;
};

int gr_stats_image_build(const struct gr_plan *plan, const struct gr_program *prog,
                         const struct gr_segment_plan *l, struct gr_stats_image *img,
                         struct gr_error *err);
void gr_stats_image_free(struct gr_stats_image *img);

#endif
