/* test_trace_values.c: gostat/render/trace_values.c on crafted descriptors
 * (built with rewriter/find/trace_desc_build.c) and crafted captured words:
 * signs and widths (an int8 of -2 under garbage upper bits), a float32 in
 * the low half of a word, small stack values sharing a word, strings whole
 * and cut, []byte, structs, nil and non-nil interfaces named through the
 * runtime type table with a load bias, the text form; and
 * gst_trace_desc_check rejecting broken descriptors. */
#include "tests/unit/unit.h"
#include "gostat/render/trace_values.h"
#include "rewriter/find/trace_desc_build.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct built {
    uint8_t *d;
    size_t len;
};

static struct built finish(struct gr_tdb *b)
{
    struct built r = {0};
    CHECK(gr_tdb_finish(b, &r.d, &r.len) == 0);
    return r;
}

/* Renders args and results; returns "ARGS | RESULTS" (static buffer). */
static const char *render(struct built d, int json, const struct gst_trace_capture *in,
                          const struct gst_trace_capture *out)
{
    static char line[2048];
    struct gr_strbuf a = {0}, r = {0};
    int rc = json ? gst_trace_values_json(d.d, d.len, 0x1000, in, out, &a, &r)
                  : gst_trace_values_text(d.d, d.len, 0x1000, in, out, &a, &r);
    snprintf(line, sizeof line, "%s | %s", rc == 0 ? gr_strbuf_str(&a) : "ERROR", gr_strbuf_str(&r));
    gr_strbuf_free(&a);
    gr_strbuf_free(&r);
    return line;
}

static struct gst_trace_capture words(const uint64_t *w, size_t n)
{
    return (struct gst_trace_capture){.words = w, .nwords = n};
}

static void ints_in_registers(void)
{
    struct gr_tdb b = {0};
    uint16_t t = gr_tdb_type(&b, GTD_K_INT, 8, "int", 0, 0);
    gr_tdb_value(&b, "a", t, gr_tdb_leaf(&b, 0, 0, GTD_NONE), 1, 0);
    gr_tdb_value(&b, "b", t, gr_tdb_leaf(&b, 1, 0, GTD_NONE), 1, 0);
    gr_tdb_value(&b, "~r0", t, gr_tdb_leaf(&b, 0, 0, GTD_NONE), 1, GTD_V_RESULT);
    struct built d = finish(&b);
    uint64_t in[] = {3, 6}, out[] = {9};
    struct gst_trace_capture ci = words(in, 2), co = words(out, 1);
    CHECK_STR(render(d, 1, &ci, &co),
              "[{\"name\":\"a\",\"type\":\"int\",\"value\":3},{\"name\":\"b\",\"type\":\"int\",\"value\":6}] | "
              "[{\"name\":\"~r0\",\"type\":\"int\",\"value\":9}]");
    CHECK_STR(render(d, 0, &ci, &co), "a=3, b=6 | 9");
    CHECK_STR(render(d, 1, &ci, NULL), "[{\"name\":\"a\",\"type\":\"int\",\"value\":3},"
                                       "{\"name\":\"b\",\"type\":\"int\",\"value\":6}] | null");
    free(d.d);
}

