/* trace_read.c: see trace_read.h. Nothing in the file is trusted: the
 * section is copied and every offset and size in it checked once; each
 * event's function index and size are checked before it is used. */
#include "gostat/read/trace_read.h"
#include "gostat/read/sigbus_guard.h"
#include "common/saturate.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int check_func(const struct gs_header *hdr, const struct gs_trace_section *sec,
                      const struct gs_trace_func *f, uint64_t size)
{
    uint32_t bm = sec->bytes_max;
    if (f->func >= hdr->nfuncs || f->entry_off != GS_EV_DATA || f->used > sec->event_size ||
        f->used % 8 || f->entry_nwords > 64 || f->return_nwords > 64 || f->entry_nbytes > 16 ||
        f->return_nbytes > 16)
        return -1;
    if (gs_trace_part_end(f->entry_off, f->entry_nwords, f->entry_nbytes, bm) > f->return_off ||
        gs_trace_part_end(f->return_off, f->return_nwords, f->return_nbytes, bm) > f->used)
        return -1;
    if ((uint64_t)f->desc_off + f->desc_len > size)
        return -1;
    return 0;
}

int gst_trace_section_check(const struct gs_header *hdr, const uint8_t *b, uint64_t size)
{
    const struct gs_trace_section *sec = (const struct gs_trace_section *)b;
    if (size < sizeof *sec || ((uintptr_t)b & 7) || sec->magic != GS_TRACE_MAGIC || sec->nfuncs > GS_TRACE_MAX_FUNCS ||
        sec->event_size < GS_EV_DATA || sec->event_size > GS_TRACE_MAX_EVENT || sec->event_size % 8 ||
        sec->bytes_max > 4096 || sec->funcs_off != sizeof *sec ||
        sec->funcs_off + (uint64_t)sec->nfuncs * sizeof(struct gs_trace_func) > size ||
        sec->ring_size < GS_RING_SLOTS + sec->event_size || sec->ring_size > GS_TRACE_MAX_RING ||
        sec->ring_off > hdr->row_stride || sec->ring_size > hdr->row_stride - sec->ring_off)
        return -1;
    const struct gs_trace_func *f = (const struct gs_trace_func *)(b + sec->funcs_off);
    for (uint32_t i = 0; i < sec->nfuncs; i++)
        if (check_func(hdr, sec, &f[i], size) < 0)
            return -1;
    return 0;
}

int gst_trace_open(const struct gst_stats *st, struct gst_trace *tr, struct gr_error *err)
{
    memset(tr, 0, sizeof *tr);
    uint64_t off = st->hdr.trace_off, size = st->hdr.trace_size;
    if (!off && !size)
        return 1;
    if (off < sizeof st->hdr || size > st->hdr.live_off || off > st->hdr.live_off - size || !st->fd_open)
        return gr_fail(err, "%s: trace section out of bounds", st->path);
    tr->section = malloc(size ? size : 1);
    if (!tr->section)
        return gr_fail(err, "out of memory");
    if (pread(st->fd, tr->section, size, (off_t)off) != (ssize_t)size || gst_trace_section_check(&st->hdr, tr->section, size) < 0) {
        gst_trace_close(tr);
        return gr_fail(err, "%s: invalid trace section", st->path);
    }
    tr->sec = (const struct gs_trace_section *)tr->section;
    tr->funcs = (const struct gs_trace_func *)(tr->section + tr->sec->funcs_off);
    return 0;
}

/* The ring of row r in the mapping, NULL when the row is not backed. */
static const uint8_t *ring_of(const struct gst_stats *st, const struct gst_trace *tr, uint32_t r)
{
    const uint8_t *live = st->map + st->map_skew;
    const struct gs_live *lv = (const struct gs_live *)live;
    if (r >= st->hdr.max_rows || !(__atomic_load_n(&lv->rows_backed[r / 64], __ATOMIC_ACQUIRE) >> (r % 64) & 1))
        return NULL;
    uint64_t at = st->hdr.rows_off - st->hdr.live_off + (uint64_t)r * st->hdr.row_stride + tr->sec->ring_off;
    if (at + tr->sec->ring_size > st->map_len - st->map_skew)
        return NULL;
    return live + at;
}

static uint64_t load64(const uint8_t *p)
{
    return __atomic_load_n((const uint64_t *)p, __ATOMIC_ACQUIRE);
}

