/* exit_calls.c: the timed calls still open on the exiting goroutine when
 * the process exits (os.Exit and a fatal error never return to them) are
 * closed at the exit's time, as their returns would have been
 * (gs_time_return, stubs/timing.S; gs_path_return, stubs/paths.S, whose
 * calls go to their timing record as a call that found room in neither
 * path table does): into the exiting thread's row, while it is still the
 * file's. Runs once, on gs_finish's stack, before the file is frozen. */
#include "format/gostat_format.h"
#include "format/stub_abi.h"
#include "stubs/exit_calls.h"
#include "stubs/sys.h"

#include <stdint.h>

extern uint8_t __blob_start[];
extern volatile struct gs_stub_config gs_config;

#define MADV_POPULATE_WRITE 23
#define EINVAL 22

static uint64_t word_at(uint64_t addr)
{
    return *(volatile const uint64_t *)addr;
}

/* The goroutine whose calls the exit leaves open and its current depth:
 * g itself (the thread's g, from TLS), or, when that is the M's g0 (a
 * fatal error runs on the system stack), the user goroutine it stopped,
 * at its saved stack pointer. 0 when there is none. */
static uint64_t exiting_goroutine(uint64_t g, uint64_t rsp, uint64_t *depth)
{
    uint64_t m = word_at(g + gs_config.g_m);
    if (m && word_at(m + GS_M_G0) == g) {
        g = word_at(m + gs_config.m_curg);
        if (!g)
            return 0;
        rsp = word_at(g + gs_config.g_sched_sp);
    }
    *depth = word_at(g + gs_config.g_stack_hi) - rsp;
    return g;
}

/* Its timing stack, if it claimed one from the pool; else 0. */
static uint8_t *timing_stack(const struct gs_private *priv, uint64_t g)
{
    uint32_t hi = (uint32_t)(word_at(g + gs_config.g_slot) >> 32);
    if (!hi || hi == GS_SLOT_NONE)
        return 0;
    uint64_t at = (uint64_t)hi << GS_SLOT_SHIFT;
    if (at < priv->slots_base || (at - priv->slots_base) >> GS_SLOT_SHIFT >= priv->slots_next ||
        (at - priv->slots_base) >> GS_SLOT_SHIFT >= priv->slots_max)
        return 0;
    return (uint8_t *)at;
}

/* rec names a timing record (gs_timing_offset of one below ntimed). */
static int is_record(const struct gs_header *h, uint32_t rec)
{
    if (rec < h->timing_off)
        return 0;
    uint64_t rel = rec - h->timing_off, in_page = rel % GS_PAGE;
    uint64_t k = rel / GS_PAGE * GS_TIMING_PER_PAGE + in_page / sizeof(struct gs_timing);
    return in_page % sizeof(struct gs_timing) == 0 && in_page < GS_TIMING_PER_PAGE * sizeof(struct gs_timing) &&
           k < h->ntimed;
}

/* The row's page holding rec is backed, as gs_time_return makes it. */
static int page_ready(uint8_t *row, uint32_t rec)
{
    uint8_t *map = row + GS_ROW_PAGEMAP + (rec >> 12);
    if (*map == GS_PAGE_READY)
        return 1;
    if (*map == GS_PAGE_FAILED)
        return 0;
    long rc = gs_syscall3(GS_SYS_madvise, row + ((uint64_t)(rec >> 12) << 12), GS_PAGE, MADV_POPULATE_WRITE);
    *map = rc == 0 || rc == -EINVAL ? GS_PAGE_READY : GS_PAGE_FAILED;
    return *map == GS_PAGE_READY;
}

static unsigned bucket(uint64_t d)
{
    unsigned b = 63 - (unsigned)__builtin_clzll(d | 1ull << GS_HIST_FIRST_BIT);
    b = b < GS_HIST_FIRST_BIT + GS_HIST_BUCKETS - 1 ? b : GS_HIST_FIRST_BIT + GS_HIST_BUCKETS - 1;
    return b - GS_HIST_FIRST_BIT;
}

/* One call of d ticks (d_oncpu on CPU, self of them its own) standing for
 * w calls into record t, as RECORD_CALL adds it. */
static void record(struct gs_timing *t, uint64_t d, uint64_t oncpu, uint64_t self, uint64_t w, int paths)
{
    t->samples++;
    t->total += w * d;
    t->oncpu_total += w * oncpu;
    if (paths)
        t->self_total += self;
    if (d > t->max)
        t->max = d;
    if (~d > t->min_inverted)
        t->min_inverted = ~d;
    t->hist[bucket(d)] += w;
}

