/* stats_image.c: lays out the stats file prefix described in
 * stubs/gostat_format.h for the instrumented functions, in counter order. */
#include "stats_image.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gostat_format.h"

/* Bytes of strings the functions need (names and files, NUL-terminated). */
static size_t strings_size(const struct gr_plan *plan)
{
    size_t n = 1;  /* offset 0: the empty string */
    for (size_t i = 0; i < plan->nfuncs; i++) {
        const struct gr_plan_func *pf = &plan->funcs[i];
        if (pf->skip_reason)
            continue;
        n += strlen(pf->func->name) + 1;
        if (pf->func->file)
            n += strlen(pf->func->file) + 1;
        if (pf->untimed_reason)
            n += strlen(pf->untimed_reason) + 1;
    }
    return n;
}

static uint32_t add_string(uint8_t *strtab, size_t *used, const char *s)
{
    if (!s || !*s)
        return 0;
    uint32_t off = (uint32_t)*used;
    size_t n = strlen(s) + 1;
    memcpy(strtab + *used, s, n);
    *used += n;
    return off;
}

static void fill_counting(struct gs_header *h, const struct gr_program *prog,
                          const struct gr_layout *l, size_t strtab_off, size_t strtab_size)
{
    memcpy(h->magic, GS_MAGIC, GS_MAGIC_LEN);
    h->version = GS_VERSION;
    h->header_size = sizeof *h;
    h->nfuncs = l->nfuncs;
    h->functab_off = sizeof *h;
    h->strtab_off = strtab_off;
    h->strtab_size = strtab_size;
    h->live_off = gr_align_up(strtab_off + strtab_size, GS_PAGE);
    h->rows_off = h->live_off + GS_PAGE;
    h->row_stride = l->row_stride;
    h->max_rows = l->max_rows;
    h->counter_size = sizeof(struct gs_counter);
    h->counts_off = l->counts_off;
    h->file_size = h->rows_off + (uint64_t)l->max_rows * l->row_stride;
    snprintf(h->build_id, GS_BUILDID_MAX, "%s", prog->build_id);
    snprintf(h->go_version, GS_GOVERSION_MAX, "%s", prog->go_version);
}

static void fill_header(struct gs_header *h, const struct gr_program *prog,
                        const struct gr_layout *l, size_t strtab_off, size_t strtab_size)
{
    fill_counting(h, prog, l, strtab_off, strtab_size);
    if (!l->nslots)
        return;
    h->flags |= GS_HDR_TIMING;
    h->ntimed = l->ntimed;
    h->timing_size = sizeof(struct gs_timing);
    h->timing_off = l->timing_off;
    h->sample_every = l->sample;
}

int gr_stats_image_build(const struct gr_plan *plan, const struct gr_program *prog,
                         const struct gr_layout *l, struct gr_stats_image *img,
                         struct gr_error *err)
{
    size_t strtab_size = strings_size(plan);
    if (strtab_size > UINT32_MAX)
        return gr_fail(err, "function names too large for the stats format");
    size_t strtab_off = sizeof(struct gs_header) + (size_t)l->nfuncs * sizeof(struct gs_func);
    img->len = strtab_off + strtab_size;
    img->bytes = calloc(1, img->len);
    if (!img->bytes)
        return gr_fail(err, "out of memory for the stats image");
    fill_header((struct gs_header *)img->bytes, prog, l, strtab_off, strtab_size);
    struct gs_func *tab = (struct gs_func *)(img->bytes + sizeof(struct gs_header));
    uint8_t *strtab = img->bytes + strtab_off;
    size_t used = 1;
    for (size_t i = 0; i < plan->nfuncs; i++) {
        const struct gr_plan_func *pf = &plan->funcs[i];
        if (pf->skip_reason)
            continue;
        const struct gr_func *f = pf->func;
        struct gs_func *g = &tab[pf->counter];
        g->entry = f->entry;
        g->size = (uint32_t)(f->end - f->entry);
        g->name_off = add_string(strtab, &used, f->name);
        g->file_off = add_string(strtab, &used, f->file);
        g->line = f->line;
        g->flags = f->inlined_elsewhere ? GS_FUNC_INLINED : 0;
        g->timing = pf->timing;    /* GR_UNTIMED is GS_UNTIMED */
        g->untimed_off = add_string(strtab, &used, pf->untimed_reason);
    }
    return 0;
}

void gr_stats_image_free(struct gr_stats_image *img)
{
    free(img->bytes);
    memset(img, 0, sizeof *img);
}
