/* stub_config.c: see stub_config.h. */
#include "rewriter/gen/stub_config.h"

#include <string.h>

#include "common/x86.h"
#include "format/stub_abi.h"
#include "format/trace_format.h"
#include "rewriter/plan/trace_plan.h"

extern const uint8_t gr_stub_blob[];
extern const uint8_t gr_stub_blob_end[];

static const struct gs_blob_header *blob_header(const struct gr_codebuf *code, size_t blob_off)
{
    return (const struct gs_blob_header *)(code->bytes + blob_off);
}

int gr_stub_place(struct gr_codebuf *code, const struct gr_segment_plan *seg, size_t *blob_off,
                  struct gr_error *err)
{
    size_t blob_size = (size_t)(gr_stub_blob_end - gr_stub_blob);
    const struct gs_blob_header *h = (const struct gs_blob_header *)gr_stub_blob;
    if (blob_size < sizeof *h || h->magic != GS_BLOB_MAGIC ||
        h->config_off + sizeof(struct gs_stub_config) > blob_size)
        return gr_fail_as(err, GR_ERR_INTERNAL, "internal error: embedded stub blob is malformed");
    /* elf_write.c writes the program headers into this area */
    if (gr_code_fill(code, seg->phdr_area, 0, err) < 0)
        return -1;
    *blob_off = code->len;
    if (gr_code_append(code, gr_stub_blob, blob_size, err) < 0)
        return -1;
    return gr_code_pad(code, 16, GR_X86_INT3, err);
}

/* With call paths, the timed entries and returns go to gs_path_enter and
 * gs_path_return (stubs/paths.S) instead; in the sampled modes the returns
 * go to gs_sample_return. */
struct gr_stub_routines gr_stub_routines(const struct gr_codebuf *code, size_t blob_off,
                                         const struct gr_segment_plan *seg)
{
    const struct gs_blob_header *h = blob_header(code, blob_off);
    uint64_t blob = code->base + blob_off;
    int paths = seg->timing.mode == GS_MODE_CALL_GRAPH;
    int sampled = !gs_mode_times_every_call(seg->timing.mode);
    return (struct gr_stub_routines){.claim_row = blob + h->claim_row_off,
                                     .row_slow = blob + h->row_slow_off,
                                     .time_enter = blob + (paths ? h->path_enter_off : h->time_enter_off),
                                     .time_return = blob + (paths ? h->path_return_off
                                                          : sampled ? h->sample_return_off
                                                                    : h->time_return_off),
                                     .sample_enter = blob + h->sample_enter_off,
                                     .sched_off = blob + h->sched_off_off,
                                     .sched_on = blob + h->sched_on_off,
                                     .stack_moved = blob + h->stack_moved_off,
                                     .trace_enter = blob + h->trace_enter_off,
                                     .trace_return = blob + h->trace_return_off,
                                     .trace_commit = blob + h->trace_commit_off,

                                     .site_create = blob + h->site_create_off,
                                     .site_end = blob + h->site_end_off,
                                     .tail_return = blob + h->tail_return_off,
                                     .exit = blob + h->exit_off,
                                     .exec_before = blob + h->exec_before_off,
                                     .exec_after = blob + h->exec_after_off,
                                     .signal_gate = blob + h->signal_gate_off};
}

uint64_t gr_stub_entry(const struct gr_codebuf *code, size_t blob_off,
                       const struct gr_segment_plan *seg)
{
    return seg->blob_addr + blob_header(code, blob_off)->entry_off;
}

/* --trace: a goroutine's pending records, one per timing-entry position
 * up to GR_TRACE_DEPTH (fewer for large events: at most GR_TRACE_SLOT_MAX
 * bytes a goroutine, of address space reserved without commit charge),
 * and at most GR_TRACE_SPACE bytes of them in all. */
#define GR_TRACE_DEPTH 16384u
#define GR_TRACE_SLOT_MAX (8ull << 20)
#define GR_TRACE_SPACE (64ull << 30)

