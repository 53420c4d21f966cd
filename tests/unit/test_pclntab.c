/* test_pclntab.c: rewriter/find/pclntab.c on synthetic tables, one per
 * header format it reads (Go 1.2-1.15, 1.16-1.17, 1.18-1.19, 1.20 on),
 * laid out as runtime/symtab.go and debug/gosym describe them, inside a
 * fake gr_elf: each function's entry, end, name, file and line; where the
 * base of entry offsets comes from; where the table is found; and each
 * corruption refused with its message. */
#include "rewriter/find/pclntab.h"
#include "tests/unit/fake_elf.h"
#include "tests/unit/unit.h"

#include <string.h>

#define TAB_ADDR 0x500000u   /* where the table is linked */
#define TEXT 0x401000u       /* the program's text */

/* Offsets inside the synthetic table (Go >= 1.16 layout: the header, then
 * the tables its words point to). */
enum { NAMES = 72, CUTAB = 136, FILETAB = 152, PCTAB = 168, FUNCTAB = 200 };

/* A function of the synthetic program. */
struct fn {
    uint32_t text_off;   /* entry - TEXT */
    const char *name;
    uint32_t cu;         /* first cutab slot of its compilation unit */
    uint32_t fileno;     /* index from cu */
    uint32_t line;
};

/* Where each format keeps what the reader needs (runtime/symtab.go). */
struct format {
    uint32_t magic;
    int word_functab;      /* (entry, funcoff) as two uintptrs, entries absolute */
    int has_text_start;
    unsigned name, pcfile, pcln, cu, start_line, size; /* start_line 0: none */
};

static const struct format GO116 = {0xfffffffa, 1, 0, 8, 24, 28, 36, 0, 44};
static const struct format GO118 = {0xfffffff0, 0, 1, 4, 20, 24, 32, 0, 40};
static const struct format GO120 = {0xfffffff1, 0, 1, 4, 20, 24, 32, 36, 44};

/* The program every format encodes: main.main, then main.f and its alias
 * main.g at one entry (as race builds list C functions), then the end of
 * the text at +0x100. main.g is in a second compilation unit whose file 0
 * is b.go. */
static const struct fn prog[] = {
    {0x00, "main.main", 0, 0, 12},
    {0x40, "main.f", 0, 1, 20},
    {0x40, "main.g", 2, 0, 30},
};
enum { NPROG = 3, TEXT_END = 0x100 };

/* The pc-value tables in pctab: value v at the entry is the zig-zag
 * varint of v + 1 (the value starts at -1); offset 0 means "no table". */
static uint32_t put_pcvalue(struct fake_elf *im, uint32_t *next, uint32_t value)
{
    uint32_t off = *next;
    im->bytes[PCTAB + off] = (uint8_t)(2 * (value + 1));
    *next += 2;
    return off;
}

/* The names, the two compilation units' file slots and the file names. */
static void put_names_and_files(struct fake_elf *im, uint32_t *nameoffs)
{
    size_t at = NAMES + 1; /* offset 0: the empty name */
    for (int i = 0; i < NPROG; i++) {
        nameoffs[i] = (uint32_t)(at - NAMES);
        memcpy(im->bytes + at, prog[i].name, strlen(prog[i].name) + 1);
        at += strlen(prog[i].name) + 1;
    }
    memcpy(im->bytes + FILETAB, "a.go\0b.go", 10);
    fake_elf_put32(im, CUTAB + 0, 0);         /* unit 0: a.go, b.go */
    fake_elf_put32(im, CUTAB + 4, 5);
    fake_elf_put32(im, CUTAB + 8, 5);         /* unit 2: b.go, then a missing file */
    fake_elf_put32(im, CUTAB + 12, UINT32_MAX);
}

/* The table's size bytes mapped at TAB_ADDR as the named section
 * (".gopclntab" unless the test renames it), and a .text at TEXT. */
static const struct gr_elf *map_table(struct fake_elf *im, size_t size, const char *section)
{
    fake_elf_map(im, TAB_ADDR, size);
    fake_elf_section(im, section, 0, size);
    fake_elf_section(im, ".text", 0, 0)->addr = TEXT;
    return &im->elf;
}

/* A Go >= 1.16 table of prog in format f; text_start is the header's
 * textStart word (Go 1.18 on). */
