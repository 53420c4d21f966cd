/* segments.c: chooses addresses and file offsets for the new segments. */
#include "rewriter/gen/segments.h"

#include <elf.h>
#include <inttypes.h>

#include "format/gostat_format.h"
#include "format/stub_abi.h"

/* jmp rel32 reaches +-2 GiB; keep everything well inside that. */
#define MAX_REACH (1ull << 30)

/* The shared part as the file lays it out, counted from the RW segment's
 * start: struct gs_private, struct gs_live, the rows, then the goroutine
 * sites. The segment itself holds only the first page after it, the live
 * page and row 0; the rows and sites are one mapping of their own
 * (stubs/startup.c), which needs no rel32 reach, so a program whose rows are
 * large still gets a row for each of --max-threads threads. */
static uint64_t rows_end(const struct gr_segment_plan *seg)
{
    return 2 * GR_PAGE + (uint64_t)seg->max_rows * seg->row_stride;
}

static uint64_t row0_end(const struct gr_segment_plan *seg)
{
    return 2 * GR_PAGE + seg->row_stride;
}

/* The path table holds the contexts one thread runs, which grow with the
 * program: restic's busiest thread took 47,000-60,000 paths (19,645 timed
 * functions), hugo's 195,000-252,000 (42,671), and a table 95 % full lets
 * paths overflow its full blocks (docs/timing.md). Unless --max-paths sets
 * it: GR_PATHS_PER_TIMED per timed function in whole blocks, from
 * GR_MIN_DEFAULT_PATHS to GR_MAX_DEFAULT_PATHS. */
static uint32_t default_max_paths(uint32_t ntimed)
{
    uint64_t n = (uint64_t)ntimed * GR_PATHS_PER_TIMED;
    n = n < GR_MIN_DEFAULT_PATHS ? GR_MIN_DEFAULT_PATHS : n > GR_MAX_DEFAULT_PATHS ? GR_MAX_DEFAULT_PATHS : n;
    return (uint32_t)gs_path_table_entries(n);
}

/* The arc table takes the calls whose path did not fit, one entry per
 * call site (return address) and callee. In a large program most calls
 * overflow the paths, so every arc it executes must fit here, or those
 * calls lose their arc and pay a whole page of probes each (the Go
 * compiler's case: docs/benchmarks/history.md, "Why --call-graph cost the compiler").
 * Unless --max-arcs sets it: GR_ARCS_PER_TIMED entries per timed function,
 * a power of two from GR_MIN_ARCS to GR_MAX_ARCS, and at least the power
 * of two at or below a quarter of the path table. */
#define GR_ARCS_PER_TIMED 4u

static uint32_t default_max_arcs(const struct gr_segment_plan *seg)
{
    uint32_t n = GR_MIN_ARCS;
    while (n < GR_MAX_ARCS && n < (uint64_t)seg->ntimed * GR_ARCS_PER_TIMED)
        n *= 2;
    while ((uint64_t)n * 2 <= seg->max_paths / 4)
        n *= 2;
    return n;
}

/* The path filter after the tables (private to the writer, stub_abi.h
 * GS_CFG_FILTER_*: gs_filter_full_bytes, gs_filter_bytes), then the count
 * of arcs taken (8 bytes) and, from the next page, the arc index
 * (GS_ARCIDX_*: gs_arcidx_start). The filter and the count are backed at
 * a thread's first timed call, the index a page at a time. */
static uint64_t arcidx_bytes(const struct gr_segment_plan *seg)
{
    return (uint64_t)seg->max_arcs * GS_ARCIDX_SLOTS_PER_ARC * GS_ARCIDX_SLOT_SIZE;
}

static uint64_t path_pages(struct gr_segment_plan *seg)
{
    if (!seg->max_paths) {
        seg->max_arcs = 0;
        return 0;
    }
    if (!seg->max_arcs)
        seg->max_arcs = default_max_arcs(seg);
    uint64_t tables = ((uint64_t)seg->max_paths + seg->max_arcs) * sizeof(struct gs_path);
    return gr_align_up(tables + gs_arcidx_start(seg->max_paths) + arcidx_bytes(seg), GR_PAGE) / GR_PAGE;
}

/* A row (gostat_format.h): drops and the page map, the counters, the
 * trace ring (--trace; backed with them when a thread claims the row), the
 * timing pages, then the path and arc tables. The map's size depends on
 * the row's, hence the loop. */
