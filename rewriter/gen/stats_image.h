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

/* The prefix is bytes[0..len), then, when names_size > 0, the program's
 * own function-name table (prog->pcln.funcnames) as the end of the
 * strings: the output carries no second copy of the names, and the
 * start-up stub copies them from the program's read-only memory. */
struct gr_stats_image {
    uint8_t *bytes;
    size_t len;
    uint64_t names_size;
};

/* names_in_place: the program's funcnametab may be copied at run time (it
 * is loaded, read-only); otherwise every name is in bytes. */
int gr_stats_image_build(const struct gr_plan *plan, const struct gr_program *prog,
                         const struct gr_segment_plan *l, int names_in_place,
                         struct gr_stats_image *img, struct gr_error *err);
void gr_stats_image_free(struct gr_stats_image *img);

#endif
