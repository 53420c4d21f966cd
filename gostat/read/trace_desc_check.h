/* exported by gostat/read */
/* trace_desc_check.h: a trace descriptor (format/trace_desc.h), untrusted
 * input, opened for reading: its tables located, each entry read with
 * bounds known, the whole checked (gst_tdesc_check). Used by
 * gostat/render/trace_values.c. */
#ifndef GOSTAT_TRACE_DESC_CHECK_H
#define GOSTAT_TRACE_DESC_CHECK_H

#include "format/trace_desc.h"

#include <stddef.h>
#include <stdint.h>

struct gst_tdesc {
    struct gtd_header h;
    const uint8_t *values, *types, *fields, *leaves, *rtypes;
    const char *strings;
};

/* Locates the tables: 0, or -1 when the header or the sizes are wrong. */
int gst_tdesc_open(const uint8_t *desc, size_t len, struct gst_tdesc *d);
/* Full check: every index, offset, nesting and leaf count in bounds. */
int gst_tdesc_check(const struct gst_tdesc *d);

struct gtd_value gst_tdesc_value(const struct gst_tdesc *d, unsigned i);
struct gtd_type gst_tdesc_type(const struct gst_tdesc *d, unsigned i);
struct gtd_field gst_tdesc_field(const struct gst_tdesc *d, unsigned i);
struct gtd_leaf gst_tdesc_leaf(const struct gst_tdesc *d, unsigned i);
struct gtd_rtype gst_tdesc_rtype(const struct gst_tdesc *d, unsigned i);
/* The name at off, or NULL for GTD_NO_NAME (checked descriptors only). */
const char *gst_tdesc_name(const struct gst_tdesc *d, uint32_t off);
#endif
