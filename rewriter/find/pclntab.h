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
    uint32_t pcfile, pcln, cu; /* its pc-value tables and file-table base */
    uint64_t funcoff;       /* its _func record, from gr_pclntab.funcdata_addr */
};

struct gr_pclntab {
    uint32_t magic;
    uint64_t addr;            /* where the table is (link-time address) */
    uint64_t text_start;      /* base of function entry offsets */
    uint32_t md_text_used;    /* when text_start is moduledata.text: its
                                 offset read (the release's); 0 otherwise */
    struct gr_pcln_func *funcs;
    size_t nfuncs;
    /* the pc-value and file tables, inside the input's bytes */
    const uint8_t *pctab, *cutab, *filetab;
    uint64_t pctab_size, cutab_size, filetab_size;
    /* Go >= 1.16: the function names' own table (funcnametab: each name
     * NUL-terminated), its link-time address and size; size 0 before, where
     * names lie among the other tables */
    const uint8_t *funcnames;
    uint64_t funcnames_addr, funcnames_size;
    /* the base of the _func records' offsets (Go <= 1.15: the table
     * itself; later: pclntable) and the function table (ftab) */
    uint64_t funcdata_addr, functab_addr;
    uint64_t size;            /* bytes from addr to the end of its section */
};

int gr_pclntab_read(const struct gr_elf *elf, struct gr_pclntab *tab, struct gr_error *err);
void gr_pclntab_free(struct gr_pclntab *tab);

/* A function's _func record as the runtime reads it (runtime/runtime2.go
 * type _func of the release): where it is, its whole size with the pcdata
 * and funcdata offsets that follow it, and the fields the copy engine
 * reads or changes. */
struct gr_func_record {
    uint64_t addr;
    uint32_t size;
    int entry_word;         /* the entry is an address (Go <= 1.17), else
                               a u32 offset from the module's text */
    int word_funcdata;      /* funcdata are addresses, 8-aligned (Go <= 1.17) */
    uint8_t func_id, flag;  /* flag: 0 before Go 1.16 */
};

/* f's record. Returns -1 when it does not fit the table. */
int gr_pclntab_func_record(const struct gr_elf *elf, const struct gr_pclntab *tab,
                           const struct gr_pcln_func *f, struct gr_func_record *out);

/* The file and line of the code at pc inside f (pc-value tables, as the
 * runtime's funcline). Returns -1 when the tables do not say. */
int gr_pclntab_line_at(const struct gr_pclntab *tab, const struct gr_pcln_func *f, uint64_t pc,
                       const char **file, uint32_t *line);

#endif
