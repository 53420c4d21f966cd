/* exported by common */
/* vec.h: the one growable array of the project. Arrays are plain pointers
 * with a count and a capacity beside them; gr_vec_grow makes room, doubling
 * so that appending n elements costs O(n) in all. */
#ifndef GR_VEC_H
#define GR_VEC_H

#include <stddef.h>

/* Returns an array with room for need elements of elem bytes: items itself
 * when *cap already suffices, else a reallocated copy (*cap updated, at
 * least 16 and at least double). NULL when out of memory or when the size
 * overflows; items is then untouched and still owned by the caller. */
void *gr_vec_grow(void *items, size_t *cap, size_t need, size_t elem);

/* Appends the elem bytes at value to the array whose pointer is at
 * items_at (a T ** passed as void *), of *n elements with room for *cap:
 * 0, or -1 when out of memory (the array, *n and *cap then untouched). */
int gr_vec_append(void *items_at, size_t *n, size_t *cap, const void *value, size_t elem);

#endif
