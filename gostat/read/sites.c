/* sites.c: see sites.h. The section is read with pread: the program
 * updates it with locked instructions meanwhile, so a snapshot can show a
 * goroutine's end before its creation's count (live is clamped at 0 by the
 * model) and a live entry claimed but not yet stamped (tick 0: skipped).
 * Every offset read from the file is checked before use. */
#include "gostat/read/sites.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/saturate.h"
#include "gostat/read/statsfile_check.h"

static int read_stmts(const struct gst_stats *st, struct gst_sites *out, struct gr_error *err)
{
    const struct gs_header *h = &st->hdr;
    if (!h->ngostmts)
        return 0;
    struct gs_gostmt *raw = calloc(h->ngostmts, sizeof *raw);
    out->stmts = calloc(h->ngostmts, sizeof *out->stmts);
    if (!raw || !out->stmts) {
        free(raw);
        return gr_fail(err, "%s: out of memory for %" PRIu32 " go statements", st->path, h->ngostmts);
    }
    if (gst_read_exact(st->fd, raw, (size_t)h->ngostmts * sizeof *raw, h->gostmts_off) < 0) {
        free(raw);
        return gr_fail(err, "%s: cannot read the go statements: %s", st->path, strerror(errno));
    }
    int rc = 0;
    for (uint32_t i = 0; i < h->ngostmts && rc == 0; i++) {
        if (i > 0 && raw[i].pc < raw[i - 1].pc)
            rc = gr_fail(err, "%s: corrupt: go statement %" PRIu32 " is out of order", st->path, i);
        else if (gst_geometry_check_string(st->strtab, h->strtab_size, raw[i].func_off,
                                           "go statement's function", i, st->path, err) < 0 ||
                 gst_geometry_check_string(st->strtab, h->strtab_size, raw[i].file_off,
                                           "go statement's file", i, st->path, err) < 0)
            rc = -1;
        else
            out->stmts[i] = (struct gst_gostmt){.pc = raw[i].pc, .func = st->strtab + raw[i].func_off,
                                                .file = st->strtab + raw[i].file_off, .line = raw[i].line};
    }
    free(raw);
    if (rc < 0)
        return -1;
    out->nstmts = h->ngostmts;
    return 0;
}

/* The index of the site entry at section offset off, or -1. */
static long site_index(const struct gs_header *h, uint32_t off)
{
    if (off < GS_PAGE || (off - GS_PAGE) % sizeof(struct gs_site) != 0)
        return -1;
    uint64_t i = (off - GS_PAGE) / sizeof(struct gs_site);
    return i < h->max_sites ? (long)i : -1;
}

/* The creator path of entry i (GS_HDR_SITE_PATHS), as written at its
 * claim; a depth beyond the table's is kept, its records are not. */
static void take_path(const struct gs_header *h, const unsigned char *sec, uint32_t i,
                      const struct gs_site *e, struct gst_site *s)
{
    const struct gs_spath *p = (const void *)(sec + h->spaths_off + (uint64_t)i * sizeof *p);
    s->path = e->path;
    s->path_depth = p->depth;
    s->path_n = p->depth < GS_SPATH_MAX ? p->depth : GS_SPATH_MAX;
    memcpy(s->path_rec, p->rec, s->path_n * sizeof *s->path_rec);
}

/* Adds site b's counts to a's (the same go statement by another path). */
static void add_site(struct gst_site *a, const struct gst_site *b)
{
    a->created = gr_add_saturating(a->created, b->created);
    a->ended = gr_add_saturating(a->ended, b->ended);
    a->timed = gr_add_saturating(a->timed, b->timed);
    a->total_ticks = gr_add_saturating(a->total_ticks, b->total_ticks);
    if (b->max_ticks > a->max_ticks)
        a->max_ticks = b->max_ticks;
    if (b->exit_oldest > a->exit_oldest)
        a->exit_oldest = b->exit_oldest;
    for (unsigned k = 0; k < GS_HIST_BUCKETS; k++)
        a->hist[k] = gr_add_saturating(a->hist[k], b->hist[k]);
}

/* The item already holding key's site (merge: a table of 2 * max_sites
 * item indexes + 1, 0 free), or -1 after noting n as its item. */
static long merged_item(const struct gst_sites *out, long *merge, uint32_t size, uint64_t key, size_t n)
{
    for (uint64_t k = key * 0x9e3779b97f4a7c15u >> 32;; k++) {
        long *m = &merge[k & (size - 1)];
        if (!*m) {
            *m = (long)n + 1;
            return -1;
        }
        const struct gst_site *s = &out->items[*m - 1];
        if ((s->gopc << 32 | s->startpc) == key)
            return *m - 1;
    }
}

/* The entry i in use as an item: a new one, or (merge) added to that of
 * its go statement. Returns the item's index. */
