/* offsets_moduledata.c: see offsets_moduledata.h. The moduledata is found
 * by its first word without reading every data word through the
 * relocations: a word that holds pclntab's address as stored (a static
 * executable), or that a relative relocation fills with it (PIE). */
#include "rewriter/find/offsets_moduledata.h"

#include <elf.h>
#include <string.h>

/* How far into moduledata minpc may be (0x90 in Go 1.16-1.27). */
enum { MAX_MINPC = 0x200 };

static const char *const homes[] = {".go.module", ".noptrdata", ".data"};

/* The offset of text in the moduledata at addr, or -1: the word after
 * minpc and maxpc, at or below minpc. */
static int64_t text_at(const struct gr_elf *elf, uint64_t addr, uint64_t minpc, uint64_t maxpc)
{
    uint64_t lo, hi, text;
    for (uint64_t k = 8; k <= MAX_MINPC; k += 8)
        if (gr_elf_read_addr(elf, addr + k, &lo) == 0 && lo == minpc &&
            gr_elf_read_addr(elf, addr + k + 8, &hi) == 0 && hi == maxpc &&
            gr_elf_read_addr(elf, addr + k + 16, &text) == 0 && text && text <= minpc)
            return (int64_t)k + 16;
    return -1;
}

static const struct gr_section *home_of(const struct gr_elf *elf, uint64_t addr)
{
    for (size_t h = 0; h < sizeof homes / sizeof homes[0]; h++) {
        const struct gr_section *s = gr_elf_section(elf, homes[h]);
        if (s && s->type != SHT_NOBITS && addr >= s->addr && addr + 8 <= s->addr + s->size)
            return s;
    }
    return NULL;
}

/* The first word of a home section that holds pclntab's address as stored,
 * tried in the order of homes; -1 when none does. */
static int64_t stored_text(const struct gr_elf *elf, uint64_t pcln, uint64_t minpc, uint64_t maxpc)
{
    for (size_t h = 0; h < sizeof homes / sizeof homes[0]; h++) {
        const struct gr_section *s = gr_elf_section(elf, homes[h]);
        if (!s || s->type == SHT_NOBITS)
            continue;
        for (uint64_t off = 0; off + 8 <= s->size; off += 8) {
            uint64_t v;
            memcpy(&v, elf->data + s->offset + off, 8);
            int64_t k = v == pcln ? text_at(elf, s->addr + off, minpc, maxpc) : -1;
            if (k >= 0)
                return k;
        }
    }
    return -1;
}

/* The same for a word that a relative relocation fills with it. */
static int64_t relocated_text(const struct gr_elf *elf, uint64_t pcln, uint64_t minpc, uint64_t maxpc)
{
    for (size_t i = 0; i < elf->nsections; i++) {
        const struct gr_section *sec = &elf->sections[i];
        if (sec->type != SHT_RELA)
            continue;
        const Elf64_Rela *r = (const Elf64_Rela *)(elf->data + sec->offset);
        for (uint64_t n = 0; n < sec->size / sizeof *r; n++) {
            if (ELF64_R_TYPE(r[n].r_info) != R_X86_64_RELATIVE || (uint64_t)r[n].r_addend != pcln ||
                !home_of(elf, r[n].r_offset))
                continue;
            int64_t k = text_at(elf, r[n].r_offset, minpc, maxpc);
            if (k >= 0)
                return k;
        }
    }
    return -1;
}

void gr_offsets_from_moduledata(const struct gr_elf *elf, const struct gr_program *prog,
                                struct gr_go_found *out)
{
    const struct gr_pclntab *t = &prog->pcln;
    if (!t->nfuncs)
        return;
    uint64_t minpc = t->funcs[0].entry, maxpc = t->funcs[t->nfuncs - 1].end;
    int64_t k = stored_text(elf, t->addr, minpc, maxpc);
    if (k < 0)
        k = relocated_text(elf, t->addr, minpc, maxpc);
    if (k >= 0)
        gr_go_found_set(out, GR_MD_TEXT, (uint32_t)k);
}
