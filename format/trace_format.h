/* exported by format */
/* trace_format.h: the trace part of the stats file (gorewrite --trace):
 * the trace section in the file's read-only prefix (which functions are
 * traced, where each captured word lies in an event, the values helper's
 * descriptor of each), and the per-thread event rings, one in each row's
 * head. Included by assembly too: offsets are macros. docs/trace.md. */
#ifndef GS_TRACE_FORMAT_H
#define GS_TRACE_FORMAT_H

/* An event (and a goroutine's pending call, which has the same layout
 * from GS_EV_START on): fixed-size slots of gs_trace_section.event_size
 * bytes. seq is written 0 first, then the event, then its sequence number
 * (1, 2, ... per ring): a reader that reads the same non-zero seq before
 * and after copying the slot has a whole event. */
#define GS_EV_SEQ 0            /* u64; unused in a pending record */
#define GS_EV_GOID 8           /* u64 */
#define GS_EV_START 16         /* u64 TSC at entry */
#define GS_EV_CALLER 24        /* u64 run-time return address */
#define GS_EV_DUR 32           /* u64 ticks, compensated as timed calls are */
#define GS_EV_TFUNC 40         /* u32 index into the trace function table */
#define GS_EV_USED 44          /* u32 bytes of the slot in use (multiple of 8) */
#define GS_EV_FLAGS 48         /* u32 GS_EVF_* */
#define GS_EV_REC 52           /* u32 the function's timing record offset */
#define GS_EV_ONCPU 56         /* u64 on-CPU ticks of the call (docs/timing.md) */
#define GS_EV_DATA 64          /* words and byte copies, where gs_trace_func says */
#define GS_EVF_PANICKED 1      /* unwound by a panic or Goexit: no results */

/* A ring, at gs_trace_section.ring_off in each row: this header, then
 * slots of event_size bytes up to ring_size. Full: the oldest event is
 * overwritten (lost = head - slots when positive); dropped counts events
 * that never reached a ring (no room to keep the call's arguments). */
#define GS_RING_HEAD 0         /* u64: events written (the newest's seq) */
#define GS_RING_NEXT 8         /* u64: offset of the next slot to write (writer's) */
#define GS_RING_TID 16         /* u64: the thread's id (gettid), 0 until its first event */
#define GS_RING_DROPPED 24     /* u64 */
#define GS_RING_SCRATCH 32     /* u64: unused (registers are never kept in the shared file) */
#define GS_RING_SLOTS 64       /* the first slot */

/* The weight of a traced call's timing entry (stub_abi.h GS_ENT_W; a
 * timed call's is at least 1): its call may have a pending record to
 * commit when it ends. Its time is recorded with weight 1. */
#define GS_ENT_W_TRACED 0

#define GS_TRACE_MAGIC 0x3130454341525447 /* "GTRACE01" */
#define GS_TRACE_MAX_FUNCS (1u << 20)
#define GS_TRACE_MAX_EVENT 65536u
#define GS_TRACE_MAX_RING (1u << 30)

#ifndef __ASSEMBLER__
#include <stdint.h>

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
    uint16_t entry_nwords, entry_nbytes, exit_nwords, exit_nbytes;
    /* in an event: words (u64 each), then one u32 copied length per byte
       copy (8-aligned), then the copies, bytes_max each (8-aligned) */
    uint32_t entry_off, exit_off;
    uint32_t used;             /* bytes of its events in use */
    uint32_t reserved[2];
};

/* A capture part (entry or exit) at off in an event: nwords words, then
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
