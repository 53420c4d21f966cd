/* statsfile.c: reading one stats file. Every size used for a read, an
 * allocation or a mapping comes from a header that gst_geometry_check has
 * already matched against the file's actual size (fstat), so a corrupt or
 * hostile file yields an error, never a huge allocation or a stray read. */
#include "gostat/read/statsfile.h"

#include "gostat/read/statsfile_check.h"
#include "gostat/read/proc.h"
#include "gostat/read/sigbus_guard.h"
#include "common/vec.h"
#include "common/saturate.h"
#include "format/gostat_merge.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* What a file may make us read, as a multiple of the bytes it really
 * occupies (st_blocks), plus some slack. A writer backs everything a
 * reader touches (the prefix is written, row heads and timing pages are
 * allocated when used), so real files stay below 1x; a sparse file that
 * claims a huge table or thousands of rows costs no disk but would cost
 * memory (read into the heap, or faulted into the page cache). */
#define ALLOC_FACTOR 2
#define ALLOC_SLACK (64u * 1024)

/* Function table entries read per pread: bounds stack use, and keeps the
 * heap holding only the converted entries. */
#define CHUNK_BYTES (128 * sizeof(struct gs_func))

int gst_read_exact(int fd, void *buf, size_t len, uint64_t off)
{
    unsigned char *p = buf;
    while (len > 0) {
        ssize_t n = pread(fd, p, len, (off_t)off);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return -1;
        if (n == 0) {
            errno = EIO; /* the file shrank since fstat */
            return -1;
        }
        p += n;
        off += (uint64_t)n;
        len -= (size_t)n;
    }
    return 0;
}

uint64_t gst_read_budget(const struct stat *sb)
{
    return (uint64_t)sb->st_blocks * 512 * ALLOC_FACTOR + ALLOC_SLACK;
}

/* The prefix (function and string tables) is copied into the heap. */
static int check_prefix_allocated(const struct gst_stats *st, const struct stat *sb,
                                  struct gr_error *err)
{
    const struct gs_header *h = &st->hdr;
    uint64_t functab_end = h->functab_off + (uint64_t)h->nfuncs * sizeof(struct gs_func);
    uint64_t strtab_end = h->strtab_off + h->strtab_size;
    uint64_t end = functab_end > strtab_end ? functab_end : strtab_end;
    if (end <= gst_read_budget(sb))
        return 0;
    return gr_fail(err, "%s: corrupt: its tables claim %" PRIu64 " bytes but the file occupies only %"
                   PRIu64 " (a sparse file?)", st->path, end, (uint64_t)sb->st_blocks * 512);
}

static int read_header(struct gst_stats *st, int fd, uint64_t *actual_size, struct gr_error *err)
{
    struct stat sb;
    if (fstat(fd, &sb) < 0)
        return gr_fail(err, "%s: cannot stat: %s", st->path, strerror(errno));
    if (!S_ISREG(sb.st_mode))
        return gr_fail(err, "%s: not a regular file", st->path);
    *actual_size = (uint64_t)sb.st_size;

    /* A short file is read partly; the zeroed rest fails validation with a
     * message that says which part is missing. */
    size_t want = sizeof st->hdr;
    if (*actual_size < want)
        want = (size_t)*actual_size;
    memset(&st->hdr, 0, sizeof st->hdr);
    if (gst_read_exact(fd, &st->hdr, want, 0) < 0)
        return gr_fail(err, "%s: cannot read header: %s", st->path, strerror(errno));
    if (gst_geometry_check(&st->hdr, *actual_size, st->path, err) < 0)
        return -1;
    return check_prefix_allocated(st, &sb, err);
}

static int load_strtab(struct gst_stats *st, int fd, struct gr_error *err)
{
    const struct gs_header *h = &st->hdr;

    st->strtab = malloc(h->strtab_size);
    if (!st->strtab)
        return gr_fail(err, "%s: out of memory for a %" PRIu64 "-byte string table",
                        st->path, h->strtab_size);
    if (gst_read_exact(fd, st->strtab, h->strtab_size, h->strtab_off) < 0)
        return gr_fail(err, "%s: cannot read string table: %s", st->path, strerror(errno));
    if (st->strtab[0] != '\0')
        return gr_fail(err, "%s: corrupt: string table does not start with the empty string", st->path);
    return 0;
}