static void configure_trace(struct gs_stub_config *cfg, const struct gr_plan *plan,
                            const struct gr_segment_plan *seg)
{
    const struct gr_trace_plan *tp = plan->trace;
    if (!tp || !tp->n || !seg->nslots)
        return;
    uint64_t depth = GR_TRACE_DEPTH;
    while (depth > 256 && depth * tp->event_size > GR_TRACE_SLOT_MAX)
        depth /= 2;
    cfg->g_goid = plan->rt->g_goid;
    cfg->trace_m = tp->event_size / GS_ENT_SIZE;
    cfg->trace_slot = depth * tp->event_size;
    cfg->trace_limit = GS_SLOT_ENTRIES + depth * GS_ENT_SIZE;
    cfg->trace_ring = seg->trace_ring_off;
    cfg->trace_event = tp->event_size;
    cfg->trace_end = GS_RING_SLOTS + (seg->trace_ring_size - GS_RING_SLOTS) / tp->event_size * tp->event_size;
    cfg->trace_min_ns = tp->slower_ns;
    cfg->trace_nslots = GR_TRACE_SPACE / cfg->trace_slot < seg->nslots ? GR_TRACE_SPACE / cfg->trace_slot
                                                                        : seg->nslots;
}

void gr_stub_configure(struct gr_codebuf *code, size_t blob_off, const struct gr_elf *elf,
                       const struct gr_plan *plan, const struct gr_segment_plan *seg,
                       const struct gr_image_place *image)
{
    struct gs_stub_config cfg = {
        .orig_entry_rel = (int64_t)(elf->entry - seg->blob_addr),
        .image_rel = (int64_t)(code->base + image->off - seg->blob_addr),
        .image_size = image->size,
        .rw_rel = (int64_t)(seg->rw_vaddr - seg->blob_addr),
        .shared_size = GR_PAGE + seg->row_stride,
        .rows_size = seg->shared_end - 2 * GR_PAGE,
        .blob_link_addr = seg->blob_addr,
        .g_m = plan->rt->g_m,
        .g_stack_hi = plan->rt->g_stack_hi,
        .g_slot = plan->rt->g_racectx,
        .m_row = gr_m_row_slot(plan->rt),
        .row_stride = seg->row_stride,
        .max_rows = seg->max_rows,
        .row_head = seg->row_head,
        .slots_off = seg->slots_off,
        .nslots = seg->nslots,
        .sample = gs_mode_sample_word(seg->timing),
        .paths_off = seg->paths_off,
        .paths_mask = seg->max_paths ? (gs_paths_pow2(seg->max_paths) - 1) << GS_PATH_SHIFT : 0,
        .paths_n = seg->max_paths,
        .arcs_off = seg->arcs_off,
        .arcs_mask = seg->max_arcs ? (uint64_t)(seg->max_arcs - 1) << GS_PATH_SHIFT : 0,
        .full_bit0 = seg->full_off * 8,
        .filter_bit0 = seg->filter_off * 8,
        .filter_mask = seg->max_paths ? gs_paths_pow2(seg->max_paths) * GS_FILTER_BITS_PER_PATH - 1 : 0,
        .arcidx_off = seg->max_paths ? seg->arcidx_off : 0,
        .arcidx_mask = seg->max_arcs
                           ? ((uint64_t)seg->max_arcs * GS_ARCIDX_SLOTS_PER_ARC - 1) * GS_ARCIDX_SLOT_SIZE
                           : 0,
        .first_off = seg->slots_off > seg->first_off ? seg->first_off : 0,
        .g_gopc = plan->rt->g_gopc,
        .g_startpc = plan->rt->g_startpc,
        .sites_mask = seg->max_sites ? seg->max_sites - 1 : 0,
        .glive_off = seg->glive_off,
        .glive_mask = seg->max_glive ? seg->max_glive - 1 : 0,
        .sites_off = seg->max_sites ? seg->sites_off : 0,
        .m_curg = plan->rt->m_curg,
        .g_sched_sp = plan->rt->g_sched_sp,
        .spaths_off = seg->max_sites ? seg->spaths_off : 0,
        .first_n = seg->first_n,
        .names_rel = image->names_size ? (int64_t)(image->names_addr - seg->blob_addr) : 0,
        .names_size = image->names_size,
    };
    configure_trace(&cfg, plan, seg);
    memcpy(code->bytes + blob_off + blob_header(code, blob_off)->config_off, &cfg, sizeof cfg);
}

