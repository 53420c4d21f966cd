/* trace_desc_check.c: opening and checking an untrusted trace descriptor
 * (trace_desc_check.h). A type's children (fields, elements) must have
 * smaller indices than the type itself, so types can never nest in a
 * cycle; nesting is bounded by GTD_MAX_DEPTH as well. */
#include "gostat/read/trace_desc_check.h"

#include <stdlib.h>
#include <string.h>

enum { LEAF_SAT = 0x10000 };

int gst_tdesc_open(const uint8_t *desc, size_t len, struct gst_tdesc *d)
{
    memset(d, 0, sizeof *d);
    if (!desc || len < sizeof d->h)
        return -1;
    memcpy(&d->h, desc, sizeof d->h);
    if (d->h.magic != GTD_MAGIC || d->h.version != GTD_VERSION)
        return -1;
    size_t off = sizeof d->h;
    const size_t sizes[] = {
        (size_t)d->h.nvalues * sizeof(struct gtd_value), (size_t)d->h.ntypes * sizeof(struct gtd_type),
        (size_t)d->h.nfields * sizeof(struct gtd_field), (size_t)d->h.nleaves * sizeof(struct gtd_leaf),
        (size_t)d->h.nrtypes * sizeof(struct gtd_rtype), d->h.strings_len,
    };
    const uint8_t **tables[] = {&d->values, &d->types, &d->fields, &d->leaves, &d->rtypes,
                                (const uint8_t **)&d->strings};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        if (sizes[i] > len - off)
            return -1;
        *tables[i] = desc + off;
        off += sizes[i];
    }
    return off == len ? 0 : -1;
}

/* Entry i of a table (in bounds: checked by the caller), copied out of
 * possibly unaligned bytes. */
#define TABLE_ENTRY(type, fn, table)                                        \
    struct type fn(const struct gst_tdesc *d, unsigned i)                   \
    {                                                                       \
        struct type e;                                                      \
        memcpy(&e, d->table + (size_t)i * sizeof e, sizeof e);              \
        return e;                                                           \
    }

TABLE_ENTRY(gtd_value, gst_tdesc_value, values)
TABLE_ENTRY(gtd_type, gst_tdesc_type, types)
TABLE_ENTRY(gtd_field, gst_tdesc_field, fields)
TABLE_ENTRY(gtd_leaf, gst_tdesc_leaf, leaves)
TABLE_ENTRY(gtd_rtype, gst_tdesc_rtype, rtypes)

const char *gst_tdesc_name(const struct gst_tdesc *d, uint32_t off)
{
    if (off == GTD_NO_NAME || off >= d->h.strings_len)
        return NULL;
    return d->strings + off;
}

static uint32_t sat_add(uint32_t a, uint32_t b)
{
    return a + b >= LEAF_SAT ? LEAF_SAT : a + b;
}

/* Leaves and nesting depth of type i, from those of its children (smaller
 * indices, already computed: no recursion, so no blow-up on shared
 * children). Children are known to be in bounds (type_ok ran). */
static void measure_type(const struct gst_tdesc *d, unsigned i, uint32_t *leaves, uint8_t *depth)
{
    struct gtd_type t = gst_tdesc_type(d, i);
    leaves[i] = 1;
    depth[i] = 1;
    switch (t.kind) {
    case GTD_K_STRING: case GTD_K_IFACE: case GTD_K_EFACE: case GTD_K_COMPLEX:
        leaves[i] = 2;
        break;
    case GTD_K_SLICE:
        leaves[i] = 3;
        depth[i] = (uint8_t)(depth[t.first] + 1);
        break;
    case GTD_K_STRUCT:
        leaves[i] = 0;
        for (unsigned f = 0; f < t.n; f++) {
            uint16_t ft = gst_tdesc_field(d, t.first + f).type;
            leaves[i] = sat_add(leaves[i], leaves[ft]);
            if (depth[ft] + 1 > depth[i])
                depth[i] = (uint8_t)(depth[ft] + 1);
        }
        break;
    case GTD_K_ARRAY: {
        uint64_t n = (uint64_t)leaves[t.first] * t.n;
        leaves[i] = n >= LEAF_SAT ? LEAF_SAT : (uint32_t)n;
        depth[i] = (uint8_t)(depth[t.first] + 1);
        break;
    }
    default:
        break;
    }
    if (depth[i] > GTD_MAX_DEPTH)
        depth[i] = GTD_MAX_DEPTH + 1;
}

