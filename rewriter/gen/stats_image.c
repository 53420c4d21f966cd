/* stats_image.c: lays out the stats file prefix described in
 * format/gostat_format.h for the instrumented functions, in counter order.
 * Each distinct file name and reason is stored once: a source file is
 * shared by all the functions in it (a large program has ten times more
 * functions than files), and the output carries the table. Names are
 * nearly all distinct and go in as they come: glibc's hsearch hashes
 * mostly a key's last characters, and Go names share many endings. */
#include "rewriter/gen/stats_image.h"

#include <search.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/gostat_format.h"
#include "format/trace_format.h"
#include "rewriter/plan/trace_plan.h"

/* Bytes of strings the functions need (names and files, NUL-terminated),
 * before sharing: the string table's upper bound. With call paths, the
 * names of the functions not instrumented too (the symbol table). */
static size_t strings_size(const struct gr_plan *plan, int syms)
{
    size_t n = 1;  /* offset 0: the empty string */
    for (size_t i = 0; i < plan->go_stmts.n; i++) {
        const struct gr_go_stmt *g = &plan->go_stmts.items[i];
        n += strlen(g->creator->name) + 1 + (g->file ? strlen(g->file) + 1 : 0);
    }
    for (size_t i = 0; i < plan->nfuncs; i++) {
        const struct gr_plan_func *pf = &plan->funcs[i];
        if (pf->skip_reason) {
            if (syms)
                n += strlen(pf->func->name) + 1;
            continue;
        }
        n += strlen(pf->func->name) + 1;
        if (pf->func->file)
            n += strlen(pf->func->file) + 1;
        if (pf->untimed_reason)
            n += strlen(pf->untimed_reason) + 1;
    }
    return n;
}

/* An offset into the names at the table's end (fixed by place_names once
 * the strings before them are all in); the table stays under 2^31. */
#define NAME_IN_PLACE 0x80000000u

/* Bytes of the names the stats file holds (functions, with call paths
 * the symbols too, and go statements' creators), NUL-terminated. */
static size_t names_bytes(const struct gr_plan *plan, int syms)
{
    size_t n = 0;
    for (size_t i = 0; i < plan->go_stmts.n; i++)
        n += strlen(plan->go_stmts.items[i].creator->name) + 1;
    for (size_t i = 0; i < plan->nfuncs; i++)
        if (syms || !plan->funcs[i].skip_reason)
            n += strlen(plan->funcs[i].func->name) + 1;
    return n;
}

/* The program's funcnametab serves as the names when it can end the table
 * (not with a trace section after the strings) and holds little more than
 * them: twice their bytes at most (GS_MAX_STRTAB), so that `--only` with a
 * few functions does not put all of a large program's names in each file. */
static uint64_t names_in_place_size(const struct gr_plan *plan, const struct gr_program *prog,
                                    int names_in_place, int syms, size_t strtab_max)
{
    uint64_t size = prog->pcln.funcnames_size;
    if (!names_in_place || (plan->trace && plan->trace->n) || strtab_max + size >= NAME_IN_PLACE)
        return 0;
    return size <= 2 * (uint64_t)names_bytes(plan, syms) ? size : 0;
}

/* The string table being filled; seen maps a string to its offset. names:
 * the program's funcnametab, which ends the table when names_size > 0. */
struct strings {
    uint8_t *bytes;
    size_t used;
    struct hsearch_data seen;
    const uint8_t *names;
    uint64_t names_size;
};

/* Appends s; its offset, or 0 for the empty string. */
static uint32_t add_string(struct strings *st, const char *s)
{
    if (!s || !*s)
        return 0;
    uint32_t off = (uint32_t)st->used;
    size_t n = strlen(s) + 1;
    memcpy(st->bytes + st->used, s, n);
    st->used += n;
    return off;
}

/* A function's name: where it already is in the program's funcnametab,
 * else appended. */
static uint32_t add_name(struct strings *st, const char *s)
{
    const uint8_t *p = (const uint8_t *)s;
    if (st->names_size && p >= st->names && p < st->names + st->names_size)
        return NAME_IN_PLACE | (uint32_t)(p - st->names);
    return add_string(st, s);
}

static void place_name(uint32_t *off, uint32_t names_at)
{
    if (*off & NAME_IN_PLACE)
        *off = names_at + (*off & ~NAME_IN_PLACE);
}

