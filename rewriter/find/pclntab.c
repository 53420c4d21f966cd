/* pclntab.c: finds and decodes Go's pclntab. Supports the header formats
 * of Go 1.2-1.15 (magic 0xfffffffb), 1.16-1.17 (0xfffffffa), 1.18-1.19
 * (0xfffffff0) and 1.20 on (0xfffffff1). References: runtime/symtab.go,
 * debug/gosym/pclntab.go (of the Go release in question).
 * Every offset read from the table is checked against the table's size:
 * the input is untrusted. */
#include "rewriter/find/pclntab.h"

#include "rewriter/find/go_version.h"
#include "rewriter/find/runtime_offsets.h"

#include <stdlib.h>
#include <string.h>

#define MAGIC_GO12 0xfffffffbu
#define MAGIC_GO116 0xfffffffau
#define MAGIC_GO118 0xfffffff0u
#define MAGIC_GO120 0xfffffff1u

/* A bounded view of the table's bytes. */
struct span {
    const uint8_t *p;
    uint64_t size;
};

/* Where each format puts the header's, function table's and _func's fields. */
struct pcln_format {
    int go12;                 /* Go 1.2-1.15: one flat table, offsets from its start */
    int word_functab;         /* functab entries are 2 x uintptr (Go <= 1.17) */
    int has_text_start;
    unsigned func_name_off;   /* offsets inside _func */
    unsigned func_pcfile_off;
    unsigned func_pcln_off;
    int func_cu_off;          /* -1: absent (one file table for all) */
    int func_start_line_off;  /* -1: absent */
    unsigned func_size;
};

static const struct pcln_format format_go12 = {1, 1, 0, 8, 24, 28, -1, -1, 40};
static const struct pcln_format format_go116 = {0, 1, 0, 8, 24, 28, 36, -1, 44};
static const struct pcln_format format_go118 = {0, 0, 1, 4, 20, 24, 32, -1, 40};
static const struct pcln_format format_go120 = {0, 0, 1, 4, 20, 24, 32, 36, 44};

static int span_u32(struct span s, uint64_t off, uint32_t *v)
{
    if (off > s.size || s.size - off < 4)
        return -1;
    memcpy(v, s.p + off, 4);
    return 0;
}

static int span_u64(struct span s, uint64_t off, uint64_t *v)
{
    if (off > s.size || s.size - off < 8)
        return -1;
    memcpy(v, s.p + off, 8);
    return 0;
}

/* A NUL-terminated string at off, or NULL. */
static const char *span_str(struct span s, uint64_t off)
{
    if (off >= s.size)
        return NULL;
    if (!memchr(s.p + off, 0, s.size - off))
        return NULL;
    return (const char *)s.p + off;
}

static int read_uvarint(struct span s, uint64_t *off, uint32_t *v)
{
    uint32_t result = 0;
    for (unsigned shift = 0; shift < 35; shift += 7) {
        if (*off >= s.size)
            return -1;
        uint8_t b = s.p[(*off)++];
        result |= (uint32_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) {
            *v = result;
            return 0;
        }
    }
    return -1;
}

/* The value a pc-value table holds at the function's entry: the first
 * (value delta, pc delta) pair applies from the entry on. */
static int pcvalue_at_entry(struct span pctab, uint32_t table_off, int32_t *value)
{
    uint64_t off = table_off;
    uint32_t uv;
    if (table_off == 0 || read_uvarint(pctab, &off, &uv) < 0)
        return -1;
    int32_t delta = (uv & 1) ? -(int32_t)((uv + 1) >> 1) : (int32_t)(uv >> 1);
    *value = -1 + delta;
    return 0;
}

static int is_header_at(const uint8_t *p, uint64_t avail)
{
    uint32_t magic;
    if (avail < 72)
        return 0;
    memcpy(&magic, p, 4);
    if (magic != MAGIC_GO116 && magic != MAGIC_GO118 && magic != MAGIC_GO120 && magic != MAGIC_GO12)
        return 0;
    return p[4] == 0 && p[5] == 0 && p[6] == 1 && p[7] == 8;
}

