/* expo_top.c: the stable top-N choice of gostat serve's --top (expo_top.h).
 * Each scrape ranks the candidates, keeps the previous members still
 * present, fills up to N with the best others, then lets an outsider
 * replace the weakest member only while it beats it by the margin. */
#include "gostat/render/expo_top.h"
#include "common/vec.h"

#include <stdlib.h>
#include <string.h>

struct gst_top_set {
    char *key;
    uint32_t *chosen;          /* sorted indices */
    size_t count;
    uint64_t used;             /* the scrape that last used it */
};

/* Best first: higher value, then more calls, then the lower index. */
static int by_rank(const void *a, const void *b)
{
    const struct gst_top_candidate *x = a, *y = b;
    if (x->value != y->value)
        return x->value > y->value ? -1 : 1;
    if (x->calls != y->calls)
        return x->calls > y->calls ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

static int by_index(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

bool gst_top_contains(const uint32_t *chosen, size_t count, uint32_t index)
{
    return count && bsearch(&index, chosen, count, sizeof *chosen, by_index) != NULL;
}

static struct gst_top_set *find_or_add(struct gst_top_memory *m, const char *key)
{
    for (size_t i = 0; i < m->n; i++)
        if (strcmp(m->sets[i].key, key) == 0)
            return &m->sets[i];
    struct gst_top_set s = { .key = strdup(key) };
    if (!s.key || gr_vec_append(&m->sets, &m->n, &m->cap, &s, sizeof s) < 0) {
        free(s.key);
        return NULL;
    }
    return &m->sets[m->n - 1];
}

static bool clearly_beats(uint64_t outsider, uint64_t member)
{
    return outsider > member && outsider - member > member / GST_TOP_MARGIN;
}

/* in[i]: candidate i (in rank order) is chosen. Returns how many are. */
static size_t choose(const struct gst_top_set *prev, const struct gst_top_candidate *cand,
                     size_t n, size_t top, bool *in)
{
    size_t count = 0;
    for (size_t i = 0; i < n && count < top; i++)
        if (gst_top_contains(prev->chosen, prev->count, cand[i].index))
            in[i] = true, count++;
    for (size_t i = 0; i < n && count < top; i++)
        if (!in[i])
            in[i] = true, count++;
    /* The best outsider against the weakest member, while it clearly wins. */
    size_t out = 0, weak = n;
    for (;;) {
        while (out < n && in[out])
            out++;
        while (weak > 0 && !in[weak - 1])
            weak--;
        if (out >= n || weak == 0 || out > weak - 1 ||
            !clearly_beats(cand[out].value, cand[weak - 1].value))
            return count;
        in[out] = true;
        in[weak - 1] = false;
    }
}

long gst_top_choose(struct gst_top_memory *m, const char *key, struct gst_top_candidate *cand,
                    size_t n, size_t top, const uint32_t **chosen)
{
    struct gst_top_set *set = find_or_add(m, key);
    bool *in = calloc(n ? n : 1, sizeof *in);
    uint32_t *next = malloc((n < top ? n : top) * sizeof *next + 1);
    if (!set || !in || !next) {
        free(in);
        free(next);
        return -1;
    }
    qsort(cand, n, sizeof *cand, by_rank);
    size_t count = choose(set, cand, n, top, in), k = 0;
    for (size_t i = 0; i < n; i++)
        if (in[i])
            next[k++] = cand[i].index;
    qsort(next, count, sizeof *next, by_index);
    free(in);
    free(set->chosen);
    set->chosen = next;
    set->count = count;
    set->used = m->scrape + 1;
    *chosen = next;
    return (long)count;
}

void gst_top_forget_unused(struct gst_top_memory *m)
{
    size_t kept = 0;
    m->scrape++;
    for (size_t i = 0; i < m->n; i++) {
        if (m->sets[i].used == m->scrape) {
            m->sets[kept++] = m->sets[i];
            continue;
        }
        free(m->sets[i].key);
        free(m->sets[i].chosen);
    }
    m->n = kept;
}

void gst_top_memory_free(struct gst_top_memory *m)
{
    m->scrape++;
    for (size_t i = 0; i < m->n; i++) {
        free(m->sets[i].key);
        free(m->sets[i].chosen);
    }
    free(m->sets);
    *m = (struct gst_top_memory){ 0 };
}
