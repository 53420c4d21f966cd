/* rewrite.c: runs the pipeline stages in order; data flows one way, from
 * the input ELF to the output file, and nothing is written unless every
 * stage succeeded. Each stage hands over a complete result: find/ the
 * program with its runtime offsets, plan/ the plan with its call sites,
 * gen/ the segment plan and the executable image, elf/ the output file
 * and its report. */
#include "rewriter/rewrite.h"

#include <elf.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/stat.h>

#include "elf/elf_read.h"
#include "elf/elf_write.h"
#include "elf/output_report.h"
#include "rewriter/find/find.h"
#include "rewriter/gen/image.h"
#include "rewriter/gen/segments.h"
#include "rewriter/plan/copy_select.h"
#include "rewriter/plan/plan.h"
#include "rewriter/plan/report.h"
#include "rewriter/plan/trace_plan.h"

#define GR_TEXT_SECTION ".gorewrite.text"
#define GR_DATA_SECTION ".gorewrite.data"

/* A setuid copy would let any user steer a privileged program's stats
 * file; privileges are kept only when asked for (--keep-setuid). */
static int read_input(const char *in_path, const struct gr_options *opt, struct gr_elf *elf,
                      struct gr_error *err)
{
    if (gr_elf_read(in_path, elf, err) < 0)
        return -1;
    if (!opt->keep_setuid)
        elf->mode &= ~(uint32_t)(S_ISUID | S_ISGID);
    if (gr_elf_section(elf, GR_TEXT_SECTION))
        return gr_fail(err, "%s: already instrumented by gorewrite; instrument the original instead",
                       in_path);
    return 0;
}

/* The report is written once the output is in place; if it cannot be,
 * the output goes too, so that exit status 2 still means "no output". */
static int write_report(const char *path, const struct gr_elf *elf, const char *out_path,
                        const struct gr_elf_edit *edit, const struct gr_elf_written *written,
                        const struct gr_plan *plan, struct gr_error *err)
{
    struct gr_output_funcs funcs = {.total = plan->nfuncs, .instrumented = plan->ninstrumented,
                                    .left_out = plan->nleft_out};
    if (gr_output_report_write(path, elf, out_path, edit, written, &funcs, err) == 0)
        return 0;
    unlink(out_path);
    return -1;
}

static int write_output(const struct gr_elf *elf, const struct gr_plan *plan,
                        const struct gr_segment_plan *seg, const struct gr_image *img,
                        const char *out_path, const char *report_path, struct gr_error *err)
{
    struct gr_elf_edit edit = {
        .entry = img->entry,
        .rw = {.section_name = GR_DATA_SECTION, .flags = PF_R | PF_W,
               .vaddr = seg->rw_vaddr, .memsz = seg->rw_memsz},
        .rx = {.section_name = GR_TEXT_SECTION, .flags = PF_R | PF_X, .vaddr = seg->rx_vaddr,
               .memsz = img->code.len, .bytes = img->code.bytes, .filesz = img->code.len},
        .rx_offset = seg->rx_offset,
        .phdr_area = seg->phdr_area,
        .patches = img->patches,
        .npatches = img->npatches,
    };
    struct gr_elf_written written;
    int rc = gr_elf_write(elf, &edit, out_path, report_path ? &written : NULL, err);
    if (rc == 0 && report_path) {
        rc = write_report(report_path, elf, out_path, &edit, &written, plan, err);
        gr_elf_written_free(&written);
    }
    return rc;
}

/* An --only pattern that names no function is most likely a typo: the
 * output would count nothing the user asked for. */
static void warn_unmatched(FILE *log, const struct gr_select *select, const struct gr_options *opt,
                           const struct gr_program *prog)
{
    for (size_t k = 0; k < select->only.n; k++) {
        size_t i = 0;
        while (i < prog->nfuncs && (!prog->funcs[i].name ||
                                    regexec(&select->only.re[k], prog->funcs[i].name, 0, NULL, 0)))
            i++;
        if (i == prog->nfuncs)
            fprintf(log, "gorewrite: warning: --only '%s' matches no function\n", opt->select.only[k]);
    }
}

/* --engine copy: the functions of the copy engine's module, marked in
 * copied (per function) for the plan to leave them out. */
