/* image.c: see image.h. The RX segment in order: program headers' room,
 * stub blob, trampolines, stats-file image; the blob's configuration is
 * filled last, once the image's place is known. */
#include "rewriter/gen/image.h"

#include <elf.h>
#include <stdlib.h>
#include <string.h>

#include "common/x86.h"
#include "rewriter/gen/copy_module.h"
#include "rewriter/gen/patches.h"
#include "rewriter/gen/stats_image.h"
#include "rewriter/gen/stub_config.h"
#include "rewriter/gen/trampoline.h"

/* The program's funcnametab is loaded from the file into a segment that is
 * never written: the start-up stub may copy the names from there, and drop
 * the pages it read from its page tables. */
static int names_read_only(const struct gr_elf *elf, const struct gr_pclntab *pcln)
{
    if (!pcln->funcnames_size ||
        gr_elf_bytes_at(elf, pcln->funcnames_addr, pcln->funcnames_size) != pcln->funcnames)
        return 0;
    for (size_t i = 0; i < elf->nsegments; i++) {
        const struct gr_segment *s = &elf->segments[i];
        if (s->type == PT_LOAD && pcln->funcnames_addr >= s->vaddr &&
            pcln->funcnames_addr - s->vaddr < s->filesz)
            return !(s->flags & PF_W);
    }
    return 0;
}

/* Appends the stats-file image to code and says where it is (image->off,
 * size) and which of the program's names follow it in the file. */
static int append_stats_image(const struct gr_elf *elf, const struct gr_program *prog,
                              const struct gr_plan *plan, const struct gr_segment_plan *seg,
                              struct gr_codebuf *code, struct gr_image_place *image,
                              struct gr_error *err)
{
    struct gr_stats_image stats = {0};
    if (gr_stats_image_build(plan, prog, seg, names_read_only(elf, &prog->pcln), &stats, err) < 0)
        return -1;
    *image = (struct gr_image_place){.off = code->len, .size = stats.len,
                                     .names_addr = prog->pcln.funcnames_addr,
                                     .names_size = stats.names_size};
    int rc = gr_code_append(code, stats.bytes, stats.len, err);
    gr_stats_image_free(&stats);
    return rc;
}

static int build_code(const struct gr_elf *elf, const struct gr_program *prog,
                      const struct gr_plan *plan, const struct gr_segment_plan *seg,
                      struct gr_tramp_addrs *tramp, struct gr_image *img, struct gr_error *err)
{
    size_t blob_off;
    struct gr_image_place image;
    if (gr_code_init(&img->code, seg->rx_vaddr, err) < 0 ||
        gr_stub_place(&img->code, seg, &blob_off, err) < 0)
        return -1;
    struct gr_stub_routines stubs = gr_stub_routines(&img->code, blob_off, seg);
    tramp->exit_stub = stubs.exit;
    if (gr_trampolines_generate(elf, plan, seg, &stubs, &img->code, tramp, err) < 0 ||
        gr_code_pad(&img->code, 16, GR_X86_INT3, err) < 0 ||
        append_stats_image(elf, prog, plan, seg, &img->code, &image, err) < 0)
        return -1;
    gr_stub_configure(&img->code, blob_off, elf, plan, seg, &image);
    img->entry = gr_stub_entry(&img->code, blob_off, seg);
    if (plan->copy) {
        if (gr_copy_module_append(&img->code, prog, plan->copy, seg->rw_vaddr + seg->module_off, img->entry,
                                  &img->copy, err) < 0)
            return -1;
        img->entry = img->copy.entry;
    }
    return 0;
}

/* The copies' entry patches after the plan's. */
static int add_copy_patches(struct gr_image *img, struct gr_error *err)
{
    struct gr_patch *p = realloc(img->patches, (img->npatches + img->copy.npatches) * sizeof *p);
    if (!p)
        return gr_fail(err, "out of memory");
    memcpy(p + img->npatches, img->copy.patches, img->copy.npatches * sizeof *p);
    img->patches = p;
    img->npatches += img->copy.npatches;
    return 0;
}

int gr_image_build(const struct gr_elf *elf, const struct gr_program *prog,
                   const struct gr_plan *plan, const struct gr_segment_plan *seg,
                   struct gr_image *img, struct gr_error *err)
{
    memset(img, 0, sizeof *img);
    struct gr_tramp_addrs tramp = {
        .entry = calloc(plan->nfuncs ? plan->nfuncs : 1, sizeof *tramp.entry),
        .returns = calloc(plan->returns.n ? plan->returns.n : 1, sizeof *tramp.returns),
    };
    int rc = tramp.entry && tramp.returns ? 0 : gr_fail_as(err, GR_ERR_INTERNAL, "out of memory");
    if (rc == 0)
        rc = build_code(elf, prog, plan, seg, &tramp, img, err);
    if (rc == 0) {
        img->patches = gr_patches_build(plan, &tramp, &img->npatches);
        if (!img->patches)
            rc = gr_fail_as(err, GR_ERR_INTERNAL, "out of memory");
    }
    if (rc == 0 && plan->copy)
        rc = add_copy_patches(img, err);
    free(tramp.entry);
    free(tramp.returns);
    return rc;
}

void gr_image_free(struct gr_image *img)
{
    gr_code_free(&img->code);
    free(img->patches);
    gr_copy_module_free(&img->copy);
}
