/* copy_module.c: the copy engine's module (copy_module.h) after its text:
 * the _func records (the originals' with the entry moved), ftab,
 * findfunctab, an empty GC program, the moduledata template with its
 * pcHeader (Go >= 1.16), and the start-up code that copies the template
 * to the RW segment and links it as runtime.firstmoduledata.next. */
#include "rewriter/gen/copy_module.h"

#include <stdlib.h>
#include <string.h>

#include "common/x86.h"

#define BUCKET 4096u        /* abi.FuncTabBucketSize (1.15: pcbucketsize) */
#define NSUB 16u            /* findfuncbucket.subbuckets */
#define PCHEADER_GO116 64u  /* pcHeader's bytes: 1.16-1.17 */
#define PCHEADER_GO118 72u  /* 1.18 on: textStart added */
#define PCHEADER_NFUNC 8u
#define PCHEADER_TEXTSTART 24u

/* Where the module's tables went. */
struct tables {
    uint64_t records, records_end;   /* the _func records */
    uint64_t *funcoff;               /* per copy: from the pclntable base */
    uint64_t ftab, findfunctab, gcprog, tmpl;
    uint32_t tmpl_size;                /* the moduledata and its pcHeader */
};

static void put64(struct gr_codebuf *c, uint64_t at, uint64_t v) { memcpy(c->bytes + (at - c->base), &v, 8); }
static void put32(struct gr_codebuf *c, uint64_t at, uint32_t v) { memcpy(c->bytes + (at - c->base), &v, 4); }

/* The base of _func offsets: pclntab itself in Go <= 1.15 (its header's
 * magic is what the runtime checks there), else the records. */
static uint64_t records_base(const struct gr_copy_set *set, const struct gr_program *prog, const struct tables *t)
{
    return set->first.layout->go12 ? prog->pcln.addr : t->records;
}

static int append_records(struct gr_codebuf *code, const struct gr_program *prog, const struct gr_copy_set *set,
                          const struct gr_copy_module *m, struct tables *t, struct gr_error *err)
{
    GR_TRY(gr_code_pad(code, 8, 0, err));
    t->records = gr_code_here(code);
    uint64_t base = records_base(set, prog, t);
    for (size_t k = 0; k < set->n; k++) {
        const struct gr_pcln_func *p = &prog->pcln.funcs[set->funcs[k]];
        struct gr_func_record rec;
        GR_TRY(gr_code_pad(code, 8, 0, err));
        if (gr_pclntab_func_record(prog->elf, &prog->pcln, p, &rec) < 0)
            return gr_fail(err, "%s: _func record of %s does not fit pclntab", prog->elf->path, p->name);
        uint64_t at = gr_code_here(code);
        t->funcoff[k] = at - base;
        if (t->funcoff[k] > INT32_MAX)
            return gr_fail(err, "%s: the copy engine's _func records are beyond an int32 offset from pclntab",
                           prog->elf->path);
        GR_TRY(gr_code_append(code, gr_elf_bytes_at(prog->elf, rec.addr, rec.size), rec.size, err));
        if (rec.entry_word)
            put64(code, at, m->copy[k]);
        else
            put32(code, at, (uint32_t)(m->copy[k] - m->text));
    }
    t->records_end = gr_code_here(code);
    return 0;
}

/* ftab: (entry, funcoff) per copy, then the end of the text. */
static int append_ftab(struct gr_codebuf *code, const struct gr_copy_set *set, const struct gr_copy_module *m,
                       struct tables *t, struct gr_error *err)
{
    int words = set->first.layout->go12;
    GR_TRY(gr_code_pad(code, 8, 0, err));
    t->ftab = gr_code_here(code);
    for (size_t k = 0; k <= set->n; k++) {
        uint64_t entry = k < set->n ? m->copy[k] : m->etext, off = k < set->n ? t->funcoff[k] : 0;
        if (words) {
            GR_TRY(gr_code_append(code, &entry, 8, err));
            GR_TRY(gr_code_append(code, &off, 8, err));
        } else {
            uint32_t e = (uint32_t)(entry - m->text), o = (uint32_t)off;
            GR_TRY(gr_code_append(code, &e, 4, err));
            GR_TRY(gr_code_append(code, &o, 4, err));
        }
    }
    return 0;
}

