/* trace_values.c: a traced call's captured words as JSON or Go-like text
 * (trace_values.h), following the descriptor gorewrite wrote for its
 * function (format/trace_desc.h; what each kind shows is in
 * docs/trace.md "Values and ABIs"). Descriptor and words come from an untrusted stats
 * file: the descriptor is checked first, every leaf and byte copy is
 * bounds-checked as it is taken, and a walk visits at most NODE_BUDGET
 * types per value (a descriptor may nest empty structs to blow up). */
#include "gostat/render/trace_values.h"
#include "gostat/read/trace_desc_check.h"
#include "common/safe_text.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { NODE_BUDGET = 4096 };

struct walk {
    const struct gst_tdesc *d;
    const struct gst_trace_capture *cap;
    int64_t load_bias;
    int json;
    struct gr_strbuf *out;
    unsigned leaf, leaf_end;  /* the value's leaves still to take */
    unsigned nodes;
};

/* A leaf's word: 0 when it was not captured (the leaf names no word, or a
 * word the capture does not have). */
static int take_leaf(struct walk *w, unsigned size, uint64_t *val, struct gtd_leaf *leaf)
{
    *val = 0;
    if (w->leaf >= w->leaf_end)
        return 0;
    *leaf = gst_tdesc_leaf(w->d, w->leaf++);
    if (leaf->word == GTD_NONE || !w->cap || leaf->word >= w->cap->nwords || leaf->shift + size > 8)
        return 0;
    uint64_t v = w->cap->words[leaf->word] >> (8 * leaf->shift);
    *val = size >= 8 ? v : v & ((UINT64_C(1) << (8 * size)) - 1);
    return 1;
}

static int64_t sign_extend(uint64_t v, unsigned size)
{
    if (size >= 8)
        return (int64_t)v;
    unsigned bits = 8 * size;
    uint64_t sign = UINT64_C(1) << (bits - 1);
    return (int64_t)((v ^ sign) - sign);
}

/* Shortest %g that reads back as the same value, as Go's strconv does. */
static void put_float(struct walk *w, double v, int is32)
{
    if (isnan(v) || isinf(v)) {
        const char *s = isnan(v) ? "NaN" : v > 0 ? "+Inf" : "-Inf";
        gr_strbuf_appendf(w->out, w->json ? "\"%s\"" : "%s", s);
        return;
    }
    char buf[40];
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(buf, sizeof buf, "%.*g", prec, v);
        if (is32 ? strtof(buf, NULL) == (float)v : strtod(buf, NULL) == v)
            break;
    }
    gr_strbuf_append(w->out, buf);
}

static void put_float_bits(struct walk *w, uint64_t bits, unsigned size)
{
    if (size == 4) {
        uint32_t b = (uint32_t)bits;
        float f;
        memcpy(&f, &b, sizeof f);
        put_float(w, f, 1);
    } else {
        double f;
        memcpy(&f, &bits, sizeof f);
        put_float(w, f, 0);
    }
}

static void put_escaped(struct gr_strbuf *out, const uint8_t *p, size_t n)
{
    /* gr_utf8_sequence_length reads up to 4 bytes of a NUL-terminated string */
    char *z = calloc(n + 4, 1);
    if (!z) {
        out->failed = 1;
        return;
    }
    memcpy(z, p, n);
    const unsigned char *s = (const unsigned char *)z, *end = s + n;
    gr_strbuf_append(out, "\"");
    while (s < end) {
        size_t len = *s ? gr_utf8_sequence_length(s) : 1;
        if (len > (size_t)(end - s))
            len = 0;
        if (len == 0) {
            gr_strbuf_append(out, "\\ufffd");
            s++;
        } else if (len == 1) {
            if (*s == '"' || *s == '\\')
                gr_strbuf_appendf(out, "\\%c", *s);
            else if (*s < 0x20 || *s == 0x7F)
                gr_strbuf_appendf(out, "\\u%04x", *s);
            else
                gr_strbuf_append_n(out, (const char *)s, 1);
            s++;
        } else if (gr_text_is_control(s, len)) {
            gr_strbuf_appendf(out, "\\u%04x", gr_utf8_code_point(s, len));
            s += len;
        } else {
            gr_strbuf_append_n(out, (const char *)s, len);
            s += len;
        }
    }
    gr_strbuf_append(out, "\"");
    free(z);
}

