/* exported by rewriter/gen */
/* image.h: what stage 4 generates, whole: the RX segment's bytes (room for
 * the program headers, the stub blob with its configuration filled, the
 * trampolines, the stats-file image), the new entry point, and the
 * patches that send the program's code there. elf/elf_write.c writes it. */
#ifndef GR_IMAGE_H
#define GR_IMAGE_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "elf/elf_read.h"
#include "elf/elf_write.h"
#include "rewriter/find/program.h"
#include "rewriter/gen/codebuf.h"
#include "rewriter/gen/copy_module.h"
#include "rewriter/gen/segments.h"
#include "rewriter/plan/plan.h"

struct gr_image {
    struct gr_codebuf code;     /* the RX segment, based at seg->rx_vaddr */
    uint64_t entry;             /* the stub's start-up entry */
    struct gr_patch *patches;   /* in the order gr_patches_build gives */
    size_t npatches;
    struct gr_copy_module copy; /* --engine copy: the module (copy_module.h) */
};

/* Builds the image of plan placed as seg. Free *img with gr_image_free,
 * also after a failure. */
int gr_image_build(const struct gr_elf *elf, const struct gr_program *prog,
                   const struct gr_plan *plan, const struct gr_segment_plan *seg,
                   struct gr_image *img, struct gr_error *err);
void gr_image_free(struct gr_image *img);

#endif
