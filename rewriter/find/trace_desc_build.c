/* trace_desc_build.c: the descriptor builder of trace_desc_build.h. */
#include "rewriter/find/trace_desc_build.h"
#include "common/vec.h"

#include <stdlib.h>
#include <string.h>

/* Appends one element; its index, or GTD_NONE (and failed) when out of
 * memory or when the table would pass the u16 indices. */
static uint16_t append(struct gr_tdb *b, void *items_at, size_t *n, size_t *cap, const void *v,
                       size_t elem)
{
    if (*n >= GTD_NONE || gr_vec_append(items_at, n, cap, v, elem) < 0) {
        b->failed = 1;
        return GTD_NONE;
    }
    return (uint16_t)(*n - 1);
}

uint32_t gr_tdb_string(struct gr_tdb *b, const char *s)
{
    if (!s)
        return GTD_NO_NAME;
    size_t n = strlen(s) + 1;
    if (b->strings_len + n >= GTD_NO_NAME) {
        b->failed = 1;
        return GTD_NO_NAME;
    }
    char *grown = gr_vec_grow(b->strings, &b->strings_cap, b->strings_len + n, 1);
    if (!grown) {
        b->failed = 1;
        return GTD_NO_NAME;
    }
    b->strings = grown;
    memcpy(b->strings + b->strings_len, s, n);
    b->strings_len += n;
    return (uint32_t)(b->strings_len - n);
}

uint16_t gr_tdb_type(struct gr_tdb *b, uint8_t kind, uint8_t size, const char *name, uint16_t n,
                     uint16_t first)
{
    struct gtd_type t = {.name = gr_tdb_string(b, name), .kind = kind, .size = size, .n = n, .first = first};
    return append(b, &b->types, &b->ntypes, &b->types_cap, &t, sizeof t);
}

uint16_t gr_tdb_field(struct gr_tdb *b, const char *name, uint16_t type)
{
    struct gtd_field f = {.name = gr_tdb_string(b, name), .type = type};
    return append(b, &b->fields, &b->nfields, &b->fields_cap, &f, sizeof f);
}

uint16_t gr_tdb_leaf(struct gr_tdb *b, uint16_t word, uint8_t shift, uint16_t bytes)
{
    struct gtd_leaf l = {.word = word, .shift = shift, .bytes = bytes};
    return append(b, &b->leaves, &b->nleaves, &b->leaves_cap, &l, sizeof l);
}

void gr_tdb_value(struct gr_tdb *b, const char *name, uint16_t type, uint16_t first_leaf,
                  uint16_t nleaves, uint16_t flags)
{
    struct gtd_value v = {.name = gr_tdb_string(b, name), .type = type, .first_leaf = first_leaf,
                          .nleaves = nleaves, .flags = flags};
    append(b, &b->values, &b->nvalues, &b->values_cap, &v, sizeof v);
}

void gr_tdb_rtype(struct gr_tdb *b, uint64_t addr, const char *name)
{
    struct gtd_rtype r = {.addr_lo = (uint32_t)addr, .addr_hi = (uint32_t)(addr >> 32),
                          .name = gr_tdb_string(b, name)};
    append(b, &b->rtypes, &b->nrtypes, &b->rtypes_cap, &r, sizeof r);
}

static uint8_t *put(uint8_t *p, const void *src, size_t n)
{
    if (n)
        memcpy(p, src, n);
    return p + n;
}

int gr_tdb_finish(struct gr_tdb *b, uint8_t **out, size_t *len)
{
    *out = NULL;
    *len = 0;
    struct gtd_header h = {
        .magic = GTD_MAGIC, .version = GTD_VERSION, .flags = b->flags,
        .nvalues = (uint16_t)b->nvalues, .ntypes = (uint16_t)b->ntypes, .nfields = (uint16_t)b->nfields,
        .nleaves = (uint16_t)b->nleaves, .nrtypes = (uint16_t)b->nrtypes,
        .strings_len = (uint32_t)b->strings_len,
    };
    size_t n = sizeof h + b->nvalues * sizeof *b->values + b->ntypes * sizeof *b->types +
               b->nfields * sizeof *b->fields + b->nleaves * sizeof *b->leaves +
               b->nrtypes * sizeof *b->rtypes + b->strings_len;
    uint8_t *d = b->failed ? NULL : malloc(n);
    if (d) {
        uint8_t *p = put(d, &h, sizeof h);
        p = put(p, b->values, b->nvalues * sizeof *b->values);
        p = put(p, b->types, b->ntypes * sizeof *b->types);
        p = put(p, b->fields, b->nfields * sizeof *b->fields);
        p = put(p, b->leaves, b->nleaves * sizeof *b->leaves);
        p = put(p, b->rtypes, b->nrtypes * sizeof *b->rtypes);
        put(p, b->strings, b->strings_len);
    }
    gr_tdb_free(b);
    if (!d)
        return -1;
    *out = d;
    *len = n;
    return 0;
}

void gr_tdb_free(struct gr_tdb *b)
{
    free(b->values);
    free(b->types);
    free(b->fields);
    free(b->leaves);
    free(b->rtypes);
    free(b->strings);
    memset(b, 0, sizeof *b);
}
