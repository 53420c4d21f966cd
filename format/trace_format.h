/* exported by format */
/* trace_format.h: the trace part of the stats file (gorewrite --trace):
 * the trace section in the file's read-only prefix (which functions are
 * traced, where each captured word lies in an event, the values helper's
 * descriptor of each), and the per-thread event rings, one in each row's
 * head. Included by assembly too: constants are macros, and the offsets
 * named in GS_TRACE_OFFSETS come from the structs (format/offset_names.h).
 * docs/trace.md. */
#ifndef GS_TRACE_FORMAT_H
#define GS_TRACE_FORMAT_H

#define GS_EVF_PANICKED 1      /* gs_trace_event.flags: unwound by a panic or Goexit: no results */

/* The weight of a traced call's timing entry (stub_abi.h GS_ENT_W; a
 * timed call's is at least 1): its call may have a pending record to
 * commit when it ends. Its time is recorded with weight 1. */
#define GS_ENT_W_TRACED 0

#define GS_TRACE_MAGIC 0x3130454341525447 /* "GTRACE01" */
#define GS_TRACE_MAX_FUNCS (1u << 20)
#define GS_TRACE_MAX_EVENT 65536u
#define GS_TRACE_MAX_RING (1u << 30)

#ifdef __ASSEMBLER__
#include "format/asm_offsets.h"
#else
#include <stdint.h>

#include "format/offset_names.h"

/* An event (and a goroutine's pending call, which has the same layout
 * from GS_EV_START on): fixed-size slots of gs_trace_section.event_size
 * bytes. seq is written 0 first, then the event, then its sequence number
 * (1, 2, ... per ring): a reader that reads the same non-zero seq before
 * and after copying the slot has a whole event. */
struct gs_trace_event {
    uint64_t seq;              /* unused in a pending record */
    uint64_t goid;
    uint64_t start;            /* TSC at entry */
    uint64_t caller;           /* run-time return address */
    uint64_t dur;              /* ticks, compensated as timed calls are */
    uint32_t tfunc;            /* index into the trace function table */
    uint32_t used;             /* bytes of the slot in use (multiple of 8) */
    uint32_t flags;            /* GS_EVF_* */
    uint32_t rec;              /* the function's timing record offset */
    uint64_t oncpu;            /* on-CPU ticks of the call (docs/timing.md) */
    /* then words and byte copies, where gs_trace_func says */
};

/* A ring, at gs_trace_section.ring_off in each row: this header, then
 * slots of event_size bytes up to ring_size. Full: the oldest event is
 * overwritten (lost = head - slots when positive); dropped counts events
 * that never reached a ring (no room to keep the call's arguments). */
struct gs_ring_head {
    uint64_t head;             /* events written (the newest's seq) */
    uint64_t next;             /* offset of the next slot to write (writer's) */
    uint64_t tid;              /* the thread's id (gettid), 0 until its first event */
    uint64_t dropped;
    uint64_t scratch;          /* unused (registers are never kept in the shared file) */
    uint64_t reserved[3];
    /* then the slots */
};

#define GS_TRACE_OFFSETS(OFFSET, SIZE) \
    OFFSET(GS_EV_SEQ, struct gs_trace_event, seq) \
    OFFSET(GS_EV_GOID, struct gs_trace_event, goid) \
    OFFSET(GS_EV_START, struct gs_trace_event, start) \
    OFFSET(GS_EV_CALLER, struct gs_trace_event, caller) \
    OFFSET(GS_EV_DUR, struct gs_trace_event, dur) \
    OFFSET(GS_EV_TFUNC, struct gs_trace_event, tfunc) \
    OFFSET(GS_EV_USED, struct gs_trace_event, used) \
    OFFSET(GS_EV_FLAGS, struct gs_trace_event, flags) \
    OFFSET(GS_EV_REC, struct gs_trace_event, rec) \
    OFFSET(GS_EV_ONCPU, struct gs_trace_event, oncpu) \
    SIZE(GS_EV_DATA, struct gs_trace_event) \
    OFFSET(GS_RING_HEAD, struct gs_ring_head, head) \
    OFFSET(GS_RING_NEXT, struct gs_ring_head, next) \
    OFFSET(GS_RING_TID, struct gs_ring_head, tid) \
    OFFSET(GS_RING_DROPPED, struct gs_ring_head, dropped) \
    OFFSET(GS_RING_SCRATCH, struct gs_ring_head, scratch) \
    SIZE(GS_RING_SLOTS, struct gs_ring_head)

GS_OFFSET_NAMES(GS_TRACE_OFFSETS);

/* At gs_header.trace_off (trace_size bytes): this, the function table,
 * then the descriptors. Offsets are from the section's start. */
struct gs_trace_section {
    uint64_t magic;            /* GS_TRACE_MAGIC */
    uint32_t nfuncs;           /* traced functions */
    uint32_t event_size;       /* a ring slot's bytes, multiple of 8 */
    uint64_t ring_off;         /* in a row */
    uint64_t ring_size;        /* bytes, header included */
    uint64_t funcs_off;        /* struct gs_trace_func[nfuncs] */
    uint64_t slower_than_ns;   /* --trace-slower-than; 0: every call */
    uint32_t bytes_max;        /* --trace-bytes */
    uint32_t reserved;
    uint64_t reserved2[2];
};

/* Where a traced function's captured values are in its events. */
struct gs_trace_func {
    uint32_t func;             /* index into the function table */
    uint32_t desc_off, desc_len; /* its descriptor (values helper), 0 length: none */
    uint16_t entry_nwords, entry_nbytes, return_nwords, return_nbytes;
    /* in an event: words (u64 each), then one u32 copied length per byte
       copy (8-aligned), then the copies, bytes_max each (8-aligned) */
    uint32_t entry_off, return_off;
    uint32_t used;             /* bytes of its events in use */
    uint32_t reserved[2];
};

/* A capture part (entry or return) at off in an event: nwords words, then
 * nbytes u32 copied lengths (padded to 8), then the copies, each
 * bytes_max rounded up to 8. */
static inline uint32_t gs_trace_lens_off(uint32_t off, uint32_t nwords) { return off + 8u * nwords; }
static inline uint32_t gs_trace_copy_size(uint32_t bytes_max) { return (bytes_max + 7u) & ~7u; }
static inline uint32_t gs_trace_data_off(uint32_t off, uint32_t nwords, uint32_t nbytes)
{
    return gs_trace_lens_off(off, nwords) + ((4u * nbytes + 7u) & ~7u);
}
static inline uint32_t gs_trace_part_end(uint32_t off, uint32_t nwords, uint32_t nbytes, uint32_t bytes_max)
{
    return gs_trace_data_off(off, nwords, nbytes) + nbytes * gs_trace_copy_size(bytes_max);
}

_Static_assert(sizeof(struct gs_trace_section) == 72, "gs_trace_section layout");
_Static_assert(sizeof(struct gs_trace_func) == 40, "gs_trace_func layout");
#endif

#endif