/* The names' offsets once the strings before them are in. */
static void place_names(struct gs_func *tab, size_t nfuncs, struct gs_sym *syms, size_t nsyms,
                        struct gs_gostmt *gostmts, size_t ngostmts, uint32_t names_at)
{
    for (size_t i = 0; i < nfuncs; i++)
        place_name(&tab[i].name_off, names_at);
    for (size_t i = 0; i < nsyms; i++)
        place_name(&syms[i].name_off, names_at);
    for (size_t i = 0; i < ngostmts; i++)
        place_name(&gostmts[i].func_off, names_at);
}

/* s's offset in the table, added when new. Returns -1 when the hash table
 * is full (it is sized for every string, so never). */
static int add_shared_string(struct strings *st, const char *s, uint32_t *off)
{
    *off = 0;
    if (!s || !*s)
        return 0;
    ENTRY *e, want = {.key = (char *)s};   /* hsearch_r keeps the key, never writes it */
    if (!hsearch_r(want, FIND, &e, &st->seen)) {
        want.data = (void *)(uintptr_t)add_string(st, s);
        if (!hsearch_r(want, ENTER, &e, &st->seen))
            return -1;
    }
    *off = (uint32_t)(uintptr_t)e->data;
    return 0;
}

/* The shared part (live page, rows, goroutine sites) starts at the first
 * page after the prefix's end; the file ends with it. Called again when
 * the trace section grows the prefix. */
static void place_shared(struct gs_header *h, const struct gr_segment_plan *seg, uint64_t prefix_end)
{
    h->live_off = gr_align_up(prefix_end, GS_PAGE);
    h->rows_off = h->live_off + GS_PAGE;
    h->file_size = h->rows_off + (uint64_t)seg->max_rows * seg->row_stride;
    if (seg->max_sites) {
        h->sites_off = h->live_off + seg->sites_off - GS_PAGE;
        h->file_size = seg->shared_end - GS_PAGE + h->live_off;
    }
}

static void fill_counting(struct gs_header *h, const struct gr_program *prog,
                          const struct gr_segment_plan *seg, size_t strtab_off, size_t strtab_size)
{
    memcpy(h->magic, GS_MAGIC, GS_MAGIC_LEN);
    h->version = GS_VERSION;
    h->header_size = sizeof *h;
    h->nfuncs = seg->nfuncs;
    h->functab_off = sizeof *h;
    h->strtab_off = strtab_off;
    h->strtab_size = strtab_size;
    h->row_stride = seg->row_stride;
    h->max_rows = seg->max_rows;
    h->counter_size = sizeof(struct gs_counter);
    h->counts_off = seg->counts_off;
    if (seg->max_sites) {
        h->flags |= GS_HDR_SITES;
        h->glive_off = seg->glive_off;
        h->max_sites = seg->max_sites;
        h->max_glive = seg->max_glive;
        h->site_size = sizeof(struct gs_site);
        h->glive_size = sizeof(struct gs_glive);
        if (seg->spaths_off) {
            h->flags |= GS_HDR_SITE_PATHS;
            h->spaths_off = seg->spaths_off;
            h->spath_size = sizeof(struct gs_spath);
        }
    }
    place_shared(h, seg, strtab_off + strtab_size);
    snprintf(h->build_id, GS_BUILDID_MAX, "%s", prog->build_id);
    snprintf(h->go_version, GS_GOVERSION_MAX, "%s", prog->go_version);
}

static void fill_header(struct gs_header *h, const struct gr_program *prog,
                        const struct gr_segment_plan *seg, size_t strtab_off, size_t strtab_size)
{
    fill_counting(h, prog, seg, strtab_off, strtab_size);
    if (!seg->nslots)
        return;
    h->flags |= gs_mode_header_flags(seg->timing);
    h->ntimed = seg->ntimed;
    h->timing_size = sizeof(struct gs_timing);
    h->timing_off = seg->timing_off;
    h->sample_every = gs_mode_sample_word(seg->timing);
    if (seg->timing.mode != GS_MODE_CALL_GRAPH)
        return;
    h->path_size = sizeof(struct gs_path);
    h->paths_off = seg->paths_off;
    h->arcs_off = seg->arcs_off;
    h->max_paths = seg->max_paths;
    h->max_arcs = seg->max_arcs;
}

