/* lief_check.c: an independent reader of gorewrite's output. LIEF (the ELF
 * library of the project's design card; gorewrite itself reads with
 * libelf) parses INPUT and OUTPUT, and what it finds is compared with what
 * gorewrite says it wrote (`--layout-report`, format/output_report_format.h):
 *
 *   lief_check REPORT [INPUT OUTPUT]     (paths default to the report's)
 *
 * - OUTPUT's entry point, program headers and section header counts are
 *   the report's;
 * - INPUT's program headers are all in OUTPUT, in order and unchanged,
 *   except PT_PHDR, which moved into the new code segment with the table;
 *   the new segments overlap none of INPUT's in memory or in the file;
 * - INPUT's section headers are all in OUTPUT, unchanged (.shstrtab only
 *   moved and grew), followed by the reported new sections, each the
 *   start of a new segment;
 * - .symtab is INPUT's, symbol by symbol, with the reported size and ends;
 * - the bytes of INPUT differ in OUTPUT only in the ELF header and in the
 *   reported patches, each inside an executable section of INPUT and a
 *   jmp rel32 into the new code section followed by int3 filler, and in
 *   the reported call sites, each a call or jmp rel32 that in INPUT goes
 *   to a patched entry and in OUTPUT to where that entry's jmp goes.
 * Exit 0 when all hold, else 1 with the first difference on stderr.
 * Exit 2 on a usage error or an unreadable file.
 *
 * LIEF 0.9's C API has no p_paddr; its segment `size` is the length of
 * the contents it copied (p_filesz), and so is its section `size`: 0 for a
 * .gorewrite.data (NOBITS) that runs past the end of the file, so sh_size
 * is read from `original_size`.
 * Its types.h defines `bool` as int for C: the symbol's two trailing bool
 * fields have C++ layout and are not read here. */
#include <LIEF/ELF.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/output_report_format.h"

#define EHDR_SIZE 64
#define PHDR_SIZE 56
#define JMP_REL32 0xe9
#define CALL_REL32 0xe8
#define INT3 0xcc

struct phdr {
    uint32_t type, flags;
    uint64_t offset, vaddr, paddr, filesz, memsz, align;
};

struct new_section {
    char *name;
    uint32_t type;
    uint64_t flags, addr, offset, size;
};

struct patch {
    uint64_t addr, len, off;   /* off: file offset, found from INPUT's sections */
    int call_site;             /* a call_site line: a retargeted call or jmp */
};

struct report {
    char *input, *output;
    uint64_t size, old_entry, entry, phoff, shoff;
    size_t phnum, shnum, shstrndx, nsections, nsymbols, npatches;
    size_t nfuncs, ninstrumented, nleft_out;
    int have_funcs;
    struct phdr *phdrs;
    struct new_section sections[2];
    char *sym_first, *sym_last;
    struct patch *patches;
    int ended;
};

struct file {
    const char *path;
    Elf_Binary_t *elf;
    uint8_t *bytes;
    size_t size;
};

static const char *output_path;

/* The first difference found: one line, then exit 1. */
static void __attribute__((noreturn, format(printf, 1, 2))) differ(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "lief_check: %s: ", output_path);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(1);
}

