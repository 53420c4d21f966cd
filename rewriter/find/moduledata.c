/* moduledata.c: see moduledata.h. The layouts are read from each
 * release's runtime/symtab.go (type moduledata) and checked against the
 * DWARF of runtime.moduledata in a build of that release
 * (tests/rewriter/t_copy_module.sh). */
#include "rewriter/find/moduledata.h"

#include <elf.h>
#include <string.h>

static const struct gr_moduledata_layout layouts[] = {
    /* Go 1.15: pclntable, ftab, filetab slices, then findfunctab */
    {.minor_lo = 15, .minor_hi = 15, .go12 = 1, .size = 456, .filetab = 48,
     .pclntable = 0, .ftab = 24, .findfunctab = 72, .minpc = 80, .maxpc = 88, .text = 96,
     .etext = 104, .gcdata = 184, .gcbss = 192, .hasmain = 392, .next = 448},
    /* Go 1.19: pcHeader, five table slices, ftab, findfunctab */
    {.minor_lo = 19, .minor_hi = 19, .size = 552, .pcheader = 0, .funcnametab = 8, .cutab = 32,
     .filetab = 56, .pctab = 80, .pclntable = 104, .ftab = 128, .findfunctab = 152, .minpc = 160,
     .maxpc = 168, .text = 176, .etext = 184, .gcdata = 264, .gcbss = 272, .gofunc = 304,
     .hasmain = 488, .next = 544},
    /* Go 1.21-1.22: covctrs and inittasks added */
    {.minor_lo = 21, .minor_hi = 22, .size = 592, .pcheader = 0, .funcnametab = 8, .cutab = 32,
     .filetab = 56, .pctab = 80, .pclntable = 104, .ftab = 128, .findfunctab = 152, .minpc = 160,
     .maxpc = 168, .text = 176, .etext = 184, .gcdata = 280, .gcbss = 288, .gofunc = 320,
     .hasmain = 528, .next = 584},
    /* Go 1.23-1.25: bad moved after hasmain */
    {.minor_lo = 23, .minor_hi = 25, .size = 584, .pcheader = 0, .funcnametab = 8, .cutab = 32,
     .filetab = 56, .pctab = 80, .pclntable = 104, .ftab = 128, .findfunctab = 152, .minpc = 160,
     .maxpc = 168, .text = 176, .etext = 184, .gcdata = 280, .gcbss = 288, .gofunc = 320,
     .hasmain = 528, .next = 576},
    /* Go 1.26: epclntab added after gofunc */
    {.minor_lo = 26, .minor_hi = 26, .size = 592, .pcheader = 0, .funcnametab = 8, .cutab = 32,
     .filetab = 56, .pctab = 80, .pclntable = 104, .ftab = 128, .findfunctab = 152, .minpc = 160,
     .maxpc = 168, .text = 176, .etext = 184, .gcdata = 280, .gcbss = 288, .gofunc = 320,
     .epclntab = 328, .hasmain = 536, .next = 584},
    /* Go 1.27: typedesclen, itaboffset and itabsize added, typelinks and
     * itablinks dropped */
    {.minor_lo = 27, .minor_hi = 27, .size = 568, .pcheader = 0, .funcnametab = 8, .cutab = 32,
     .filetab = 56, .pctab = 80, .pclntable = 104, .ftab = 128, .findfunctab = 152, .minpc = 160,
     .maxpc = 168, .text = 176, .etext = 184, .gcdata = 280, .gcbss = 288, .gofunc = 344,
     .epclntab = 352, .hasmain = 512, .next = 560},
};

const struct gr_moduledata_layout *gr_moduledata_layout(int minor)
{
    for (size_t i = 0; i < sizeof layouts / sizeof layouts[0]; i++)
        if (minor >= layouts[i].minor_lo && minor <= layouts[i].minor_hi)
            return &layouts[i];
    return NULL;
}

const char *gr_moduledata_known(void)
{
    return "1.15, 1.19, 1.21-1.27";
}

static uint64_t word(const uint8_t *p, uint32_t off)
{
    uint64_t v;
    memcpy(&v, p + off, 8);
    return v;
}

uint64_t gr_moduledata_addr(const struct gr_program *prog, uint64_t addr)
{
    uint64_t v = 0;
    return gr_elf_read_addr(prog->elf, addr, &v) == 0 ? v : 0;
}

