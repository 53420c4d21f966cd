/* exported by format */
/* gostat_merge.h: how the records of a stats file add up, across rows and
 * across files: one merge kind per field of each record that sums. The
 * stubs' merge at exit (stubs/finish.c) and gostat's sums over rows and
 * files (gostat/read/statsfile.c) both take the kinds from here, so a
 * merged file reads as its inputs read together, saturation included.
 * Each record's list must cover the whole struct (checked at compile
 * time): a field added to a record gets a kind here, never a default.
 * Freestanding: the stubs include it. */
#ifndef GOSTAT_MERGE_H
#define GOSTAT_MERGE_H

#include "format/gostat_format.h"

#include <stddef.h>
#include <stdint.h>

enum gs_merge_kind {
    GS_KIND_SUM = 1,    /* modular sum: a word that is a count only with
                           another (a sampling counter holds calls - next) */
    GS_KIND_SATURATE,   /* sum that stops at UINT64_MAX: counts and ticks */
    GS_KIND_MAX,        /* the larger */
    GS_KIND_MIN,        /* a minimum kept inverted (~min; 0: none): the
                           larger word, the smaller minimum */
    GS_KIND_KEEP,       /* the merged record's own: keys, a writer's state */
};

/* X(struct tag, field, kind) for every field, in order. */
#define GS_COUNTER_FIELDS(X) X(gs_counter, calls, GS_KIND_SUM)

#define GS_DROPS_FIELDS(X)                                                                      \
    X(gs_drops, unwound, GS_KIND_SATURATE) X(gs_drops, too_deep, GS_KIND_SATURATE)                \
    X(gs_drops, no_slot, GS_KIND_SATURATE) X(gs_drops, unmatched, GS_KIND_SATURATE)               \
    X(gs_drops, no_space, GS_KIND_SATURATE) X(gs_drops, path_overflow, GS_KIND_SATURATE)          \
    X(gs_drops, sample_rng, GS_KIND_KEEP) X(gs_drops, arc_overflow, GS_KIND_SATURATE)             \
    X(gs_drops, abandoned, GS_KIND_SATURATE) X(gs_drops, sampled_probes, GS_KIND_SATURATE)        \
    X(gs_drops, sampled_probe_ticks, GS_KIND_SATURATE) X(gs_drops, closed_at_exit, GS_KIND_SATURATE) \
    X(gs_drops, reserved, GS_KIND_KEEP)

/* next is summed like the counters it completes; gap, the weight a
 * thread's next timed call would get, is kept as the largest, so "a
 * thread left calls untimed after its last timed one" (gap above 1)
 * survives the merge and is not made up from two gaps of 1. */
#define GS_TIMING_FIELDS(X)                                                                     \
    X(gs_timing, total, GS_KIND_SATURATE) X(gs_timing, max, GS_KIND_MAX)                          \
    X(gs_timing, min_inverted, GS_KIND_MIN) X(gs_timing, hist, GS_KIND_SATURATE)                  \
    X(gs_timing, next, GS_KIND_SUM) X(gs_timing, gap, GS_KIND_MAX)                                \
    X(gs_timing, samples, GS_KIND_SATURATE) X(gs_timing, self_total, GS_KIND_SATURATE)            \
    X(gs_timing, oncpu_total, GS_KIND_SATURATE)

/* An entry is merged into one of the same key, whose parent, return
 * address and record the key names. */
#define GS_PATH_FIELDS(X)                                                                       \
    X(gs_path, key, GS_KIND_KEEP) X(gs_path, parent, GS_KIND_KEEP) X(gs_path, ret, GS_KIND_KEEP)  \
    X(gs_path, rec, GS_KIND_KEEP) X(gs_path, reserved, GS_KIND_KEEP)                              \
    X(gs_path, calls, GS_KIND_SATURATE) X(gs_path, total, GS_KIND_SATURATE)                       \
    X(gs_path, self, GS_KIND_SATURATE) X(gs_path, oncpu, GS_KIND_SATURATE)

#define GS_SITE_HEAD_FIELDS(X)                                                                  \
    X(gs_site_head, no_site, GS_KIND_SATURATE) X(gs_site_head, no_live, GS_KIND_SATURATE)         \
    X(gs_site_head, unborn, GS_KIND_SATURATE) X(gs_site_head, reserved, GS_KIND_KEEP)

#define GS_SITE_FIELDS(X)                                                                       \
    X(gs_site, key, GS_KIND_KEEP) X(gs_site, created, GS_KIND_SATURATE)                           \
    X(gs_site, untimed_exits, GS_KIND_SATURATE) X(gs_site, exit_oldest, GS_KIND_MAX)               \
    X(gs_site, total, GS_KIND_SATURATE) X(gs_site, max, GS_KIND_MAX) X(gs_site, path, GS_KIND_KEEP) \
    X(gs_site, claim, GS_KIND_KEEP) X(gs_site, hist, GS_KIND_SATURATE)

