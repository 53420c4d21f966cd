/* exported by format */
/* trace_desc.h: the trace descriptor, written by gorewrite
 * (rewriter/find/trace_layout.c) for each traced function and stored in the
 * stats file; gostat (gostat/render/trace_values.c) turns a call's captured
 * words back into named, typed values with it, without the binary.
 *
 * Layout (little-endian, no alignment assumed: readers memcpy):
 *   struct gtd_header
 *   struct gtd_value  values[nvalues]   arguments, then results, in order
 *   struct gtd_type   types[ntypes]     a type's children come before it
 *   struct gtd_field  fields[nfields]   struct fields, each type's in a run
 *   struct gtd_leaf   leaves[nleaves]   where each scalar word of a value is
 *   struct gtd_rtype  rtypes[nrtypes]   runtime type address -> name
 *   char              strings[strings_len]  NUL-terminated names
 * Every name is an offset into strings (GTD_NO_NAME: none). A value takes
 * its leaves in the order of a depth-first walk of its type:
 *   INT UINT FLOAT BOOL POINTER RAW: 1 leaf; STRING: data, len;
 *   SLICE: data, len, cap; IFACE/EFACE: type word, data word;
 *   COMPLEX: real, imaginary; STRUCT: its fields'; ARRAY: n times elem's.
 * A leaf names a captured word (the entry capture for arguments, the return
 * capture for results) and the bytes of it to read; GTD_NONE: not captured
 * (the value did not fit the capture limits). A STRING or []byte data leaf
 * may also name the byte copy holding its contents. docs/trace.md "Values and ABIs"
 * describes the values and ABIs. */
#ifndef GTD_TRACE_DESC_H
#define GTD_TRACE_DESC_H

#include <stdint.h>

#define GTD_MAGIC 0x31445447u /* "GTD1" */
#define GTD_VERSION 1
#define GTD_NONE 0xffffu
#define GTD_NO_NAME 0xffffffffu
#define GTD_MAX_DEPTH 16       /* nesting of types a reader follows */

enum gtd_flags {
    GTD_F_STRIPPED = 1,        /* no DWARF: values are the raw words of the
                                  binary's argument metadata, unnamed */
    GTD_F_REGABI = 2,          /* register ABI (else the stack ABI) */
    GTD_F_RESULTS_RAW = 4,     /* results unknown: raw return words shown */
};

enum gtd_kind {
    GTD_K_INT = 1,     /* size 1, 2, 4, 8: signed */
    GTD_K_UINT = 2,    /* also uintptr */
    GTD_K_FLOAT = 3,   /* size 4 or 8 */
    GTD_K_BOOL = 4,
    GTD_K_STRING = 5,
    GTD_K_SLICE = 6,   /* elem: its element type */
    GTD_K_POINTER = 7, /* also map, chan, func, unsafe.Pointer */
    GTD_K_IFACE = 8,   /* non-empty interface: its type word is the itab's _type */
    GTD_K_EFACE = 9,   /* interface{} / any */
    GTD_K_STRUCT = 10, /* fields[first .. first+n) */
    GTD_K_ARRAY = 11,  /* n elements of type first */
    GTD_K_RAW = 12,    /* a word of unknown type, shown as "0x..." (size bytes) */
    GTD_K_COMPLEX = 13,/* size 8 or 16 */
};

enum gtd_value_flags {
    GTD_V_RESULT = 1,  /* a result (read from the return capture) */
};

struct gtd_header {
    uint32_t magic;
    uint16_t version;
    uint16_t flags;     /* enum gtd_flags */
    uint16_t nvalues, ntypes, nfields, nleaves, nrtypes, reserved;
    uint32_t strings_len;
};

struct gtd_value {
    uint32_t name;
    uint16_t type;       /* index into types */
    uint16_t first_leaf;
    uint16_t nleaves;    /* what a walk of type takes */
    uint16_t flags;      /* enum gtd_value_flags */
};

struct gtd_type {
    uint32_t name;       /* Go's spelling: "int16", "[]uint8", "*main.T" */
    uint8_t kind;        /* enum gtd_kind */
    uint8_t size;        /* bytes of a scalar (INT, UINT, FLOAT, BOOL, RAW, COMPLEX) */
    uint16_t n;          /* STRUCT: fields; ARRAY: length */
    uint16_t first;      /* STRUCT: first field; ARRAY, SLICE: element type */
    uint16_t reserved;
};

struct gtd_field {
    uint32_t name;
    uint16_t type;
    uint16_t reserved;
};

struct gtd_leaf {
    uint16_t word;       /* index into the capture's words, or GTD_NONE */
    uint8_t shift;       /* the value's first byte within the word */
    uint8_t reserved;
    uint16_t bytes;      /* index into the capture's byte copies, or GTD_NONE */
    uint16_t reserved2;
};

struct gtd_rtype {
    uint32_t addr_lo, addr_hi; /* link-time address of the runtime type */
    uint32_t name;
};

#endif