static int add_event(struct gst_trace_batch *b, size_t cap, const struct gst_trace *tr, const uint8_t *slot,
                     uint64_t want, uint64_t tid)
{
    uint32_t es = tr->sec->event_size;
    uint8_t *copy = b->slots + b->n * es;
    if (b->n >= cap || load64(slot) != want)
        return -1;
    memcpy(copy, slot, es);
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
    if (load64(slot) != want)
        return -1;                  /* overwritten meanwhile */
    struct gst_trace_event *e = &b->ev[b->n];
    memcpy(&e->goid, copy + GS_EV_GOID, 8);
    memcpy(&e->start, copy + GS_EV_START, 8);
    memcpy(&e->caller, copy + GS_EV_CALLER, 8);
    memcpy(&e->dur, copy + GS_EV_DUR, 8);
    memcpy(&e->tfunc, copy + GS_EV_TFUNC, 4);
    memcpy(&e->flags, copy + GS_EV_FLAGS, 4);
    uint32_t used;
    memcpy(&used, copy + GS_EV_USED, 4);
    if (e->tfunc >= tr->sec->nfuncs || used != tr->funcs[e->tfunc].used)
        return -1;
    e->seq = want;
    e->tid = tid;
    e->slot = copy;
    b->n++;
    return 0;
}

static int by_start(const void *a, const void *b)
{
    const struct gst_trace_event *x = a, *y = b;
    return x->start < y->start ? -1 : x->start > y->start ? 1 : (x->seq > y->seq) - (x->seq < y->seq);
}

/* The events of one ring newer than the last read. The head is the
 * writer's, so it may be anything: the loop runs at most one ring's
 * slots whatever it says, and a head at or below the last read (a
 * ring rewritten or reset) yields nothing. */
static void read_ring(const struct gst_trace *tr, struct gst_trace *w, uint32_t r, const uint8_t *ring,
                      struct gst_trace_batch *b, size_t cap)
{
    uint64_t nslots = (tr->sec->ring_size - GS_RING_SLOTS) / tr->sec->event_size;
    uint64_t head = load64(ring + GS_RING_HEAD), tid = load64(ring + GS_RING_TID);
    b->dropped = gr_add_saturating(b->dropped, load64(ring + GS_RING_DROPPED));
    uint64_t last = w->last_seq[r];
    if (head <= last)
        return;
    uint64_t from = last + 1;
    if (head - from >= nslots) {
        b->lost = gr_add_saturating(b->lost, head - from + 1 - nslots);
        from = head - nslots + 1;
    }
    for (uint64_t s = from;; s++) {
        const uint8_t *slot = ring + GS_RING_SLOTS + ((s - 1) % nslots) * tr->sec->event_size;
        if (add_event(b, cap, tr, slot, s, tid) < 0 && load64(slot) > s)
            b->lost++;              /* overwritten while being read */
        if (s == head)
            break;
    }
    w->last_seq[r] = head;
}

struct rings_read {
    const struct gst_stats *st;
    struct gst_trace *tr;
    struct gst_trace_batch *b;
    size_t cap;
};

static int read_rings(void *arg)
{
    struct rings_read *rr = arg;
    for (uint32_t r = 0; r < rr->st->hdr.max_rows && r < GS_MAX_ROWS; r++) {
        const uint8_t *ring = ring_of(rr->st, rr->tr, r);
        if (ring)
            read_ring(rr->tr, rr->tr, r, ring, rr->b, rr->cap);
    }
    return 0;
}

int gst_trace_read(const struct gst_stats *st, struct gst_trace *tr, struct gst_trace_batch *b,
                   struct gr_error *err)
{
    memset(b, 0, sizeof *b);
    uint64_t nslots = (tr->sec->ring_size - GS_RING_SLOTS) / tr->sec->event_size;
    uint32_t rows = st->hdr.max_rows;
    size_t cap = (size_t)nslots * rows;
    b->ev = calloc(cap ? cap : 1, sizeof *b->ev);
    b->slots = malloc((cap ? cap : 1) * tr->sec->event_size);
    if (!b->ev || !b->slots) {
        gst_trace_batch_free(b);
        return gr_fail(err, "out of memory for %zu trace events", cap);
    }
    struct rings_read rr = { st, tr, b, cap };
    if (gst_sigbus_guarded(read_rings, &rr) != 0) {
        gst_trace_batch_free(b);
        return gr_fail(err, "%s: file shrank while reading its trace rings", st->path);
    }
    qsort(b->ev, b->n, sizeof *b->ev, by_start);
    return 0;
}

void gst_trace_batch_free(struct gst_trace_batch *b)
{
    free(b->ev);
    free(b->slots);
    memset(b, 0, sizeof *b);
}

void gst_trace_close(struct gst_trace *tr)
{
    free(tr->section);
    memset(tr, 0, sizeof *tr);
}
