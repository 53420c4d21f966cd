/* exported by format */
/* timing_mode.h: the timing mode, one type from gorewrite's command line to
 * the stubs' configuration, the stats header and gostat's JSON. What each
 * layer stores (the header's flags and sample_every, the stubs' sample
 * word) is derived here and read back here, nowhere else.
 * Freestanding: the stubs include it. */
#ifndef GS_TIMING_MODE_H
#define GS_TIMING_MODE_H

#include "format/gostat_format.h"

#include <stdint.h>

/* Zero is the default mode, as for a zeroed gr_options. */
enum gs_mode {
    GS_MODE_SAMPLED,     /* the default (sample_every 0: each function's first
                            calls, then ever more rarely) or --sample N */
    GS_MODE_COUNT,       /* --count-only: every call counted, none timed */
    GS_MODE_EVERY_CALL,  /* --time-all: every call timed */
    GS_MODE_CALL_GRAPH,  /* --call-graph: every call timed with its calling
                            context (paths, arcs, self time) */
};

struct gs_timing_mode {
    enum gs_mode mode;
    uint32_t sample_every;   /* GS_MODE_SAMPLED: about 1 call in this many;
                                0: the default's adaptive sampling */
};

/* The mode's name in gostat's JSON ("mode") and messages. */
static inline const char *gs_mode_name(enum gs_mode m)
{
    switch (m) {
    case GS_MODE_COUNT: return "count-only";
    case GS_MODE_SAMPLED: return "sampled";
    case GS_MODE_EVERY_CALL: return "time-all";
    case GS_MODE_CALL_GRAPH: return "call-graph";
    }
    return "unknown";
}

static inline int gs_mode_times(enum gs_mode m)
{
    return m != GS_MODE_COUNT;
}

static inline int gs_mode_times_every_call(enum gs_mode m)
{
    return m == GS_MODE_EVERY_CALL || m == GS_MODE_CALL_GRAPH;
}

/* The stubs' sample word (stub_abi.h GS_CFG_SAMPLE) and the header's
 * sample_every: 1 when every call is timed, N for --sample N, 0 for the
 * default mode and for counting only. */
static inline uint32_t gs_mode_sample_word(struct gs_timing_mode t)
{
    if (gs_mode_times_every_call(t.mode))
        return 1;
    return t.mode == GS_MODE_SAMPLED ? t.sample_every : 0;
}

/* gs_header.flags of a file whose program times calls in mode t. */
static inline uint32_t gs_mode_header_flags(struct gs_timing_mode t)
{
    uint32_t flags = gs_mode_times(t.mode) ? GS_HDR_TIMING : 0;
    if (t.mode == GS_MODE_SAMPLED && t.sample_every == 0)
        flags |= GS_HDR_ADAPTIVE;
    if (t.mode == GS_MODE_CALL_GRAPH)
        flags |= GS_HDR_PATHS | GS_HDR_PATH_TOTALS;
    return flags;
}

/* The mode a stats header records (its flags and sample_every), as
 * gs_mode_header_flags and gs_mode_sample_word wrote them; sample_every 0
 * without GS_HDR_ADAPTIVE reads as every call. gostat's check refuses the
 * combinations no mode writes (gs_mode_header_consistent). */
static inline struct gs_timing_mode gs_mode_of_header(uint32_t flags, uint32_t sample_every)
{
    if (!(flags & GS_HDR_TIMING))
        return (struct gs_timing_mode){ GS_MODE_COUNT, 0 };
    if (flags & GS_HDR_PATHS)
        return (struct gs_timing_mode){ GS_MODE_CALL_GRAPH, 0 };
    if (flags & GS_HDR_ADAPTIVE)
        return (struct gs_timing_mode){ GS_MODE_SAMPLED, 0 };
    if (sample_every > 1)
        return (struct gs_timing_mode){ GS_MODE_SAMPLED, sample_every };
    return (struct gs_timing_mode){ GS_MODE_EVERY_CALL, 0 };
}

/* The header names one mode: call paths only with every call timed, the
 * default's adaptive sampling without a fixed period. */
static inline int gs_mode_header_consistent(uint32_t flags, uint32_t sample_every)
{
    if ((flags & GS_HDR_PATHS) && ((flags & GS_HDR_ADAPTIVE) || sample_every > 1))
        return 0;
    return !(flags & GS_HDR_ADAPTIVE) || sample_every == 0;
}

#endif
