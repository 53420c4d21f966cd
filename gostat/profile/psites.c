/* psites.c: see psites.h. A site's key is its creator, file, line and
 * start function: the same go statement in two builds of a program,
 * wherever the linker put it. */
#include "gostat/profile/psites.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/saturate.h"
#include "common/vec.h"

static char *dup_or_empty(const char *s)
{
    return strdup(s ? s : "");
}

int gst_profile_add_site(struct gst_profile *p, const struct gst_psite *s, struct gr_error *err)
{
    struct gst_psite *grown = gr_vec_grow(p->sites, &p->sites_cap, p->nsites + 1, sizeof *p->sites);
    if (!grown)
        return gr_fail(err, "out of memory for goroutine sites");
    p->sites = grown;
    struct gst_psite *d = &p->sites[p->nsites];
    *d = *s;
    d->creator = dup_or_empty(s->creator);
    d->file = dup_or_empty(s->file);
    d->start = dup_or_empty(s->start);
    if (!d->creator || !d->file || !d->start) {
        free(d->creator);
        free(d->file);
        free(d->start);
        return gr_fail(err, "out of memory for goroutine sites");
    }
    p->nsites++;
    p->sites_known = true;
    return 0;
}

static int by_key(const void *a, const void *b)
{
    const struct gst_psite *x = a, *y = b;
    int c = strcmp(x->creator, y->creator);
    if (!c)
        c = strcmp(x->file, y->file);
    if (!c && x->line != y->line)
        c = x->line < y->line ? -1 : 1;
    return c ? c : strcmp(x->start, y->start);
}

static void free_site(struct gst_psite *s)
{
    free(s->creator);
    free(s->file);
    free(s->start);
}

void gst_profile_sort_sites(struct gst_profile *p)
{
    if (p->nsites == 0)
        return;
    qsort(p->sites, p->nsites, sizeof *p->sites, by_key);
    size_t kept = 0;
    for (size_t i = 1; i < p->nsites; i++) {
        struct gst_psite *k = &p->sites[kept], *s = &p->sites[i];
        if (by_key(k, s) == 0) {
            k->created = gr_add_saturating(k->created, s->created);
            k->ended = gr_add_saturating(k->ended, s->ended);
            k->live = gr_add_saturating(k->live, s->live);
            free_site(s);
        } else {
            p->sites[++kept] = *s;
        }
    }
    p->nsites = kept + 1;
}

void gst_profile_free_sites(struct gst_profile *p)
{
    for (size_t i = 0; i < p->nsites; i++)
        free_site(&p->sites[i]);
    free(p->sites);
    p->sites = NULL;
    p->nsites = p->sites_cap = 0;
    p->sites_known = false;
}

static bool runtime_creator(const char *name)
{
    return strncmp(name, "runtime.", 8) == 0 || strncmp(name, "runtime/", 8) == 0 ||
           strncmp(name, "internal/", 9) == 0;
}

static int by_growth(const void *a, const void *b)
{
    const struct gst_site_growth *x = a, *y = b;
    uint64_t gx = x->site->live - x->base_live, gy = y->site->live - y->base_live;
    if (gx != gy)
        return gx < gy ? 1 : -1;
    return by_key(x->site, y->site);
}

static bool grew(uint64_t before, uint64_t after, const struct gst_diff_options *o)
{
    double b = (double)before, a = (double)after;
    return after > before && a >= o->threshold * b && a - b >= o->sigma * sqrt(a + b);
}

int gst_diff_sites(const struct gst_profile *base, const struct gst_profile *next,
                   const struct gst_diff_options *o, struct gst_site_growth **out, size_t *n)
{
    *n = 0;
    *out = calloc(next->nsites ? next->nsites : 1, sizeof **out);
    if (!*out)
        return -1;
    for (size_t j = 0; j < next->nsites; j++) {
        const struct gst_psite *s = &next->sites[j];
        const struct gst_psite *b = base->nsites
            ? bsearch(s, base->sites, base->nsites, sizeof *base->sites, by_key) : NULL;
        uint64_t before = b ? b->live : 0;
        if (grew(before, s->live, o) && (o->runtime || !runtime_creator(s->creator)))
            (*out)[(*n)++] = (struct gst_site_growth){.site = s, .base_live = before};
    }
    qsort(*out, *n, sizeof **out, by_growth);
    return 0;
}
