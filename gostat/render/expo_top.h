/* exported by gostat/render */
/* expo_top.h: which functions of a process gostat serve exports under
 * --top N: the N with the highest cumulative value (time or calls), kept
 * stable across scrapes. A function chosen at one scrape stays chosen
 * until a function left out exceeds it clearly (GST_TOP_MARGIN), so series
 * do not appear and vanish as neighbours trade places. Earlier choices are
 * remembered per key (the caller's: series identity and build), so a
 * restarted program keeps its set. */
#ifndef GOSTAT_EXPO_TOP_H
#define GOSTAT_EXPO_TOP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A left-out function replaces a chosen one when its value exceeds the
 * chosen one's by more than 1/GST_TOP_MARGIN of it. */
#define GST_TOP_MARGIN 4

/* One candidate: its index in the file's function table and its value. */
struct gst_top_candidate {
    uint32_t index;
    uint64_t value;            /* what is ranked: ticks or calls */
    uint64_t calls;            /* ties of value: more calls first */
};

/* The sets chosen at earlier scrapes, one per key. Zero-initialised: empty. */
struct gst_top_memory {
    struct gst_top_set *sets;
    size_t n, cap;
    uint64_t scrape;           /* bumped by gst_top_forget_unused */
};

/* Chooses at most top (> 0) of the n candidates (reordered in place) for
 * key, keeping what was chosen for key before unless clearly overtaken, and
 * remembers the choice. *chosen: the chosen indices, sorted (owned by
 * memory, valid until its next change). Returns the count chosen, or -1
 * when memory ran out. */
long gst_top_choose(struct gst_top_memory *memory, const char *key,
                    struct gst_top_candidate *cand, size_t n, size_t top,
                    const uint32_t **chosen);

/* Whether index is among the count sorted indices. */
bool gst_top_contains(const uint32_t *chosen, size_t count, uint32_t index);

/* Forgets the keys no gst_top_choose used since the previous call (their
 * processes are gone), so memory stays bounded by the live processes. */
void gst_top_forget_unused(struct gst_top_memory *memory);

void gst_top_memory_free(struct gst_top_memory *memory);

#endif
