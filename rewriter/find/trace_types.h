/* trace_types.h: the Go types of a traced function's parameters, as
 * trace_layout.c needs them (kind, size, alignment, fields), read from
 * DWARF by trace_types_dwarf.c. Kinds are the descriptor's (gtd_kind). */
#ifndef GR_TRACE_TYPES_H
#define GR_TRACE_TYPES_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"

struct gr_tv_type;

struct gr_tv_field {
    char *name;
    uint64_t offset;
    struct gr_tv_type *type;
};

struct gr_tv_type {
    uint64_t die;           /* .debug_info offset: one gr_tv_type per DIE */
    uint8_t kind;           /* enum gtd_kind */
    uint8_t size;           /* scalars: bytes (1, 2, 4, 8; complex 8, 16) */
    uint8_t align;
    uint64_t byte_size;
    char *name;
    struct gr_tv_field *fields; /* STRUCT */
    size_t nfields;
    struct gr_tv_type *elem;    /* ARRAY, SLICE */
    uint64_t len;               /* ARRAY */
};

struct gr_tv_param {
    char *name;
    struct gr_tv_type *type;
    int result;             /* DW_AT_variable_parameter: a result */
    int hidden;             /* passed but not shown (a generic function's dictionary) */
    int has_frame_off;      /* its DW_AT_location at entry is the frame base + */
    int64_t frame_off;      /* frame_off: its stack offset from the first argument */
    int has_entry_reg;      /* at the function's entry it is (its first piece) in */
    uint8_t entry_reg;      /* entry_reg: a DWARF register number (0 RAX, 3 RBX, 17 X0) */
};

/* A runtime type descriptor's address (link-time) and its Go name. */
struct gr_tv_rtype {
    uint64_t addr;
    char *name;
};

struct gr_trace_types; /* the DWARF of one program, opened once */

/* Opens the DWARF of the ELF file open at fd: 0 (*out NULL when the file
 * has none), -1 when it cannot be read. types_base: the address DWARF's
 * runtime type offsets count from. */
int gr_trace_types_open(const char *path, int fd, uint64_t types_base, struct gr_trace_types **out,
                        struct gr_error *err);
void gr_trace_types_close(struct gr_trace_types *t);

/* The parameters of the function whose code starts at entry, in order
 * (arguments, then results), and its DWARF name (*name, NULL if none:
 * Go 1.18-1.20 name generic shapes "pkg.F[...]" in pclntab but in full
 * here); *n = 0 and 0 when DWARF has no such function (*found 0). The
 * array, types and name stay owned by t until its next call. */
int gr_trace_types_params(struct gr_trace_types *t, uint64_t entry, int *found, const char **name,
                          struct gr_tv_param **params, size_t *n, struct gr_error *err);

/* Every named runtime type DWARF knows, sorted by address. */
const struct gr_tv_rtype *gr_trace_types_rtypes(const struct gr_trace_types *t, size_t *n);

#endif