static void widths_and_signs(void)
{
    struct gr_tdb b = {0};
    uint16_t i8 = gr_tdb_type(&b, GTD_K_INT, 1, "int8", 0, 0);
    uint16_t i16 = gr_tdb_type(&b, GTD_K_INT, 2, "int16", 0, 0);
    uint16_t i32 = gr_tdb_type(&b, GTD_K_INT, 4, "int32", 0, 0);
    uint16_t u8 = gr_tdb_type(&b, GTD_K_UINT, 1, "uint8", 0, 0);
    uint16_t u64 = gr_tdb_type(&b, GTD_K_UINT, 8, "uint64", 0, 0);
    uint16_t bl = gr_tdb_type(&b, GTD_K_BOOL, 1, "bool", 0, 0);
    /* register: garbage above the value; stack: a=int8 at +0, b=int16 at +2, c=int32 at +4 of word 1 */
    gr_tdb_value(&b, "r", i8, gr_tdb_leaf(&b, 0, 0, GTD_NONE), 1, 0);
    gr_tdb_value(&b, "a", i8, gr_tdb_leaf(&b, 1, 0, GTD_NONE), 1, 0);
    gr_tdb_value(&b, "b", i16, gr_tdb_leaf(&b, 1, 2, GTD_NONE), 1, 0);
    gr_tdb_value(&b, "c", i32, gr_tdb_leaf(&b, 1, 4, GTD_NONE), 1, 0);
    gr_tdb_value(&b, "e", u8, gr_tdb_leaf(&b, 2, 0, GTD_NONE), 1, 0);
    gr_tdb_value(&b, "h", u64, gr_tdb_leaf(&b, 3, 0, GTD_NONE), 1, 0);
    gr_tdb_value(&b, "ok", bl, gr_tdb_leaf(&b, 4, 0, GTD_NONE), 1, 0);
    struct built d = finish(&b);
    /* -70000 = 0xfffeee90, -300 = 0xfed4, -2 = 0xfe */
    uint64_t in[] = {0xdeadbeefcafe00feULL, 0xfffeee90fed400feULL, 0xffffffffffffffc8ULL,
                     0x8000000000000005ULL, 0x7700000000000001ULL};
    struct gst_trace_capture ci = words(in, 5);
    CHECK_STR(render(d, 0, &ci, NULL), "r=-2, a=-2, b=-300, c=-70000, e=200, h=9223372036854775813, ok=true | ");
    free(d.d);
}

static void floats(void)
{
    struct gr_tdb b = {0};
    uint16_t f32 = gr_tdb_type(&b, GTD_K_FLOAT, 4, "float32", 0, 0);
    uint16_t f64 = gr_tdb_type(&b, GTD_K_FLOAT, 8, "float64", 0, 0);
    gr_tdb_value(&b, "x", f32, gr_tdb_leaf(&b, 0, 0, GTD_NONE), 1, 0);
    gr_tdb_value(&b, "y", f64, gr_tdb_leaf(&b, 1, 0, GTD_NONE), 1, 0);
    gr_tdb_value(&b, "z", f32, gr_tdb_leaf(&b, 2, 0, GTD_NONE), 1, 0);
    struct built d = finish(&b);
    /* 1.5f = 0x3fc00000 under garbage; -2.25 = 0xc002000000000000; 0.1f */
    uint64_t in[] = {0x123456783fc00000ULL, 0xc002000000000000ULL, 0x3dcccccdULL};
    struct gst_trace_capture ci = words(in, 3);
    CHECK_STR(render(d, 1, &ci, NULL),
              "[{\"name\":\"x\",\"type\":\"float32\",\"value\":1.5},{\"name\":\"y\",\"type\":\"float64\","
              "\"value\":-2.25},{\"name\":\"z\",\"type\":\"float32\",\"value\":0.1}] | null");
    free(d.d);

    /* complex64 in two float registers; a NaN float64 */
    struct gr_tdb c = {0};
    uint16_t c64 = gr_tdb_type(&c, GTD_K_COMPLEX, 8, "complex64", 0, 0);
    uint16_t f = gr_tdb_type(&c, GTD_K_FLOAT, 8, "float64", 0, 0);
    uint16_t l = gr_tdb_leaf(&c, 0, 0, GTD_NONE);
    gr_tdb_leaf(&c, 1, 0, GTD_NONE);
    gr_tdb_value(&c, "c", c64, l, 2, 0);
    gr_tdb_value(&c, "n", f, gr_tdb_leaf(&c, 2, 0, GTD_NONE), 1, 0);
    d = finish(&c);
    uint64_t cw[] = {0x3f800000, 0xc0000000, 0x7ff8000000000001ULL}; /* 1, -2, NaN */
    ci = words(cw, 3);
    CHECK_STR(render(d, 0, &ci, NULL), "c=(1-2i), n=NaN | ");
    CHECK_STR(render(d, 1, &ci, NULL), "[{\"name\":\"c\",\"type\":\"complex64\",\"value\":{\"real\":1,"
                                      "\"imag\":-2}},{\"name\":\"n\",\"type\":\"float64\",\"value\":\"NaN\"}] | null");
    free(d.d);
}

