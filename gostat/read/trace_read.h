/* exported by gostat/read */
/* trace_read.h: the trace part of a stats file (gorewrite --trace,
 * format/trace_format.h): its section, checked, and the events of the
 * thread rings, each read whole or not at all (the slot's sequence word
 * the same before and after the copy). */
#ifndef GOSTAT_TRACE_READ_H
#define GOSTAT_TRACE_READ_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "format/trace_format.h"
#include "gostat/read/statsfile.h"

struct gst_trace {
    uint8_t *section;               /* a private copy */
    const struct gs_trace_section *sec;
    const struct gs_trace_func *funcs;
    uint64_t last_seq[GS_MAX_ROWS]; /* per row: the newest event read */
};

struct gst_trace_event {
    uint64_t seq, goid, tid, start, caller, dur;
    uint32_t tfunc, flags;
    const uint8_t *slot;            /* event_size bytes, valid until the next read */
};

struct gst_trace_batch {
    struct gst_trace_event *ev;
    uint8_t *slots;
    size_t n;
    uint64_t lost;                  /* overwritten before they were read */
    uint64_t dropped;               /* never reached a ring (all rows, so far) */
};

/* 0 when the trace section b (size bytes, 8-aligned) of a file with
 * header hdr is sound: its counts within limits, every part of every
 * function inside its events, events inside the ring, the ring inside a
 * row, descriptors inside the section; -1 otherwise. */
int gst_trace_section_check(const struct gs_header *hdr, const uint8_t *b, uint64_t size);

/* 0 and *tr filled; 1 when the file has no trace section; -1 on a bad one. */
int gst_trace_open(const struct gst_stats *st, struct gst_trace *tr, struct gr_error *err);

/* The events written since the last call (all, the first time), oldest
 * first by start. */
int gst_trace_read(const struct gst_stats *st, struct gst_trace *tr, struct gst_trace_batch *b,
                   struct gr_error *err);
void gst_trace_batch_free(struct gst_trace_batch *b);
void gst_trace_close(struct gst_trace *tr);

#endif