static const struct gr_elf *build(struct fake_elf *im, const struct format *f, uint64_t text_start)
{
    fake_elf_clear(im);
    fake_elf_put32(im, 0, f->magic);
    im->bytes[6] = 1;  /* instruction size quantum */
    im->bytes[7] = 8;  /* pointer size */
    uint64_t words[8];
    size_t n = 0;
    words[n++] = NPROG;
    words[n++] = 2;                               /* nfiles */
    if (f->has_text_start)
        words[n++] = text_start;
    words[n++] = NAMES;
    words[n++] = CUTAB;
    words[n++] = FILETAB;
    words[n++] = PCTAB;
    words[n++] = FUNCTAB;
    for (size_t i = 0; i < n; i++)
        fake_elf_put64(im, 8 + 8 * i, words[i]);
    uint32_t nameoffs[NPROG], next_pc = 1;
    put_names_and_files(im, nameoffs);
    /* offset 0 is "no table" whatever it holds (Go writes a 0 byte there;
     * this one would read as 5) */
    im->bytes[PCTAB] = 2 * (5 + 1);
    size_t entry_size = f->word_functab ? 16 : 8;
    size_t func = entry_size * (NPROG + 1);       /* _func records, from FUNCTAB */
    for (int i = 0; i <= NPROG; i++) {
        uint32_t text_off = i < NPROG ? prog[i].text_off : TEXT_END;
        size_t e = FUNCTAB + entry_size * (size_t)i;
        if (f->word_functab) {
            fake_elf_put64(im, e, TEXT + text_off);
            fake_elf_put64(im, e + 8, func);
        } else {
            fake_elf_put32(im, e, text_off);
            fake_elf_put32(im, e + 4, (uint32_t)func);
        }
        if (i == NPROG)
            break;
        size_t r = FUNCTAB + func;
        fake_elf_put32(im, r + f->name, nameoffs[i]);
        fake_elf_put32(im, r + f->pcfile, put_pcvalue(im, &next_pc, prog[i].fileno));
        /* with a startLine field the pcln table is not read for the line */
        fake_elf_put32(im, r + f->pcln, put_pcvalue(im, &next_pc, f->start_line ? 99 : prog[i].line));
        fake_elf_put32(im, r + f->cu, prog[i].cu);
        if (f->start_line)
            fake_elf_put32(im, r + f->start_line, prog[i].line);
        func += f->size;
    }
    return map_table(im, FUNCTAB + func, ".gopclntab");
}

/* The table read from elf holds prog exactly, entries from TEXT. */
static void check_prog(const struct gr_elf *elf, uint32_t magic)
{
    struct gr_pclntab tab;
    struct gr_error err = { .msg = "" };
    if (!CHECK_INT(gr_pclntab_read(elf, &tab, &err), 0)) {
        CHECK_STR(err.msg, "");
        return;
    }
    CHECK_U64(tab.magic, magic);
    CHECK_U64(tab.addr, TAB_ADDR);
    if (!CHECK_U64(tab.nfuncs, NPROG))
        return;
    static const uint64_t ends[] = {TEXT + 0x40, TEXT + 0x40, TEXT + TEXT_END};
    static const char *files[] = {"a.go", "b.go", "b.go"};
    for (int i = 0; i < NPROG; i++) {
        CHECK_U64(tab.funcs[i].entry, TEXT + prog[i].text_off);
        CHECK_U64(tab.funcs[i].end, ends[i]);
        CHECK_STR(tab.funcs[i].name, prog[i].name);
        CHECK_STR(tab.funcs[i].file, files[i]);
        CHECK_INT(tab.funcs[i].line, prog[i].line);
    }
    gr_pclntab_free(&tab);
    CHECK(tab.funcs == NULL && tab.nfuncs == 0);
}

static void go120_start_line_field(void)
{
    struct fake_elf im;
    check_prog(build(&im, &GO120, TEXT), 0xfffffff1);
}

static void go118_line_from_pcln_table(void)
{
    struct fake_elf im;
    check_prog(build(&im, &GO118, TEXT), 0xfffffff0);
}

static void go116_absolute_entries(void)
{
    struct fake_elf im;
    check_prog(build(&im, &GO116, 0), 0xfffffffa);
}

/* Go 1.2-1.15: nfunc at 8, the functab right after the header (entry and
 * _func offset as uintptrs, then the end), then the file table's offset;
 * _func offsets, names and pc-value tables all from the table's start,
 * files numbered in one table (slot 0 holds its length). */