static void strings_whole_and_cut(void)
{
    struct gr_tdb b = {0};
    uint16_t s = gr_tdb_type(&b, GTD_K_STRING, 8, "string", 0, 0);
    uint16_t l = gr_tdb_leaf(&b, 0, 0, 0);
    gr_tdb_leaf(&b, 1, 0, GTD_NONE);
    gr_tdb_value(&b, "name", s, l, 2, 0);
    l = gr_tdb_leaf(&b, 2, 0, 1);
    gr_tdb_leaf(&b, 3, 0, GTD_NONE);
    gr_tdb_value(&b, "long", s, l, 2, 0);
    struct built d = finish(&b);
    uint64_t in[] = {0xc000010000, 6, 0xc000020000, 100};
    const uint8_t *bytes[] = {(const uint8_t *)"go\"p\n!", (const uint8_t *)"hel"};
    uint32_t blen[] = {6, 3}, bfull[] = {6, 100};
    struct gst_trace_capture ci = {.words = in, .nwords = 4, .bytes = bytes, .bytes_len = blen,
                                   .bytes_full = bfull, .nbytes = 2};
    CHECK_STR(render(d, 1, &ci, NULL),
              "[{\"name\":\"name\",\"type\":\"string\",\"value\":\"go\\\"p\\u000a!\"},"
              "{\"name\":\"long\",\"type\":\"string\",\"value\":{\"bytes\":\"hel\",\"len\":100,\"cut\":true}}] | null");
    free(d.d);
}

static void slices_structs_and_interfaces(void)
{
    struct gr_tdb b = {0};
    uint16_t u8 = gr_tdb_type(&b, GTD_K_UINT, 1, "uint8", 0, 0);
    uint16_t bs = gr_tdb_type(&b, GTD_K_SLICE, 8, "[]uint8", 0, u8);
    uint16_t i32 = gr_tdb_type(&b, GTD_K_INT, 4, "int32", 0, 0);
    uint16_t str = gr_tdb_type(&b, GTD_K_STRING, 8, "string", 0, 0);
    uint16_t f0 = gr_tdb_field(&b, "X", i32);
    gr_tdb_field(&b, "Y", i32);
    gr_tdb_field(&b, "Name", str);
    uint16_t pt = gr_tdb_type(&b, GTD_K_STRUCT, 0, "main.point", 3, f0);
    uint16_t err = gr_tdb_type(&b, GTD_K_IFACE, 8, "error", 0, 0);
    uint16_t l = gr_tdb_leaf(&b, 0, 0, 0);
    gr_tdb_leaf(&b, 1, 0, GTD_NONE);
    gr_tdb_leaf(&b, 2, 0, GTD_NONE);
    gr_tdb_value(&b, "b", bs, l, 3, 0);
    l = gr_tdb_leaf(&b, 3, 0, GTD_NONE);
    gr_tdb_leaf(&b, 3, 4, GTD_NONE);
    gr_tdb_leaf(&b, 4, 0, GTD_NONE);
    gr_tdb_leaf(&b, 5, 0, GTD_NONE);
    gr_tdb_value(&b, "p", pt, l, 4, 0);
    l = gr_tdb_leaf(&b, 0, 0, GTD_NONE);
    gr_tdb_leaf(&b, 1, 0, GTD_NONE);
    gr_tdb_value(&b, "~r0", err, l, 2, GTD_V_RESULT);
    gr_tdb_rtype(&b, 0x4a0000, "*main.parseError");
    struct built d = finish(&b);
    uint64_t in[] = {0xc000abc000, 6, 8, 0x00000004fffffffdULL, 0, 0};
    const uint8_t *bytes[] = {(const uint8_t *)"bytes!"};
    uint32_t blen[] = {6}, bfull[] = {6};
    struct gst_trace_capture ci = {.words = in, .nwords = 6, .bytes = bytes, .bytes_len = blen,
                                   .bytes_full = bfull, .nbytes = 1};
    uint64_t err_set[] = {0x4a1000, 0xc000001234}, err_nil[] = {0, 0};
    struct gst_trace_capture co = words(err_set, 2), cn = words(err_nil, 2);
    CHECK_STR(render(d, 1, &ci, &co),
              "[{\"name\":\"b\",\"type\":\"[]uint8\",\"value\":{\"len\":6,\"cap\":8,\"ptr\":\"0xc000abc000\","
              "\"bytes\":\"bytes!\"}},{\"name\":\"p\",\"type\":\"main.point\",\"value\":"
              "{\"X\":-3,\"Y\":4,\"Name\":\"\"}}] | "
              "[{\"name\":\"~r0\",\"type\":\"error\",\"value\":\"*main.parseError\"}]");
    ci.nwords = 5; /* Name's length word was not captured */
    CHECK(strstr(render(d, 1, &ci, &cn), "\"type\":\"main.point\",\"omitted\":true,\"value\":{\"X\":-3,\"Y\":4,\"Name\":null}") != NULL);
    CHECK_STR(render(d, 0, &ci, &cn), "b=\"bytes!\"[len=6 cap=8], p={X:-3 Y:4 Name:?} | <nil>");
    free(d.d);
}

