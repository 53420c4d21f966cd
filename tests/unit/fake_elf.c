/* fake_elf.c: the in-memory ELF image of the unit tests (fake_elf.h). */
#include "tests/unit/fake_elf.h"

#include <elf.h>
#include <string.h>

void fake_elf_clear(struct fake_elf *f)
{
    memset(f, 0, sizeof *f);
}

const struct gr_elf *fake_elf_map(struct fake_elf *f, uint64_t vaddr, size_t size)
{
    f->seg = (struct gr_segment){.type = PT_LOAD, .flags = PF_R, .offset = 0, .vaddr = vaddr,
                                 .filesz = size, .memsz = size, .align = 8};
    f->elf = (struct gr_elf){.path = "fake", .data = f->bytes, .size = size, .fd = -1,
                             .sections = f->secs, .segments = &f->seg, .nsegments = 1};
    return &f->elf;
}

struct gr_section *fake_elf_section(struct fake_elf *f, const char *name, size_t off, size_t size)
{
    size_t n = f->elf.nsections++;
    strncpy(f->names[n], name, sizeof f->names[n] - 1);
    f->secs[n] = (struct gr_section){.name = f->names[n], .type = SHT_PROGBITS,
                                     .addr = f->seg.vaddr + off, .offset = off, .size = size};
    return &f->secs[n];
}

void fake_elf_put32(struct fake_elf *f, size_t off, uint32_t v)
{
    memcpy(f->bytes + off, &v, 4);
}

void fake_elf_put64(struct fake_elf *f, size_t off, uint64_t v)
{
    memcpy(f->bytes + off, &v, 8);
}
