/* test_dwarf_lines.c: rewriter/find/dwarf_lines.c on line programs written
 * byte by byte (DWARF 2, 4 and 5 headers, 32- and 64-bit unit lengths):
 * the exact rows every opcode kind produces, end_sequence resetting the
 * state, and each malformed header or truncated operand refused. */
#include "rewriter/find/dwarf_lines.h"
#include "tests/unit/unit.h"

#include <string.h>

/* A section under construction. */
struct bytes {
    uint8_t b[512];
    size_t n;
};

static void put(struct bytes *s, const void *p, size_t n)
{
    memcpy(s->b + s->n, p, n);
    s->n += n;
}

static void put_le(struct bytes *s, uint64_t v, size_t size)
{
    for (size_t i = 0; i < size; i++)
        s->b[s->n++] = (uint8_t)(v >> (8 * i));
}

#define PUT(s, ...) put((s), (const uint8_t[]){__VA_ARGS__}, sizeof((const uint8_t[]){__VA_ARGS__}))

/* Header parameters Go writes: opcode_base 10 (DWARF 2's nine standard
 * opcodes), line_base -4, line_range 10. */
enum { OPCODE_BASE = 10, LINE_BASE = -4, LINE_RANGE = 10 };
static const uint8_t std_lengths[OPCODE_BASE - 1] = {0, 1, 1, 1, 1, 0, 0, 0, 1};

/* One unit: header of the given version and offset size (4 or 8), then
 * the program bytes. Returns the unit's offset in s. */
static size_t put_unit(struct bytes *s, unsigned version, size_t offset_size,
                       uint8_t min_inst, uint8_t max_ops, const uint8_t *prog, size_t nprog)
{
    size_t start = s->n;
    if (offset_size == 8)
        put_le(s, 0xffffffff, 4);
    size_t length_at = s->n;
    put_le(s, 0, offset_size);
    size_t after_length = s->n;
    put_le(s, version, 2);
    if (version >= 5)
        PUT(s, 8, 0);                       /* address_size, segment_selector_size */
    size_t header_length_at = s->n;
    put_le(s, 0, offset_size);
    size_t after_header_length = s->n;
    PUT(s, min_inst);
    if (version >= 4)
        PUT(s, max_ops);
    PUT(s, 1, (uint8_t)LINE_BASE, LINE_RANGE, OPCODE_BASE);
    put(s, std_lengths, sizeof std_lengths);
    if (version >= 5)   /* formats and tables, skipped through header_length */
        PUT(s, 1, 1, 8, 1, '/', 0, 1, 1, 8, 1, 'a', '.', 'g', 'o', 0);
    else                /* include_directories, file_names: a.go, b.go */
        PUT(s, 0, 'a', '.', 'g', 'o', 0, 0, 0, 0, 'b', '.', 'g', 'o', 0, 0, 0, 0, 0);
    size_t header_length = s->n - after_header_length;
    put(s, prog, nprog);
    size_t end = s->n;
    s->n = length_at;
    put_le(s, end - after_length, offset_size);
    s->n = header_length_at;
    put_le(s, header_length, offset_size);
    s->n = end;
    return start;
}

struct rows {
    struct gr_dwarf_row r[16];
    size_t n;
};

static void collect(void *ctx, const struct gr_dwarf_row *r)
{
    struct rows *rows = ctx;
    if (rows->n < 16)
        rows->r[rows->n] = *r;
    rows->n++;
}

static void check_row(const struct rows *rows, size_t i, uint64_t addr, uint64_t file,
                      uint64_t line)
{
    if (!CHECK(i < rows->n))
        return;
    CHECK_U64(rows->r[i].addr, addr);
    CHECK_U64(rows->r[i].file, file);
    CHECK_U64(rows->r[i].line, line);
}

/* special opcode for an address and line advance */
#define SPECIAL(addr, line) ((uint8_t)((line) - LINE_BASE + LINE_RANGE * (addr) + OPCODE_BASE))