static void plan_row(struct gr_segment_plan *seg)
{
    uint64_t timing_pages = (seg->ntimed + GS_TIMING_PER_PAGE - 1) / GS_TIMING_PER_PAGE;
    uint64_t paths = path_pages(seg);
    uint64_t head_pages = 1;
    for (;;) {
        uint64_t map_end = GS_ROW_PAGEMAP + head_pages + timing_pages + paths;
        seg->counts_off = gr_align_up(map_end, 64);
        seg->trace_ring_off = gr_align_up(seg->counts_off + 8ull * (seg->nfuncs ? seg->nfuncs : 1), GR_PAGE);
        uint64_t need = (seg->trace_ring_off + gr_align_up(seg->trace_ring_size, GR_PAGE)) / GR_PAGE;
        if (need <= head_pages)
            break;
        head_pages = need;
    }
    seg->row_head = head_pages * GR_PAGE;
    seg->timing_off = seg->row_head;
    seg->paths_off = (head_pages + timing_pages) * GR_PAGE;
    seg->arcs_off = seg->paths_off + (uint64_t)seg->max_paths * sizeof(struct gs_path);
    seg->full_off = seg->arcs_off + (uint64_t)seg->max_arcs * sizeof(struct gs_path);
    seg->filter_off = seg->full_off + gs_filter_full_bytes(seg->max_paths);
    seg->arcidx_off = seg->full_off + gs_arcidx_start(seg->max_paths);
    seg->row_stride = (head_pages + timing_pages + paths) * GR_PAGE;
}

/* The default mode's first-calls counters, private to the process (stub_abi.h
 * GS_CFG_FIRST_OFF): a u32 per function at half its counter's row offset. */
static uint64_t first_calls_bytes(const struct gr_segment_plan *seg)
{
    if (seg->timing.mode != GS_MODE_SAMPLED || seg->timing.sample_every != 0)
        return 0;
    return gr_align_up((seg->counts_off + 8ull * (seg->nfuncs ? seg->nfuncs : 1)) / 2, GR_PAGE);
}

/* The goroutine sites section after the rows (gostat_format.h): its head
 * page, the site table, then the live table from a page boundary, then
 * with call paths the creators' paths. */
static void place_sites(struct gr_segment_plan *seg)
{
    seg->sites_off = rows_end(seg);
    seg->spaths_off = 0;
    if (!seg->max_sites) {
        seg->max_glive = 0;
        seg->glive_off = 0;
        return;
    }
    if (!seg->max_glive)
        seg->max_glive = GR_GLIVE;
    seg->glive_off = gr_align_up(GR_PAGE + (uint64_t)seg->max_sites * sizeof(struct gs_site), GR_PAGE);
    if (seg->max_paths)
        seg->spaths_off = gr_align_up(seg->glive_off + (uint64_t)seg->max_glive * sizeof(struct gs_glive),
                                      GR_PAGE);
}

static uint64_t sites_bytes(const struct gr_segment_plan *seg)
{
    if (!seg->max_sites)
        return 0;
    if (seg->spaths_off)
        return gr_align_up(seg->spaths_off + (uint64_t)seg->max_sites * sizeof(struct gs_spath), GR_PAGE);
    return gr_align_up(seg->glive_off + (uint64_t)seg->max_glive * sizeof(struct gs_glive), GR_PAGE);
}

int gr_segments_place(const struct gr_elf *elf, uint32_t nfuncs, uint32_t ntimed,
                      uint32_t max_rows, struct gr_segment_plan *seg,
                      struct gr_error *err)
{
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)elf->data;
    seg->nfuncs = nfuncs;
    seg->ntimed = ntimed;
    seg->max_rows = max_rows;
    if (seg->timing.mode != GS_MODE_CALL_GRAPH)
        seg->max_paths = 0;
    else if (seg->max_paths == GR_PATHS_FROM_PROGRAM)
        seg->max_paths = default_max_paths(ntimed);
    plan_row(seg);
    seg->rw_vaddr = gr_align_up(gr_elf_load_end(elf), GR_PAGE) + GR_PAGE;
    if (row0_end(seg) > MAX_REACH / 2)
        return gr_fail(err, "%s: a counter row of %" PRIu64 " MiB does not fit in rel32 reach; "
                       "use a smaller --max-paths", elf->path, seg->row_stride >> 20);
    place_sites(seg);
    seg->shared_end = seg->sites_off + sites_bytes(seg);
    seg->first_off = row0_end(seg);   /* the segment's shared part ends here */
    seg->slots_off = seg->first_off + first_calls_bytes(seg);
    seg->nslots = gs_mode_times(seg->timing.mode) ? GR_TIMING_STACKS : 0;
    seg->rw_memsz = seg->slots_off;   /* the timing stacks are mapped at start-up */
    seg->module_off = seg->module_size ? seg->slots_off : 0;
    seg->rw_memsz += gr_align_up(seg->module_size, GR_PAGE);
    seg->rx_vaddr = gr_align_up(seg->rw_vaddr + seg->rw_memsz, GR_PAGE) + GR_PAGE;
    seg->rx_offset = gr_align_up(elf->size, GR_PAGE);
    seg->phdr_area = gr_align_up((uint64_t)(eh->e_phnum + 2) * sizeof(Elf64_Phdr), 64);
    seg->blob_addr = seg->rx_vaddr + seg->phdr_area;
    if (seg->rx_vaddr - elf->entry > MAX_REACH)
        return gr_fail(err, "%s: program too large to reach new code with rel32 jumps", elf->path);
    return 0;
}
