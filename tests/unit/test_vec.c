/* test_vec.c: common/vec.c, the one growable array: the capacity it picks
 * (16 at first, then doubling until the need fits), that a big enough array
 * is returned as it is, and that a size that would overflow gives NULL with
 * the old array and its capacity untouched. */
#include "tests/unit/unit.h"
#include "common/vec.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Grows from cap to need (elements of 4 bytes); returns the new capacity. */
static size_t grown_cap(size_t cap, size_t need)
{
    int *items = cap ? calloc(cap, sizeof *items) : NULL;
    int *grown = gr_vec_grow(items, &cap, need, sizeof *items);
    CHECK(grown != NULL);
    free(grown ? grown : items);
    return cap;
}

static void first_growth_is_16(void)
{
    CHECK_U64(grown_cap(0, 1), 16);
    CHECK_U64(grown_cap(0, 16), 16);
    CHECK_U64(grown_cap(0, 17), 32);
    CHECK_U64(grown_cap(5, 6), 16);     /* below 8: start again at 16 */
    CHECK_U64(grown_cap(7, 8), 16);
}

static void doubles_until_need_fits(void)
{
    CHECK_U64(grown_cap(8, 9), 16);     /* 8 is not below 8: doubled */
    CHECK_U64(grown_cap(16, 17), 32);
    CHECK_U64(grown_cap(10, 11), 20);
    CHECK_U64(grown_cap(10, 41), 80);
    CHECK_U64(grown_cap(10, 100), 160);
    CHECK_U64(grown_cap(0, 1000), 1024);
}

static void enough_room_returns_items(void)
{
    size_t cap = 16;
    int *items = calloc(cap, sizeof *items);
    CHECK(gr_vec_grow(items, &cap, 16, sizeof *items) == items);
    CHECK(gr_vec_grow(items, &cap, 0, sizeof *items) == items);
    CHECK_U64(cap, 16);
    free(items);
}

static void keeps_contents(void)
{
    size_t cap = 0, n = 0;
    uint32_t *v = NULL;
    for (uint32_t i = 0; i < 1000; i++) {
        uint32_t *g = gr_vec_grow(v, &cap, n + 1, sizeof *v);
        if (!CHECK(g != NULL))
            break;
        v = g;
        v[n++] = i * 7;
    }
    CHECK_U64(cap, 1024);
    unsigned wrong = 0;
    for (uint32_t i = 0; i < n; i++)
        wrong += v[i] != i * 7;
    CHECK_U64(wrong, 0);
    free(v);
}

/* gr_vec_append: each value lands after the last, the count follows, and
 * the array grows as gr_vec_grow would grow it. */
static void append_keeps_order(void)
{
    size_t cap = 0, n = 0;
    uint64_t *v = NULL;
    for (uint64_t i = 0; i < 100; i++) {
        uint64_t x = i * 0x0101010101010101u;
        if (!CHECK_INT(gr_vec_append(&v, &n, &cap, &x, sizeof x), 0))
            break;
    }
    CHECK_U64(n, 100);
    CHECK_U64(cap, 128);
    unsigned wrong = 0;
    for (uint64_t i = 0; i < n; i++)
        wrong += v[i] != i * 0x0101010101010101u;
    CHECK_U64(wrong, 0);
    free(v);
}

/* Overflowing sizes fail before any allocation: items and cap stay. */
static void overflow_gives_null_items_untouched(void)
{
    size_t cap = 16;
    uint64_t *items = malloc(cap * sizeof *items);
    for (size_t i = 0; i < cap; i++)
        items[i] = 0x1111111111111111u * (i % 15 + 1);
    /* doubling past SIZE_MAX */
    CHECK(gr_vec_grow(items, &cap, SIZE_MAX / 2 + 2, sizeof *items) == NULL);
    CHECK_U64(cap, 16);
    CHECK(gr_vec_grow(items, &cap, SIZE_MAX, 1) == NULL);
    CHECK_U64(cap, 16);
    /* from nothing: 16 elements of 2^60 + 1 bytes would wrap to 16 bytes */
    size_t cap0 = 0;
    CHECK(gr_vec_grow(NULL, &cap0, 1, ((size_t)1 << 60) + 1) == NULL);
    CHECK_U64(cap0, 0);
    /* count fits, count * elem does not: 2^33 elements of 2^31 bytes */
    CHECK(gr_vec_grow(items, &cap, (size_t)1 << 33, (size_t)1 << 31) == NULL);
    CHECK_U64(cap, 16);
    /* exactly at the limit: 2^60 elements of 16 bytes is 2^64 */
    CHECK(gr_vec_grow(items, &cap, (size_t)1 << 60, 16) == NULL);
    CHECK_U64(cap, 16);
    unsigned wrong = 0;
    for (size_t i = 0; i < cap; i++)
        wrong += items[i] != 0x1111111111111111u * (i % 15 + 1);
    CHECK_U64(wrong, 0);
    free(items);
}

UNIT_CASES("vec",
           UNIT_CASE(first_growth_is_16),
           UNIT_CASE(append_keeps_order),
           UNIT_CASE(doubles_until_need_fits),
           UNIT_CASE(enough_room_returns_items),
           UNIT_CASE(keeps_contents),
           UNIT_CASE(overflow_gives_null_items_untouched));