static int name_ok(const struct gst_tdesc *d, uint32_t off, int optional)
{
    if (off == GTD_NO_NAME)
        return optional;
    return off < d->h.strings_len;
}

static int scalar_size_ok(const struct gtd_type *t)
{
    switch (t->kind) {
    case GTD_K_INT: case GTD_K_UINT: case GTD_K_RAW:
        return t->size == 1 || t->size == 2 || t->size == 4 || t->size == 8;
    case GTD_K_FLOAT:
        return t->size == 4 || t->size == 8;
    case GTD_K_COMPLEX:
        return t->size == 8 || t->size == 16;
    case GTD_K_BOOL:
        return t->size == 1;
    default:
        return 1;
    }
}

static int type_ok(const struct gst_tdesc *d, unsigned i)
{
    struct gtd_type t = gst_tdesc_type(d, i);
    if (t.kind < GTD_K_INT || t.kind > GTD_K_COMPLEX || !name_ok(d, t.name, 1) || !scalar_size_ok(&t))
        return 0;
    if (t.kind == GTD_K_SLICE || t.kind == GTD_K_ARRAY)
        return t.first < i;
    if (t.kind != GTD_K_STRUCT)
        return 1;
    if ((uint32_t)t.first + t.n > d->h.nfields)
        return 0;
    for (unsigned f = 0; f < t.n; f++) {
        struct gtd_field fl = gst_tdesc_field(d, t.first + f);
        if (fl.type >= i || !name_ok(d, fl.name, 1))
            return 0;
    }
    return 1;
}

static int value_ok(const struct gst_tdesc *d, unsigned i, const uint32_t *leaves, const uint8_t *depth)
{
    struct gtd_value v = gst_tdesc_value(d, i);
    if (v.type >= d->h.ntypes || !name_ok(d, v.name, 1))
        return 0;
    if ((uint32_t)v.first_leaf + v.nleaves > d->h.nleaves)
        return 0;
    return depth[v.type] <= GTD_MAX_DEPTH && leaves[v.type] == v.nleaves;
}

static int tables_ok(const struct gst_tdesc *d, uint32_t *leaves, uint8_t *depth)
{
    if (d->h.strings_len && d->strings[d->h.strings_len - 1] != 0)
        return 0;
    for (unsigned i = 0; i < d->h.ntypes; i++) {
        if (!type_ok(d, i))
            return 0;
        measure_type(d, i, leaves, depth);
    }
    for (unsigned i = 0; i < d->h.nvalues; i++)
        if (!value_ok(d, i, leaves, depth))
            return 0;
    for (unsigned i = 0; i < d->h.nleaves; i++)
        if (gst_tdesc_leaf(d, i).shift >= 8)
            return 0;
    for (unsigned i = 0; i < d->h.nrtypes; i++)
        if (!name_ok(d, gst_tdesc_rtype(d, i).name, 0))
            return 0;
    return 1;
}

int gst_tdesc_check(const struct gst_tdesc *d)
{
    uint32_t *leaves = calloc(d->h.ntypes + 1u, sizeof *leaves);
    uint8_t *depth = calloc(d->h.ntypes + 1u, 1);
    int ok = leaves && depth && tables_ok(d, leaves, depth);
    free(leaves);
    free(depth);
    return ok ? 0 : -1;
}