static void go12_flat_table(void)
{
    enum { FT = 16, FILEOFF = FT + 16 * NPROG + 8, FILES = 80, FNAMES = 96,
           PC = 136, FUNCS = 144 };
    struct fake_elf im;
    fake_elf_clear(&im);
    fake_elf_put32(&im, 0, 0xfffffffb);
    im.bytes[6] = 1;
    im.bytes[7] = 8;
    fake_elf_put64(&im, 8, NPROG);
    fake_elf_put32(&im, FILEOFF, FILES);
    fake_elf_put32(&im, FILES, 3);                  /* file count, then a.go, b.go */
    fake_elf_put32(&im, FILES + 4, FNAMES);
    fake_elf_put32(&im, FILES + 8, FNAMES + 5);
    memcpy(im.bytes + FNAMES, "a.go\0b.go", 10);
    size_t name_at = FNAMES + 10;
    uint32_t pc = PC + 1;
    for (int i = 0; i <= NPROG; i++) {
        uint64_t entry = TEXT + (i < NPROG ? prog[i].text_off : TEXT_END);
        fake_elf_put64(&im, FT + 16 * (size_t)i, entry);
        if (i == NPROG)
            break;
        size_t r = FUNCS + 40 * (size_t)i;
        fake_elf_put64(&im, FT + 16 * (size_t)i + 8, r);
        fake_elf_put64(&im, r, entry);
        fake_elf_put32(&im, r + 8, (uint32_t)name_at);
        memcpy(im.bytes + name_at, prog[i].name, strlen(prog[i].name) + 1);
        name_at += strlen(prog[i].name) + 1;
        /* one file table for all: main.g's file is b.go by number */
        uint32_t fileno = i == 2 ? 2 : prog[i].fileno + 1;
        im.bytes[pc] = (uint8_t)(2 * (fileno + 1));
        fake_elf_put32(&im, r + 24, pc);
        im.bytes[pc + 1] = (uint8_t)(2 * (prog[i].line + 1));
        fake_elf_put32(&im, r + 28, pc + 1);
        pc += 2;
    }
    CHECK(name_at <= PC);
    check_prog(map_table(&im, FUNCS + 40 * NPROG, ".gopclntab"), 0xfffffffb);
}

/* Go 1.26 writes 0 for textStart; without .go.module or runtime.text the
 * base is the .text section's address. */
static void text_start_from_text_section(void)
{
    struct fake_elf im;
    const struct gr_elf *elf = build(&im, &GO120, 0);
    check_prog(elf, 0xfffffff1);
    struct gr_pclntab tab;
    struct gr_error err;
    if (CHECK_INT(gr_pclntab_read(elf, &tab, &err), 0))
        CHECK_U64(tab.text_start, TEXT);
    gr_pclntab_free(&tab);
    im.elf.text_sym = TEXT + 0x1000;  /* runtime.text wins over .text */
    if (CHECK_INT(gr_pclntab_read(elf, &tab, &err), 0))
        CHECK_U64(tab.funcs[0].entry, TEXT + 0x1000);
    gr_pclntab_free(&tab);
}

/* Externally linked PIE: no section of its own; found at an 8-aligned
 * offset (not 16-aligned) inside .data.rel.ro. */
static void found_inside_data_rel_ro(void)
{
    enum { AT = 56 };
    struct fake_elf im;
    size_t size = build(&im, &GO120, TEXT - 64)->size;
    memmove(im.bytes + AT, im.bytes, size);
    memset(im.bytes, 0xee, AT);
    const struct gr_elf *elf = fake_elf_map(&im, TAB_ADDR - AT, AT + size);
    fake_elf_section(&im, ".data.rel.ro", 0, AT + size);
    struct gr_pclntab tab;
    struct gr_error err = { .msg = "" };
    if (!CHECK_INT(gr_pclntab_read(elf, &tab, &err), 0)) {
        CHECK_STR(err.msg, "");
        return;
    }
    CHECK_U64(tab.addr, TAB_ADDR);
    CHECK_U64(tab.text_start, TEXT - 64);
    CHECK_U64(tab.nfuncs, NPROG);
    CHECK_STR(tab.funcs[2].name, "main.g");
    CHECK_U64(tab.funcs[2].entry, TEXT - 64 + 0x40);
    gr_pclntab_free(&tab);
}

/* read fails with exactly msg and leaves the table empty */
static void check_refused(const struct gr_elf *elf, const char *msg)
{
    struct gr_pclntab tab;
    struct gr_error err = { .msg = "" };
    CHECK_INT(gr_pclntab_read(elf, &tab, &err), -1);
    CHECK_STR(err.msg, msg);
    CHECK(tab.funcs == NULL && tab.nfuncs == 0);
}

