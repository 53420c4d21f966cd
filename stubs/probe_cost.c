/* probe_cost.c: measures at start-up what a probe costs on this machine,
 * in TSC ticks, for overhead compensation (docs/timing.md, "Compensation"):
 * it runs the real stub routines, through trampoline-shaped empty
 * functions (probe_cost.S), on a private fake goroutine, thread row and
 * timing stack 0 (handed out later as usual), and keeps the least of many
 * short trials: what the probe costs when nothing else interferes. */
#include "stubs/probe_cost.h"

#include "format/gostat_format.h"
#include "stubs/sys.h"

extern volatile struct gs_stub_config gs_config;

enum cal_fn { CAL_PLAIN, CAL_TIMED, CAL_UNTIMED }; /* probe_cost.S */
uint64_t gs_cal_run(enum cal_fn fn, void *g, uint64_t n, void *row, void *stack_hi, void *racectx);

#define CAL_TRIALS 256
#define CAL_CALLS 16           /* back-to-back calls per trial */

struct cal_world {
    uint8_t *g, *m, *row;
    uint8_t *stack;           /* timing stack 0 */
};

static uint64_t run(const struct cal_world *w, enum cal_fn fn, uint64_t n)
{
    return gs_cal_run(fn, w->g, n, w->row, w->g + gs_config.g_stack_hi, w->g + gs_config.g_slot);
}

static uint64_t least(uint64_t a, uint64_t b)
{
    return a < b ? a : b;
}

/* A goroutine with timing stack 0 and no open call, on a thread whose row
 * has the record's page ready and the untimed counter far from its turn. */
static void build_world(struct cal_world *w, uint8_t *pages, uint64_t stack_base)
{
    uint64_t sp = (uint64_t)__builtin_frame_address(0);
    w->g = pages;
    w->m = pages + GS_PAGE;
    w->row = pages + 2 * GS_PAGE;
    w->stack = (uint8_t *)stack_base;
    *(uint64_t *)(w->g + gs_config.g_m) = (uint64_t)w->m;
    *(uint64_t *)(w->g + gs_config.g_stack_hi) = sp + 65536; /* depths only: never read */
    *(uint64_t *)(w->g + gs_config.g_slot) = (stack_base >> GS_SLOT_SHIFT) << 32 | GS_MARKER_NONE;
    *(uint64_t *)(w->m + gs_config.m_row) = (uint64_t)w->row;
    w->row[GS_ROW_PAGEMAP + 1] = GS_PAGE_READY;
    *(int64_t *)(w->row + CAL_COUNTER + 8) = INT64_MIN / 2;
    *(uint32_t *)(w->stack + GS_SLOT_TOP) = GS_SLOT_ENTRIES;
    *(uint32_t *)(w->stack + GS_SLOT_ENTRIES - GS_ENT_SIZE + GS_ENT_DEPTH) = 0;
}

static void measure(const struct cal_world *w, struct gs_private *priv)
{
    uint64_t plain = UINT64_MAX, timed = UINT64_MAX;
    uint64_t untimed = UINT64_MAX, inner = UINT64_MAX;
    volatile uint64_t *total = (volatile uint64_t *)(w->row + CAL_REC + GS_TIM_TOTAL);
    for (unsigned t = 0; t < CAL_TRIALS; t++) {
        plain = least(plain, run(w, CAL_PLAIN, CAL_CALLS));
        uint64_t before = *total;
        timed = least(timed, run(w, CAL_TIMED, CAL_CALLS));
        inner = least(inner, *total - before);
        /* no call open: the marker the last pop left is the low half of
           the made-up g.stack.hi, which may lie past a 4 GiB boundary */
        *(uint32_t *)(w->g + gs_config.g_slot) = GS_MARKER_NONE;
        untimed = least(untimed, run(w, CAL_UNTIMED, CAL_CALLS));
    }
    /* inner is the recorded durations: the body's time, then the probe's */
    inner = inner > plain ? (inner - plain) / CAL_CALLS : 0;
    timed = timed > plain ? (timed - plain) / CAL_CALLS : 0;
    priv->probe = timed;
    priv->probe_inner = least(inner, timed);
    priv->probe_untimed =
        untimed > plain ? ((untimed - plain) << GS_UNTIMED_SHIFT) / CAL_CALLS : 0;
}

/* With timing stacks mapped (priv->slots_max) and the calibration zero,
 * so the calibration's own durations are raw. */
void gs_measure_probe_cost(struct gs_private *priv, struct gs_header *hdr)
{
    if (gs_config.g_m > GS_PAGE - 8 || gs_config.g_stack_hi > GS_PAGE - 8 ||
        gs_config.g_slot > GS_PAGE - 8 || gs_config.m_row > GS_PAGE - 8)
        return;                                     /* not in the fake g or m: uncompensated */
    long p = gs_syscall6(GS_SYS_mmap, 0, 4 * GS_PAGE, GS_PROT_READ | GS_PROT_WRITE,
                         GS_MAP_PRIVATE | GS_MAP_ANONYMOUS, -1, 0);
    if (p < 0 && p > -4096)
        return;
    struct cal_world w;
    build_world(&w, (uint8_t *)p, priv->slots_base);
    measure(&w, priv);
    *(uint64_t *)(w.stack + GS_SLOT_COMP) = 0;     /* stack 0 is claimed afresh later */
    gs_syscall3(GS_SYS_munmap, p, 4 * GS_PAGE, 0);
    hdr->probe_ticks = (uint32_t)least(priv->probe, UINT32_MAX);
    hdr->probe_inner_ticks = (uint32_t)least(priv->probe_inner, UINT32_MAX);
    hdr->probe_untimed_q8 = (uint32_t)least(priv->probe_untimed, UINT32_MAX);
}