/* pclntab is .gopclntab in most executables; externally linked PIE has no
 * such section and keeps it inside .data.rel.ro. */
static int locate(const struct gr_elf *elf, struct span *s, uint64_t *addr)
{
    static const char *named[] = {".gopclntab", ".data.rel.ro.gopclntab"};
    for (size_t i = 0; i < 2; i++) {
        const struct gr_section *sec = gr_elf_section(elf, named[i]);
        if (sec && sec->type != 8 /* SHT_NOBITS */ && is_header_at(elf->data + sec->offset, sec->size)) {
            *s = (struct span){elf->data + sec->offset, sec->size};
            *addr = sec->addr;
            return 0;
        }
    }
    static const char *containers[] = {".data.rel.ro", ".rodata"};
    for (size_t i = 0; i < 2; i++) {
        const struct gr_section *sec = gr_elf_section(elf, containers[i]);
        if (!sec || sec->type == 8)
            continue;
        for (uint64_t off = 0; off + 72 <= sec->size; off += 8)
            if (is_header_at(elf->data + sec->offset + off, sec->size - off)) {
                *s = (struct span){elf->data + sec->offset + off, sec->size - off};
                *addr = sec->addr + off;
                return 0;
            }
    }
    return -1;
}

/* functab holds the (entry, _func offset) pairs; funcdata is the base of
 * those offsets (the same span except in Go <= 1.15). cutab maps a file
 * number to an offset in filetab, the file names. */
struct tables {
    struct span all, funcnames, cutab, filetab, pctab, functab, funcdata;
    const struct pcln_format *fmt;
    uint64_t nfunc;
    uint64_t text_start;
};

static int sub_span(struct span all, uint64_t off, struct span *out)
{
    if (off > all.size)
        return -1;
    *out = (struct span){all.p + off, all.size - off};
    return 0;
}

/* Go 1.2-1.15 (debug/gosym go12Init): nfunctab, then the functab right
 * after the header, then the file table's offset; every other offset is
 * from the table's start. */
static int read_header_go12(const struct gr_elf *elf, struct tables *t, struct gr_error *err)
{
    uint32_t fileoff;
    if (span_u64(t->all, 8, &t->nfunc) < 0)
        return gr_fail(err, "%s: pclntab header truncated", elf->path);
    if (t->nfunc == 0 || t->nfunc > t->all.size / 16)
        return gr_fail(err, "%s: pclntab function count %llu does not fit the table",
                       elf->path, (unsigned long long)t->nfunc);
    uint64_t functab_size = t->nfunc * 16 + 8;
    if (sub_span(t->all, 16, &t->functab) < 0 || span_u32(t->functab, functab_size, &fileoff) < 0 ||
        sub_span(t->all, fileoff, &t->cutab) < 0)
        return gr_fail(err, "%s: pclntab header offsets point outside the table", elf->path);
    t->funcnames = t->filetab = t->pctab = t->funcdata = t->all;
    return 0;
}

/* The base of function offsets (Go >= 1.18). pcHeader.textStart, which a
 * relative relocation fills in PIE; Go 1.26+ writes 0 there and keeps it
 * only in moduledata.text (the .go.module section: moduledata.text's
 * offset is the release's, gr_offsets_md_text_for, which the decision
 * checks, md_text_used); then runtime.text; last the .text section (right
 * only for Go's internal linker: gcc puts C start-up code first). */
static uint64_t text_start(const struct gr_elf *elf, uint64_t field_addr, struct gr_pclntab *tab)
{
    uint64_t v = 0;
    if (gr_elf_read_addr(elf, field_addr, &v) == 0 && v)
        return v;
    const struct gr_section *mod = gr_elf_section(elf, ".go.module");
    char version[32];
    gr_go_version(elf, version, sizeof version);
    struct gr_go_release rel = gr_go_release(version);
    uint32_t md_text = gr_offsets_md_text_for(rel.minor, rel.devel);
    if (mod && mod->size >= md_text + 8 && gr_elf_read_addr(elf, mod->addr + md_text, &v) == 0 && v) {
        tab->md_text_used = md_text;
        return v;
    }
    if (elf->text_sym)
        return elf->text_sym;
    const struct gr_section *text = gr_elf_section(elf, ".text");
    return text ? text->addr : 0;
}

