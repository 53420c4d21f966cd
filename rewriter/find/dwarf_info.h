/* dwarf_info.h: what DWARF says about each out-of-line function.
 *
 * The rest of gorewrite finds functions from Go's pclntab; this module adds
 * what only DWARF knows: where a function was declared and whether the
 * compiler also inlined it into callers (so instrumenting its out-of-line
 * copy does not see every call). */
#ifndef GR_DWARF_INFO_H
#define GR_DWARF_INFO_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "rewriter/find/runtime_offsets.h"

struct gr_dwarf_func {
    uint64_t low_pc;       /* entry address of the out-of-line code */
    char *decl_file;       /* malloc'd; NULL when unknown */
    uint32_t decl_line;    /* 0 when unknown */
    int inlined_elsewhere; /* 1 if the function was also inlined into some caller */
};

struct gr_dwarf_info {
    struct gr_dwarf_func *funcs; /* sorted by low_pc, unique low_pc */
    size_t nfuncs;
    int present;                 /* 0: the binary has no DWARF (not an error) */
    struct gr_go_found offsets;  /* offsets of runtime.g and runtime.m members */
};

/* Reads DWARF of the ELF file at path. A binary without DWARF gives
 * present=0 and returns 0. Corrupt DWARF returns -1 with a message naming
 * the file. On failure *out is left empty (safe to pass to gr_dwarf_free). */
int gr_dwarf_read(const char *path, struct gr_dwarf_info *out, struct gr_error *err);
/* The same from an open fd (not closed); path only names it in messages.
 * gorewrite passes the in-memory copy it validated, never the input path
 * again, so a file changed after validation cannot be read twice. */
int gr_dwarf_read_fd(const char *path, int fd, struct gr_dwarf_info *out, struct gr_error *err);

/* The function whose out-of-line code starts exactly at low_pc, or NULL. */
const struct gr_dwarf_func *gr_dwarf_find(const struct gr_dwarf_info *info, uint64_t low_pc);

/* Frees everything gr_dwarf_read allocated and empties *info. */
void gr_dwarf_free(struct gr_dwarf_info *info);

#endif