static void put_name(struct gr_strbuf *out, const char *s)
{
    if (s)
        put_escaped(out, (const uint8_t *)s, strlen(s));
    else
        gr_strbuf_append(out, "null");
}

static void put_hex(struct walk *w, uint64_t v)
{
    gr_strbuf_appendf(w->out, w->json ? "\"0x%" PRIx64 "\"" : "0x%" PRIx64, v);
}

static void put_missing(struct walk *w)
{
    gr_strbuf_append(w->out, w->json ? "null" : "?");
}

/* The copied bytes of a string or []byte, if its data leaf names a copy
 * consistent with the value's length; else 0. */
static int copied_bytes(struct walk *w, const struct gtd_leaf *leaf, uint64_t len, const uint8_t **p,
                        uint32_t *n)
{
    const struct gst_trace_capture *c = w->cap;
    if (!c || leaf->bytes == GTD_NONE || leaf->bytes >= c->nbytes || !c->bytes || !c->bytes_len ||
        !c->bytes[leaf->bytes])
        return 0;
    *p = c->bytes[leaf->bytes];
    *n = c->bytes_len[leaf->bytes];
    return *n <= len;
}

/* The bytes as a string: in JSON a plain string when complete, else
 * {"bytes":…,"len":N,"cut":true}; in text "…"... */
static void put_bytes(struct walk *w, const struct gtd_leaf *leaf, uint64_t len)
{
    const uint8_t *p = (const uint8_t *)"";
    uint32_t n = 0;
    if (len && !copied_bytes(w, leaf, len, &p, &n)) {
        gr_strbuf_appendf(w->out, w->json ? "{\"len\":%" PRIu64 "}" : "<%" PRIu64 " bytes>", len);
        return;
    }
    int cut = n < len;
    if (cut && w->json)
        gr_strbuf_append(w->out, "{\"bytes\":");
    put_escaped(w->out, p, n);
    if (cut)
        gr_strbuf_appendf(w->out, w->json ? ",\"len\":%" PRIu64 ",\"cut\":true}" : "...(%" PRIu64 " bytes)",
                          len);
}

static const char *rtype_name(struct walk *w, uint64_t addr)
{
    uint64_t link = addr - (uint64_t)w->load_bias;
    for (unsigned i = 0; i < w->d->h.nrtypes; i++) {
        struct gtd_rtype r = gst_tdesc_rtype(w->d, i);
        if (((uint64_t)r.addr_hi << 32 | r.addr_lo) == link)
            return gst_tdesc_name(w->d, r.name);
    }
    return NULL;
}

static void put_value(struct walk *w, unsigned t, unsigned depth);

static void put_scalar(struct walk *w, const struct gtd_type *t)
{
    uint64_t v;
    struct gtd_leaf leaf;
    if (!take_leaf(w, t->size, &v, &leaf)) {
        put_missing(w);
        return;
    }
    switch (t->kind) {
    case GTD_K_INT:
        gr_strbuf_appendf(w->out, "%" PRId64, sign_extend(v, t->size));
        break;
    case GTD_K_UINT:
        gr_strbuf_appendf(w->out, "%" PRIu64, v);
        break;
    case GTD_K_BOOL:
        gr_strbuf_append(w->out, v ? "true" : "false");
        break;
    case GTD_K_FLOAT:
        put_float_bits(w, v, t->size);
        break;
    case GTD_K_POINTER:
        if (v)
            put_hex(w, v);
        else
            gr_strbuf_append(w->out, w->json ? "null" : "nil");
        break;
    default: /* GTD_K_RAW */
        put_hex(w, v);
        break;
    }
}

static void put_string(struct walk *w)
{
    uint64_t ptr, len;
    struct gtd_leaf data, lenleaf;
    int have = take_leaf(w, 8, &ptr, &data);
    if (!take_leaf(w, 8, &len, &lenleaf) || !have) {
        put_missing(w);
        return;
    }
    put_bytes(w, &data, len);
}

