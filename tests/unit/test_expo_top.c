/* test_expo_top.c: gostat/render/expo_top.c, gostat serve's stable --top.
 * With no memory the choice is the plain top N (value, then calls, then
 * index); with memory a chosen function stays until one left out beats it
 * by more than a quarter, exactly at that boundary; gone functions are
 * refilled from the best others; keys are separate and forgotten once a
 * scrape passes without them. */
#include "gostat/render/expo_top.h"
#include "tests/unit/unit.h"

#include <stdio.h>
#include <string.h>

/* Chooses top of n values (candidate i: index i, value v[i], calls c[i]
 * or 0) for key; the chosen indices as "1,3". */
static const char *choose(struct gst_top_memory *m, const char *key, const uint64_t *v,
                          const uint64_t *c, size_t n, size_t top)
{
    static char out[128];
    struct gst_top_candidate cand[16];
    for (size_t i = 0; i < n; i++)
        cand[i] = (struct gst_top_candidate){ (uint32_t)i, v[i], c ? c[i] : 0 };
    const uint32_t *chosen = NULL;
    long count = gst_top_choose(m, key, cand, n, top, &chosen);
    out[0] = '\0';
    for (long i = 0; i < count; i++)
        snprintf(out + strlen(out), sizeof out - strlen(out), "%s%u", i ? "," : "", chosen[i]);
    return count < 0 ? "oom" : out;
}

static void plain_top(void)
{
    struct gst_top_memory m = { 0 };
    uint64_t v[] = { 5, 50, 7, 50, 1 }, c[] = { 0, 1, 0, 2, 0 };
    CHECK_STR(choose(&m, "a", v, c, 5, 2), "1,3");
    gst_top_memory_free(&m);
    CHECK_STR(choose(&m, "a", v, c, 5, 3), "1,2,3");
    gst_top_memory_free(&m);
    /* Ties of value and calls: the lower index. */
    uint64_t w[] = { 9, 9, 9 };
    CHECK_STR(choose(&m, "a", w, NULL, 3, 2), "0,1");
    gst_top_memory_free(&m);
    CHECK_STR(choose(&m, "a", w, NULL, 3, 10), "0,1,2");
    gst_top_memory_free(&m);
    CHECK_STR(choose(&m, "a", w, NULL, 0, 10), "");
    gst_top_memory_free(&m);
}

static void margin(void)
{
    struct gst_top_memory m = { 0 };
    uint64_t v[] = { 100, 80, 10 };
    CHECK_STR(choose(&m, "a", v, NULL, 3, 2), "0,1");
    v[2] = 100;   /* 100 - 80 = 20 = 80 / 4: not more */
    CHECK_STR(choose(&m, "a", v, NULL, 3, 2), "0,1");
    v[2] = 101;   /* 21 > 20: replaces the weakest */
    CHECK_STR(choose(&m, "a", v, NULL, 3, 2), "0,2");
    v[1] = 125;   /* against the weakest, 0's 100: 25 is not more than 25 */
    CHECK_STR(choose(&m, "a", v, NULL, 3, 2), "0,2");
    v[1] = 1000;  /* beats both: replaces the weakest (0: 100), not 2 */
    CHECK_STR(choose(&m, "a", v, NULL, 3, 2), "1,2");
    gst_top_memory_free(&m);
}

static void refill_and_keys(void)
{
    struct gst_top_memory m = { 0 };
    uint64_t v[] = { 30, 20, 10, 5 };
    CHECK_STR(choose(&m, "a", v, NULL, 4, 2), "0,1");
    CHECK_STR(choose(&m, "b", v, NULL, 4, 1), "0");
    /* Function 1 is no longer a candidate (a filter, no calls): refilled. */
    struct gst_top_candidate cand[] = { { 0, 30, 0 }, { 2, 10, 0 }, { 3, 5, 0 } };
    const uint32_t *chosen;
    CHECK_INT(gst_top_choose(&m, "a", cand, 3, 2, &chosen), 2);
    CHECK_U64(chosen[0], 0);
    CHECK_U64(chosen[1], 2);
    gst_top_forget_unused(&m);
    CHECK_U64(m.n, 2);
    /* Back with 20, twice 2's 10: it returns. A scrape without "b":
     * forgotten at the next, so "b" starts afresh. */
    CHECK_STR(choose(&m, "a", v, NULL, 4, 2), "0,1");
    gst_top_forget_unused(&m);
    CHECK_U64(m.n, 1);
    gst_top_memory_free(&m);
    CHECK_U64(m.n, 0);
}

UNIT_CASES("expo_top", UNIT_CASE(plain_top), UNIT_CASE(margin), UNIT_CASE(refill_and_keys));
