/* rewrite.c: runs the pipeline stages in order; data flows one way, from
 * the input ELF to the output file, and nothing is written unless every
 * stage succeeded. */
#include "rewriter/rewrite.h"

#include <elf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "rewriter/gen/codebuf.h"
#include "elf/elf_read.h"
#include "elf/elf_write.h"
#include "rewriter/find/functions.h"
#include "rewriter/find/go_layout_check.h"
#include "rewriter/find/go_runtime.h"
#include "rewriter/find/go_version.h"
#include "elf/output_report.h"
#include "rewriter/gen/segments.h"
#include "rewriter/plan/plan.h"
#include "rewriter/plan/report.h"
#include "rewriter/gen/stats_image.h"
#include "format/stub_abi.h"
#include "rewriter/gen/trampoline.h"
#include "common/x86.h"

extern const uint8_t gr_stub_blob[];
extern const uint8_t gr_stub_blob_end[];

#define GR_TEXT_SECTION ".gorewrite.text"
#define GR_DATA_SECTION ".gorewrite.data"

struct rx_parts {
    struct gr_codebuf code;   /* the whole RX segment */
    struct gr_tramp_addrs tramp;
    size_t blob_off;          /* offsets inside code */
    size_t image_off;
    size_t image_size;
};

static int place_blob(struct rx_parts *rx, const struct gr_layout *l, struct gr_error *err)
{
    size_t blob_size = (size_t)(gr_stub_blob_end - gr_stub_blob);
    const struct gs_blob_header *h = (const struct gs_blob_header *)gr_stub_blob;
    if (blob_size < sizeof *h || h->magic != GS_BLOB_MAGIC ||
        h->config_off + sizeof(struct gs_stub_config) > blob_size)
        return gr_fail(err, "internal error: embedded stub blob is malformed");
    /* elfpatch writes the program headers into this area */
    if (gr_code_fill(&rx->code, l->phdr_area, 0, err) < 0)
        return -1;
    rx->blob_off = rx->code.len;
    if (gr_code_append(&rx->code, gr_stub_blob, blob_size, err) < 0)
        return -1;
    return gr_code_pad(&rx->code, 16, GR_X86_INT3, err);
}

/* With call paths, the timed entries and returns go to gs_path_enter and
 * gs_path_exit (stubs/paths.S) instead. */
static struct gr_stub_routines stub_routines(const struct rx_parts *rx, const struct gr_layout *l)
{
    const struct gs_blob_header *h = (const struct gs_blob_header *)(rx->code.bytes + rx->blob_off);
    uint64_t blob = rx->code.base + rx->blob_off;
    int paths = l->max_paths > 0;
    return (struct gr_stub_routines){.claim_row = blob + h->claim_row_off,
                                     .time_enter = blob + (paths ? h->path_enter_off : h->time_enter_off),
                                     .time_exit = blob + (paths ? h->path_exit_off : h->time_exit_off),
                                     .sample_enter = blob + h->sample_enter_off};
}

static void fill_config(struct rx_parts *rx, const struct gr_elf *elf, const struct gr_plan *plan,
                        const struct gr_layout *l)
{
    const struct gs_blob_header *h = (const struct gs_blob_header *)(rx->code.bytes + rx->blob_off);
    struct gs_stub_config cfg = {
        .orig_entry_rel = (int64_t)(elf->entry - l->blob_addr),
        .image_rel = (int64_t)(rx->code.base + rx->image_off - l->blob_addr),
        .image_size = rx->image_size,
        .rw_rel = (int64_t)(l->rw_vaddr - l->blob_addr),
        .shared_size = l->first_off - GR_PAGE,
        .blob_link_addr = l->blob_addr,
        .g_m = plan->rt->g_m,
        .g_stack_hi = plan->rt->g_stack_hi,
        .g_slot = plan->rt->g_racectx,
        .m_row = gr_m_row_slot(plan->rt),
        .row_stride = l->row_stride,
        .max_rows = l->max_rows,
        .row_head = l->row_head,
        .slots_off = l->slots_off,
        .nslots = l->nslots,
        .sample = l->sample,
        .paths_off = l->paths_off,
        .paths_mask = l->max_paths ? (uint64_t)(l->max_paths - 1) << GS_PATH_SHIFT : 0,
        .arcs_off = l->arcs_off,
        .arcs_mask = l->max_arcs ? (uint64_t)(l->max_arcs - 1) << GS_PATH_SHIFT : 0,
        .full_bit0 = l->full_off * 8,
        .filter_bit0 = l->filter_off * 8,
        .filter_mask = l->max_paths ? (uint64_t)l->max_paths * GS_FILTER_BITS_PER_PATH - 1 : 0,
        .arcidx_off = l->max_paths ? l->arcidx_off : 0,
        .arcidx_mask = l->max_arcs
                           ? ((uint64_t)l->max_arcs * GS_ARCIDX_SLOTS_PER_ARC - 1) * GS_ARCIDX_SLOT_SIZE
                           : 0,
        .first_off = l->slots_off > l->first_off ? l->first_off : 0,
    };
    memcpy(rx->code.bytes + rx->blob_off + h->config_off, &cfg, sizeof cfg);
}