static void put_slice(struct walk *w, const struct gtd_type *t)
{
    uint64_t ptr, len, cap;
    struct gtd_leaf data, l2, l3;
    int have = take_leaf(w, 8, &ptr, &data);
    have &= take_leaf(w, 8, &len, &l2);
    have &= take_leaf(w, 8, &cap, &l3);
    if (!have) {
        put_missing(w);
        return;
    }
    struct gtd_type elem = gst_tdesc_type(w->d, t->first);
    int is_bytes = (elem.kind == GTD_K_UINT || elem.kind == GTD_K_INT) && elem.size == 1;
    if (w->json) {
        gr_strbuf_appendf(w->out, "{\"len\":%" PRIu64 ",\"cap\":%" PRIu64 ",\"ptr\":", len, cap);
        put_hex(w, ptr);
        if (is_bytes) {
            gr_strbuf_append(w->out, ",\"bytes\":");
            put_bytes(w, &data, len);
        }
        gr_strbuf_append(w->out, "}");
        return;
    }
    if (is_bytes) {
        put_bytes(w, &data, len);
        gr_strbuf_appendf(w->out, "[len=%" PRIu64 " cap=%" PRIu64 "]", len, cap);
    } else {
        gr_strbuf_appendf(w->out, "[len=%" PRIu64 " cap=%" PRIu64 " 0x%" PRIx64 "]", len, cap, ptr);
    }
}

/* An interface: its dynamic type's name (the type word is the _type, the
 * itab's already dereferenced by the capture); null/<nil> when nil. */
static void put_iface(struct walk *w)
{
    uint64_t type, data;
    struct gtd_leaf l1, l2;
    int have = take_leaf(w, 8, &type, &l1);
    have &= take_leaf(w, 8, &data, &l2);
    if (!have) {
        put_missing(w);
        return;
    }
    if (type == 0) {
        gr_strbuf_append(w->out, w->json ? "null" : "<nil>");
        return;
    }
    const char *name = rtype_name(w, type);
    if (name && w->json)
        put_name(w->out, name);
    else if (name)
        gr_strbuf_append(w->out, name);
    else
        put_hex(w, type);
}

static void put_complex(struct walk *w, const struct gtd_type *t)
{
    uint64_t re, im;
    struct gtd_leaf l1, l2;
    unsigned half = t->size / 2u;
    int have = take_leaf(w, half, &re, &l1);
    have &= take_leaf(w, half, &im, &l2);
    if (!have) {
        put_missing(w);
        return;
    }
    gr_strbuf_append(w->out, w->json ? "{\"real\":" : "(");
    put_float_bits(w, re, half);
    uint64_t sign = UINT64_C(1) << (8 * half - 1);
    gr_strbuf_append(w->out, w->json ? ",\"imag\":" : (im & sign) ? "" : "+");
    put_float_bits(w, im, half);
    gr_strbuf_append(w->out, w->json ? "}" : "i)");
}

static void put_struct(struct walk *w, const struct gtd_type *t, unsigned depth)
{
    gr_strbuf_append(w->out, "{");
    for (unsigned i = 0; i < t->n; i++) {
        struct gtd_field f = gst_tdesc_field(w->d, t->first + i);
        const char *name = gst_tdesc_name(w->d, f.name);
        if (i)
            gr_strbuf_append(w->out, w->json ? "," : " ");
        if (w->json) {
            put_name(w->out, name ? name : "_");
            gr_strbuf_append(w->out, ":");
        } else {
            gr_strbuf_appendf(w->out, "%s:", name ? name : "_");
        }
        put_value(w, f.type, depth + 1);
    }
    gr_strbuf_append(w->out, "}");
}

static void put_array(struct walk *w, const struct gtd_type *t, unsigned depth)
{
    gr_strbuf_append(w->out, "[");
    for (unsigned i = 0; i < t->n; i++) {
        if (i)
            gr_strbuf_append(w->out, w->json ? "," : " ");
        put_value(w, t->first, depth + 1);
    }
    gr_strbuf_append(w->out, "]");
}

static void put_value(struct walk *w, unsigned t, unsigned depth)
{
    if (depth > GTD_MAX_DEPTH || ++w->nodes > NODE_BUDGET) {
        put_missing(w);
        return;
    }
    struct gtd_type ty = gst_tdesc_type(w->d, t);
    switch (ty.kind) {
    case GTD_K_STRING: put_string(w); break;
    case GTD_K_SLICE: put_slice(w, &ty); break;
    case GTD_K_IFACE: case GTD_K_EFACE: put_iface(w); break;
    case GTD_K_COMPLEX: put_complex(w, &ty); break;
    case GTD_K_STRUCT: put_struct(w, &ty, depth); break;
    case GTD_K_ARRAY: put_array(w, &ty, depth); break;
    default: put_scalar(w, &ty); break;
    }
}