/* Every opcode kind the decoder handles, and a second sequence. */
static const uint8_t program[] = {
    0x00, 9, 0x02, 0x00, 0x10, 0x40, 0, 0, 0, 0, 0, /* set_address 0x401000 */
    0x03, 9,                 /* advance_line +9: line 10 */
    0x01,                    /* copy: row 0x401000 1 10 */
    SPECIAL(4, 1),           /* row 0x401004 1 11 */
    0x04, 2,                 /* set_file 2 */
    0x02, 0x90, 0x01,        /* advance_pc 0x90 (two-byte uleb) */
    0x03, 0x7d,              /* advance_line -3 */
    0x01,                    /* row 0x401094 2 8 */
    0x08,                    /* const_add_pc: (255 - 10) / 10 = 24 */
    0x09, 0x00, 0x01,        /* fixed_advance_pc 0x100 */
    0x05, 0x85, 0x01,        /* set_column 133: operand skipped */
    0x06,                    /* negate_stmt */
    0x00, 2, 0x04, 7,        /* set_discriminator: no row */
    SPECIAL(0, 0),           /* row 0x4011ac 2 8 */
    0x00, 1, 0x01,           /* end_sequence: no row, state reset */
    SPECIAL(2, -1),          /* row 0x2 1 0 */
};

static void check_program_rows(const struct rows *rows)
{
    CHECK_INT(rows->n, 5);
    check_row(rows, 0, 0x401000, 1, 10);
    check_row(rows, 1, 0x401004, 1, 11);
    check_row(rows, 2, 0x401094, 2, 8);
    check_row(rows, 3, 0x4011ac, 2, 8);
    check_row(rows, 4, 0x2, 1, 0);
}

static void run(const struct bytes *s, size_t offset, struct gr_dwarf_lines *lp, struct rows *rows,
                int want_run)
{
    memset(rows, 0, sizeof *rows);
    if (!CHECK_INT(gr_dwarf_lines_open(s->b, s->n, offset, lp), 0))
        return;
    CHECK_INT(gr_dwarf_lines_run(lp, collect, rows), want_run);
}

/* The rows of a section holding one unit with a 32-bit length. */
static void run_unit(unsigned version, uint8_t min_inst, const uint8_t *prog, size_t nprog,
                     struct gr_dwarf_lines *lp, struct rows *rows, int want_run)
{
    struct bytes s = {.n = 0};
    put_unit(&s, version, 4, min_inst, 1, prog, nprog);
    run(&s, 0, lp, rows, want_run);
}

static void version2_rows(void)
{
    struct gr_dwarf_lines lp;
    struct rows rows;
    run_unit(2, 1, program, sizeof program, &lp, &rows, 0);
    CHECK_INT(lp.version, 2);
    CHECK_INT(lp.max_ops_per_inst, 1);
    CHECK_INT(lp.line_base, LINE_BASE);
    CHECK_INT(lp.line_range, LINE_RANGE);
    CHECK_INT(lp.opcode_base, OPCODE_BASE);
    check_program_rows(&rows);
}

static void version5_and_64bit_units(void)
{
    struct bytes s = {.n = 0};
    size_t first = put_unit(&s, 5, 4, 1, 1, program, sizeof program);
    size_t second = put_unit(&s, 4, 8, 1, 1, program, sizeof program);
    struct gr_dwarf_lines lp;
    struct rows rows;
    run(&s, first, &lp, &rows, 0);
    CHECK_INT(lp.version, 5);
    check_program_rows(&rows);
    run(&s, second, &lp, &rows, 0);
    CHECK_INT(lp.version, 4);
    check_program_rows(&rows);
}

/* min_inst_length scales advance_pc, const_add_pc and special opcodes,
 * not fixed_advance_pc. */
static void min_inst_length_scales(void)
{
    struct gr_dwarf_lines lp;
    struct rows rows;
    run_unit(3, 4, program, sizeof program, &lp, &rows, 0);
    CHECK_INT(rows.n, 5);
    check_row(&rows, 1, 0x401010, 1, 11);
    check_row(&rows, 2, 0x401250, 2, 8);
    check_row(&rows, 3, 0x4013b0, 2, 8);
    check_row(&rows, 4, 0x8, 1, 0);
}

