/* pokestats: writes hostile values into one table of a running program's
 * stats file, as another process of the same user could (tests/stubs/
 * t_poke.sh): the program must keep running with exact counts.
 *
 *   pokestats FILE TABLE [FUNCTION]
 *
 * TABLE: paths, arcs, index (the arc index and the count of arcs taken),
 * filter, timing (FUNCTION's records), sites (site keys and the live
 * table's site offsets), trace (the rings' heads) or trace-top (each
 * ring's head at the largest sequence number). Every row the program
 * backed is poked; every place is found from the file's header and the
 * format's headers, none is written down here. Prints how many values it
 * wrote; exits 1 when it wrote none (nothing to poke: the test would
 * prove nothing). */
#include "format/gostat_format.h"
#include "format/stub_abi.h"
#include "format/trace_format.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* Values that, used as an offset or index, reach far outside a table:
 * below a row (read as u32: 4 GiB - 64), huge, negative, one past. */
static const uint64_t hostile64[] = { 0xffffffc0u, 1ull << 62, (uint64_t)-64, 0x7ffffff8u };
static const uint32_t hostile32[] = { 0xffffffc0u, 0xfffffff0u, 0x7ffffff8u, 1u };

struct stats {
    uint8_t *base;
    uint64_t size;
    const struct gs_header *hdr;
    uint64_t pokes;
};

static void die(const char *msg)
{
    fprintf(stderr, "pokestats: %s\n", msg);
    exit(2);
}

/* A pointer to [off, off + len) of the file, or exit. */
static uint8_t *at(struct stats *s, uint64_t off, uint64_t len)
{
    if (off > s->size || len > s->size - off)
        die("an offset beyond the file");
    return s->base + off;
}

static uint64_t row_off(const struct stats *s, uint32_t r)
{
    return s->hdr->rows_off + (uint64_t)r * s->hdr->row_stride;
}

/* Rows the program holds: row 0, and each claimed row marked backed. */
static int row_used(struct stats *s, uint32_t r)
{
    const struct gs_live *live = (const struct gs_live *)at(s, s->hdr->live_off, sizeof *live);
    if (r == 0)
        return 1;
    return r <= live->rows_claimed && (live->rows_backed[r / 64] >> (r % 64) & 1);
}

/* Whether the row's page holding row offset off is backed (its page map). */
static int page_ready(struct stats *s, uint32_t r, uint64_t off)
{
    return *at(s, row_off(s, r) + GS_ROW_PAGEMAP + off / GS_PAGE, 1) == GS_PAGE_READY;
}

static void poke64(struct stats *s, uint64_t off)
{
    uint64_t v = hostile64[s->pokes++ % 4];
    memcpy(at(s, off, 8), &v, 8);
}

static void poke32(struct stats *s, uint64_t off)
{
    uint32_t v = hostile32[s->pokes++ % 4];
    memcpy(at(s, off, 4), &v, 4);
}

/* The used entries of a path-shaped table: every field but the key; the
 * key of every third entry too. */
static void poke_path_table(struct stats *s, uint32_t r, uint64_t off, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++) {
        uint64_t e = row_off(s, r) + off + i * sizeof(struct gs_path);
        if (!page_ready(s, r, off + i * sizeof(struct gs_path)))
            continue;
        struct gs_path *p = (struct gs_path *)at(s, e, sizeof *p);
        if (!p->key)
            continue;
        for (uint64_t f = 8; f < sizeof *p; f += 8)
            poke64(s, e + f);
        if (i % 3 == 0)
            poke64(s, e);
    }
}

static void poke_paths(struct stats *s, uint32_t r)
{
    poke_path_table(s, r, s->hdr->paths_off, s->hdr->max_paths);
}

static void poke_arcs(struct stats *s, uint32_t r)
{
    poke_path_table(s, r, s->hdr->arcs_off, s->hdr->max_arcs);
}

/* The arc index's used slots, and the count of arcs taken: unaligned in
 * even rows, huge in odd ones. */