/* Did the capture hold every word value v needs? */
static int value_complete(const struct walk *w, const struct gtd_value *v)
{
    for (unsigned i = v->first_leaf; i < (unsigned)v->first_leaf + v->nleaves; i++) {
        struct gtd_leaf l = gst_tdesc_leaf(w->d, i);
        if (l.word == GTD_NONE || !w->cap || l.word >= w->cap->nwords)
            return 0;
    }
    return 1;
}

static void put_element(struct walk *w, const struct gtd_value *v, int first)
{
    const char *name = gst_tdesc_name(w->d, v->name);
    w->leaf = v->first_leaf;
    w->leaf_end = (unsigned)v->first_leaf + v->nleaves;
    w->nodes = 0;
    if (w->json) {
        gr_strbuf_append(w->out, first ? "{\"name\":" : ",{\"name\":");
        put_name(w->out, name);
        gr_strbuf_append(w->out, ",\"type\":");
        put_name(w->out, gst_tdesc_name(w->d, gst_tdesc_type(w->d, v->type).name));
        if (!value_complete(w, v))
            gr_strbuf_append(w->out, ",\"omitted\":true");
        gr_strbuf_append(w->out, ",\"value\":");
        put_value(w, v->type, 0);
        gr_strbuf_append(w->out, "}");
        return;
    }
    if (!first)
        gr_strbuf_append(w->out, ", ");
    if (name && !(v->flags & GTD_V_RESULT))
        gr_strbuf_appendf(w->out, "%s=", name);
    put_value(w, v->type, 0);
}

static unsigned count_values(const struct gst_tdesc *d, int results)
{
    unsigned n = 0;
    for (unsigned i = 0; i < d->h.nvalues; i++)
        n += !!(gst_tdesc_value(d, i).flags & GTD_V_RESULT) == results;
    return n;
}

static void put_list(struct walk *w, int results)
{
    unsigned n = count_values(w->d, results), k = 0;
    int paren = !w->json && results && n > 1;
    gr_strbuf_append(w->out, w->json ? "[" : paren ? "(" : "");
    for (unsigned i = 0; i < w->d->h.nvalues; i++) {
        struct gtd_value v = gst_tdesc_value(w->d, i);
        if (!!(v.flags & GTD_V_RESULT) == results)
            put_element(w, &v, k++ == 0);
    }
    gr_strbuf_append(w->out, w->json ? "]" : paren ? ")" : "");
}

static int render(const uint8_t *desc, size_t len, int64_t load_bias, int json,
                  const struct gst_trace_capture *entry, const struct gst_trace_capture *exit,
                  struct gr_strbuf *args_out, struct gr_strbuf *results_out)
{
    struct gst_tdesc d;
    if (gst_tdesc_open(desc, len, &d) < 0 || gst_tdesc_check(&d) < 0)
        return -1;
    struct walk w = {.d = &d, .load_bias = load_bias, .json = json};
    if (args_out) {
        w.cap = entry;
        w.out = args_out;
        put_list(&w, 0);
    }
    if (results_out && exit) {
        w.cap = exit;
        w.out = results_out;
        put_list(&w, 1);
    } else if (results_out && json) {
        gr_strbuf_append(results_out, "null");
    }
    return (args_out && args_out->failed) || (results_out && results_out->failed) ? -1 : 0;
}

int gst_trace_desc_check(const uint8_t *desc, size_t len)
{
    struct gst_tdesc d;
    return gst_tdesc_open(desc, len, &d) < 0 ? -1 : gst_tdesc_check(&d);
}

int gst_trace_values_json(const uint8_t *desc, size_t len, int64_t load_bias,
                          const struct gst_trace_capture *entry, const struct gst_trace_capture *exit,
                          struct gr_strbuf *args_out, struct gr_strbuf *results_out)
{
    return render(desc, len, load_bias, 1, entry, exit, args_out, results_out);
}

int gst_trace_values_text(const uint8_t *desc, size_t len, int64_t load_bias,
                          const struct gst_trace_capture *entry, const struct gst_trace_capture *exit,
                          struct gr_strbuf *args_out, struct gr_strbuf *results_out)
{
    return render(desc, len, load_bias, 0, entry, exit, args_out, results_out);
}
