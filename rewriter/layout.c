/* layout.c: chooses addresses and file offsets for the new segments. */
#include "layout.h"

#include <elf.h>

/* jmp rel32 reaches +-2 GiB; keep everything well inside that. */
#define MAX_REACH (1ull << 30)

/* The RW segment: struct gs_private, struct gs_live, then the rows. */
static uint64_t rw_size(const struct gr_layout *l)
{
    return 2 * GR_PAGE + (uint64_t)l->max_rows * l->row_stride;
}

int gr_layout_plan(const struct gr_elf *elf, uint32_t nfuncs, uint32_t max_rows,
                   struct gr_layout *l, struct gr_error *err)
{
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)elf->data;
    l->nfuncs = nfuncs;
    l->max_rows = max_rows;
    l->row_stride = gr_align_up((uint64_t)(nfuncs ? nfuncs : 1) * 8, GR_PAGE);
    l->rw_vaddr = gr_align_up(gr_elf_load_end(elf), GR_PAGE) + GR_PAGE;
    while (rw_size(l) > MAX_REACH / 2 && l->max_rows > 2)
        l->max_rows /= 2;   /* huge programs: fewer thread rows, still exact */
    l->rw_memsz = rw_size(l);
    l->rx_vaddr = gr_align_up(l->rw_vaddr + l->rw_memsz, GR_PAGE) + GR_PAGE;
    l->rx_offset = gr_align_up(elf->size, GR_PAGE);
    l->phdr_area = gr_align_up((uint64_t)(eh->e_phnum + 2) * sizeof(Elf64_Phdr), 64);
    l->blob_addr = l->rx_vaddr + l->phdr_area;
    if (l->rx_vaddr - elf->entry > MAX_REACH)
        return gr_fail(err, "%s: program too large to reach new code with rel32 jumps", elf->path);
    return 0;
}