/* A valid two-type descriptor, then one broken field at a time. */
static void check_rejects_broken(void)
{
    struct gr_tdb b = {0};
    uint16_t i = gr_tdb_type(&b, GTD_K_INT, 8, "int", 0, 0);
    uint16_t f = gr_tdb_field(&b, "a", i);
    uint16_t st = gr_tdb_type(&b, GTD_K_STRUCT, 0, "s", 1, f);
    gr_tdb_value(&b, "v", st, gr_tdb_leaf(&b, 0, 0, GTD_NONE), 1, 0);
    struct built d = finish(&b);
    CHECK_INT(gst_trace_desc_check(d.d, d.len), 0);
    CHECK_INT(gst_trace_desc_check(d.d, d.len - 1), -1);
    CHECK_INT(gst_trace_desc_check(d.d, 3), -1);
    CHECK_INT(gst_trace_desc_check(NULL, 0), -1);
    uint8_t *c = malloc(d.len);
    size_t off_values = sizeof(struct gtd_header), off_types = off_values + sizeof(struct gtd_value);
    size_t off_fields = off_types + 2 * sizeof(struct gtd_type);
    struct { size_t at; uint8_t v; } breaks[] = {
        {0, 'X'},                                                  /* magic */
        {off_values + offsetof(struct gtd_value, nleaves), 2},     /* leaf count */
        {off_values + offsetof(struct gtd_value, type), 7},        /* type index */
        {off_types + offsetof(struct gtd_type, kind), 99},         /* kind */
        {off_types + offsetof(struct gtd_type, size), 3},          /* int of 3 bytes */
        {off_fields + offsetof(struct gtd_field, type), 1},        /* a field of its own struct */
        {d.len - 1, 'x'},                                          /* strings not terminated */
    };
    for (size_t k = 0; k < sizeof breaks / sizeof breaks[0]; k++) {
        memcpy(c, d.d, d.len);
        c[breaks[k].at] = breaks[k].v;
        if (gst_trace_desc_check(c, d.len) != -1)
            unit_fail(__FILE__, __LINE__, "break %zu accepted", k);
    }
    free(c);
    free(d.d);
}

UNIT_CASES("trace_values", UNIT_CASE(ints_in_registers), UNIT_CASE(widths_and_signs),
           UNIT_CASE(floats), UNIT_CASE(strings_whole_and_cut), UNIT_CASE(slices_structs_and_interfaces),
           UNIT_CASE(check_rejects_broken));