static void poke_index(struct stats *s, uint32_t r)
{
    uint64_t full = s->hdr->arcs_off + (uint64_t)s->hdr->max_arcs * sizeof(struct gs_path);
    uint64_t idx = full + gs_arcidx_start(s->hdr->max_paths);
    uint64_t nslots = (uint64_t)s->hdr->max_arcs * GS_ARCIDX_SLOTS_PER_ARC;
    for (uint64_t i = 0; i < nslots; i++) {
        uint64_t off = idx + i * GS_ARCIDX_SLOT_SIZE;
        if (page_ready(s, r, off) && *(uint32_t *)at(s, row_off(s, r) + off, 4))
            poke32(s, row_off(s, r) + off);
    }
    if (!page_ready(s, r, idx - 8))
        return;
    uint64_t *taken = (uint64_t *)at(s, row_off(s, r) + idx - 8, 8);
    if (*taken) {
        *taken = r % 2 ? (uint64_t)-64 : *taken + 8;
        s->pokes++;
    }
}

/* The filter's group-full and key bits: alternately all set and clear. */
static void poke_filter(struct stats *s, uint32_t r)
{
    uint64_t full = s->hdr->arcs_off + (uint64_t)s->hdr->max_arcs * sizeof(struct gs_path);
    uint64_t n = gs_filter_bytes(s->hdr->max_paths);
    if (!s->hdr->max_paths || !page_ready(s, r, full))
        return;
    uint8_t *p = at(s, row_off(s, r) + full, n);
    for (uint64_t i = 0; i < n; i++)
        p[i] = i / 64 % 2 ? 0xff : 0;
    s->pokes += n;
}

static const char *string_at(struct stats *s, uint32_t off)
{
    const char *str = (const char *)at(s, s->hdr->strtab_off + off, 1);
    if (!memchr(str, 0, s->size - (s->hdr->strtab_off + off)))
        die("a string without its end");
    return str;
}

/* FUNCTION's timing record index. */
static uint32_t record_of(struct stats *s, const char *name)
{
    const struct gs_func *f = (const struct gs_func *)
        at(s, s->hdr->functab_off, (uint64_t)s->hdr->nfuncs * sizeof *f);
    for (uint32_t i = 0; i < s->hdr->nfuncs; i++)
        if (!strcmp(string_at(s, f[i].name_off), name) && f[i].timing != GS_UNTIMED)
            return f[i].timing;
    die("no timed function of that name");
    return 0;
}

static const char *victim;

/* Every field of the function's record, in rows that have it. */
static void poke_timing(struct stats *s, uint32_t r)
{
    uint64_t off = gs_timing_offset(s->hdr->timing_off, record_of(s, victim));
    if (r == 0 || !page_ready(s, r, off))
        return;
    for (uint64_t f = 0; f < sizeof(struct gs_timing); f += 8)
        poke64(s, row_off(s, r) + off + f);
}

/* The sites section is one for all threads: its used keys, and the site
 * offsets of the goroutines alive now (their ends read them back). */
static void poke_sites(struct stats *s)
{
    const struct gs_header *h = s->hdr;
    if (!(h->flags & GS_HDR_SITES))
        die("no goroutine sites in this file");
    for (uint64_t i = 0; i < h->max_sites; i += 3) {
        uint64_t e = h->sites_off + GS_PAGE + i * sizeof(struct gs_site);
        if (*(uint64_t *)at(s, e, 8))
            poke64(s, e);
    }
    uint32_t near_end = (uint32_t)h->glive_off - 8;   /* an entry that would cross into the live table */
    for (uint64_t i = 0; i < h->max_glive; i++) {
        uint64_t e = h->sites_off + h->glive_off + i * sizeof(struct gs_glive);
        struct gs_glive *g = (struct gs_glive *)at(s, e, sizeof *g);
        if (g->g <= GS_GLIVE_FREED)
            continue;
        if (s->pokes % 5 == 4) {
            memcpy(&g->site, &near_end, 4);
            s->pokes++;
        } else {
            poke32(s, e + offsetof(struct gs_glive, site));
        }
    }
}