static int read_header(const struct gr_elf *elf, struct tables *t, struct gr_pclntab *tab,
                       struct gr_error *err)
{
    if (t->fmt->go12)
        return read_header_go12(elf, t, err);
    uint64_t w[8];
    for (unsigned i = 0; i < 8; i++)
        if (span_u64(t->all, 8 + 8 * (uint64_t)i, &w[i]) < 0)
            return gr_fail(err, "%s: pclntab header truncated", elf->path);
    unsigned k = 2;                      /* after nfunc, nfiles */
    t->nfunc = w[0];
    t->text_start = t->fmt->has_text_start ? w[k++] : 0;
    uint64_t funcname = w[k], cu = w[k + 1], filetab = w[k + 2], pctab = w[k + 3], pcln = w[k + 4];
    if (sub_span(t->all, funcname, &t->funcnames) < 0 || sub_span(t->all, cu, &t->cutab) < 0 ||
        sub_span(t->all, filetab, &t->filetab) < 0 || sub_span(t->all, pctab, &t->pctab) < 0 ||
        sub_span(t->all, pcln, &t->functab) < 0)
        return gr_fail(err, "%s: pclntab header offsets point outside the table", elf->path);
    t->funcdata = t->functab;
    uint64_t entry_size = t->fmt->word_functab ? 16 : 8;
    if (t->nfunc == 0 || t->nfunc > t->functab.size / entry_size - 1)
        return gr_fail(err, "%s: pclntab function count %llu does not fit the table",
                       elf->path, (unsigned long long)t->nfunc);
    if (t->fmt->has_text_start)
        t->text_start = text_start(elf, tab->addr + 8 + 8 * 2, tab);
    tab->text_start = t->text_start;
    return 0;
}

static int functab_entry(const struct tables *t, uint64_t i, uint64_t *entry, uint64_t *funcoff)
{
    if (t->fmt->word_functab)
        return span_u64(t->functab, i * 16, entry) | span_u64(t->functab, i * 16 + 8, funcoff);
    uint32_t e, f;
    if (span_u32(t->functab, i * 8, &e) < 0 || span_u32(t->functab, i * 8 + 4, &f) < 0)
        return -1;
    *entry = t->text_start + e;
    *funcoff = f;
    return 0;
}

static const char *file_name(const struct tables *t, uint32_t cu_off, int32_t fileno)
{
    uint32_t name_off;
    if (fileno < 0 || span_u32(t->cutab, 4 * ((uint64_t)cu_off + (uint64_t)fileno), &name_off) < 0 ||
        name_off == UINT32_MAX)
        return NULL;
    return span_str(t->filetab, name_off);
}

static int decode_func(const struct tables *t, uint64_t funcoff, struct gr_pcln_func *f)
{
    const struct pcln_format *l = t->fmt;
    if (funcoff > t->funcdata.size || t->funcdata.size - funcoff < l->func_size)
        return -1;
    const uint8_t *p = t->funcdata.p + funcoff;
    uint32_t nameoff, pcfile, pcln, cu = 0;
    memcpy(&nameoff, p + l->func_name_off, 4);
    memcpy(&f->args, p + l->func_name_off + 4, 4); /* args follows nameoff in every format */
    memcpy(&pcfile, p + l->func_pcfile_off, 4);
    memcpy(&pcln, p + l->func_pcln_off, 4);
    if (l->func_cu_off >= 0)
        memcpy(&cu, p + l->func_cu_off, 4);
    f->pcfile = pcfile;
    f->pcln = pcln;
    f->cu = cu;
    f->name = span_str(t->funcnames, nameoff);
    if (!f->name)
        return -1;
    int32_t line = 0, fileno = -1;
    if (l->func_start_line_off >= 0)
        memcpy(&line, p + l->func_start_line_off, 4);
    else if (pcvalue_at_entry(t->pctab, pcln, &line) < 0)
        line = 0;
    f->line = line > 0 ? (uint32_t)line : 0;
    if (pcvalue_at_entry(t->pctab, pcfile, &fileno) == 0)
        f->file = file_name(t, cu, fileno);
    return 0;
}