/* A hostile advance_line wraps instead of overflowing. */
static void line_below_one_wraps(void)
{
    static const uint8_t prog[] = {0x03, 0x7e, 0x01};  /* advance_line -2, copy */
    struct gr_dwarf_lines lp;
    struct rows rows;
    run_unit(2, 1, prog, sizeof prog, &lp, &rows, 0);
    CHECK_INT(rows.n, 1);
    check_row(&rows, 0, 0, 1, UINT64_MAX);
}

static void vliw_table_reported(void)
{
    struct bytes s = {.n = 0};
    put_unit(&s, 4, 4, 1, 4, program, sizeof program);
    struct gr_dwarf_lines lp;
    CHECK_INT(gr_dwarf_lines_open(s.b, s.n, 0, &lp), 0);
    CHECK_INT(lp.max_ops_per_inst, 4);
}

static void bad_headers(void)
{
    struct bytes s = {.n = 0};
    put_unit(&s, 2, 4, 1, 1, program, sizeof program);
    struct gr_dwarf_lines lp;
    CHECK_INT(gr_dwarf_lines_open(s.b, s.n, s.n, &lp), -1);        /* offset at the end */
    CHECK_INT(gr_dwarf_lines_open(s.b, s.n - 1, 0, &lp), -1);      /* unit past the section */
    struct bytes v = s;
    v.b[4] = 1;                                                    /* version 1 */
    CHECK_INT(gr_dwarf_lines_open(v.b, v.n, 0, &lp), -1);
    v.b[4] = 6;
    CHECK_INT(gr_dwarf_lines_open(v.b, v.n, 0, &lp), -1);
    v = s;
    v.b[6] = 0xff;                                                 /* header_length past the unit */
    CHECK_INT(gr_dwarf_lines_open(v.b, v.n, 0, &lp), -1);
    v = s;
    v.b[6] = 4;              /* the program would start inside the opcode lengths */
    CHECK_INT(gr_dwarf_lines_open(v.b, v.n, 0, &lp), -1);
    v = s;
    v.b[13] = 0;                                                   /* line_range 0 */
    CHECK_INT(gr_dwarf_lines_open(v.b, v.n, 0, &lp), -1);
    v = s;
    v.b[14] = 0;                                                   /* opcode_base 0 */
    CHECK_INT(gr_dwarf_lines_open(v.b, v.n, 0, &lp), -1);
    CHECK_INT(gr_dwarf_lines_open(s.b, s.n, 0, &lp), 0);
}

/* Operands that run past the unit: the rows before still arrive. */
static void truncated_operands(void)
{
    static const uint8_t uleb[] = {0x01, 0x02, 0x80};          /* advance_pc, cut uleb */
    static const uint8_t fixed[] = {0x01, 0x09, 0x00};         /* fixed_advance_pc, 1 byte */
    static const uint8_t extended[] = {0x01, 0x00, 9, 0x02, 0}; /* set_address, 8 bytes short */
    static const uint8_t skipped[] = {0x01, 0x05};             /* set_column, no operand */
    const struct { const uint8_t *p; size_t n; } cases[] = {
        {uleb, sizeof uleb}, {fixed, sizeof fixed}, {extended, sizeof extended},
        {skipped, sizeof skipped}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct gr_dwarf_lines lp;
        struct rows rows;
        unsigned before = unit_failures();
        run_unit(2, 1, cases[i].p, cases[i].n, &lp, &rows, -1);
        CHECK_INT(rows.n, 1);
        check_row(&rows, 0, 0, 1, 1);
        if (unit_failures() != before)
            unit_fail(__FILE__, __LINE__, "in case %zu", i);
    }
}

UNIT_CASES("dwarf_lines", UNIT_CASE(version2_rows), UNIT_CASE(version5_and_64bit_units),
           UNIT_CASE(min_inst_length_scales), UNIT_CASE(line_below_one_wraps),
           UNIT_CASE(vliw_table_reported), UNIT_CASE(bad_headers), UNIT_CASE(truncated_operands));
