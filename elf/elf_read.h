/* exported by elf */
/* elf_read.h: the input ELF file, validated and parsed (stage 1 of the
 * pipeline). Holds the whole file in memory: later stages read function
 * bytes from it and elf_write.c writes the output from it. */
#ifndef GR_ELF_READ_H
#define GR_ELF_READ_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"

struct gr_section {
    char *name;
    uint32_t type;          /* SHT_* */
    uint64_t flags;         /* SHF_* */
    uint64_t addr;
    uint64_t offset;
    uint64_t size;
};

struct gr_segment {
    uint32_t type;          /* PT_* */
    uint32_t flags;         /* PF_* */
    uint64_t offset;
    uint64_t vaddr;
    uint64_t filesz;
    uint64_t memsz;
    uint64_t align;
};

struct gr_elf {
    const char *path;
    const uint8_t *data;    /* the whole input file: a read-only view of fd */
    size_t size;
    uint32_t mode;          /* permission bits of the input */
    int fd;                 /* memfd holding exactly data[0..size): what libelf
                               and libdwarf read; -1 when closed */
    uint64_t entry;
    struct gr_section *sections;
    size_t nsections;
    struct gr_segment *segments;
    size_t nsegments;
    uint64_t text_sym;      /* runtime.text from .symtab, 0 when absent */
    size_t nsymbols;        /* .symtab's entries, the null one included; 0 without .symtab */
    char *sym_first;        /* names of .symtab's entry 1 and last entry ("" when absent) */
    char *sym_last;
};

/* Reads and validates path. Returns 0, or -1 with a reason in err. */
int gr_elf_read(const char *path, struct gr_elf *elf, struct gr_error *err);
/* The same for bytes already in memory (name labels messages); they are
 * copied. Used by the fuzzing harness (fuzz/), which has no file. */
int gr_elf_read_mem(const char *name, const uint8_t *data, size_t size, struct gr_elf *elf,
                    struct gr_error *err);
void gr_elf_free(struct gr_elf *elf);

const struct gr_section *gr_elf_section(const struct gr_elf *elf, const char *name);

/* File bytes backing [addr, addr+len) in a loaded segment, or NULL when
 * that range is not entirely backed by file contents. */
const uint8_t *gr_elf_bytes_at(const struct gr_elf *elf, uint64_t addr, uint64_t len);

/* The 8-byte word the program sees at addr once loaded: the file's bytes,
 * or, where those are 0 in a position-independent file, the addend of the
 * R_X86_64_RELATIVE relocation that fills the word in at load time (as a
 * link-time address). Returns -1 when addr is not backed by the file. */
int gr_elf_read_addr(const struct gr_elf *elf, uint64_t addr, uint64_t *val);

/* The highest address any PT_LOAD segment occupies in memory. */
uint64_t gr_elf_load_end(const struct gr_elf *elf);

#endif