/* Reads a table of n entries of size bytes at off, CHUNK_BYTES at a time,
 * handing each entry with its index to take; what names the table in the
 * error. */
typedef int (*entry_fn)(struct gst_stats *st, const void *entry, uint32_t index,
                        struct gr_error *err);

static int read_table(struct gst_stats *st, int fd, uint64_t off, uint32_t n, size_t size,
                      const char *what, entry_fn take, struct gr_error *err)
{
    _Alignas(16) unsigned char chunk[CHUNK_BYTES];
    uint32_t per_chunk = (uint32_t)(sizeof chunk / size);
    for (uint32_t done = 0; done < n;) {
        uint32_t k = n - done < per_chunk ? n - done : per_chunk;
        if (gst_read_exact(fd, chunk, k * size, off + (uint64_t)done * size) < 0)
            return gr_fail(err, "%s: cannot read %s: %s", st->path, what, strerror(errno));
        for (uint32_t i = 0; i < k; i++)
            if (take(st, chunk + i * size, done + i, err) < 0)
                return -1;
        done += k;
    }
    return 0;
}

static int take_func(struct gst_stats *st, const void *entry, uint32_t index, struct gr_error *err)
{
    const struct gs_func *in = entry;
    uint64_t size = st->hdr.strtab_size;

    if (gst_geometry_check_string(st->strtab, size, in->name_off, "name", index, st->path, err) < 0
        || gst_geometry_check_string(st->strtab, size, in->file_off, "file", index, st->path, err) < 0
        || gst_geometry_check_string(st->strtab, size, in->untimed_off, "untimed reason", index,
                                   st->path, err) < 0
        || gst_geometry_check_timing_index(&st->hdr, in->timing, index, st->path, err) < 0)
        return -1;
    bool timed = gst_timed(st) && in->timing != GS_UNTIMED;
    st->funcs[index] = (struct gst_func){
        .name = st->strtab + in->name_off,
        .file = st->strtab + in->file_off,
        .entry = in->entry,
        .line = in->line,
        .inlined = (in->flags & GS_FUNC_INLINED) != 0,
        .timed = timed,
        .untimed = timed ? NULL : st->strtab + in->untimed_off,
        .timing = timed ? in->timing : GS_UNTIMED,
    };
    return 0;
}

static int load_functab(struct gst_stats *st, int fd, struct gr_error *err)
{
    const struct gs_header *h = &st->hdr;
    st->funcs = calloc(h->nfuncs ? h->nfuncs : 1, sizeof *st->funcs);
    if (!st->funcs)
        return gr_fail(err, "%s: out of memory for %" PRIu32 " functions", st->path, h->nfuncs);
    return read_table(st, fd, h->functab_off, h->nfuncs, sizeof(struct gs_func), "function table",
                      take_func, err);
}

/* Names checked like the functions'; entries sorted. */
static int take_sym(struct gst_stats *st, const void *entry, uint32_t i, struct gr_error *err)
{
    const struct gs_sym *in = entry;
    if (gst_geometry_check_string(st->strtab, st->hdr.strtab_size, in->name_off, "symbol name", i,
                                  st->path, err) < 0)
        return -1;
    if (i > 0 && in->entry < st->syms[i - 1].entry)
        return gr_fail(err, "%s: corrupt: symbol %" PRIu32 " is not sorted by entry", st->path, i);
    st->syms[i] = (struct gst_sym){.entry = in->entry, .end = in->entry + in->size,
                                   .name = st->strtab + in->name_off};
    return 0;
}

/* The symbol table (files with paths): every function of the program, for
 * return addresses. */
static int load_syms(struct gst_stats *st, int fd, struct gr_error *err)
{
    const struct gs_header *h = &st->hdr;
    if (!gst_has_paths(st) || h->nsyms == 0)
        return 0;
    st->syms = calloc(h->nsyms, sizeof *st->syms);
    if (!st->syms)
        return gr_fail(err, "%s: out of memory for %" PRIu32 " symbols", st->path, h->nsyms);
    if (read_table(st, fd, h->syms_off, h->nsyms, sizeof(struct gs_sym), "symbol table", take_sym,
                   err) < 0)
        return -1;
    st->nsyms = h->nsyms;
    return 0;
}

/* Maps the live page and all rows. The map offset must be aligned to the
 * system page, which may be larger than GS_PAGE. */