static int build_rx(const struct gr_elf *elf, const struct gr_program *prog,
                    const struct gr_plan *plan, const struct gr_layout *l, struct rx_parts *rx,
                    struct gr_error *err)
{
    struct gr_stats_image img = {0};
    rx->tramp.entry = calloc(plan->nfuncs ? plan->nfuncs : 1, sizeof *rx->tramp.entry);
    rx->tramp.exit = calloc(plan->exits.n ? plan->exits.n : 1, sizeof *rx->tramp.exit);
    if (!rx->tramp.entry || !rx->tramp.exit)
        return gr_fail(err, "out of memory");
    if (gr_code_init(&rx->code, l->rx_vaddr, err) < 0 || place_blob(rx, l, err) < 0)
        return -1;
    struct gr_stub_routines stubs = stub_routines(rx, l);
    if (gr_trampolines_generate(elf, plan, l, &stubs, &rx->code, &rx->tramp, err) < 0 ||
        gr_code_pad(&rx->code, 16, GR_X86_INT3, err) < 0 ||
        gr_stats_image_build(plan, prog, l, &img, err) < 0)
        return -1;
    rx->image_off = rx->code.len;
    rx->image_size = img.len;
    int rc = gr_code_append(&rx->code, img.bytes, img.len, err);
    gr_stats_image_free(&img);
    if (rc == 0)
        fill_config(rx, elf, plan, l);
    return rc;
}

/* A jmp rel32 to the trampoline; the rest of the covered bytes int3. */
static void jmp_patch(struct gr_patch *pt, uint64_t addr, unsigned len, uint64_t target)
{
    pt->addr = addr;
    pt->len = (uint8_t)len;
    int32_t rel = (int32_t)(int64_t)(target - (addr + 5));
    pt->bytes[0] = GR_X86_JMP_REL32;
    memcpy(pt->bytes + 1, &rel, 4);
    memset(pt->bytes + GR_X86_JMP_REL32_LEN, GR_X86_INT3, len - GR_X86_JMP_REL32_LEN);
}

/* The site's call or jmp, its rel32 aimed at the callee's trampoline. */
static void call_site_patch(struct gr_patch *pt, const struct gr_call_site *cs, uint64_t target)
{
    pt->addr = cs->addr;
    pt->len = GR_X86_JMP_REL32_LEN;
    pt->kind = GR_PATCH_CALL_SITE;
    int32_t rel = (int32_t)(int64_t)(target - (cs->addr + 5));
    pt->bytes[0] = cs->opcode;
    memcpy(pt->bytes + 1, &rel, 4);
}

/* Entry patches over the stack checks, exit patches over the returns,
 * then the call sites. */
static struct gr_patch *build_patches(const struct gr_plan *plan, const struct gr_tramp_addrs *t,
                                      size_t *npatches)
{
    struct gr_patch *p = calloc(plan->ninstrumented + plan->exits.n + plan->calls.n + 1, sizeof *p);
    size_t n = 0;
    for (size_t i = 0; p && i < plan->nfuncs; i++) {
        const struct gr_plan_func *pf = &plan->funcs[i];
        if (!pf->skip_reason)
            jmp_patch(&p[n++], pf->func->entry, pf->prologue.len, t->entry[i]);
    }
    for (size_t k = 0; p && k < plan->exits.n; k++) {
        const struct gr_exit *e = &plan->exits.items[k];
        jmp_patch(&p[n++], e->addr, e->len, t->exit[k]);
    }
    for (size_t k = 0; p && k < plan->calls.n; k++)
        call_site_patch(&p[n++], &plan->calls.items[k], t->entry[plan->calls.items[k].callee]);
    *npatches = n;
    return p;
}

/* The report is written once the output is in place; if it cannot be,
 * the output goes too, so that exit status 2 still means "no output". */
static int write_report(const char *path, const struct gr_elf *elf, const char *out_path,
                        const struct gr_elf_edit *edit, const struct gr_elf_written *written,
                        struct gr_error *err)
{
    if (gr_output_report_write(path, elf, out_path, edit, written, err) == 0)
        return 0;
    unlink(out_path);
    return -1;
}

