/* fake_elf.h: an ELF image built in memory, for the unit tests of modules
 * that read a gr_elf: its bytes, one PT_LOAD segment mapping the first
 * size of them at a chosen address, and named sections that are windows of
 * those bytes. There is no file behind it (fd -1), so no libelf handle. */
#ifndef GR_FAKE_ELF_H
#define GR_FAKE_ELF_H

#include <stddef.h>
#include <stdint.h>

#include "elf/elf_read.h"

enum { FAKE_ELF_BYTES = 640, FAKE_ELF_SECTIONS = 4 };

struct fake_elf {
    _Alignas(8) uint8_t bytes[FAKE_ELF_BYTES];
    char names[FAKE_ELF_SECTIONS][24];
    struct gr_section secs[FAKE_ELF_SECTIONS];
    struct gr_segment seg;
    struct gr_elf elf;      /* named "fake" in messages */
};

/* All zeros: no bytes mapped, no sections. */
void fake_elf_clear(struct fake_elf *f);

/* Maps bytes [0, size) at vaddr and drops the sections; the bytes stay. */
const struct gr_elf *fake_elf_map(struct fake_elf *f, uint64_t vaddr, size_t size);

/* Adds a PROGBITS section over bytes [off, off + size), at the address the
 * mapping gives them; the caller may move it. */
struct gr_section *fake_elf_section(struct fake_elf *f, const char *name, size_t off, size_t size);

/* Little-endian words into the bytes. */
void fake_elf_put32(struct fake_elf *f, size_t off, uint32_t v);
void fake_elf_put64(struct fake_elf *f, size_t off, uint64_t v);

#endif
