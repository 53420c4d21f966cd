/* test_merge_rule.c: format/gostat_merge.h, the one rule by which the
 * merge at exit and gostat add two records: each field by its kind. */
#include "format/gostat_merge.h"
#include "tests/unit/unit.h"

static void word_kinds(void)
{
    CHECK_U64(gs_merge_word(GS_KIND_SATURATE, 2, 3), 5);
    CHECK_U64(gs_merge_word(GS_KIND_SATURATE, UINT64_MAX - 1, 5), UINT64_MAX);
    CHECK_U64(gs_merge_word(GS_KIND_SUM, UINT64_MAX, 2), 1);   /* calls - next: modular */
    CHECK_U64(gs_merge_word(GS_KIND_MAX, 7, 9), 9);
    CHECK_U64(gs_merge_word(GS_KIND_MIN, ~(uint64_t)7, ~(uint64_t)9), ~(uint64_t)7);
    CHECK_U64(gs_merge_word(GS_KIND_MIN, 0, ~(uint64_t)9), ~(uint64_t)9);   /* 0: none yet */
    CHECK_U64(gs_merge_word(GS_KIND_KEEP, 4, 6), 4);
}

static void timing_record(void)
{
    struct gs_timing a = {.total = UINT64_MAX - 10, .max = 50, .min_inverted = ~(uint64_t)20,
                          .next = UINT64_MAX, .gap = 1, .samples = 3, .self_total = 8, .oncpu_total = 9};
    struct gs_timing b = {.total = 100, .max = 40, .min_inverted = ~(uint64_t)5, .next = 4,
                          .gap = 1, .samples = UINT64_MAX, .self_total = 1, .oncpu_total = 2};
    a.hist[0] = 1, a.hist[31] = UINT64_MAX;
    b.hist[0] = 2, b.hist[31] = 1;
    gs_merge_record(&a, &b, gs_timing_merge, GS_MERGE_FIELDS(gs_timing_merge));
    CHECK_U64(a.total, UINT64_MAX);
    CHECK_U64(a.max, 50);
    CHECK_U64(~a.min_inverted, 5);
    CHECK_U64(a.hist[0], 3);
    CHECK_U64(a.hist[31], UINT64_MAX);
    CHECK_U64(a.next, 3);              /* wraps, as the counters it completes */
    CHECK_U64(a.gap, 1);               /* two gaps of 1 leave no call untimed */
    CHECK_U64(a.samples, UINT64_MAX);
    CHECK_U64(a.self_total, 9);
    CHECK_U64(a.oncpu_total, 11);
    b.gap = 40;
    gs_merge_record(&a, &b, gs_timing_merge, GS_MERGE_FIELDS(gs_timing_merge));
    CHECK_U64(a.gap, 40);
}

static void drops_keep_the_rng(void)
{
    struct gs_drops a = {.unwound = 1, .sample_rng = 77, .arc_overflow = UINT64_MAX - 1};
    struct gs_drops b = {.unwound = 2, .sample_rng = 99, .arc_overflow = 5, .abandoned = 4};
    gs_merge_record(&a, &b, gs_drops_merge, GS_MERGE_FIELDS(gs_drops_merge));
    CHECK_U64(a.unwound, 3);
    CHECK_U64(a.sample_rng, 77);
    CHECK_U64(a.arc_overflow, UINT64_MAX);
    CHECK_U64(a.abandoned, 4);
}

static void path_keeps_its_key(void)
{
    struct gs_path a = {.key = 1ull << 63 | 5, .parent = 3, .ret = 0x401000, .rec = 4096, .calls = 2,
                        .total = UINT64_MAX, .self = 1, .oncpu = 6};
    struct gs_path b = {.key = 1ull << 63 | 5, .parent = 3, .ret = 0x401000, .rec = 4096, .calls = 3,
                        .total = 1, .self = 2, .oncpu = 1};
    gs_merge_record(&a, &b, gs_path_merge, GS_MERGE_FIELDS(gs_path_merge));
    CHECK_U64(a.key, 1ull << 63 | 5);
    CHECK_U64(a.parent, 3);
    CHECK_U64(a.ret, 0x401000);
    CHECK_U64(a.rec, 4096);
    CHECK_U64(a.calls, 5);
    CHECK_U64(a.total, UINT64_MAX);
    CHECK_U64(a.self, 3);
    CHECK_U64(a.oncpu, 7);
}

static void site_keeps_its_key(void)
{
    struct gs_site a = {.key = 9, .created = 2, .untimed_exits = 1, .total = 10, .max = 7, .path = 11, .claim = 9};
    struct gs_site b = {.key = 9, .created = 3, .untimed_exits = 0, .total = UINT64_MAX, .max = 8, .path = 11,
                        .claim = 9};
    b.hist[4] = 2;
    gs_merge_record(&a, &b, gs_site_merge, GS_MERGE_FIELDS(gs_site_merge));
    CHECK_U64(a.key, 9);
    CHECK_U64(a.created, 5);
    CHECK_U64(a.untimed_exits, 1);
    CHECK_U64(a.total, UINT64_MAX);
    CHECK_U64(a.max, 8);
    CHECK_U64(a.path, 11);
    CHECK_U64(a.claim, 9);
    CHECK_U64(a.hist[4], 2);
}

UNIT_CASES("merge_rule",
           UNIT_CASE(word_kinds),
           UNIT_CASE(timing_record),
           UNIT_CASE(drops_keep_the_rng),
           UNIT_CASE(path_keeps_its_key),
           UNIT_CASE(site_keeps_its_key));