/* Every function of the program, for return addresses: the instrumented
 * ones share their name with the function table. */
static void fill_syms(const struct gr_plan *plan, const struct gs_func *tab, struct gs_sym *syms,
                      struct strings *st)
{
    for (size_t i = 0; i < plan->nfuncs; i++) {
        const struct gr_plan_func *pf = &plan->funcs[i];
        syms[i] = (struct gs_sym){
            .entry = pf->func->entry,
            .size = (uint32_t)(pf->func->end - pf->func->entry),
            .name_off = pf->skip_reason ? add_name(st, pf->func->name) : tab[pf->counter].name_off,
        };
    }
}

/* The go statements (goroutine sites), their strings shared. */
static int fill_gostmts(const struct gr_plan *plan, struct gs_gostmt *tab, struct strings *st)
{
    for (size_t i = 0; i < plan->go_stmts.n; i++) {
        const struct gr_go_stmt *g = &plan->go_stmts.items[i];
        tab[i] = (struct gs_gostmt){.pc = g->pc, .line = g->line, .func_off = add_name(st, g->creator->name)};
        if (add_shared_string(st, g->file, &tab[i].file_off) < 0)
            return -1;
    }
    return 0;
}

/* Fills the function table and the strings. */
static int fill_functions(const struct gr_plan *plan, struct gs_func *tab, struct strings *st)
{
    for (size_t i = 0; i < plan->nfuncs; i++) {
        const struct gr_plan_func *pf = &plan->funcs[i];
        if (pf->skip_reason)
            continue;
        const struct gr_func *f = pf->func;
        struct gs_func *g = &tab[pf->counter];
        g->entry = f->entry;
        g->size = (uint32_t)(f->end - f->entry);
        g->name_off = add_name(st, f->name);
        if (add_shared_string(st, f->file, &g->file_off) < 0 ||
            add_shared_string(st, pf->untimed_reason, &g->untimed_off) < 0)
            return -1;
        g->line = f->line;
        g->flags = f->inlined_elsewhere ? GS_FUNC_INLINED : 0;
        g->timing = pf->timing;    /* GR_UNTIMED is GS_UNTIMED */
    }
    return 0;
}

void gr_stats_image_free(struct gr_stats_image *img);

/* --trace: the trace section (trace_format.h) after the strings: the
 * traced functions, where their values lie in an event, their descriptors. */
static int append_trace(const struct gr_plan *plan, const struct gr_segment_plan *seg,
                        struct gr_stats_image *img)
{
    const struct gr_trace_plan *tp = plan->trace;
    if (!tp || !tp->n)
        return 0;
    size_t off = (img->len + 7) & ~(size_t)7;
    size_t size = sizeof(struct gs_trace_section) + tp->n * sizeof(struct gs_trace_func);
    for (size_t i = 0; i < tp->n; i++)
        size += tp->funcs[i].raw ? 0 : tp->funcs[i].layout.desc_len;
    uint8_t *bytes = realloc(img->bytes, off + size);
    if (!bytes)
        return -1;
    memset(bytes + img->len, 0, off + size - img->len);
    img->bytes = bytes;
    struct gs_trace_section *sec = (struct gs_trace_section *)(bytes + off);
    *sec = (struct gs_trace_section){.magic = GS_TRACE_MAGIC, .nfuncs = (uint32_t)tp->n,
                                     .event_size = tp->event_size, .ring_off = seg->trace_ring_off,
                                     .ring_size = seg->trace_ring_size, .funcs_off = sizeof *sec,
                                     .slower_than_ns = tp->slower_ns, .bytes_max = tp->bytes_max};
    struct gs_trace_func *tab = (struct gs_trace_func *)(sec + 1);
    size_t desc = sizeof *sec + tp->n * sizeof *tab;
    for (size_t i = 0; i < tp->n; i++) {
        const struct gr_trace_func *tf = &tp->funcs[i];
        const struct gr_trace_layout *l = &tf->layout;
        tab[i] = (struct gs_trace_func){.func = plan->funcs[tf->plan_index].counter,
                                        .entry_nwords = l->entry.nwords, .entry_nbytes = l->entry.nbytes,
                                        .return_nwords = l->ret.nwords, .return_nbytes = l->ret.nbytes,
                                        .entry_off = tf->entry_off, .return_off = tf->return_off,
                                        .used = tf->used};
        if (!tf->raw && l->desc_len) {
            tab[i].desc_off = (uint32_t)desc;
            tab[i].desc_len = (uint32_t)l->desc_len;
            memcpy((uint8_t *)sec + desc, l->desc, l->desc_len);
            desc += l->desc_len;
        }
    }
    struct gs_header *h = (struct gs_header *)bytes;
    h->trace_off = off;
    h->trace_size = size;
    img->len = off + size;
    place_shared(h, seg, img->len);   /* the shared part moves past it */
    return 0;
}