static int read_funcs(const struct gr_elf *elf, const struct tables *t, struct gr_pclntab *tab,
                      struct gr_error *err)
{
    tab->funcs = calloc(t->nfunc, sizeof *tab->funcs);
    if (!tab->funcs)
        return gr_fail(err, "%s: out of memory for %llu functions", elf->path,
                       (unsigned long long)t->nfunc);
    for (uint64_t i = 0; i < t->nfunc; i++) {
        struct gr_pcln_func *f = &tab->funcs[i];
        uint64_t funcoff, next_entry, unused;
        if (functab_entry(t, i, &f->entry, &funcoff) < 0 ||
            functab_entry(t, i + 1, &next_entry, &unused) < 0 || decode_func(t, funcoff, f) < 0)
            return gr_fail(err, "%s: pclntab entry %llu is corrupt", elf->path,
                           (unsigned long long)i);
        /* equal entries: aliases (race builds list ThreadSanitizer's C
         * functions, some under two names); the first gets size 0 */
        if (next_entry < f->entry || (i > 0 && f->entry < tab->funcs[i - 1].end))
            return gr_fail(err, "%s: pclntab functions are not in address order at entry %llu",
                           elf->path, (unsigned long long)i);
        f->end = next_entry;
        f->funcoff = funcoff;
        tab->nfuncs = i + 1;
    }
    return 0;
}

int gr_pclntab_read(const struct gr_elf *elf, struct gr_pclntab *tab, struct gr_error *err)
{
    memset(tab, 0, sizeof *tab);
    struct tables t;
    memset(&t, 0, sizeof t);
    if (locate(elf, &t.all, &tab->addr) < 0)
        return gr_fail(err, "%s: not a Go program (no pclntab found)", elf->path);
    memcpy(&tab->magic, t.all.p, 4);
    switch (tab->magic) {
    case MAGIC_GO12: t.fmt = &format_go12; break;    /* Go 1.2-1.15 */
    case MAGIC_GO116: t.fmt = &format_go116; break;  /* Go 1.16-1.17 */
    case MAGIC_GO118: t.fmt = &format_go118; break;  /* Go 1.18-1.19 */
    case MAGIC_GO120: t.fmt = &format_go120; break;  /* Go 1.20 and later */
    default:
        return gr_fail(err, "%s: unknown pclntab magic 0x%x", elf->path, tab->magic);
    }
    if (read_header(elf, &t, tab, err) < 0 || read_funcs(elf, &t, tab, err) < 0) {
        gr_pclntab_free(tab);
        return -1;
    }
    tab->pctab = t.pctab.p;
    tab->pctab_size = t.pctab.size;
    tab->cutab = t.cutab.p;
    tab->cutab_size = t.cutab.size;
    tab->filetab = t.filetab.p;
    tab->filetab_size = t.filetab.size;
    tab->funcdata_addr = tab->addr + (uint64_t)(t.funcdata.p - t.all.p);
    tab->functab_addr = tab->addr + (uint64_t)(t.functab.p - t.all.p);
    tab->size = t.all.size;
    /* funcnametab is first, cutab right after it (cmd/link pcln.go) */
    if (!t.fmt->go12 && t.cutab.p > t.funcnames.p) {
        tab->funcnames = t.funcnames.p;
        tab->funcnames_size = (uint64_t)(t.cutab.p - t.funcnames.p);
        tab->funcnames_addr = tab->addr + (uint64_t)(t.funcnames.p - t.all.p);
    }
    return 0;
}

