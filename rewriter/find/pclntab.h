/* pclntab.h: Go's function table (stage 2, function discovery). pclntab is
 * present even in stripped binaries, so it is the primary source of every
 * function's entry, end, name, file and line. */
#ifndef GR_PCLNTAB_H
#define GR_PCLNTAB_H

#include <stddef.h>
#include <stdint.h>

#include "elf/elf_read.h"
#include "common/error.h"

struct gr_pcln_func {
    uint64_t entry;
    uint64_t end;           /* entry of the next function (== entry: an alias of it) */
    const char *name;       /* inside the input file's bytes, NUL-terminated */
    const char *file;       /* likewise; NULL when unknown */
    uint32_t line;          /* declaration line (Go >= 1.20) or line at entry; 0 unknown */
    int32_t args;           /* _func.args: bytes of its argument area (results included;
                               with the register ABI, the spill area's) */
};

struct gr_pclntab {
    uint32_t magic;
    uint64_t addr;            /* where the table is (link-time address) */
    uint64_t text_start;      /* base of function entry offsets */
    struct gr_pcln_func *funcs;
    size_t nfuncs;
};

int gr_pclntab_read(const struct gr_elf *elf, struct gr_pclntab *tab, struct gr_error *err);
void gr_pclntab_free(struct gr_pclntab *tab);

#endif