/* GS_KIND_<tag>_<field>: one field's kind, for code that merges fields
 * one by one (gostat's sums). */
#define GS_MERGE_KIND_ENUM(tag, field, kind) GS_KIND_##tag##_##field = kind,
enum {
    GS_COUNTER_FIELDS(GS_MERGE_KIND_ENUM) GS_DROPS_FIELDS(GS_MERGE_KIND_ENUM)
    GS_TIMING_FIELDS(GS_MERGE_KIND_ENUM) GS_PATH_FIELDS(GS_MERGE_KIND_ENUM)
    GS_SITE_HEAD_FIELDS(GS_MERGE_KIND_ENUM) GS_SITE_FIELDS(GS_MERGE_KIND_ENUM)
};

/* One field of a record: its bytes and its kind. */
struct gs_merge_field {
    uint16_t off, size;
    uint16_t kind;
};

#define GS_MERGE_FIELD(tag, field, kind) { offsetof(struct tag, field), sizeof(((struct tag *)0)->field), kind },
static const struct gs_merge_field gs_drops_merge[] = { GS_DROPS_FIELDS(GS_MERGE_FIELD) };
static const struct gs_merge_field gs_timing_merge[] = { GS_TIMING_FIELDS(GS_MERGE_FIELD) };
static const struct gs_merge_field gs_path_merge[] = { GS_PATH_FIELDS(GS_MERGE_FIELD) };
static const struct gs_merge_field gs_site_head_merge[] = { GS_SITE_HEAD_FIELDS(GS_MERGE_FIELD) };
static const struct gs_merge_field gs_site_merge[] = { GS_SITE_FIELDS(GS_MERGE_FIELD) };
#define GS_MERGE_FIELDS(table) ((unsigned)(sizeof(table) / sizeof((table)[0])))

/* Every byte of a record has a kind, and every kind but KEEP is over
 * whole, aligned 8-byte words. */
#define GS_MERGE_BYTES(tag, field, kind) +sizeof(((struct tag *)0)->field)
#define GS_MERGE_WORDS(tag, field, kind)                                                        \
    _Static_assert((kind) == GS_KIND_KEEP ||                                                    \
                       (offsetof(struct tag, field) % 8 == 0 && sizeof(((struct tag *)0)->field) % 8 == 0), \
                   #tag "." #field ": a merged field is whole words");
GS_COUNTER_FIELDS(GS_MERGE_WORDS)
GS_DROPS_FIELDS(GS_MERGE_WORDS)
GS_TIMING_FIELDS(GS_MERGE_WORDS)
GS_PATH_FIELDS(GS_MERGE_WORDS)
GS_SITE_HEAD_FIELDS(GS_MERGE_WORDS)
GS_SITE_FIELDS(GS_MERGE_WORDS)
_Static_assert(0 GS_COUNTER_FIELDS(GS_MERGE_BYTES) == sizeof(struct gs_counter), "gs_counter: a kind per field");
_Static_assert(0 GS_DROPS_FIELDS(GS_MERGE_BYTES) == sizeof(struct gs_drops), "gs_drops: a kind per field");
_Static_assert(0 GS_TIMING_FIELDS(GS_MERGE_BYTES) == sizeof(struct gs_timing), "gs_timing: a kind per field");
_Static_assert(0 GS_PATH_FIELDS(GS_MERGE_BYTES) == sizeof(struct gs_path), "gs_path: a kind per field");
_Static_assert(0 GS_SITE_HEAD_FIELDS(GS_MERGE_BYTES) == sizeof(struct gs_site_head),
               "gs_site_head: a kind per field");
_Static_assert(0 GS_SITE_FIELDS(GS_MERGE_BYTES) == sizeof(struct gs_site), "gs_site: a kind per field");

/* Word b merged into word a by kind. */
static inline uint64_t gs_merge_word(unsigned kind, uint64_t a, uint64_t b)
{
    uint64_t sum;
    switch (kind) {
    case GS_KIND_SUM:
        return a + b;
    case GS_KIND_SATURATE:
        return __builtin_add_overflow(a, b, &sum) ? UINT64_MAX : sum;
    case GS_KIND_MAX:
    case GS_KIND_MIN:
        return a > b ? a : b;
    default:
        return a;
    }
}

/* Record from merged into record into, field by field (n fields of table). */
static inline void gs_merge_record(void *into, const void *from, const struct gs_merge_field *table, unsigned n)
{
    uint64_t *a = into;
    const uint64_t *b = from;
    for (unsigned i = 0; i < n; i++) {
        if (table[i].kind == GS_KIND_KEEP)
            continue;
        for (unsigned w = table[i].off / 8; w < (table[i].off + table[i].size) / 8u; w++)
            a[w] = gs_merge_word(table[i].kind, a[w], b[w]);
    }
}

#endif
