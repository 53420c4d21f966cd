/* vec.c: growing arrays (vec.h). */
#include "common/vec.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void *gr_vec_grow(void *items, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return items;
    size_t n = *cap < 8 ? 16 : *cap;
    while (n < need) {
        if (n > SIZE_MAX / 2)
            return NULL;
        n *= 2;
    }
    if (elem && n > SIZE_MAX / elem)
        return NULL;
    void *grown = realloc(items, n * elem);
    if (grown)
        *cap = n;
    return grown;
}

int gr_vec_append(void *items_at, size_t *n, size_t *cap, const void *value, size_t elem)
{
    void *items;
    memcpy(&items, items_at, sizeof items);
    char *grown = gr_vec_grow(items, cap, *n + 1, elem);
    if (!grown)
        return -1;
    memcpy(items_at, &grown, sizeof grown);
    memcpy(grown + *n * elem, value, elem);
    (*n)++;
    return 0;
}