static long take_site(const struct gs_header *h, const unsigned char *sec, uint32_t i, long *merge,
                      struct gst_sites *out)
{
    const struct gs_site *e = (const void *)(sec + GS_PAGE + (uint64_t)i * sizeof *e);
    struct gst_site *s = &out->items[out->n];
    *s = (struct gst_site){.gopc = e->key >> 32, .startpc = e->key & 0xffffffffu,
                           .created = e->created, .total_ticks = e->total, .max_ticks = e->max,
                           .exit_oldest = e->exit_oldest};
    memcpy(s->hist, e->hist, sizeof s->hist);
    for (unsigned b = 0; b < GS_HIST_BUCKETS; b++)
        s->timed = gr_add_saturating(s->timed, s->hist[b]);
    s->ended = gr_add_saturating(s->timed, e->untimed_exits);   /* each end adds to one of them */
    if (out->by_path)
        take_path(h, sec, i, e, s);
    long m = merge ? merged_item(out, merge, 2 * h->max_sites, e->key, out->n) : -1;
    if (m >= 0) {
        add_site(&out->items[m], s);
        return m;
    }
    return (long)out->n++;
}

/* Sites in use, then the live goroutines' births folded into them. */
static int take_section(const struct gs_header *h, const unsigned char *sec, struct gst_sites *out)
{
    const struct gs_site_head *head = (const void *)sec;
    const struct gs_site *tab = (const void *)(sec + GS_PAGE);
    const struct gs_glive *live = (const void *)(sec + h->glive_off);
    bool merging = (h->flags & GS_HDR_SITE_PATHS) && !out->by_path;
    long *slot = malloc(h->max_sites * sizeof *slot);
    long *merge = merging ? calloc(2 * (size_t)h->max_sites, sizeof *merge) : NULL;
    out->items = calloc(h->max_sites, sizeof *out->items);
    if (!slot || !out->items || (merging && !merge)) {
        free(slot);
        free(merge);
        return -1;
    }
    out->no_site = head->no_site;
    out->no_live = head->no_live;
    out->unborn = head->unborn;
    for (uint32_t i = 0; i < h->max_sites; i++)
        slot[i] = tab[i].key ? take_site(h, sec, i, merge, out) : -1;
    for (uint32_t k = 0; k < h->max_glive; k++) {
        long i = site_index(h, live[k].site);
        if (live[k].g <= GS_GLIVE_FREED || !live[k].tick || i < 0 || slot[i] < 0)
            continue;
        struct gst_site *s = &out->items[slot[i]];
        s->tracked++;
        if (!s->oldest_tick || live[k].tick < s->oldest_tick)
            s->oldest_tick = live[k].tick;
    }
    free(slot);
    free(merge);
    return 0;
}

/* The section's bytes from sites_off: to the end of the live table, or of
 * the site paths (GS_HDR_SITE_PATHS, checked to come after it). */
static size_t section_bytes(const struct gs_header *h)
{
    if (h->flags & GS_HDR_SITE_PATHS)
        return (size_t)(h->spaths_off + (uint64_t)h->max_sites * sizeof(struct gs_spath));
    return (size_t)(h->glive_off + (uint64_t)h->max_glive * sizeof(struct gs_glive));
}

static int read_sites(const struct gst_stats *st, bool by_path, struct gst_sites *out, struct gr_error *err)
{
    memset(out, 0, sizeof *out);
    const struct gs_header *h = &st->hdr;
    if (!(h->flags & GS_HDR_SITES))
        return 0;
    out->present = true;
    out->by_path = by_path && (h->flags & GS_HDR_SITE_PATHS);
    size_t len = section_bytes(h);
    struct stat sb;
    if (fstat(st->fd, &sb) < 0)
        return gr_fail(err, "%s: cannot stat: %s", st->path, strerror(errno));
    if (len > gst_read_budget(&sb))
        return gr_fail(err, "%s: corrupt: its goroutine sites claim %zu bytes but the file occupies "
                       "only %" PRIu64 " (a sparse file?)", st->path, len, (uint64_t)sb.st_blocks * 512);
    unsigned char *sec = malloc(len);
    if (!sec)
        return gr_fail(err, "%s: out of memory for the goroutine sites", st->path);
    int rc = gst_read_exact(st->fd, sec, len, h->sites_off);
    if (rc < 0)
        gr_fail(err, "%s: cannot read the goroutine sites: %s", st->path, strerror(errno));
    else if ((rc = take_section(h, sec, out)) < 0)
        gr_fail(err, "%s: out of memory for the goroutine sites", st->path);
    free(sec);
    if (rc == 0)
        rc = read_stmts(st, out, err);
    if (rc < 0)
        gst_sites_free(out);
    return rc;
}

int gst_sites_read(const struct gst_stats *st, struct gst_sites *out, struct gr_error *err)
{
    return read_sites(st, false, out, err);
}

int gst_sites_read_paths(const struct gst_stats *st, struct gst_sites *out, struct gr_error *err)
{
    return read_sites(st, true, out, err);
}

static int stmt_has_pc(const void *key, const void *elem)
{
    uint64_t pc = *(const uint64_t *)key, at = ((const struct gst_gostmt *)elem)->pc;
    return (pc > at) - (pc < at);
}

const struct gst_gostmt *gst_sites_stmt(const struct gst_sites *s, uint64_t gopc)
{
    return s->nstmts ? bsearch(&gopc, s->stmts, s->nstmts, sizeof *s->stmts, stmt_has_pc) : NULL;
}

void gst_sites_free(struct gst_sites *s)
{
    free(s->items);
    free(s->stmts);
    memset(s, 0, sizeof *s);
}