static int map_counters(struct gst_stats *st, int fd, struct gr_error *err)
{
    uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
    uint64_t map_off = st->hdr.live_off - st->hdr.live_off % page;

    st->map_skew = (size_t)(st->hdr.live_off - map_off);
    st->map_len = st->map_skew + (size_t)gst_geometry_counter_area_size(&st->hdr);
    void *m = mmap(NULL, st->map_len, PROT_READ, MAP_SHARED, fd, (off_t)map_off);
    if (m == MAP_FAILED) {
        st->map = NULL;
        return gr_fail(err, "%s: cannot map counters: %s", st->path, strerror(errno));
    }
    st->map = m;
    return 0;
}

/* Counters are written concurrently by the program; an aligned 8-byte
 * atomic load never sees a torn value. */
static uint64_t load_u64(const unsigned char *p)
{
    return __atomic_load_n((const uint64_t *)(const void *)p, __ATOMIC_RELAXED);
}

/* Re-reads of torn sampled counters allowed in one refresh (below). */
#define COUNT_RETRIES 100000

/* What one refresh (a pass over the rows) decides once and keeps: each
 * row's page map is copied once, so the pages counted against the read
 * budget are exactly the pages then read (the file's owner cannot flip a
 * byte in between); torn sampled counters are re-read from one budget for
 * the whole refresh, and only in a live process's file (in a file nobody
 * writes, a pair that looks torn stays so). */
struct pass {
    unsigned char *pagemap;         /* the current row's, as read once */
    uint64_t pagemap_len;
    uint64_t retries_left;
    uint64_t touched, budget;       /* bytes of the mapping */
    uint64_t occupied;              /* bytes the file really occupies */
};

/* The record of a timed function in a thread's row, or NULL while its
 * page is not backed (read as zero: a read through the mapping would make
 * the kernel allocate it). */
static const unsigned char *timing_record(const struct gst_stats *st, const struct pass *ps,
                                          const unsigned char *row, const struct gst_func *f)
{
    uint64_t off = gs_timing_offset(st->hdr.timing_off, f->timing);
    return ps->pagemap[off / GS_PAGE] == 1 ? row + off : NULL;
}

/* When sampling, a thread's counter holds calls - next, next in the
 * function's timing record (stub_abi.h, gs_sample_enter). The program
 * writes next, then the counter (negative again): a pair read as next,
 * counter, next with next unchanged is consistent when the counter is
 * negative or next is still 0 (the first call, before its record was
 * written); otherwise the thread is between the two stores: read again. */
static uint64_t calls_in_row(const struct gst_stats *st, struct pass *ps, const unsigned char *row,
                             uint32_t i)
{
    const uint64_t *counter = (const uint64_t *)(const void *)(row + st->hdr.counts_off +
                                                               (uint64_t)i * st->hdr.counter_size);
    const struct gst_func *f = &st->funcs[i];
    const unsigned char *rec = gst_sampled(st) && f->timed ? timing_record(st, ps, row, f) : NULL;
    if (!rec)
        return __atomic_load_n(counter, __ATOMIC_ACQUIRE);
    const uint64_t *next = (const uint64_t *)(const void *)(rec + offsetof(struct gs_timing, next));
    uint64_t n1, s, n2;
    for (;;) {
        n1 = __atomic_load_n(next, __ATOMIC_ACQUIRE);
        s = __atomic_load_n(counter, __ATOMIC_ACQUIRE);
        n2 = __atomic_load_n(next, __ATOMIC_ACQUIRE);
        if ((n1 == n2 && (n1 == 0 || (int64_t)s < 0)) || ps->retries_left == 0)
            break;   /* (a thread killed between the stores: off by one gap at most) */
        ps->retries_left--;
    }
    return s + n2;
}

static void sum_calls(struct gst_stats *st, struct pass *ps, const unsigned char *row)
{
    for (uint32_t i = 0; i < st->hdr.nfuncs; i++)
        st->funcs[i].calls = gr_add_saturating(st->funcs[i].calls, calls_in_row(st, ps, row, i));
}