/* Each ring's next slot and head: where the next event would go. */
static void poke_trace(struct stats *s, uint32_t r)
{
    const struct gs_trace_section *t = (const struct gs_trace_section *)
        at(s, s->hdr->trace_off, sizeof *t);
    if (!s->hdr->trace_off || t->magic != GS_TRACE_MAGIC)
        die("no trace section in this file");
    uint64_t ring = row_off(s, r) + t->ring_off;
    if (!*(uint64_t *)at(s, ring + GS_RING_TID, 8))   /* the ring is in the row's head: backed */
        return;
    uint64_t inside = t->ring_size - 8;   /* a slot there would end past the ring */
    if (r % 5 == 4)
        memcpy(at(s, ring + GS_RING_NEXT, 8), &inside, 8), s->pokes++;
    else
        poke64(s, ring + GS_RING_NEXT);
    poke64(s, ring + GS_RING_HEAD);
}

/* Each ring's head at the last sequence number a reader can hold. */
static void poke_trace_top(struct stats *s, uint32_t r)
{
    const struct gs_trace_section *t = (const struct gs_trace_section *)
        at(s, s->hdr->trace_off, sizeof *t);
    if (!s->hdr->trace_off || t->magic != GS_TRACE_MAGIC)
        die("no trace section in this file");
    uint64_t ring = row_off(s, r) + t->ring_off, top = UINT64_MAX;
    if (!*(uint64_t *)at(s, ring + GS_RING_TID, 8))
        return;
    memcpy(at(s, ring + GS_RING_HEAD, 8), &top, 8);
    s->pokes++;
}

static void map_file(struct stats *s, const char *path)
{
    int fd = open(path, O_RDWR);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) < 0)
        die("cannot open the file");
    s->size = (uint64_t)st.st_size;
    if (s->size < sizeof *s->hdr)
        die("shorter than a header");
    s->base = mmap(NULL, s->size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (s->base == MAP_FAILED)
        die("cannot map the file");
    s->hdr = (const struct gs_header *)s->base;
    if (memcmp(s->hdr->magic, GS_MAGIC, GS_MAGIC_LEN) || s->hdr->max_rows > GS_MAX_ROWS)
        die("not a complete stats file of this version");
}

int main(int argc, char **argv)
{
    if (argc < 3 || (!strcmp(argv[2], "timing") && argc < 4)) {
        fprintf(stderr, "usage: pokestats FILE paths|arcs|index|filter|timing FUNCTION|sites|trace|trace-top\n");
        return 2;
    }
    struct stats s = { 0 };
    map_file(&s, argv[1]);
    victim = argc > 3 ? argv[3] : "";
    static const struct { const char *name; void (*row)(struct stats *, uint32_t); } tables[] = {
        { "paths", poke_paths }, { "arcs", poke_arcs }, { "index", poke_index },
        { "filter", poke_filter }, { "timing", poke_timing }, { "trace", poke_trace },
        { "trace-top", poke_trace_top },
    };
    if (!strcmp(argv[2], "sites")) {
        poke_sites(&s);
    } else {
        size_t t = 0;
        while (t < sizeof tables / sizeof *tables && strcmp(tables[t].name, argv[2]))
            t++;
        if (t == sizeof tables / sizeof *tables)
            die("no such table");
        if (strcmp(argv[2], "timing") && strncmp(argv[2], "trace", 5) && !s.hdr->max_paths)
            die("no call paths in this file");
        for (uint32_t r = 0; r < s.hdr->max_rows; r++)
            if (row_used(&s, r))
                tables[t].row(&s, r);
    }
    printf("%s: %llu values poked\n", argv[2], (unsigned long long)s.pokes);
    return s.pokes ? 0 : 1;
}