/* Whether the moduledata-sized bytes at addr start like the first module. */
static int looks_first(const struct gr_program *prog, const struct gr_moduledata_layout *l,
                       uint64_t addr)
{
    const uint8_t *p = gr_elf_bytes_at(prog->elf, addr, l->size);
    if (!p || gr_moduledata_addr(prog, addr) != prog->pcln.addr)
        return 0;
    if (l->go12)
        return word(p, 8) == prog->pcln.size || gr_moduledata_addr(prog, addr + l->text) == prog->pcln.funcs[0].entry;
    return gr_moduledata_addr(prog, addr + l->text) == prog->pcln.text_start;
}

static int check(const struct gr_elf *elf, const char *field, uint64_t got, uint64_t want,
                 struct gr_error *err)
{
    if (got == want)
        return 0;
    return gr_fail(err, "%s: runtime.firstmoduledata.%s is 0x%llx, the tables say 0x%llx: its layout is not the one gorewrite knows",
                   elf->path, field, (unsigned long long)got, (unsigned long long)want);
}

/* The fields the program's own tables state, compared with the layout's. */
static int verify(const struct gr_program *prog, const struct gr_moduledata *md, struct gr_error *err)
{
    const struct gr_moduledata_layout *l = md->layout;
    const struct gr_pclntab *t = &prog->pcln;
    const struct gr_elf *e = prog->elf;
    const uint8_t *p = md->bytes;
    uint64_t a = md->addr;
    if (check(e, "minpc", gr_moduledata_addr(prog, a + l->minpc), t->funcs[0].entry, err) < 0 ||
        check(e, "maxpc", gr_moduledata_addr(prog, a + l->maxpc), t->funcs[t->nfuncs - 1].end, err) < 0 ||
        check(e, "ftab", gr_moduledata_addr(prog, a + l->ftab), t->functab_addr, err) < 0 ||
        check(e, "ftab.len", word(p, l->ftab + 8), t->nfuncs + 1, err) < 0 ||
        check(e, "hasmain", p[l->hasmain], 1, err) < 0 || check(e, "next", word(p, l->next), 0, err) < 0)
        return -1;
    /* the linker's runtime.epclntab: the end of the pclntab section */
    if (l->epclntab &&
        check(e, "epclntab", gr_moduledata_addr(prog, a + l->epclntab), t->addr + t->size, err) < 0)
        return -1;
    if (l->go12)
        return check(e, "pclntable.len", word(p, l->pclntable + 8), t->size, err);
    return check(e, "text", gr_moduledata_addr(prog, a + l->text), t->text_start, err) < 0 ||
                   check(e, "pclntable", gr_moduledata_addr(prog, a + l->pclntable), t->funcdata_addr, err) < 0 ||
                   (t->funcnames_size &&
                    check(e, "funcnametab", gr_moduledata_addr(prog, a + l->funcnametab), t->funcnames_addr, err) < 0)
               ? -1
               : 0;
}

int gr_moduledata_find(const struct gr_program *prog, struct gr_moduledata *md, struct gr_error *err)
{
    const struct gr_elf *elf = prog->elf;
    memset(md, 0, sizeof *md);
    md->layout = gr_moduledata_layout(prog->offsets.minor);
    if (!md->layout)
        return gr_fail(err, "%s: the copy engine knows runtime.moduledata of Go %s only, not Go 1.%d",
                       elf->path, gr_moduledata_known(), prog->offsets.minor);
    static const char *homes[] = {".go.module", ".noptrdata", ".data"};
    for (size_t h = 0; h < sizeof homes / sizeof homes[0]; h++) {
        const struct gr_section *s = gr_elf_section(elf, homes[h]);
        if (!s || s->type == SHT_NOBITS)
            continue;
        for (uint64_t a = s->addr; a + md->layout->size <= s->addr + s->size; a += 8)
            if (looks_first(prog, md->layout, a)) {
                md->addr = a;
                md->bytes = gr_elf_bytes_at(elf, a, md->layout->size);
                return verify(prog, md, err);
            }
    }
    return gr_fail(err, "%s: runtime.firstmoduledata not found (no data word points at pclntab 0x%llx)",
                   elf->path, (unsigned long long)prog->pcln.addr);
}