static void not_a_go_program(void)
{
    struct fake_elf im;
    build(&im, &GO120, TEXT);
    im.bytes[7] = 4;   /* a 32-bit table */
    check_refused(&im.elf, "fake: not a Go program (no pclntab found)");
    build(&im, &GO120, TEXT);
    /* shorter than a header */
    check_refused(map_table(&im, 71, ".gopclntab"), "fake: not a Go program (no pclntab found)");
}

static void function_count_too_large(void)
{
    struct fake_elf im;
    build(&im, &GO120, TEXT);
    /* the functab span (functab to the table's end: 4 entries of 8 bytes
     * and 3 records of 44) holds 20 entries; n functions need n + 1 */
    fake_elf_put64(&im, 8, 20);
    check_refused(&im.elf, "fake: pclntab function count 20 does not fit the table");
    fake_elf_put64(&im, 8, 0);
    check_refused(&im.elf, "fake: pclntab function count 0 does not fit the table");
    build(&im, &GO116, 0);
    fake_elf_put64(&im, 8, 12);   /* 4 x 16 + 3 x 44 = 196 bytes: 12 entries of 16 */
    check_refused(&im.elf, "fake: pclntab function count 12 does not fit the table");
}

static void header_offset_outside(void)
{
    struct fake_elf im;
    build(&im, &GO120, TEXT);
    fake_elf_put64(&im, 8 + 8 * 5, im.elf.size + 1);  /* filetab */
    check_refused(&im.elf, "fake: pclntab header offsets point outside the table");
    build(&im, &GO116, 0);
    fake_elf_put64(&im, 8 + 8 * 6, 1u << 20);     /* pcln */
    check_refused(&im.elf, "fake: pclntab header offsets point outside the table");
}

static void corrupt_entry(void)
{
    struct fake_elf im;
    build(&im, &GO120, TEXT);
    fake_elf_put32(&im, FUNCTAB + 8 + 4, (uint32_t)im.elf.size);  /* main.f's _func past the end */
    check_refused(&im.elf, "fake: pclntab entry 1 is corrupt");
    build(&im, &GO120, TEXT);
    uint32_t rec;
    memcpy(&rec, im.bytes + FUNCTAB + 16 + 4, 4);    /* main.g's name past funcnametab */
    fake_elf_put32(&im, FUNCTAB + rec + GO120.name, (uint32_t)(im.elf.size - NAMES));
    check_refused(&im.elf, "fake: pclntab entry 2 is corrupt");
}

static void entries_out_of_order(void)
{
    struct fake_elf im;
    build(&im, &GO120, TEXT);
    fake_elf_put32(&im, FUNCTAB + 16, 0x20);   /* main.g below main.f */
    check_refused(&im.elf, "fake: pclntab functions are not in address order at entry 1");
}

/* A missing pc-value table or file slot leaves the field unknown. */
static void unknown_file_and_line(void)
{
    struct fake_elf im;
    build(&im, &GO118, TEXT);
    uint32_t rec;
    memcpy(&rec, im.bytes + FUNCTAB + 4, 4);
    fake_elf_put32(&im, FUNCTAB + rec + GO118.pcln, 0);
    fake_elf_put32(&im, FUNCTAB + rec + GO118.cu, 3);   /* slot 3: UINT32_MAX */
    struct gr_pclntab tab;
    struct gr_error err;
    if (CHECK_INT(gr_pclntab_read(&im.elf, &tab, &err), 0)) {
        CHECK_INT(tab.funcs[0].line, 0);
        CHECK(tab.funcs[0].file == NULL);
        CHECK_STR(tab.funcs[1].file, "b.go");
    }
    gr_pclntab_free(&tab);
}

UNIT_CASES("pclntab", UNIT_CASE(go120_start_line_field), UNIT_CASE(go118_line_from_pcln_table),
           UNIT_CASE(go116_absolute_entries), UNIT_CASE(go12_flat_table),
           UNIT_CASE(text_start_from_text_section), UNIT_CASE(found_inside_data_rel_ro),
           UNIT_CASE(not_a_go_program), UNIT_CASE(function_count_too_large),
           UNIT_CASE(header_offset_outside), UNIT_CASE(corrupt_entry),
           UNIT_CASE(entries_out_of_order), UNIT_CASE(unknown_file_and_line));