/* A row's drops added as the merge at exit adds them (format/gostat_merge.h). */
#define SUM_DROP(field)                                                                          \
    d->field = gs_merge_word(GS_KIND_gs_drops_##field, d->field, load_u64(row + offsetof(struct gs_drops, field)))
static void sum_drops(struct gst_drops *d, const unsigned char *row)
{
    SUM_DROP(unwound);
    SUM_DROP(too_deep);
    SUM_DROP(no_slot);
    SUM_DROP(unmatched);
    SUM_DROP(no_space);
    SUM_DROP(path_overflow);
    SUM_DROP(arc_overflow);
    SUM_DROP(abandoned);
    SUM_DROP(sampled_probes);
    SUM_DROP(sampled_probe_ticks);
    SUM_DROP(closed_at_exit);
}

/* Records are in function-table order of their index,
 * and offsets grow with the index: binary search over the index. */
struct gst_func *gst_stats_func_of_record(const struct gst_stats *st, uint32_t rec)
{
    const struct gs_header *h = &st->hdr;
    if (rec < h->timing_off || h->ntimed == 0)
        return NULL;
    uint64_t off = rec - h->timing_off;
    uint64_t in_page = off % GS_PAGE;
    if (in_page % sizeof(struct gs_timing) != 0 || in_page / sizeof(struct gs_timing) >= GS_TIMING_PER_PAGE)
        return NULL;
    uint64_t k = off / GS_PAGE * GS_TIMING_PER_PAGE + in_page / sizeof(struct gs_timing);
    if (k >= h->ntimed || !st->timing_funcs)
        return NULL;
    return st->timing_funcs[k];
}

/* With GS_HDR_PATH_TOTALS a timed call is in its path or arc entry only:
 * the entry's sums go to its callee's too. */
static void add_entry_to_callee(struct gst_func *f, const struct gst_path *p)
{
    f->samples = gs_merge_word(GS_KIND_gs_timing_samples, f->samples, p->calls);
    f->total_ticks = gs_merge_word(GS_KIND_gs_timing_total, f->total_ticks, p->total_ticks);
    f->self_ticks = gs_merge_word(GS_KIND_gs_timing_self_total, f->self_ticks, p->self_ticks);
    f->oncpu_ticks = gs_merge_word(GS_KIND_gs_timing_oncpu_total, f->oncpu_ticks, p->oncpu_ticks);
}

/* Returns 1 for an entry in use, else 0. */
static int add_path(struct gst_stats *st, const unsigned char *e, bool arc)
{
    uint64_t key = __atomic_load_n((const uint64_t *)(const void *)e, __ATOMIC_ACQUIRE);
    if (key == 0)
        return 0;
    struct gst_func *callee = gst_stats_func_of_record(st, __atomic_load_n((const uint32_t *)(const void *)
                                                                  (e + offsetof(struct gs_path, rec)), __ATOMIC_RELAXED));
    struct gst_path p = {
        .key = key,
        .parent = load_u64(e + offsetof(struct gs_path, parent)),
        .ret = load_u64(e + offsetof(struct gs_path, ret)) - st->hdr.load_bias,
        .callee = callee,
        .arc = arc,
        .calls = load_u64(e + offsetof(struct gs_path, calls)),
        .total_ticks = load_u64(e + offsetof(struct gs_path, total)),
        .self_ticks = load_u64(e + offsetof(struct gs_path, self)),
        .oncpu_ticks = st->oncpu ? load_u64(e + offsetof(struct gs_path, oncpu)) : 0,
    };
    if (callee && (st->hdr.flags & GS_HDR_PATH_TOTALS))
        add_entry_to_callee(callee, &p);
    struct gst_path *v = gr_vec_grow(st->path_entries, &st->paths_cap, st->npaths + 1, sizeof *v);
    if (!v) {
        st->paths_oom = true;
        return 1;
    }
    st->path_entries = v;
    v[st->npaths++] = p;
    return 1;
}

/* The entries of one table of a thread's row, on the pages its page map
 * says are backed; how full the table is goes to fill. */
static void read_path_table(struct gst_stats *st, const struct pass *ps, const unsigned char *row,
                            uint64_t off, uint32_t entries, bool arc, struct gst_table_fill *fill)
{
    uint64_t end = off + (uint64_t)entries * sizeof(struct gs_path);
    uint64_t used = 0;
    for (uint64_t p = off; p < end; p += GS_PAGE) {
        if (ps->pagemap[p / GS_PAGE] != 1)
            continue;
        for (uint64_t e = p; e < p + GS_PAGE; e += sizeof(struct gs_path))
            used += (uint64_t)add_path(st, row + e, arc);
    }
    if (used > fill->fullest)
        fill->fullest = used;
    fill->used += used;
    fill->rows += used > 0;
}

/* A row's record added field by field as the merge at exit adds two
 * records (format/gostat_merge.h): min_ticks stays inverted until
 * finish_sums. */
#define TIMING(field) load_u64(rec + offsetof(struct gs_timing, field))
#define ADD_TIMING(into, field) into = gs_merge_word(GS_KIND_gs_timing_##field, into, TIMING(field))
static void add_timing(struct gst_func *f, const unsigned char *rec)
{
    ADD_TIMING(f->total_ticks, total);
    ADD_TIMING(f->max_ticks, max);
    ADD_TIMING(f->min_ticks, min_inverted);
    for (unsigned b = 0; b < GS_HIST_BUCKETS; b++)
        f->hist[b] = gs_merge_word(GS_KIND_gs_timing_hist, f->hist[b],
                                  load_u64(rec + offsetof(struct gs_timing, hist) + b * sizeof(uint64_t)));
    ADD_TIMING(f->gap, gap);
    ADD_TIMING(f->samples, samples);
    ADD_TIMING(f->self_ticks, self_total);
    ADD_TIMING(f->oncpu_ticks, oncpu_total);
}

/* Only records on pages the row's page map says are backed are read. */
static void sum_timing_row(struct gst_stats *st, const struct pass *ps, const unsigned char *row)
{
    for (uint32_t i = 0; i < st->hdr.nfuncs; i++) {
        struct gst_func *f = &st->funcs[i];
        const unsigned char *rec = f->timed ? timing_record(st, ps, row, f) : NULL;
        if (rec)
            add_timing(f, rec);
    }
}

static void reset_sums(struct gst_stats *st)
{
    for (uint32_t i = 0; i < st->hdr.nfuncs; i++) {
        struct gst_func *f = &st->funcs[i];
        f->calls = f->timed_calls = f->samples = f->total_ticks = f->min_ticks = f->max_ticks = 0;
        f->self_ticks = f->oncpu_ticks = f->closed_at_exit = 0;
        f->gap = 0;
        memset(f->hist, 0, sizeof f->hist);
    }
    memset(&st->drops, 0, sizeof st->drops);
    st->npaths = 0;
    st->paths_oom = false;
    st->path_fill = st->arc_fill = (struct gst_table_fill){0};
}

static void finish_sums(struct gst_stats *st)
{
    st->total_calls = 0;
    for (uint32_t i = 0; i < st->hdr.nfuncs; i++) {
        struct gst_func *f = &st->funcs[i];
        st->total_calls = gr_add_saturating(st->total_calls, f->calls);
        f->min_ticks = f->min_ticks ? ~f->min_ticks : 0;
        for (unsigned b = 0; b < GS_HIST_BUCKETS; b++)
            f->timed_calls = gr_add_saturating(f->timed_calls, f->hist[b]);
    }
    const struct gs_header *h = &st->hdr;
    for (uint32_t i = 0; i < h->exit_nfuncs && i < GS_EXIT_CALLS_MAX; i++) {
        struct gst_func *f = gst_stats_func_of_record(st, h->exit_calls[i].rec);
        if (f)
            f->closed_at_exit = gr_add_saturating(f->closed_at_exit, h->exit_calls[i].calls);
    }
}

/* A thread's row may be read once the program has backed it with memory
 * (gs_live.rows_backed); row 0 always is. */
static bool row_backed(const unsigned char *live, uint64_t r)
{
    const unsigned char *word = live + offsetof(struct gs_live, rows_backed) + (r / 64) * 8;
    return r == 0 || (__atomic_load_n((const uint64_t *)(const void *)word, __ATOMIC_ACQUIRE) >> (r % 64) & 1);
}

/* Copies row's page map into the pass (once: acquire, as the writer sets
 * a byte after backing its page) and adds what reading the row will touch
 * to the budget: its head (drops, page map, counters) and, in a timing
 * file, the pages the copy marks ready. Fails, touching none of them,
 * when that goes over the file's budget. */
static int admit_row(const struct gst_stats *st, struct pass *ps, const unsigned char *row,
                     struct gr_error *err)
{
    const struct gs_header *h = &st->hdr;
    uint64_t head = h->counts_off + (uint64_t)h->nfuncs * h->counter_size;
    uint64_t pages = (head + GS_PAGE - 1) / GS_PAGE;
    for (uint64_t p = 0; p < ps->pagemap_len; p++)
        ps->pagemap[p] = __atomic_load_n(row + GS_ROW_PAGEMAP + p, __ATOMIC_RELAXED);
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
    if (!gst_timed(st))
        memset(ps->pagemap, 0, ps->pagemap_len);
    for (uint64_t p = h->timing_off / GS_PAGE; gst_timed(st) && p < ps->pagemap_len; p++)
        pages += ps->pagemap[p] == 1;
    ps->touched += pages * GS_PAGE;
    if (ps->touched <= ps->budget)
        return 0;
    return gr_fail(err, "%s: corrupt: its counter rows claim %" PRIu64 " bytes but the file "
                   "occupies only %" PRIu64 " (a sparse file?)", st->path, ps->touched, ps->occupied);
}

static void sum_row(struct gst_stats *st, struct pass *ps, const unsigned char *row, uint64_t r)
{
    const struct gs_header *h = &st->hdr;
    sum_calls(st, ps, row);
    if (!gst_timed(st))
        return;
    sum_drops(&st->drops, row);
    if (r == 0)   /* row 0 holds no timing */
        return;
    sum_timing_row(st, ps, row);
    if (gst_has_paths(st)) {
        read_path_table(st, ps, row, h->paths_off, h->max_paths, false, &st->path_fill);
        read_path_table(st, ps, row, h->arcs_off, h->max_arcs, true, &st->arc_fill);
    }
}

/* One pass over the rows in use, row-major: each row is one contiguous
 * run of counters. The live page is read once too. */
static int sum_counters(struct gst_stats *st, struct pass *ps, struct gr_error *err)
{
    const struct gs_header *h = &st->hdr;
    const unsigned char *live = st->map + st->map_skew;
    const unsigned char *rows = live + (h->rows_off - h->live_off);
    uint64_t claimed = load_u64(live + offsetof(struct gs_live, rows_claimed));
    uint64_t nrows = gst_geometry_rows_in_use(h, claimed);
    int rc = 0;

    reset_sums(st);
    /* A thread without a row claims again at each call (gs_claim_row). */
    if (h->max_rows && claimed > h->max_rows - 1)
        st->drops.rowless_calls = claimed - (h->max_rows - 1);
    for (uint64_t r = 0; r < nrows && rc == 0; r++) {
        const unsigned char *row = rows + r * h->row_stride;
        if (!row_backed(live, r))
            continue;
        rc = admit_row(st, ps, row, err);
        if (rc == 0)
            sum_row(st, ps, row, r);
    }
    finish_sums(st);
    return rc;
}

struct counters_read {
    struct gst_stats *st;
    struct pass *ps;
    struct gr_error *err;
};

static int sum_counters_of(void *arg)
{
    struct counters_read *c = arg;
    return sum_counters(c->st, c->ps, c->err);
}

static int sum_counters_guarded(struct gst_stats *st, struct gr_error *err)
{
    struct stat sb;

    if (fstat(st->fd, &sb) < 0)
        return gr_fail(err, "%s: cannot stat: %s", st->path, strerror(errno));
    struct pass ps = { .pagemap_len = st->hdr.row_stride / GS_PAGE, .touched = GS_PAGE,
                       .budget = gst_read_budget(&sb), .occupied = (uint64_t)sb.st_blocks * 512,
                       .retries_left = st->live ? COUNT_RETRIES : 0 };
    ps.pagemap = malloc(ps.pagemap_len ? ps.pagemap_len : 1);   /* outside the guard's reach */
    if (!ps.pagemap)
        return gr_fail(err, "%s: out of memory for a %" PRIu64 "-byte page map", st->path,
                       ps.pagemap_len);
    struct counters_read c = { st, &ps, err };
    int rc = gst_sigbus_guarded(sum_counters_of, &c);
    if (rc == 1)
        rc = gr_fail(err, "%s: file shrank while reading its counters", st->path);
    free(ps.pagemap);
    return rc;
}

/* Timing record index -> function, for the path entries' and the exit's
 * records. */
static int index_timing(struct gst_stats *st, struct gr_error *err)
{
    st->timing_funcs = calloc(st->hdr.ntimed ? st->hdr.ntimed : 1, sizeof *st->timing_funcs);
    if (!st->timing_funcs)
        return gr_fail(err, "%s: out of memory for %" PRIu32 " timing records", st->path, st->hdr.ntimed);
    for (uint32_t i = 0; i < st->hdr.nfuncs; i++)
        if (st->funcs[i].timed)
            st->timing_funcs[st->funcs[i].timing] = &st->funcs[i];
    return 0;
}

/* The process's end, written at its exit (after gostat opened the file
 * of a process that was running then); zeros when it was killed. */
static void read_end(struct gst_stats *st)
{
    size_t at = offsetof(struct gs_header, end_time_ns), to = offsetof(struct gs_header, reserved);
    if (gst_read_exact(st->fd, (unsigned char *)&st->hdr + at, to - at, at) < 0)
        memset((unsigned char *)&st->hdr + at, 0, to - at);
}

int gst_stats_refresh(struct gst_stats *st, struct gr_error *err)
{
    /* Liveness first: if the process has exited by now, the counters read
     * next are final, so the last snapshot of a watch is complete. */
    /* a merged file's pid is its first process's, long gone */
    /* a process that exec'd finished its file first and lives on in
     * another image: a file with an end is over whoever has its pid now,
     * unless its writer still holds it (finishing it) */
    if (!st->hdr.end_tsc)
        read_end(st);
    bool ended = st->hdr.end_tsc != 0;
    st->live = !st->hdr.processes &&
               ((!ended && gst_process_is_live(st->hdr.pid, st->hdr.proc_start_ticks)) ||
                gst_writer_holds_lock(st->fd));
    st->clock = gst_clock_for(&st->hdr);
    return sum_counters_guarded(st, err);
}

int gst_stats_open_fd(struct gst_stats *st, int fd, const char *path, struct gr_error *err)
{
    uint64_t actual_size;
    int rc;

    memset(st, 0, sizeof *st);
    st->fd = fd;
    st->fd_open = true;
    snprintf(st->path, sizeof st->path, "%s", path);
    rc = read_header(st, fd, &actual_size, err);
    st->timing = gs_mode_of_header(st->hdr.flags, st->hdr.sample_every);
    st->oncpu = gst_timed(st) && (st->hdr.flags & GS_HDR_ONCPU);
    st->oncpu_off = gst_timed(st) && !st->oncpu && (st->hdr.flags & GS_HDR_ONCPU_OFF);
    if (rc == 0)
        rc = load_strtab(st, fd, err);
    if (rc == 0)
        rc = load_functab(st, fd, err);
    if (rc == 0)
        rc = load_syms(st, fd, err);
    if (rc == 0 && gst_timed(st))
        rc = index_timing(st, err);
    if (rc == 0)
        rc = map_counters(st, fd, err);
    if (rc == 0)
        rc = gst_stats_refresh(st, err);
    if (rc < 0)
        gst_stats_close(st);
    return rc;
}

int gst_stats_open(struct gst_stats *st, const char *path, struct gr_error *err)
{
    /* O_NONBLOCK: opening a FIFO must not hang; fstat then rejects it. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        memset(st, 0, sizeof *st);
        return gr_fail(err, "%s: cannot open: %s", path, strerror(errno));
    }
    return gst_stats_open_fd(st, fd, path, err);
}

void gst_stats_close(struct gst_stats *st)
{
    if (st->fd_open)
        close(st->fd);
    st->fd_open = false;
    if (st->map)
        munmap((void *)st->map, st->map_len);
    free(st->funcs);
    free(st->strtab);
    free(st->syms);
    free(st->path_entries);
    free(st->timing_funcs);
    st->syms = NULL;
    st->path_entries = NULL;
    st->timing_funcs = NULL;
    st->npaths = st->paths_cap = st->nsyms = 0;
    st->map = NULL;
    st->funcs = NULL;
    st->strtab = NULL;
}

const char *gst_merge_error_name(uint32_t merge_error)
{
    switch (merge_error) {
    case 0: return "none";
    case GS_MERGE_BUSY: return "merged file locked too long";
    case GS_MERGE_INVALID: return "merged file not this program's";
    default: return "merged file unwritable";
    }
}