/* findfunctab (runtime findfunc; cmd/link findfunctab): per 4096 bytes of
 * text the ftab index of the function at its start, and per 256 the index
 * there less that one, in a byte. */
static int append_findfunctab(struct gr_codebuf *code, const struct gr_program *prog,
                              const struct gr_copy_set *set, const struct gr_copy_module *m,
                              struct tables *t, struct gr_error *err)
{
    uint64_t span = m->etext - m->text, nbuckets = (span + BUCKET - 1) / BUCKET;
    GR_TRY(gr_code_pad(code, 4, 0, err));
    t->findfunctab = gr_code_here(code);
    size_t k = 0;
    for (uint64_t b = 0; b < nbuckets; b++) {
        uint32_t base = 0;
        uint8_t sub[NSUB] = {0};
        for (unsigned j = 0; j < NSUB; j++) {
            uint64_t pc = m->text + b * BUCKET + j * (BUCKET / NSUB);
            if (pc >= m->etext)
                break;
            while (k + 1 < set->n && m->copy[k + 1] <= pc)
                k++;
            if (j == 0)
                base = (uint32_t)k;
            if (k - base > 255)
                return gr_fail(err, "%s: more than 256 copies in a findfunctab bucket", prog->elf->path);
            sub[j] = (uint8_t)(k - base);
        }
        GR_TRY(gr_code_append(code, &base, 4, err));
        GR_TRY(gr_code_append(code, sub, NSUB, err));
    }
    return 0;
}

/* The pcHeader's bytes: 0 before Go 1.16. */
static uint32_t pcheader_size(const struct gr_program *prog, const struct gr_copy_set *set)
{
    if (set->first.layout->go12)
        return 0;
    return prog->pcln.magic == 0xfffffffau ? PCHEADER_GO116 : PCHEADER_GO118;
}

/* A slice of the first module's, its pointer as the program holds it. */
static void first_slice(struct gr_codebuf *c, const struct gr_program *prog, const struct gr_copy_set *set,
                        uint64_t at, uint32_t off)
{
    memcpy(c->bytes + (at - c->base), set->first.bytes + off, 24);
    put64(c, at, gr_moduledata_addr(prog, set->first.addr + off));
}

static void slice(struct gr_codebuf *c, uint64_t at, uint64_t ptr, uint64_t len)
{
    put64(c, at, ptr);
    put64(c, at + 8, len);
    put64(c, at + 16, len);
}

/* The moduledata, then the pcHeader (Go >= 1.16: the program's own with
 * this module's function count and, 1.18+, text), which the start-up
 * code copies to rw_module together: textStart must equal moduledata.text
 * where the program is loaded. The moduledata has the first module's
 * name, file and pc-value tables (and gofunc, the base of funcdata
 * offsets), this module's function tables and text, no data, types or
 * hashes. */
