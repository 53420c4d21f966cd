/* stub_config.h: the stub blob (stubs/) inside the RX segment: copying it
 * in after the room for the program headers, the addresses of its shared
 * routines, and filling its struct gs_stub_config once the stats-file
 * image's place is known. */
#ifndef GR_STUB_CONFIG_H
#define GR_STUB_CONFIG_H

#include <stddef.h>

#include "common/error.h"
#include "elf/elf_read.h"
#include "rewriter/gen/codebuf.h"
#include "rewriter/gen/segments.h"
#include "rewriter/gen/trampoline.h"
#include "rewriter/plan/plan.h"

/* Appends the program headers' room and the blob to code (empty, based at
 * seg->rx_vaddr), padded to 16 bytes; *blob_off is where the blob starts. */
int gr_stub_place(struct gr_codebuf *code, const struct gr_segment_plan *seg, size_t *blob_off,
                  struct gr_error *err);

/* The run-time addresses of the blob's routines the trampolines call. */
struct gr_stub_routines gr_stub_routines(const struct gr_codebuf *code, size_t blob_off,
                                         const struct gr_segment_plan *seg);

/* The blob's start-up entry: the output's new entry point. */
uint64_t gr_stub_entry(const struct gr_codebuf *code, size_t blob_off,
                       const struct gr_segment_plan *seg);

/* Where the stats-file image is in code, and the names_size bytes of the
 * program at names_addr (its funcnametab) that follow it in the file
 * (stats_image.h; 0: none). */
struct gr_image_place {
    size_t off, size;
    uint64_t names_addr, names_size;
};

/* Fills the blob's configuration. */
void gr_stub_configure(struct gr_codebuf *code, size_t blob_off, const struct gr_elf *elf,
                       const struct gr_plan *plan, const struct gr_segment_plan *seg,
                       const struct gr_image_place *image);

#endif