/* The functions of the closed calls, outermost first (the entries from
 * the stack's bottom), up to GS_EXIT_CALLS_MAX of them. */
static void note_call(struct gs_exit_closed *out, uint32_t rec)
{
    for (uint32_t i = 0; i < out->n; i++)
        if (out->calls[i].rec == rec) {
            out->calls[i].calls++;
            return;
        }
    if (out->n < GS_EXIT_CALLS_MAX)
        out->calls[out->n++] = (struct gs_exit_call){.rec = rec, .calls = 1};
}

void gs_exit_close_calls(uint64_t g, uint64_t rsp, uint64_t end_tsc, const struct gs_header *img,
                         struct gs_exit_closed *out)
{
    struct gs_private *priv = (struct gs_private *)(__blob_start + gs_config.rw_rel);
    out->n = 0;
    out->total = 0;
    if (!g || !gs_config.nslots || !priv->slots_max || !(img->flags & GS_HDR_TIMING))
        return;
    uint64_t m = word_at(g + gs_config.g_m);
    uint8_t *row = m ? (uint8_t *)word_at(m + gs_config.m_row) : 0;
    uint64_t depth;
    uint64_t eg = row ? exiting_goroutine(g, rsp, &depth) : 0;
    uint8_t *stack = eg ? timing_stack(priv, eg) : 0;
    if (!stack)
        return;
    int paths = (img->flags & GS_HDR_PATHS) != 0;
    uint32_t size = paths ? GS_PENT_SIZE : GS_ENT_SIZE, top = *(volatile uint32_t *)(stack + GS_SLOT_TOP);
    if (top > GS_SLOT_SIZE || top < GS_SLOT_ENTRIES || (top - GS_SLOT_ENTRIES) % size)
        return;
    uint64_t *comp = (uint64_t *)(stack + GS_SLOT_COMP), off_now = *(uint64_t *)(stack + GS_SLOT_OFF);
    for (uint32_t at = top; at > GS_SLOT_ENTRIES; at -= size) {   /* innermost first */
        uint8_t *e = stack + at - size;
        uint32_t edepth = *(uint32_t *)(e + GS_ENT_DEPTH), rec = *(uint32_t *)(e + GS_ENT_REC);
        if (edepth >= depth || !is_record(img, rec) || !page_ready(row, rec))
            continue;                /* a frame gone already (a recovered panic's), or no record */
        int64_t d = (int64_t)(end_tsc - *comp - *(uint64_t *)(stack + GS_SLOT_INNER) - *(uint64_t *)(e + GS_ENT_TSC));
        *comp += *(uint64_t *)(stack + GS_SLOT_PROBE);   /* this probe, for the callers */
        uint64_t dur = d > 0 ? (uint64_t)d : 0, w = 1, self = 0;
        int64_t oncpu = (int64_t)dur - (int64_t)(off_now - *(uint64_t *)(e + (paths ? GS_PENT_OFF : GS_ENT_OFF)));
        if (paths) {
            uint64_t children = *(uint64_t *)(e + GS_PENT_CHILDREN);
            dur = dur > children ? dur : children;
            self = dur - children;
            if (at - size > GS_SLOT_ENTRIES)
                *(uint64_t *)(e - size + GS_PENT_CHILDREN) += dur;   /* the caller's children */
        } else if (*(uint32_t *)(e + GS_ENT_W)) {
            w = *(uint32_t *)(e + GS_ENT_W);
        }
        record((struct gs_timing *)(row + rec), dur, oncpu > 0 ? (uint64_t)oncpu : 0, self, w, paths);
        ((struct gs_drops *)row)->closed_at_exit++;
        out->total++;
    }
    for (uint32_t at = GS_SLOT_ENTRIES; at < top && out->total; at += size) {
        uint8_t *e = stack + at;
        uint32_t rec = *(uint32_t *)(e + GS_ENT_REC);
        if (*(uint32_t *)(e + GS_ENT_DEPTH) < depth && is_record(img, rec) &&
            row[GS_ROW_PAGEMAP + (rec >> 12)] == GS_PAGE_READY)
            note_call(out, rec);
    }
    *(volatile uint32_t *)(stack + GS_SLOT_TOP) = GS_SLOT_ENTRIES;   /* nothing open any more */
}