static int append_template(struct gr_codebuf *code, const struct gr_program *prog, const struct gr_copy_set *set,
                           const struct gr_copy_module *m, uint64_t rw_module, struct tables *t,
                           struct gr_error *err)
{
    const struct gr_moduledata_layout *l = set->first.layout;
    uint32_t hdr = pcheader_size(prog, set);
    GR_TRY(gr_code_pad(code, 8, 0, err));
    t->gcprog = gr_code_here(code);
    GR_TRY(gr_code_fill(code, 8, 0, err));   /* an empty GC program: its end */
    t->tmpl = gr_code_here(code);
    t->tmpl_size = l->size + hdr;
    GR_TRY(gr_code_fill(code, l->size, 0, err));
    if (hdr) {
        GR_TRY(gr_code_append(code, gr_elf_bytes_at(prog->elf, prog->pcln.addr, hdr), hdr, err));
        put64(code, t->tmpl + l->size + PCHEADER_NFUNC, set->n);
        if (hdr == PCHEADER_GO118)
            put64(code, t->tmpl + l->size + PCHEADER_TEXTSTART, m->text);
        put64(code, t->tmpl + l->pcheader, rw_module + l->size);
        first_slice(code, prog, set, t->tmpl + l->funcnametab, l->funcnametab);
        first_slice(code, prog, set, t->tmpl + l->cutab, l->cutab);
        first_slice(code, prog, set, t->tmpl + l->pctab, l->pctab);
    }
    first_slice(code, prog, set, t->tmpl + l->filetab, l->filetab);
    if (l->gofunc)
        put64(code, t->tmpl + l->gofunc, gr_moduledata_addr(prog, set->first.addr + l->gofunc));
    uint64_t base = records_base(set, prog, t);
    slice(code, t->tmpl + l->pclntable, base, t->records_end - base);
    slice(code, t->tmpl + l->ftab, t->ftab, set->n + 1);
    put64(code, t->tmpl + l->findfunctab, t->findfunctab);
    put64(code, t->tmpl + l->minpc, m->text);
    put64(code, t->tmpl + l->maxpc, m->etext);
    put64(code, t->tmpl + l->text, m->text);
    put64(code, t->tmpl + l->etext, m->etext);
    put64(code, t->tmpl + l->gcdata, t->gcprog);
    put64(code, t->tmpl + l->gcbss, t->gcprog);
    /* epclntab (1.26+) stays 0: the GC's stack-object lookup then takes
     * the shared funcdata as the first module's, whose rodata they need;
     * 1.27's typedesclen and itabsize stay 0: no types, no itabs */
    return 0;
}

/* The words of the copied template that hold addresses: moved by the
 * load bias at start-up (0 unless the program is a PIE). */
static size_t address_words(const struct gr_program *prog, const struct gr_copy_set *set, uint32_t *out)
{
    const struct gr_moduledata_layout *l = set->first.layout;
    size_t n = 0;
    uint32_t common[] = {l->filetab, l->pclntable, l->ftab, l->findfunctab, l->minpc, l->maxpc,
                         l->text, l->etext, l->gcdata, l->gcbss};
    for (size_t i = 0; i < sizeof common / sizeof common[0]; i++)
        out[n++] = common[i];
    if (l->go12)
        return n;
    out[n++] = l->pcheader;
    out[n++] = l->funcnametab;
    out[n++] = l->cutab;
    out[n++] = l->pctab;
    if (l->gofunc)
        out[n++] = l->gofunc;
    if (pcheader_size(prog, set) == PCHEADER_GO118)
        out[n++] = l->size + PCHEADER_TEXTSTART;
    return n;
}

/* rel32 of an instruction of len bytes at here whose operand is target. */
static int32_t rel_from(const struct gr_codebuf *c, unsigned len, uint64_t target)
{
    return (int32_t)(int64_t)(target - (gr_code_here(c) + len));
}

static int emit_rel(struct gr_codebuf *c, const uint8_t *op, unsigned oplen, uint64_t target, struct gr_error *err)
{
    int32_t rel = rel_from(c, oplen + 4, target);
    GR_TRY(gr_code_append(c, op, oplen, err));
    return gr_code_append(c, &rel, 4, err);
}

/* Runs at the ELF entry, before everything: rcx, rsi, rdi and rax are
 * free there (rdx holds the dynamic loader's finaliser, kept). Copies
 * the template to rw_module, adds the load bias (where the template is
 * less where it was linked) to its addresses, and links it. */
