/* trace_desc_build.h: builds a trace descriptor (format/trace_desc.h)
 * table by table. Errors (out of memory, a table over 65535 entries) are
 * sticky: checked once, by gr_tdb_finish. */
#ifndef GR_TRACE_DESC_BUILD_H
#define GR_TRACE_DESC_BUILD_H

#include "format/trace_desc.h"

#include <stddef.h>
#include <stdint.h>

struct gr_tdb {
    uint16_t flags;
    struct gtd_value *values; size_t nvalues, values_cap;
    struct gtd_type *types; size_t ntypes, types_cap;
    struct gtd_field *fields; size_t nfields, fields_cap;
    struct gtd_leaf *leaves; size_t nleaves, leaves_cap;
    struct gtd_rtype *rtypes; size_t nrtypes, rtypes_cap;
    char *strings; size_t strings_len, strings_cap;
    int failed;
};

/* Offset of a copy of s in the string table (GTD_NO_NAME for NULL). */
uint32_t gr_tdb_string(struct gr_tdb *b, const char *s);
/* Appends a type; its children must already be in. Returns its index. */
uint16_t gr_tdb_type(struct gr_tdb *b, uint8_t kind, uint8_t size, const char *name, uint16_t n,
                     uint16_t first);
uint16_t gr_tdb_field(struct gr_tdb *b, const char *name, uint16_t type);
uint16_t gr_tdb_leaf(struct gr_tdb *b, uint16_t word, uint8_t shift, uint16_t bytes);
void gr_tdb_value(struct gr_tdb *b, const char *name, uint16_t type, uint16_t first_leaf,
                  uint16_t nleaves, uint16_t flags);
void gr_tdb_rtype(struct gr_tdb *b, uint64_t addr, const char *name);
/* The descriptor, malloc'd; -1 when something failed. Frees b's tables. */
int gr_tdb_finish(struct gr_tdb *b, uint8_t **out, size_t *len);
void gr_tdb_free(struct gr_tdb *b);

#endif