static void __attribute__((noreturn, format(printf, 1, 2))) fatal(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("lief_check: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(2);
}

/* Report parsing ------------------------------------------------------ */

static int hexval(int c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* A %XX-encoded field, decoded into a new string. */
static char *decode(const char *s, const char *what)
{
    char *out = malloc(strlen(s) + 1), *o = out;
    if (!out)
        fatal("out of memory");
    for (; *s; s++) {
        if (*s != '%') {
            *o++ = *s;
            continue;
        }
        if (hexval(s[1]) < 0 || hexval(s[2]) < 0)
            fatal("report: bad %%-escape in %s", what);
        *o++ = (char)(hexval(s[1]) * 16 + hexval(s[2]));
        s += 2;
    }
    *o = 0;
    return out;
}

static uint64_t number(const char *tok, const char *line)
{
    char *end;
    if (!tok)
        fatal("report: missing field in \"%s\"", line);
    uint64_t v = strtoull(tok, &end, 0);
    if (*end)
        fatal("report: bad number %s in \"%s\"", tok, line);
    return v;
}

/* The fields of a line after its key, split at spaces (in place). */
static size_t fields(char *rest, char **f, size_t max)
{
    size_t n = 0;
    for (char *t = strtok(rest, " "); t && n < max; t = strtok(NULL, " "))
        f[n++] = t;
    return n;
}

static void *grow(void *p, size_t n, size_t size)
{
    p = realloc(p, (n + 1) * size);
    if (!p)
        fatal("out of memory");
    return p;
}

static void parse_phdr(struct report *r, char **f, size_t n, const char *line)
{
    if (n != 8)
        fatal("report: phdr needs 8 fields: \"%s\"", line);
    r->phdrs = grow(r->phdrs, r->phnum, sizeof *r->phdrs);
    r->phdrs[r->phnum++] = (struct phdr){
        .type = (uint32_t)number(f[0], line), .flags = (uint32_t)number(f[1], line),
        .offset = number(f[2], line), .vaddr = number(f[3], line), .paddr = number(f[4], line),
        .filesz = number(f[5], line), .memsz = number(f[6], line), .align = number(f[7], line)};
}

static void parse_section(struct report *r, char **f, size_t n, const char *line)
{
    if (n != 6 || r->nsections == 2)
        fatal("report: bad section line \"%s\" (6 fields, 2 sections)", line);
    r->sections[r->nsections++] = (struct new_section){
        .name = decode(f[0], "a section name"), .type = (uint32_t)number(f[1], line),
        .flags = number(f[2], line), .addr = number(f[3], line), .offset = number(f[4], line),
        .size = number(f[5], line)};
}

static void parse_patch(struct report *r, char **f, size_t n, const char *line, int call_site)
{
    if (n != 2)
        fatal("report: patch needs 2 fields: \"%s\"", line);
    r->patches = grow(r->patches, r->npatches, sizeof *r->patches);
    r->patches[r->npatches++] = (struct patch){.addr = number(f[0], line), .len = number(f[1], line),
                                               .call_site = call_site};
}

/* Declared counts (phnum, patches) are checked against the lines read. */
static void parse_line(struct report *r, char *line, size_t *want_phnum, size_t *want_patches)
{
    char copy[256], *f[8];
    snprintf(copy, sizeof copy, "%s", line);
    char *key = line, *rest = strchr(line, ' ');
    if (rest)
        *rest++ = 0;
    size_t n = rest ? fields(rest, f, 8) : 0;
    if (strcmp(key, "end") == 0)
        r->ended = 1;
    else if (n == 0)
        fatal("report: line without fields: \"%s\"", copy);
    else if (strcmp(key, "input") == 0)
        r->input = decode(f[0], "input");
    else if (strcmp(key, "output") == 0)
        r->output = decode(f[0], "output");
    else if (strcmp(key, "size") == 0)
        r->size = number(f[0], copy);
    else if (strcmp(key, "entry") == 0 && n == 2) {
        r->old_entry = number(f[0], copy);
        r->entry = number(f[1], copy);
    } else if (strcmp(key, "phoff") == 0)
        r->phoff = number(f[0], copy);
    else if (strcmp(key, "phnum") == 0)
        *want_phnum = number(f[0], copy);
    else if (strcmp(key, "phdr") == 0)
        parse_phdr(r, f, n, copy);
    else if (strcmp(key, "shoff") == 0)
        r->shoff = number(f[0], copy);
    else if (strcmp(key, "shnum") == 0)
        r->shnum = number(f[0], copy);
    else if (strcmp(key, "shstrndx") == 0)
        r->shstrndx = number(f[0], copy);
    else if (strcmp(key, "section") == 0)
        parse_section(r, f, n, copy);
    else if (strcmp(key, "symtab") == 0)
        r->nsymbols = number(f[0], copy);
    else if (strcmp(key, "symtab_first") == 0)
        r->sym_first = decode(f[0], "symtab_first");
    else if (strcmp(key, "symtab_last") == 0)
        r->sym_last = decode(f[0], "symtab_last");
    else if (strcmp(key, "functions") == 0 && n == 3) {
        r->nfuncs = number(f[0], copy);
        r->ninstrumented = number(f[1], copy);
        r->nleft_out = number(f[2], copy);
        r->have_funcs = 1;
    } else if (strcmp(key, "patches") == 0)
        *want_patches = number(f[0], copy);
    else if (strcmp(key, "patch") == 0 || strcmp(key, "call_site") == 0)
        parse_patch(r, f, n, copy, strcmp(key, "call_site") == 0);
    else
        fatal("report: unknown line \"%s\"", copy);
}

static void read_report(const char *path, struct report *r)
{
    FILE *f = fopen(path, "r");
    if (!f)
        fatal("%s: cannot open the layout report", path);
    char *line = NULL;
    size_t cap = 0, lineno = 0, want_phnum = 0, want_patches = 0;
    ssize_t len;
    while ((len = getline(&line, &cap, f)) > 0 && !r->ended) {
        if (line[len - 1] == '\n')
            line[--len] = 0;
        if (lineno++ == 0) {
            if (strcmp(line, GS_OUTPUT_REPORT_MAGIC) != 0)
                fatal("%s: not a layout report (first line \"%s\")", path, line);
            continue;
        }
        parse_line(r, line, &want_phnum, &want_patches);
    }
    free(line);
    fclose(f);
    if (!r->ended || !r->input || !r->output || !r->sym_first || !r->sym_last || !r->have_funcs)
        fatal("%s: layout report incomplete (no end line or a record missing)", path);
    if (r->phnum != want_phnum || r->npatches != want_patches || r->nsections != 2)
        fatal("%s: report lists %zu phdr (says %zu), %zu patch (says %zu), %zu sections (want 2)",
              path, r->phnum, want_phnum, r->npatches, want_patches, r->nsections);
    if (r->ninstrumented + r->nleft_out > r->nfuncs)
        fatal("%s: report says %zu functions, %zu instrumented and %zu left out", path, r->nfuncs,
              r->ninstrumented, r->nleft_out);
}

/* Files ----------------------------------------------------------------- */

static void load(struct file *fl, const char *path)
{
    fl->path = path;
    FILE *f = fopen(path, "rb");
    if (!f || fseek(f, 0, SEEK_END) != 0)
        fatal("%s: cannot open", path);
    long size = ftell(f);
    fl->size = size > 0 ? (size_t)size : 0;
    fl->bytes = malloc(fl->size ? fl->size : 1);
    rewind(f);
    if (!fl->bytes || fread(fl->bytes, 1, fl->size, f) != fl->size)
        fatal("%s: cannot read", path);
    fclose(f);
    fl->elf = elf_parse(path);
    if (!fl->elf || !fl->elf->segments || !fl->elf->sections)
        fatal("%s: LIEF could not parse it", path);
}

static size_t count(void **list)
{
    size_t n = 0;
    while (list && list[n])
        n++;
    return n;
}

/* Header and segments ----------------------------------------------------- */

/* Fields of the ELF header gorewrite has no reason to change. */
static void check_header_kept(const Elf_Header_t *a, const Elf_Header_t *b)
{
    if (memcmp(a->identity, b->identity, sizeof a->identity) != 0 || a->file_type != b->file_type ||
        a->machine_type != b->machine_type || a->object_file_version != b->object_file_version ||
        a->processor_flags != b->processor_flags || a->header_size != b->header_size ||
        a->program_header_size != b->program_header_size ||
        a->section_header_size != b->section_header_size)
        differ("ELF header: identity, type, machine, version, flags or entry sizes differ from "
               "INPUT's (type %u machine %u flags 0x%x)", (unsigned)b->file_type,
               (unsigned)b->machine_type, b->processor_flags);
}

static void check_header(const struct report *r, const struct file *in, const struct file *out)
{
    const Elf_Header_t *h = &out->elf->header;
    check_header_kept(&in->elf->header, h);
    if (in->elf->header.entrypoint != r->old_entry)
        differ("INPUT's entry point is 0x%llx, the report says 0x%llx",
               (unsigned long long)in->elf->header.entrypoint, (unsigned long long)r->old_entry);
    if (h->entrypoint != r->entry)
        differ("entry point 0x%llx, the report says 0x%llx", (unsigned long long)h->entrypoint,
               (unsigned long long)r->entry);
    if (h->program_headers_offset != r->phoff || h->numberof_segments != r->phnum)
        differ("program headers at 0x%llx (%u), the report says 0x%llx (%zu)",
               (unsigned long long)h->program_headers_offset, h->numberof_segments,
               (unsigned long long)r->phoff, r->phnum);
    if (h->section_headers_offset != r->shoff || h->numberof_sections != r->shnum ||
        h->name_string_table_idx != r->shstrndx)
        differ("section headers at 0x%llx (%u, names in %u), the report says 0x%llx (%zu, %zu)",
               (unsigned long long)h->section_headers_offset, h->numberof_sections,
               h->name_string_table_idx, (unsigned long long)r->shoff, r->shnum, r->shstrndx);
    if (out->size != r->size)
        differ("file is %zu bytes, the report says %llu", out->size, (unsigned long long)r->size);
}

static int same_segment(const Elf_Segment_t *a, const Elf_Segment_t *b)
{
    return a->type == b->type && a->flags == b->flags && a->virtual_address == b->virtual_address &&
           a->virtual_size == b->virtual_size && a->offset == b->offset &&
           a->alignment == b->alignment && a->size == b->size;
}

static void check_reported_segments(const struct report *r, const struct file *out)
{
    Elf_Segment_t **seg = out->elf->segments;
    if (count((void **)seg) != r->phnum)
        differ("LIEF reads %zu program headers, the report says %zu", count((void **)seg), r->phnum);
    for (size_t i = 0; i < r->phnum; i++) {
        const struct phdr *p = &r->phdrs[i];
        const Elf_Segment_t *s = seg[i];
        if ((uint32_t)s->type != p->type || s->flags != p->flags || s->offset != p->offset ||
            s->virtual_address != p->vaddr || s->size != p->filesz ||
            s->virtual_size != p->memsz || s->alignment != p->align)
            differ("program header %zu is type 0x%x flags 0x%x offset 0x%llx vaddr 0x%llx filesz "
                   "0x%llx memsz 0x%llx align 0x%llx; the report says 0x%x 0x%x 0x%llx 0x%llx "
                   "0x%llx 0x%llx 0x%llx", i, (unsigned)s->type, s->flags,
                   (unsigned long long)s->offset, (unsigned long long)s->virtual_address,
                   (unsigned long long)s->size, (unsigned long long)s->virtual_size,
                   (unsigned long long)s->alignment, p->type, p->flags,
                   (unsigned long long)p->offset, (unsigned long long)p->vaddr,
                   (unsigned long long)p->filesz, (unsigned long long)p->memsz,
                   (unsigned long long)p->align);
    }
}

/* Index of the new section starting at s (a new PT_LOAD), or -1. */
static int new_segment_of(const struct report *r, const Elf_Segment_t *s)
{
    for (int k = 0; k < 2; k++)
        if (s->type == LIEF_ELF_PT_LOAD && s->virtual_address == r->sections[k].addr)
            return k;
    return -1;
}

static int overlap(uint64_t a, uint64_t alen, uint64_t b, uint64_t blen)
{
    return alen && blen && a < b + blen && b < a + alen;
}

/* A new PT_LOAD shares no memory with INPUT's, and its file bytes come
 * after all of INPUT's. */
static void check_new_segment(const Elf_Segment_t *s, const struct file *in)
{
    for (Elf_Segment_t **o = in->elf->segments; *o; o++)
        if ((*o)->type == LIEF_ELF_PT_LOAD &&
            overlap(s->virtual_address, s->virtual_size, (*o)->virtual_address, (*o)->virtual_size))
            differ("new segment at 0x%llx overlaps INPUT's PT_LOAD at 0x%llx in memory",
                   (unsigned long long)s->virtual_address, (unsigned long long)(*o)->virtual_address);
    if (s->size && s->offset < in->size)
        differ("new segment at 0x%llx has file offset 0x%llx, inside INPUT's %zu bytes",
               (unsigned long long)s->virtual_address, (unsigned long long)s->offset, in->size);
}

/* The moved PT_PHDR covers exactly the table, inside the new code segment. */
static void check_moved_phdr(const Elf_Segment_t *ph, const struct report *r, const struct file *out)
{
    uint64_t table = (uint64_t)out->elf->header.numberof_segments * PHDR_SIZE;
    if (ph->offset != out->elf->header.program_headers_offset || ph->size != table ||
        ph->virtual_size != table)
        differ("PT_PHDR covers offset 0x%llx size 0x%llx, the table is at 0x%llx size 0x%llx",
               (unsigned long long)ph->offset, (unsigned long long)ph->size,
               (unsigned long long)out->elf->header.program_headers_offset, (unsigned long long)table);
    const struct new_section *text = &r->sections[1];
    if (ph->virtual_address < text->addr || ph->virtual_address + table > text->addr + text->size ||
        ph->virtual_address - text->addr != ph->offset - text->offset)
        differ("PT_PHDR at 0x%llx is not mapped from its offset inside %s",
               (unsigned long long)ph->virtual_address, text->name);
}

/* OUTPUT's program headers = INPUT's in order, plus the two new PT_LOADs. */
static void check_input_segments(const struct report *r, const struct file *in, const struct file *out)
{
    Elf_Segment_t **is = in->elf->segments, **os = out->elf->segments;
    size_t i = 0, added = 0;
    for (size_t j = 0; os[j]; j++) {
        if (new_segment_of(r, os[j]) >= 0) {
            check_new_segment(os[j], in);
            added++;
            continue;
        }
        if (!is[i])
            differ("program header %zu (type 0x%x at 0x%llx) is neither INPUT's nor new", j,
                   (unsigned)os[j]->type, (unsigned long long)os[j]->virtual_address);
        if (is[i]->type == LIEF_ELF_PT_PHDR && os[j]->type == LIEF_ELF_PT_PHDR)
            check_moved_phdr(os[j], r, out);
        else if (!same_segment(is[i], os[j]))
            differ("program header %zu (type 0x%x at 0x%llx) differs from INPUT's %zu (type 0x%x "
                   "at 0x%llx)", j, (unsigned)os[j]->type, (unsigned long long)os[j]->virtual_address,
                   i, (unsigned)is[i]->type, (unsigned long long)is[i]->virtual_address);
        i++;
    }
    if (is[i] || added != 2)
        differ("%zu of INPUT's %zu program headers kept and %zu new PT_LOADs (want all, and 2)", i,
               count((void **)is), added);
}

/* Sections ------------------------------------------------------------------- */

static void check_section_kept(size_t i, const Elf_Section_t *a, const Elf_Section_t *b, int names)
{
    if (strcmp(a->name, b->name) != 0 || a->type != b->type || a->flags != b->flags ||
        a->virtual_address != b->virtual_address || a->link != b->link || a->info != b->info ||
        a->alignment != b->alignment || a->entry_size != b->entry_size)
        differ("section %zu is %s type 0x%x flags 0x%x addr 0x%llx; INPUT's is %s 0x%x 0x%x 0x%llx",
               i, b->name, (unsigned)b->type, b->flags, (unsigned long long)b->virtual_address,
               a->name, (unsigned)a->type, a->flags, (unsigned long long)a->virtual_address);
    if (names ? b->original_size < a->original_size
              : b->original_size != a->original_size || b->offset != a->offset)
        differ("section %zu (%s) is at 0x%llx size 0x%llx; INPUT's at 0x%llx size 0x%llx", i, a->name,
               (unsigned long long)b->offset, (unsigned long long)b->original_size,
               (unsigned long long)a->offset, (unsigned long long)a->original_size);
}

static void check_new_section(const struct report *r, size_t k, const Elf_Section_t *s)
{
    const struct new_section *w = &r->sections[k];
    if (strcmp(s->name, w->name) != 0 || (uint32_t)s->type != w->type || s->flags != w->flags ||
        s->virtual_address != w->addr || s->offset != w->offset || s->original_size != w->size)
        differ("new section %s type 0x%x flags 0x%x addr 0x%llx offset 0x%llx size 0x%llx; the "
               "report says %s 0x%x 0x%llx 0x%llx 0x%llx 0x%llx", s->name, (unsigned)s->type,
               s->flags, (unsigned long long)s->virtual_address, (unsigned long long)s->offset,
               (unsigned long long)s->original_size, w->name, w->type,
               (unsigned long long)w->flags, (unsigned long long)w->addr,
               (unsigned long long)w->offset, (unsigned long long)w->size);
}

static void check_sections(const struct report *r, const struct file *in, const struct file *out)
{
    Elf_Section_t **is = in->elf->sections, **os = out->elf->sections;
    size_t n = count((void **)is), m = count((void **)os);
    if (m != n + 2 || m != r->shnum)
        differ("LIEF reads %zu section headers; INPUT has %zu, the report says %zu", m, n, r->shnum);
    if (out->elf->header.name_string_table_idx != in->elf->header.name_string_table_idx)
        differ("section names are in section %u, INPUT's in %u",
               out->elf->header.name_string_table_idx, in->elf->header.name_string_table_idx);
    for (size_t i = 0; i < n; i++)
        check_section_kept(i, is[i], os[i], i == in->elf->header.name_string_table_idx);
    for (size_t k = 0; k < 2; k++)
        check_new_section(r, k, os[n + k]);
}

/* Symbols ------------------------------------------------------------------------ */

static int same_symbol(const Elf_Symbol_t *a, const Elf_Symbol_t *b)
{
    return strcmp(a->name, b->name) == 0 && a->type == b->type && a->binding == b->binding &&
           a->information == b->information && a->other == b->other && a->shndx == b->shndx &&
           a->value == b->value && a->size == b->size;
}

static void check_symbols(const struct report *r, const struct file *in, const struct file *out)
{
    Elf_Symbol_t **is = in->elf->static_symbols, **os = out->elf->static_symbols;
    size_t n = count((void **)is), m = count((void **)os);
    if (n != r->nsymbols || m != n)
        differ(".symtab has %zu symbols, INPUT's %zu, the report says %zu", m, n, r->nsymbols);
    for (size_t i = 0; i < n; i++)
        if (!same_symbol(is[i], os[i]))
            differ("symbol %zu is %s = 0x%llx size %llu; INPUT's is %s = 0x%llx size %llu", i,
                   os[i]->name, (unsigned long long)os[i]->value, (unsigned long long)os[i]->size,
                   is[i]->name, (unsigned long long)is[i]->value, (unsigned long long)is[i]->size);
    const char *first = n > 1 ? os[1]->name : "", *last = n > 1 ? os[n - 1]->name : "";
    if (strcmp(first, r->sym_first) != 0 || strcmp(last, r->sym_last) != 0)
        differ(".symtab runs from %s to %s, the report says %s to %s", first, last, r->sym_first,
               r->sym_last);
}

/* Patched bytes -------------------------------------------------------------------- */

/* The executable section of INPUT holding [addr, addr+len), or NULL. */
static const Elf_Section_t *code_section(const struct file *in, uint64_t addr, uint64_t len)
{
    for (Elf_Section_t **s = in->elf->sections; *s; s++)
        if (((*s)->flags & LIEF_ELF_SHF_EXECINSTR) && (*s)->type != LIEF_ELF_SHT_NOBITS &&
            addr >= (*s)->virtual_address &&
            addr + len <= (*s)->virtual_address + (*s)->original_size)
            return *s;
    return NULL;
}

/* Where the rel32 of the 5-byte jmp or call at addr (bytes b) leads. */
static uint64_t rel32_target(uint64_t addr, const uint8_t *b)
{
    int32_t rel;
    memcpy(&rel, b + 1, 4);
    return addr + 5 + (uint64_t)(int64_t)rel;
}

/* Sets p->off from INPUT's sections. */
static void locate_patch(struct patch *p, const struct file *in)
{
    const Elf_Section_t *s = code_section(in, p->addr, p->len);
    if (!s)
        differ("patch at 0x%llx (%llu bytes) is not inside an executable section of INPUT",
               (unsigned long long)p->addr, (unsigned long long)p->len);
    p->off = p->addr - s->virtual_address + s->offset;
    if (p->len < 5 || p->off + p->len > in->size)
        differ("patch at 0x%llx: %llu bytes (want >= 5, inside INPUT)", (unsigned long long)p->addr,
               (unsigned long long)p->len);
}

static void check_patch(const struct patch *p, const struct report *r, const struct file *out)
{
    const uint8_t *b = out->bytes + p->off;
    uint64_t target = rel32_target(p->addr, b);
    const struct new_section *text = &r->sections[1];
    if (b[0] != JMP_REL32 || target < text->addr || target >= text->addr + text->size)
        differ("patch at 0x%llx is not a jmp into %s (bytes %02x..., target 0x%llx)",
               (unsigned long long)p->addr, text->name, b[0], (unsigned long long)target);
    for (uint64_t k = 5; k < p->len; k++)
        if (b[k] != INT3)
            differ("patch at 0x%llx: byte %llu is 0x%02x, want int3 filler",
                   (unsigned long long)p->addr, (unsigned long long)k, b[k]);
}

static int by_addr(const void *a, const void *b)
{
    const struct patch *x = a, *y = b;
    return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* A call site: in INPUT a call or jmp rel32 to the entry of a function
 * that has a patch; in OUTPUT the same instruction, now aimed where that
 * patch's jmp leads (its trampoline). entries: the jmp patches, by addr. */
static void check_call_site(const struct patch *p, const struct patch *entries, size_t nentries,
                            const struct file *in, const struct file *out)
{
    const uint8_t *was = in->bytes + p->off, *now = out->bytes + p->off;
    if (p->len != 5 || (was[0] != CALL_REL32 && was[0] != JMP_REL32) || now[0] != was[0])
        differ("call site at 0x%llx: %llu bytes %02x -> %02x, want a call or jmp rel32 kept",
               (unsigned long long)p->addr, (unsigned long long)p->len, was[0], now[0]);
    struct patch key = {.addr = rel32_target(p->addr, was)};
    const struct patch *entry = bsearch(&key, entries, nentries, sizeof key, by_addr);
    if (!entry)
        differ("call site at 0x%llx: INPUT's target 0x%llx is no patched entry",
               (unsigned long long)p->addr, (unsigned long long)key.addr);
    uint64_t want = rel32_target(entry->addr, out->bytes + entry->off);
    if (rel32_target(p->addr, now) != want)
        differ("call site at 0x%llx leads to 0x%llx, its callee's entry jmp to 0x%llx",
               (unsigned long long)p->addr, (unsigned long long)rel32_target(p->addr, now),
               (unsigned long long)want);
}

static int by_offset(const void *a, const void *b)
{
    const struct patch *x = a, *y = b;
    return x->off < y->off ? -1 : x->off > y->off;
}

/* INPUT's bytes are in OUTPUT unchanged outside the ELF header and the
 * (sorted, disjoint) patches. */
static void check_unpatched(const struct report *r, const struct file *in, const struct file *out)
{
    if (out->size < in->size)
        differ("file is %zu bytes, shorter than INPUT's %zu", out->size, in->size);
    uint64_t from = EHDR_SIZE;
    for (size_t i = 0; i <= r->npatches; i++) {
        uint64_t to = i < r->npatches ? r->patches[i].off : in->size;
        if (to < from && i == 0)
            differ("patch at 0x%llx overlaps the ELF header", (unsigned long long)r->patches[0].addr);
        if (to < from)
            differ("patches at 0x%llx and 0x%llx overlap", (unsigned long long)r->patches[i - 1].addr,
                   (unsigned long long)r->patches[i].addr);
        if (memcmp(in->bytes + from, out->bytes + from, to - from) != 0) {
            uint64_t k = from;
            while (in->bytes[k] == out->bytes[k])
                k++;
            differ("byte at file offset 0x%llx differs from INPUT's outside any reported patch",
                   (unsigned long long)k);
        }
        if (i < r->npatches)
            from = to + r->patches[i].len;
    }
}

static void check_patches(struct report *r, const struct file *in, const struct file *out)
{
    struct patch *entries = calloc(r->npatches + 1, sizeof *entries);
    size_t nentries = 0;
    if (!entries)
        fatal("out of memory");
    for (size_t i = 0; i < r->npatches; i++) {
        locate_patch(&r->patches[i], in);
        if (!r->patches[i].call_site) {
            check_patch(&r->patches[i], r, out);
            entries[nentries++] = r->patches[i];
        }
    }
    qsort(entries, nentries, sizeof *entries, by_addr);
    for (size_t i = 0; i < r->npatches; i++)
        if (r->patches[i].call_site)
            check_call_site(&r->patches[i], entries, nentries, in, out);
    free(entries);
    qsort(r->patches, r->npatches, sizeof *r->patches, by_offset);
    check_unpatched(r, in, out);
}

int main(int argc, char **argv)
{
    if (argc != 2 && argc != 4)
        fatal("usage: lief_check REPORT [INPUT OUTPUT]");
    /* static: reachable until exit, whichever check exits (LeakSanitizer) */
    static struct report r;
    static struct file in, out;
    read_report(argv[1], &r);
    output_path = argc == 4 ? argv[3] : r.output;
    load(&in, argc == 4 ? argv[2] : r.input);
    load(&out, output_path);
    check_header(&r, &in, &out);
    check_reported_segments(&r, &out);
    check_input_segments(&r, &in, &out);
    check_sections(&r, &in, &out);
    check_symbols(&r, &in, &out);
    check_patches(&r, &in, &out);
    printf("lief_check: %s: %zu program headers, %zu sections, %zu symbols, %zu patches as "
           "reported\n", output_path, r.phnum, r.shnum, r.nsymbols, r.npatches);
    elf_binary_destroy(in.elf);
    elf_binary_destroy(out.elf);
    return 0;
}