int gr_stats_image_build(const struct gr_plan *plan, const struct gr_program *prog,
                         const struct gr_segment_plan *seg, int names_in_place,
                         struct gr_stats_image *img, struct gr_error *err)
{
    int paths = seg->max_paths > 0;
    size_t nsyms = paths ? plan->nfuncs : 0;
    size_t strtab_max = strings_size(plan, paths);
    uint64_t names_size = names_in_place_size(plan, prog, names_in_place, paths, strtab_max);
    if (strtab_max > UINT32_MAX || nsyms > GS_MAX_FUNCS)
        return gr_fail(err, "function names too large for the stats format");
    size_t syms_off = sizeof(struct gs_header) + (size_t)seg->nfuncs * sizeof(struct gs_func);
    size_t gostmts_off = syms_off + nsyms * sizeof(struct gs_sym);
    size_t ngostmts = plan->go_stmts.n;
    size_t strtab_off = gostmts_off + ngostmts * sizeof(struct gs_gostmt);
    img->bytes = calloc(1, strtab_off + strtab_max);
    if (!img->bytes)
        return gr_fail_as(err, GR_ERR_INTERNAL, "out of memory for the stats image");
    /* at most 2 shared strings per function: file, why untimed */
    struct strings st = {.bytes = img->bytes + strtab_off, .used = 1,
                         .names = prog->pcln.funcnames, .names_size = names_size};
    if (!hcreate_r(2 * (size_t)seg->nfuncs + 2 * ngostmts + 1, &st.seen)) {
        gr_stats_image_free(img);
        return gr_fail_as(err, GR_ERR_INTERNAL, "out of memory for the stats image");
    }
    struct gs_func *tab = (struct gs_func *)(img->bytes + sizeof(struct gs_header));
    int rc = fill_functions(plan, tab, &st);
    if (rc == 0 && paths)
        fill_syms(plan, tab, (struct gs_sym *)(img->bytes + syms_off), &st);
    if (rc == 0)
        rc = fill_gostmts(plan, (struct gs_gostmt *)(img->bytes + gostmts_off), &st);
    hdestroy_r(&st.seen);
    if (rc < 0)
        return gr_fail_as(err, GR_ERR_INTERNAL, "internal error: string table of the stats image is full");
    img->len = strtab_off + st.used;
    img->names_size = names_size;
    place_names(tab, seg->nfuncs, (struct gs_sym *)(img->bytes + syms_off), nsyms,
                (struct gs_gostmt *)(img->bytes + gostmts_off), ngostmts, (uint32_t)st.used);
    struct gs_header *h = (struct gs_header *)img->bytes;
    fill_header(h, prog, seg, strtab_off, st.used + names_size);
    if (seg->nslots && gr_plan_oncpu(plan))
        h->flags |= GS_HDR_ONCPU;
    else if (seg->nslots && plan->oncpu_refused[0])
        h->flags |= GS_HDR_ONCPU_OFF;
    if (ngostmts) {
        h->gostmts_off = gostmts_off;
        h->ngostmts = (uint32_t)ngostmts;
        h->gostmt_size = sizeof(struct gs_gostmt);
    }
    if (paths) {
        h->syms_off = syms_off;
        h->nsyms = (uint32_t)nsyms;
    }
    if (append_trace(plan, seg, img) < 0) {
        gr_stats_image_free(img);
        return gr_fail_as(err, GR_ERR_INTERNAL, "out of memory for the stats image");
    }
    return 0;
}

void gr_stats_image_free(struct gr_stats_image *img)
{
    free(img->bytes);
    memset(img, 0, sizeof *img);
}