static int choose_copies(const struct gr_program *prog, const struct gr_select *select, FILE *log, int verbose,
                         struct gr_copy_set *copy, uint8_t **copied, struct gr_error *err)
{
    if (gr_copy_select(prog, gr_select_active(select) ? select : NULL, copy, err) < 0)
        return -1;
    if (!(*copied = calloc(prog->nfuncs ? prog->nfuncs : 1, 1)))
        return gr_fail(err, "%s: out of memory", prog->elf->path);
    for (size_t k = 0; k < copy->n; k++)
        (*copied)[copy->funcs[k]] = 1;
    if (verbose)
        gr_copy_report(log, prog, copy);
    return 0;
}

/* The plan of the functions --only and --exclude choose (and, with
 * --engine copy, the copy engine does not take). */
static int plan_selected(const struct gr_elf *elf, const struct gr_program *prog,
                         const struct gr_options *opt, FILE *log, struct gr_plan *plan,
                         struct gr_copy_set *copy, struct gr_error *err)
{
    struct gr_select select;
    uint8_t *copied = NULL;
    if (gr_select_compile(&select, &opt->select, err) < 0)
        return -1;
    warn_unmatched(log, &select, opt, prog);
    int rc = opt->engine == GR_ENGINE_COPY ? choose_copies(prog, &select, log, opt->verbose, copy, &copied, err) : 0;
    select.copied = copied;
    if (rc == 0)
        rc = gr_plan_build(elf, prog, opt->timing.mode, opt->keep_call_sites,
                           gr_select_active(&select) || copied ? &select : NULL, plan, err);
    if (rc == 0 && copied)
        plan->copy = copy;
    gr_select_free(&select);
    free(copied);
    return rc;
}

int gr_rewrite(const char *in_path, const char *out_path, const struct gr_options *opt,
               FILE *log, struct gr_result *res, struct gr_error *err)
{
    struct gr_elf elf;
    struct gr_program prog = {0};
    struct gr_plan plan = {0};
    struct gr_segment_plan seg = {.timing = opt->timing,
                                  .first_n = opt->first_n,
                                  .max_paths = opt->max_paths,
                                  .max_arcs = opt->max_arcs};
    struct gr_image image = {0};
    struct gr_trace_plan trace = {0};
    struct gr_copy_set copy = {0};
    int rc = read_input(in_path, opt, &elf, err);
    if (rc == 0)
        rc = gr_find_program(&elf, opt->strict_release, &prog, err);
    if (rc == 0) {
        gr_find_warn(log, &elf, &prog);
        rc = plan_selected(&elf, &prog, opt, log, &plan, &copy, err);
    }
    if (rc == 0 && opt->ntrace) {
        rc = gr_trace_plan_build(&prog, &plan, opt->trace, opt->ntrace, opt->trace_bytes, &trace, err);
        trace.slower_ns = opt->trace_slower_ns;
        plan.trace = &trace;
        seg.trace_ring_size = trace.n ? opt->trace_buffer : 0;
        if (rc == 0 && !trace.n)
            fprintf(log, "gorewrite: warning: --trace matches no timed function\n");
    }
    if (rc == 0 && plan.oncpu_refused[0])
        fprintf(log, "gorewrite: warning: on-CPU time off (gostat shows none): %s\n", plan.oncpu_refused);
    if (opt->no_sites)
        plan.sites = 0;   /* newproc1's and goexit1's hooks then just continue */
    if (rc == 0 && opt->verbose)
        gr_report_plan(log, &plan);
    seg.max_sites = plan.sites ? (opt->max_sites ? opt->max_sites : GR_SITES) : 0;
    seg.max_glive = opt->max_glive;
    seg.module_size = plan.copy ? copy.first.layout->size + GR_COPY_RW_EXTRA : 0;
    if (rc == 0)
        rc = gr_segments_place(&elf, (uint32_t)plan.ninstrumented, (uint32_t)plan.ntimed,
                               opt->max_rows, &seg, err);
    if (rc == 0)
        rc = gr_image_build(&elf, &prog, &plan, &seg, &image, err);
    if (rc == 0)
        rc = write_output(&elf, &plan, &seg, &image, out_path, opt->layout_report, err);
    if (rc == 0) {
        res->nfuncs = plan.nfuncs;
        res->ninstrumented = plan.ninstrumented;
        res->ntimed = plan.ntimed;
        res->nleft_out = plan.nleft_out;
        res->in_size = elf.size;
        res->out_size = seg.rx_offset + image.code.len;
        snprintf(res->go_version, sizeof res->go_version, "%s", prog.go_version);
    }
    gr_image_free(&image);
    gr_trace_plan_free(&trace);
    gr_plan_free(&plan);
    gr_copy_set_free(&copy);
    gr_program_free(&prog);
    gr_elf_free(&elf);
    return rc;
}
