/* layout.h: where the new segments go in the output's address space. The
 * RW counter segment comes first, right after the program's own segments,
 * then the RX segment with the program headers, stub blob, trampolines and
 * stats-file image. Both lie within rel32 reach of the Go text. */
#ifndef GR_LAYOUT_H
#define GR_LAYOUT_H

#include <stddef.h>
#include <stdint.h>

#include "elf_read.h"
#include "error.h"

#define GR_PAGE 4096u

struct gr_layout {
    uint32_t nfuncs;          /* instrumented functions (counters per row) */
    uint32_t max_rows;        /* counter rows, the shared row 0 included */
    uint64_t row_stride;

    uint64_t rw_vaddr;        /* struct gs_private, then the shared part */
    uint64_t rw_memsz;
    uint64_t rx_vaddr;
    uint64_t rx_offset;       /* file offset of the RX segment */
    uint64_t phdr_area;       /* bytes reserved at rx_vaddr for program headers */
    uint64_t blob_addr;
};

int gr_layout_plan(const struct gr_elf *elf, uint32_t nfuncs, uint32_t max_rows,
                   struct gr_layout *l, struct gr_error *err);

static inline uint64_t gr_align_up(uint64_t v, uint64_t a)
{
    return (v + a - 1) & ~(a - 1);
}

/* Addresses the trampolines use. */
static inline uint64_t gr_layout_rows_base_slot(const struct gr_layout *l) { return l->rw_vaddr; }
static inline uint64_t gr_layout_rows_claimed(const struct gr_layout *l) { return l->rw_vaddr + GR_PAGE; }
static inline uint64_t gr_layout_row0(const struct gr_layout *l) { return l->rw_vaddr + 2 * GR_PAGE; }

#endif
