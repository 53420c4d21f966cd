/* dwarf_lines.h: decodes a DWARF line program (.debug_line, versions 2-5,
 * little-endian) from its bytes into rows of (address, file, line).
 *
 * dwarf_info.c uses it for the functions whose DIE has no declaration: the
 * first row at a function's lowest address names its file and line.
 * Only the header fields the state machine needs are read; the directory
 * and file tables are skipped (libdwarf's dwarf_srcfiles names the files). */
#ifndef GR_DWARF_LINES_H
#define GR_DWARF_LINES_H

#include <stddef.h>
#include <stdint.h>

/* A bounded cursor: reading past end clears ok and yields zeros. */
struct gr_dwarf_cursor {
    const uint8_t *p, *end;
    int ok;
};

struct gr_dwarf_lines {
    struct gr_dwarf_cursor ops; /* the opcodes, up to the end of the unit */
    unsigned version;
    uint8_t min_inst_length;
    uint8_t max_ops_per_inst;   /* 1 on x86-64; more means VLIW op_index addressing */
    int8_t line_base;
    uint8_t line_range;
    uint8_t opcode_base;
    const uint8_t *std_opcode_lengths; /* opcode_base - 1 of them */
};

/* One row of the line table. Unsigned so that hostile advances wrap
 * instead of overflowing; a line that went below 1 shows up as a huge
 * value. File numbers are the program's own (from 1 before DWARF 5). */
struct gr_dwarf_row {
    uint64_t addr;
    uint64_t file;
    uint64_t line;
};

/* Reads the header of the line program at offset in the section
 * [sec, sec + size). 0, or -1 when the header is truncated, runs past the
 * section or has a version, line range or opcode base it cannot be. */
int gr_dwarf_lines_open(const uint8_t *sec, size_t size, uint64_t offset,
                        struct gr_dwarf_lines *lp);

/* Runs the state machine, calling row(ctx, r) for every row except the
 * end_sequence ones (those mark the first byte after the code). 0, or -1
 * when an opcode's operands run past the end of the unit. */
int gr_dwarf_lines_run(struct gr_dwarf_lines *lp,
                       void (*row)(void *ctx, const struct gr_dwarf_row *r), void *ctx);

#endif
