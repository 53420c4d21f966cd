/* exported by rewriter/find */
/* program.h: every function of the input program (stage 2, function
 * discovery): pclntab gives entries, ends, names and lines; DWARF, where
 * present, adds declaration lines and which functions were also inlined. */
#ifndef GR_PROGRAM_H
#define GR_PROGRAM_H

#include <stddef.h>
#include <stdint.h>

#include "rewriter/find/dwarf_info.h"
#include "elf/elf_read.h"
#include "common/error.h"
#include "rewriter/find/runtime_offsets.h"
#include "rewriter/find/pclntab.h"

struct gr_trace_types;

struct gr_func {
    uint64_t entry;
    uint64_t end;
    const char *name;
    const char *file;       /* NULL when unknown */
    uint32_t line;          /* 0 when unknown */
    int inlined_elsewhere;  /* from DWARF: its count covers real calls only */
};

struct gr_program {
    struct gr_pclntab pcln;
    struct gr_dwarf_info dwarf;
    int dwarf_ignored;        /* DWARF present but unreadable: why in dwarf_error */
    struct gr_error dwarf_error;
    char build_id[128];
    char go_version[32];      /* "go1.22.12"; "" when unknown */
    int race;                 /* built with -race: g.racectx is in use */
    int cgo;                  /* links runtime/cgo (cgo, -race, external
                                 linking, c-shared): the C library owns FS */
    struct gr_runtime_offsets offsets; /* decided by offsets_decide.c */
    int offsets_unverified;   /* a release newer than every verified row */
    struct gr_func *funcs;    /* sorted by entry */
    size_t nfuncs;
    const struct gr_elf *elf; /* the input read (outlives prog) */
    struct gr_trace_types *trace_types; /* trace_layout.c's DWARF types, opened on first need */
    int trace_types_tried;
};

int gr_program_read(const struct gr_elf *elf, struct gr_program *prog, struct gr_error *err);
void gr_program_free(struct gr_program *prog);

/* The function named name (or name.abi0), or NULL. */
const struct gr_func *gr_program_func_named(const struct gr_program *prog, const char *name);

#endif