static int append_startup(struct gr_codebuf *code, const struct gr_program *prog, const struct gr_copy_set *set,
                          const struct tables *t, uint64_t rw_module, uint64_t next, struct gr_copy_module *m,
                          struct gr_error *err)
{
    static const uint8_t lea_rsi[] = {0x48, 0x8d, 0x35}, lea_rdi[] = {0x48, 0x8d, 0x3d},
                         lea_rax[] = {0x48, 0x8d, 0x05}, store_rax[] = {0x48, 0x89, 0x05},
                         rep_movsq[] = {0xf3, 0x48, 0xa5}, sub_rax_rcx[] = {0x48, 0x29, 0xc8},
                         add_rdi_rax[] = {0x48, 0x01, 0x87}, jmp[] = {GR_X86_JMP_REL32};
    uint32_t words[32], qwords = (t->tmpl_size + 7) / 8;
    size_t nwords = address_words(prog, set, words);
    uint8_t mov_ecx[5] = {0xb9}, movabs_rcx[10] = {0x48, 0xb9};
    memcpy(mov_ecx + 1, &qwords, 4);
    memcpy(movabs_rcx + 2, &t->tmpl, 8);
    GR_TRY(gr_code_pad(code, 16, GR_X86_INT3, err));
    m->entry = gr_code_here(code);
    GR_TRY(emit_rel(code, lea_rsi, 3, t->tmpl, err));
    GR_TRY(emit_rel(code, lea_rdi, 3, rw_module, err));
    GR_TRY(gr_code_append(code, mov_ecx, 5, err));
    GR_TRY(gr_code_append(code, rep_movsq, 3, err));
    GR_TRY(emit_rel(code, lea_rax, 3, t->tmpl, err));
    GR_TRY(gr_code_append(code, movabs_rcx, 10, err));
    GR_TRY(gr_code_append(code, sub_rax_rcx, 3, err));
    GR_TRY(emit_rel(code, lea_rdi, 3, rw_module, err));
    for (size_t i = 0; i < nwords; i++) {
        GR_TRY(gr_code_append(code, add_rdi_rax, 3, err));
        GR_TRY(gr_code_append(code, &words[i], 4, err));
    }
    GR_TRY(emit_rel(code, lea_rax, 3, rw_module, err));
    GR_TRY(emit_rel(code, store_rax, 3, set->first.addr + set->first.layout->next, err));
    return emit_rel(code, jmp, 1, next, err);
}

static int build_patches(const struct gr_program *prog, const struct gr_copy_set *set, struct gr_copy_module *m,
                         struct gr_error *err)
{
    m->patches = calloc(set->n ? set->n : 1, sizeof *m->patches);
    if (!m->patches)
        return gr_fail(err, "out of memory for %zu entry patches", set->n);
    for (size_t k = 0; k < set->n; k++) {
        struct gr_patch *p = &m->patches[m->npatches++];
        p->addr = prog->funcs[set->funcs[k]].entry;
        p->len = GR_X86_JMP_REL32_LEN;
        p->kind = GR_PATCH_JMP;
        p->bytes[0] = GR_X86_JMP_REL32;
        int32_t rel = (int32_t)(int64_t)(m->copy[k] - (p->addr + 5));
        memcpy(p->bytes + 1, &rel, 4);
    }
    return 0;
}

int gr_copy_module_append(struct gr_codebuf *code, const struct gr_program *prog,
                          const struct gr_copy_set *set, uint64_t rw_module, uint64_t next,
                          struct gr_copy_module *out, struct gr_error *err)
{
    memset(out, 0, sizeof *out);
    struct tables t = {0};
    out->copy = calloc(set->n ? set->n : 1, sizeof *out->copy);
    t.funcoff = calloc(set->n ? set->n : 1, sizeof *t.funcoff);
    int rc = out->copy && t.funcoff ? 0 : gr_fail(err, "out of memory for %zu copies", set->n);
    if (rc == 0)
        rc = gr_code_pad(code, 4096, GR_X86_INT3, err);
    if (rc == 0)
        rc = gr_copy_code_place(code, prog, set, out, err);
    if (rc == 0)
        rc = gr_copy_code_fix(code, prog, set, out, err);
    if (rc == 0)
        rc = append_records(code, prog, set, out, &t, err);
    if (rc == 0)
        rc = append_ftab(code, set, out, &t, err);
    if (rc == 0)
        rc = append_findfunctab(code, prog, set, out, &t, err);
    if (rc == 0)
        rc = append_template(code, prog, set, out, rw_module, &t, err);
    if (rc == 0)
        rc = append_startup(code, prog, set, &t, rw_module, next, out, err);
    if (rc == 0)
        rc = build_patches(prog, set, out, err);
    free(t.funcoff);
    return rc;
}

void gr_copy_module_free(struct gr_copy_module *m)
{
    free(m->copy);
    free(m->patches);
    memset(m, 0, sizeof *m);
}