/* The value table_off holds at pc (runtime/symtab.go pcvalue and step:
 * pairs of a zig-zag value delta and a pc delta, the value applying up to
 * the pc reached; a zero value delta after the first ends the table). */
static int pcvalue_at(struct span pctab, uint32_t table_off, uint64_t entry, uint64_t pc,
                      int32_t *value)
{
    uint64_t off = table_off, at = entry;
    int32_t val = -1;
    if (table_off == 0)
        return -1;
    for (int first = 1;; first = 0) {
        uint32_t uv, pcdelta;
        if (read_uvarint(pctab, &off, &uv) < 0 || (uv == 0 && !first))
            return -1;
        val += (uv & 1) ? -(int32_t)((uv + 1) >> 1) : (int32_t)(uv >> 1);
        if (read_uvarint(pctab, &off, &pcdelta) < 0)
            return -1;
        at += pcdelta;
        if (pc < at) {
            *value = val;
            return 0;
        }
    }
}

int gr_pclntab_line_at(const struct gr_pclntab *tab, const struct gr_pcln_func *f, uint64_t pc,
                       const char **file, uint32_t *line)
{
    struct tables t = {.pctab = {tab->pctab, tab->pctab_size},
                       .cutab = {tab->cutab, tab->cutab_size},
                       .filetab = {tab->filetab, tab->filetab_size}};
    int32_t ln, fileno;
    if (pc < f->entry || pc >= f->end || pcvalue_at(t.pctab, f->pcln, f->entry, pc, &ln) < 0 ||
        ln <= 0 || pcvalue_at(t.pctab, f->pcfile, f->entry, pc, &fileno) < 0)
        return -1;
    *line = (uint32_t)ln;
    *file = file_name(&t, f->cu, fileno);
    return *file ? 0 : -1;
}

static const struct pcln_format *format_of(uint32_t magic)
{
    switch (magic) {
    case MAGIC_GO12: return &format_go12;    /* Go 1.2-1.15 */
    case MAGIC_GO116: return &format_go116;  /* Go 1.16-1.17 */
    case MAGIC_GO118: return &format_go118;  /* Go 1.18-1.19 */
    case MAGIC_GO120: return &format_go120;  /* Go 1.20 and later */
    default: return NULL;
    }
}

/* npcdata is 4 bytes before the cu offset (1.16+) or the funcID (1.15);
 * funcID is 4 bytes before the end of the fixed part, nfuncdata its last
 * byte, flag right after funcID from Go 1.16 on. */
int gr_pclntab_func_record(const struct gr_elf *elf, const struct gr_pclntab *tab,
                           const struct gr_pcln_func *f, struct gr_func_record *out)
{
    const struct pcln_format *l = format_of(tab->magic);
    uint64_t addr = tab->funcdata_addr + f->funcoff;
    const uint8_t *p = l ? gr_elf_bytes_at(elf, addr, l->func_size) : NULL;
    if (!p)
        return -1;
    uint32_t npcdata;
    memcpy(&npcdata, p + (l->go12 ? 32 : l->func_pcln_off + 4), 4);
    uint8_t nfuncdata = p[l->func_size - 1];
    uint64_t size = l->func_size + 4ull * npcdata;
    if (l->word_functab)
        size = (nfuncdata ? (size + 7) / 8 * 8 : size) + 8ull * nfuncdata;
    else
        size += 4ull * nfuncdata;
    if (npcdata > 1024 || !gr_elf_bytes_at(elf, addr, size))
        return -1;
    *out = (struct gr_func_record){.addr = addr, .size = (uint32_t)size, .entry_word = l->word_functab,
                                   .word_funcdata = l->word_functab,
                                   .func_id = p[l->func_size - 4],
                                   .flag = l->go12 ? 0 : p[l->func_size - 3]};
    return 0;
}

void gr_pclntab_free(struct gr_pclntab *tab)
{
    free(tab->funcs);
    memset(tab, 0, sizeof *tab);
}