static int write_output(const struct gr_elf *elf, const struct gr_plan *plan,
                        const struct gr_layout *l, struct rx_parts *rx, const char *out_path,
                        const char *report_path, struct gr_error *err)
{
    size_t npatches;
    struct gr_patch *patches = build_patches(plan, &rx->tramp, &npatches);
    if (!patches)
        return gr_fail(err, "out of memory");
    const struct gs_blob_header *h = (const struct gs_blob_header *)(rx->code.bytes + rx->blob_off);
    struct gr_elf_edit edit = {
        .entry = l->blob_addr + h->entry_off,
        .rw = {.section_name = GR_DATA_SECTION, .flags = PF_R | PF_W,
               .vaddr = l->rw_vaddr, .memsz = l->rw_memsz},
        .rx = {.section_name = GR_TEXT_SECTION, .flags = PF_R | PF_X, .vaddr = l->rx_vaddr,
               .memsz = rx->code.len, .bytes = rx->code.bytes, .filesz = rx->code.len},
        .rx_offset = l->rx_offset,
        .phdr_area = l->phdr_area,
        .patches = patches,
        .npatches = npatches,
    };
    struct gr_elf_written written;
    int rc = gr_elf_write(elf, &edit, out_path, report_path ? &written : NULL, err);
    if (rc == 0 && report_path) {
        rc = write_report(report_path, elf, out_path, &edit, &written, err);
        gr_elf_written_free(&written);
    }
    free(patches);
    return rc;
}

/* The g/m layout from the table and the binary (go_layout_check.c); a
 * release newer than every row is announced in one line on the log. */
static int check_go_version(const struct gr_elf *elf, struct gr_program *prog, int strict,
                            FILE *log, struct gr_error *err)
{
    struct gr_layout_evidence ev;
    if (!prog->go_version[0])
        return gr_fail(err, "%s: cannot tell which Go release built it (no readable .go.buildinfo)",
                       elf->path);
    gr_layout_gather(elf, prog, &ev);
    if (gr_layout_decide(elf->path, prog->go_version, &ev, strict, &prog->layout,
                         &prog->layout_unverified, err) < 0)
        return -1;
    if (prog->layout_unverified)
        fprintf(log, "gorewrite: warning: %s: %s is newer than the releases verified (Go %s); "
                "its runtime layout was derived from the binary and is unverified "
                "(--strict-release refuses it)\n", elf->path, prog->go_version,
                gr_go_layouts_known());
    return 0;
}

int gr_rewrite(const char *in_path, const char *out_path, const struct gr_options *opt,
               FILE *log, struct gr_result *res, struct gr_error *err)
{
    struct gr_elf elf;
    struct gr_program prog = {0};
    struct gr_plan plan = {0};
    struct gr_layout layout = {.sample = opt->time_all ? 1 : opt->sample,
                               .max_paths = opt->max_paths,
                               .max_arcs = opt->max_arcs};
    struct rx_parts rx = {0};
    int rc = gr_elf_read(in_path, &elf, err);
    /* A setuid copy would let any user steer a privileged program's stats
       file; privileges are kept only when asked for (--keep-setuid). */
    if (rc == 0 && !opt->keep_setuid)
        elf.mode &= ~(uint32_t)(S_ISUID | S_ISGID);
    if (rc == 0 && gr_elf_section(&elf, GR_TEXT_SECTION))
        rc = gr_fail(err, "%s: already instrumented by gorewrite; instrument the original instead",
                     in_path);
    if (rc == 0)
        rc = gr_program_read(&elf, &prog, err);
    if (rc == 0)
        rc = check_go_version(&elf, &prog, opt->strict_release, log, err);
    if (rc == 0 && prog.dwarf_ignored)
        fprintf(log, "gorewrite: warning: DWARF ignored (no declaration lines): %s\n",
                prog.dwarf_error.msg);
    if (rc == 0)
        rc = gr_plan_build(&elf, &prog, !opt->count_only, &plan, err);
    if (rc == 0 && !opt->keep_call_sites && gr_call_sites_find(&elf, &plan, &plan.calls) < 0)
        rc = gr_fail(err, "%s: out of memory for the call sites", in_path);
    if (rc == 0 && opt->verbose)
        gr_report_plan(log, &plan);
    if (rc == 0)
        rc = gr_layout_plan(&elf, (uint32_t)plan.ninstrumented, (uint32_t)plan.ntimed,
                            opt->max_rows, !opt->count_only, &layout, err);
    if (rc == 0)
        rc = build_rx(&elf, &prog, &plan, &layout, &rx, err);
    if (rc == 0)
        rc = write_output(&elf, &plan, &layout, &rx, out_path, opt->layout_report, err);
    if (rc == 0) {
        res->nfuncs = plan.nfuncs;
        res->ninstrumented = plan.ninstrumented;
        res->ntimed = plan.ntimed;
        res->in_size = elf.size;
        res->out_size = layout.rx_offset + rx.code.len;
        snprintf(res->go_version, sizeof res->go_version, "%s", prog.go_version);
    }
    free(rx.tramp.entry);
    free(rx.tramp.exit);
    gr_code_free(&rx.code);
    gr_plan_free(&plan);
    gr_program_free(&prog);
    gr_elf_free(&elf);
    return rc;
}
