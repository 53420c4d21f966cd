/* finish.c: the stats file at exit (gs_exit, stubs/exit.S). First the
 * shared mapping is frozen: replaced by private memory, so threads still
 * running count into nothing and the file no longer changes. Then, with
 * GOSTAT_MERGE, the file's counts are added into the program's merged file
 * (docs/stats-format.md "Merged files") and the own file is removed;
 * without it, or when the merge fails, the own file shrinks to the pages
 * the process used.
 *
 * The merge takes an flock on the merged file M (refusing at once one of
 * another user: a shared directory may hold a planted, locked one), writes
 * M + this process into a fresh file of a random name no one can foresee
 * and exchanges it with M while M is still the locked file: a process
 * killed at any point loses its own counts at most (the kernel drops its
 * lock), never M, and is never counted twice (its own file loses its magic
 * before the exchange). A moved M restarts the merge: its counts live on
 * where it went. Nothing read from M is trusted:
 * its layout must equal this program's, every offset used comes from the
 * program's own image, and a file that fails is left alone (the process
 * keeps its own file, with merge_error saying why).
 *
 * Before any of it the process's end is stamped: the exiting goroutine's
 * open timed calls are closed at the exit's time (stubs/exit_calls.c),
 * the header gets the end's clocks and those calls' functions, and each
 * goroutine site the age of its oldest goroutine still running (the live
 * table itself tells goroutines alive in a running process and goes).
 *
 * An exec finishes the file the same way first (gs_exec_finish, before
 * execve); when execve fails, gs_exec_resume gives the process a new file
 * holding what it counted since (docs/stats-format.md "Before an exec"). */
#include "format/gostat_format.h"
#include "format/gostat_merge.h"
#include "format/stub_abi.h"
#include "stubs/exit_calls.h"
#include "stubs/finish.h"
#include "stubs/freestanding.h"
#include "stubs/sys.h"

#include <stddef.h>
#include <stdint.h>

extern uint8_t __blob_start[];
extern volatile struct gs_stub_config gs_config;

#define LOCK_TRIES 20000             /* 1 ms apart: 20 s for the merged file's lock */
#define WAIT_TRIES 20000             /* another thread finishing: at most 20 s */
#define CHUNK (64u * 1024)
#define MOVED (-4096L)                /* not an errno: the merged file moved meanwhile */

struct finish {
    const struct gs_header *img;     /* the program's image: trusted geometry */
    const uint8_t *image;
    uint64_t image_size;
    const uint8_t *names;            /* the program's names, after the image in the file */
    uint64_t names_size;
    struct gs_finish_info *info;
    long own;                        /* fd of the own file */
    uint8_t *a, *b;                  /* scratch, each span_max bytes */
    uint64_t span_max;
};

static void sleep_ms(long ms)
{
    struct { long sec, nsec; } ts = {0, ms * 1000000};
    gs_syscall3(GS_SYS_nanosleep, &ts, 0, 0);
}

static int page_is_zero(const uint8_t *p)
{
    const uint64_t *w = (const uint64_t *)p;
    for (unsigned i = 0; i < GS_PAGE / 8; i++)
        if (w[i])
            return 0;
    return 1;
}

/* [off, off + len) of fd into buf; only the file's data is read, holes
 * (most of a stats file) become zeros without a copy. */
static long read_sparse(long fd, uint64_t off, uint64_t len, uint8_t *buf)
{
    uint64_t pos = off, end = off + len;
    while (pos < end) {
        long d = gs_syscall3(GS_SYS_lseek, fd, pos, GS_SEEK_DATA);
        if (d == -GS_ENXIO || (d >= 0 && (uint64_t)d > end))
            d = (long)end;
        else if (d < 0)
            return gs_read_all(fd, buf + (pos - off), end - pos, pos);
        gs_zero(buf + (pos - off), (uint64_t)d - pos);
        if ((uint64_t)d >= end)
            return 0;
        long h = gs_syscall3(GS_SYS_lseek, fd, d, GS_SEEK_HOLE);
        if (h < 0 || (uint64_t)h > end)
            h = (long)end;
        long rc = gs_read_all(fd, buf + ((uint64_t)d - off), (uint64_t)(h - d), (uint64_t)d);
        if (rc < 0)
            return rc;
        pos = (uint64_t)h;
    }
    return 0;
}

/* Writes buf's pages that hold data at off into a fresh file, each run in
 * one call; all-zero pages stay holes. */
static long write_sparse(long fd, uint64_t off, const uint8_t *buf, uint64_t len)
{
    uint64_t run = 0;
    int run_zero = 0;
    for (uint64_t p = 0;; p += GS_PAGE) {
        p = p < len ? p : len;
        int end = p == len, zero_page = !end && len - p >= GS_PAGE && page_is_zero(buf + p);
        if (!end && p > run && zero_page == run_zero)
            continue;
        long rc = p > run && !run_zero ? gs_write_all(fd, buf + run, p - run, off + run) : 0;
        if (rc < 0 || end)
            return rc;
        run = p;
        run_zero = zero_page;
    }
}

static uint64_t page_up(uint64_t n)
{
    return (n + GS_PAGE - 1) & ~(uint64_t)(GS_PAGE - 1);
}

static uint64_t max_u64(uint64_t a, uint64_t b)
{
    return a > b ? a : b;
}

/* Rows holding data: row 0 and the claimed ones. */
static uint64_t used_rows(const struct gs_header *h, const struct gs_live *live)
{
    uint64_t claimed = live->rows_claimed;
    return (claimed < h->max_rows - 1 ? claimed : h->max_rows - 1) + 1;
}

/* Adds entry o into the table m (n entries) by key; 0 when there is no
 * room. Probes on from the key's own slot. */
static int add_path(struct gs_path *m, uint64_t n, const struct gs_path *o)
{
    for (uint64_t i = 0, j = o->key % n; i < n; i++, j = j + 1 < n ? j + 1 : 0) {
        struct gs_path *e = &m[j];
        if (e->key == o->key) {
            gs_merge_record(e, o, gs_path_merge, GS_MERGE_FIELDS(gs_path_merge));
            return 1;
        }
        if (!e->key) {
            *e = *o;
            return 1;
        }
    }
    return 0;
}

/* A path table of the own row o into the merged row m. An entry with no
 * room keeps its totals in its callee's record, as the stubs do for a call
 * that finds room in neither table (GS_HDR_PATH_TOTALS). */
static void add_paths(const struct gs_header *h, uint8_t *m, const uint8_t *o, uint64_t off, uint64_t n)
{
    struct gs_drops *drops = (struct gs_drops *)m;
    for (uint64_t i = 0; i < n; i++) {
        const struct gs_path *e = (const struct gs_path *)(o + off) + i;
        if (!e->key || add_path((struct gs_path *)(m + off), n, e))
            continue;
        drops->arc_overflow = gs_merge_word(GS_KIND_gs_drops_arc_overflow, drops->arc_overflow, e->calls);
        uint64_t in_page = (e->rec - h->timing_off) % GS_PAGE;   /* a record's place, as the stubs put it */
        if (!(h->flags & GS_HDR_PATH_TOTALS) || e->rec < h->timing_off || e->rec >= h->paths_off ||
            in_page % sizeof(struct gs_timing) || in_page >= GS_TIMING_PER_PAGE * sizeof(struct gs_timing))
            continue;
        struct gs_timing *t = (struct gs_timing *)(m + e->rec);
        t->samples = gs_merge_word(GS_KIND_gs_timing_samples, t->samples, e->calls);
        t->total = gs_merge_word(GS_KIND_gs_timing_total, t->total, e->total);
        t->self_total = gs_merge_word(GS_KIND_gs_timing_self_total, t->self_total, e->self);
        t->oncpu_total = gs_merge_word(GS_KIND_gs_timing_oncpu_total, t->oncpu_total, e->oncpu);
    }
}

/* Row o (the own file's) into row m (the merged file's). */
static void add_row(const struct gs_header *h, uint8_t *m, const uint8_t *o)
{
    gs_merge_record(m, o, gs_drops_merge, GS_MERGE_FIELDS(gs_drops_merge));
    for (uint64_t i = GS_ROW_PAGEMAP; i < h->counts_off; i++)
        if (m[i] != GS_PAGE_READY)
            m[i] = o[i] ? o[i] : m[i];
    uint64_t *mc = (uint64_t *)(m + h->counts_off);
    for (uint64_t f = 0; f < h->nfuncs; f++)
        mc[f] = gs_merge_word(GS_KIND_gs_counter_calls, mc[f], ((const uint64_t *)(o + h->counts_off))[f]);
    for (uint32_t k = 0; k < h->ntimed; k++) {
        uint64_t at = gs_timing_offset(h->timing_off, k);
        gs_merge_record(m + at, o + at, gs_timing_merge, GS_MERGE_FIELDS(gs_timing_merge));
    }
    if (h->flags & GS_HDR_PATHS) {
        add_paths(h, m, o, h->paths_off, h->max_paths);
        add_paths(h, m, o, h->arcs_off, h->max_arcs);
    }
}

/* The sites section: the head's counts and the site table by key and
 * creator path (a new site brings its path entry along); the live table is
 * emptied (it tells goroutines alive in a running process). */
static void add_sites(const struct gs_header *h, uint8_t *m, const uint8_t *o)
{
    struct gs_site_head *mh = (struct gs_site_head *)m;
    const struct gs_site_head *oh = (const struct gs_site_head *)o;
    gs_merge_record(mh, oh, gs_site_head_merge, GS_MERGE_FIELDS(gs_site_head_merge));
    struct gs_site *ms = (struct gs_site *)(m + GS_PAGE);
    const struct gs_site *os = (const struct gs_site *)(o + GS_PAGE);
    struct gs_spath *mp = (struct gs_spath *)(m + h->spaths_off);
    const struct gs_spath *op = (const struct gs_spath *)(o + h->spaths_off);
    int paths = (h->flags & GS_HDR_SITE_PATHS) != 0;
    uint64_t n = h->max_sites;
    for (uint64_t i = 0; i < n; i++) {
        if (!os[i].key)
            continue;
        uint64_t k = 0, home = os[i].key * GS_SITE_HASH >> 32;   /* where the stubs start (sites.S) */
        for (; k < n; k++) {
            uint64_t j = (home + k) & (n - 1);
            struct gs_site *e = &ms[j];
            if (!e->key) {
                e->key = os[i].key, e->path = os[i].path, e->claim = os[i].claim;
                if (paths)
                    mp[j] = op[i];
            }
            if (e->key == os[i].key && e->path == os[i].path) {
                gs_merge_record(e, &os[i], gs_site_merge, GS_MERGE_FIELDS(gs_site_merge));   /* key, path, claim stay */
                break;
            }
        }
        if (k == n)
            mh->no_site = gs_merge_word(GS_KIND_gs_site_head_no_site, mh->no_site, os[i].created);
    }
    gs_zero(m + h->glive_off, h->max_glive * (uint64_t)sizeof(struct gs_glive));
}

/* The merged file's header must state this program's layout, and its
 * tables equal the image's. */
static int same_layout(const struct gs_header *m, const struct gs_header *i)
{
    const uint32_t kept = GS_HDR_TIMING | GS_HDR_ADAPTIVE | GS_HDR_PATHS | GS_HDR_PATH_TOTALS |
                          GS_HDR_ONCPU | GS_HDR_SITES;
    return gs_bytes_equal((const uint8_t *)m->magic, (const uint8_t *)GS_MAGIC, GS_MAGIC_LEN) &&
           m->version == i->version && m->header_size == i->header_size && m->file_size == i->file_size &&
           m->nfuncs == i->nfuncs && (m->flags & kept) == (i->flags & kept) &&
           m->functab_off == i->functab_off && m->strtab_off == i->strtab_off &&
           m->strtab_size == i->strtab_size && m->live_off == i->live_off && m->rows_off == i->rows_off &&
           m->row_stride == i->row_stride && m->max_rows == i->max_rows &&
           m->counter_size == i->counter_size && m->ntimed == i->ntimed &&
           m->timing_size == i->timing_size && m->counts_off == i->counts_off &&
           m->timing_off == i->timing_off && m->sample_every == i->sample_every &&
           m->syms_off == i->syms_off && m->nsyms == i->nsyms && m->path_size == i->path_size &&
           m->paths_off == i->paths_off && m->arcs_off == i->arcs_off && m->max_paths == i->max_paths &&
           m->max_arcs == i->max_arcs && m->trace_off == i->trace_off && m->trace_size == i->trace_size &&
           m->sites_off == i->sites_off && m->glive_off == i->glive_off && m->max_sites == i->max_sites &&
           m->max_glive == i->max_glive && m->site_size == i->site_size &&
           m->glive_size == i->glive_size && m->gostmts_off == i->gostmts_off &&
           m->ngostmts == i->ngostmts && m->gostmt_size == i->gostmt_size &&
           gs_bytes_equal((const uint8_t *)m->build_id, (const uint8_t *)i->build_id, GS_BUILDID_MAX) &&
           m->processes >= 1 && m->processes < GS_MAX_PROCESSES;
}

/* The file's bytes [at, at + len) are mem's. */
static int same_bytes(const struct finish *f, long fd, uint64_t at, const uint8_t *mem, uint64_t len)
{
    for (uint64_t done = 0; done < len; done += CHUNK) {
        uint64_t n = len - done < CHUNK ? len - done : CHUNK;
        if (gs_read_all(fd, f->a, n, at + done) < 0 || !gs_bytes_equal(f->a, mem + done, n))
            return 0;
    }
    return 1;
}

static int same_tables(const struct finish *f, long fd)
{
    uint64_t h = sizeof(struct gs_header);
    return same_bytes(f, fd, h, f->image + h, f->image_size - h) &&
           same_bytes(f, fd, f->image_size, f->names, f->names_size);
}

/* fd is the file at path now (not one renamed away), a regular file of
 * this user, of the given size. */
static int is_file(long fd, const char *path, uint64_t size)
{
    struct gs_stat a, b;
    long uid = gs_syscall3(GS_SYS_geteuid, 0, 0, 0);
    if (gs_syscall3(GS_SYS_fstat, fd, &a, 0) < 0 ||
        gs_syscall6(GS_SYS_newfstatat, GS_AT_FDCWD, (long)path, (long)&b, GS_AT_SYMLINK_NOFOLLOW, 0, 0) < 0)
        return 0;
    return a.dev == b.dev && a.ino == b.ino && (a.mode & GS_S_IFMT) == GS_S_IFREG &&
           a.uid == (uint64_t)uid && (uint64_t)a.size == size;
}

/* 16 hex digits naming the program as instrumented: a hash of its image
 * (build ID, layout, functions). */
static void signature(const struct finish *f, char out[16])
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (uint64_t i = 0; i < f->image_size; i++)
        h = (h ^ f->image[i]) * 0x100000001b3ull;
    h = (h ^ f->names_size) * 0x100000001b3ull;      /* the names are the program's */
    for (int i = 0; i < 16; i++)
        out[i] = "0123456789abcdef"[(h >> (60 - 4 * i)) & 15];
}

/* The merged file: GOSTAT_MERGE's name (1: gostat.<exe>.merged-%m) in the
 * own file's directory, %m the program's signature, gostat. put before a
 * name without it. A name with a '/' is refused. */
static int merged_path(const struct finish *f, char *path, size_t cap)
{
    const struct gs_finish_info *in = f->info;
    const char *pat = in->merge;
    size_t len = 0, dir = in->dir;
    if (gs_append(path, &len, cap, in->own, dir + 1) < 0)
        return -1;
    if (pat[0] == '1' && !pat[1]) {
        if (gs_append(path, &len, cap, in->own + dir + 1, in->stem - dir - 1) < 0)
            return -1;
        pat = "merged-%m";
    } else if (!(pat[0] == 'g' && pat[1] == 'o' && pat[2] == 's' && pat[3] == 't' && pat[4] == 'a' &&
                 pat[5] == 't' && pat[6] == '.') &&
               gs_append(path, &len, cap, GS_FILE_PREFIX, sizeof GS_FILE_PREFIX - 1) < 0) {
        return -1;
    }
    for (; *pat; pat++) {
        char sig[16];
        int rc;
        if (*pat == '/')
            return -1;
        if (pat[0] == '%' && pat[1] == 'm') {
            signature(f, sig);
            rc = gs_append(path, &len, cap, sig, 16);
            pat++;
        } else {
            rc = gs_append(path, &len, cap, pat, 1);
        }
        if (rc < 0)
            return -1;
    }
    return 0;
}

/* The file open as fd and the one named path now (not followed) are the
 * same inode; st gets fd's. */
static int still_named(long fd, const char *path, struct gs_stat *st)
{
    struct gs_stat b;
    return gs_syscall3(GS_SYS_fstat, fd, st, 0) >= 0 &&
           gs_syscall6(GS_SYS_newfstatat, GS_AT_FDCWD, (long)path, (long)&b, GS_AT_SYMLINK_NOFOLLOW, 0, 0) >= 0 &&
           st->dev == b.dev && st->ino == b.ino;
}

/* Opens and locks the merged file; -GS_ENOENT when there is none yet. A
 * file of another user (or not a regular one) is refused at once, before
 * any lock: in a shared directory it may be planted and held locked. A
 * file replaced while we waited means another merge finished: open the new
 * one, however often that happens. */
static long lock_merged(const struct finish *f, const char *path, uint32_t *error)
{
    uint64_t uid = (uint64_t)gs_syscall3(GS_SYS_geteuid, 0, 0, 0);
    for (;;) {
        long fd = gs_syscall6(GS_SYS_openat, GS_AT_FDCWD, (long)path,
                              GS_O_RDWR | GS_O_NOFOLLOW | GS_O_NONBLOCK | GS_O_CLOEXEC, 0, 0, 0);
        if (fd < 0) {
            *error = GS_MERGE_IO;
            return fd;
        }
        struct gs_stat st;
        long rc = gs_syscall3(GS_SYS_fstat, fd, &st, 0) < 0 ? -1 : -GS_EWOULDBLOCK;
        if (rc == -GS_EWOULDBLOCK && ((st.mode & GS_S_IFMT) != GS_S_IFREG || st.uid != uid))
            rc = -1, *error = GS_MERGE_INVALID;
        for (unsigned t = 0; t < LOCK_TRIES && rc == -GS_EWOULDBLOCK; t++) {
            rc = gs_syscall3(GS_SYS_flock, fd, GS_LOCK_EX | GS_LOCK_NB, 0);
            if (rc == -GS_EWOULDBLOCK)
                sleep_ms(1);
        }
        if (rc < 0) {
            if (!*error)
                *error = rc == -GS_EWOULDBLOCK ? GS_MERGE_BUSY : GS_MERGE_IO;
            gs_syscall3(GS_SYS_close, fd, 0, 0);
            return -1;
        }
        if (still_named(fd, path, &st)) {
            if (is_file(fd, path, f->img->file_size))
                return fd;
            *error = GS_MERGE_INVALID;
            gs_syscall3(GS_SYS_close, fd, 0, 0);
            return -1;
        }
        gs_syscall3(GS_SYS_close, fd, 0, 0);   /* replaced or removed while we waited */
    }
}

/* A temporary name beside path no one can foresee: "." + its base name +
 * ".tmp-" + 16 random hex digits. The leading dot keeps it out of gostat's
 * gostat.* files (a merger killed at the wrong moment leaves it behind). */
static int tmp_name(const char *path, size_t dir, char *tmp, size_t cap)
{
    uint64_t r = 0;
    if (gs_syscall3(GS_SYS_getrandom, &r, sizeof r, 0) != (long)sizeof r)
        return -1;
    char hex[16];
    for (int i = 0; i < 16; i++)
        hex[i] = "0123456789abcdef"[(r >> (60 - 4 * i)) & 15];
    size_t len = 0;
    return gs_append(tmp, &len, cap, path, dir) < 0 || gs_append(tmp, &len, cap, ".", 1) < 0 ||
                   gs_append(tmp, &len, cap, path + dir, gs_str_len(path + dir)) < 0 ||
                   gs_append(tmp, &len, cap, ".tmp-", 5) < 0 || gs_append(tmp, &len, cap, hex, 16) < 0
               ? -1
               : 0;
}

/* A fresh temporary file beside path, created here (O_EXCL, never an
 * existing file or link); its name in tmp. */
static long open_tmp(const struct finish *f, const char *path, char *tmp, size_t cap)
{
    for (int attempt = 0; attempt < 16; attempt++) {
        if (tmp_name(path, f->info->dir + 1, tmp, cap) < 0)
            return -1;
        long t = gs_syscall6(GS_SYS_openat, GS_AT_FDCWD, (long)tmp,
                             GS_O_RDWR | GS_O_CREAT | GS_O_EXCL | GS_O_NOFOLLOW | GS_O_CLOEXEC, 0600, 0, 0);
        if (t != -GS_EEXIST)
            return t;
    }
    return -GS_EEXIST;
}

/* Puts tmp at path if path still names the locked file m (the one whose
 * counts tmp holds); MOVED when it does not (renamed away or removed:
 * its counts live on elsewhere, so tmp's must not be placed). The
 * exchange says what it displaced: a file another process put at path
 * meanwhile goes back. */
static long commit(long m, const char *tmp, const char *path)
{
    struct gs_stat st, was;
    if (!still_named(m, path, &st))
        return MOVED;
    long rc = gs_syscall6(GS_SYS_renameat2, GS_AT_FDCWD, (long)tmp, GS_AT_FDCWD, (long)path, GS_RENAME_EXCHANGE, 0);
    if (rc == -GS_EINVAL)   /* a file system without exchange: rename */
        return gs_syscall3(GS_SYS_rename, tmp, path, 0);
    if (rc == -GS_ENOENT)
        return MOVED;
    if (rc < 0)
        return rc;
    if (gs_syscall6(GS_SYS_newfstatat, GS_AT_FDCWD, (long)tmp, (long)&was, GS_AT_SYMLINK_NOFOLLOW, 0, 0) < 0 ||
        was.dev != st.dev || was.ino != st.ino) {
        gs_syscall6(GS_SYS_renameat2, GS_AT_FDCWD, (long)tmp, GS_AT_FDCWD, (long)path, GS_RENAME_EXCHANGE, 0);
        return MOVED;
    }
    return 0;
}

/* The live page, the rows any of the two used, the sites section: merged
 * file m and own file o into t, sparse. */
static long merge_data(const struct finish *f, long m, long t)
{
    const struct gs_header *h = f->img;
    struct gs_live *ml = (struct gs_live *)f->a, *ol = (struct gs_live *)f->b;
    long rc;
    if ((rc = gs_read_all(m, ml, GS_PAGE, h->live_off)) < 0 || (rc = gs_read_all(f->own, ol, GS_PAGE, h->live_off)) < 0)
        return rc;
    uint64_t rows = max_u64(used_rows(h, ml), used_rows(h, ol));
    ml->rows_claimed = rows - 1;
    for (unsigned i = 0; i < 64; i++)
        ml->rows_backed[i] |= ol->rows_backed[i];
    if ((rc = gs_write_all(t, ml, GS_PAGE, h->live_off)) < 0)
        return rc;
    for (uint64_t r = 0; r < rows; r++) {
        uint64_t off = h->rows_off + r * h->row_stride;
        if ((rc = read_sparse(m, off, h->row_stride, f->a)) < 0 ||
            (rc = read_sparse(f->own, off, h->row_stride, f->b)) < 0)
            return rc;
        add_row(h, f->a, f->b);
        /* the head whole (gostat budgets what it reads by the space the file occupies) */
        uint64_t head = page_up(h->counts_off + (uint64_t)h->nfuncs * sizeof(struct gs_counter));
        head = head < h->row_stride ? head : h->row_stride;
        if ((rc = gs_write_all(t, f->a, head, off)) < 0 ||
            (rc = write_sparse(t, off + head, f->a + head, h->row_stride - head)) < 0)
            return rc;
    }
    if (!(h->flags & GS_HDR_SITES))
        return 0;
    uint64_t len = h->file_size - h->sites_off;
    if ((rc = read_sparse(m, h->sites_off, len, f->a)) < 0 || (rc = read_sparse(f->own, h->sites_off, len, f->b)) < 0)
        return rc;
    add_sites(h, f->a, f->b);
    return gs_write_all(t, f->a, len, h->sites_off);   /* whole: gostat reads it whole (its budget) */
}

/* The process's end into M's header: the latest end of all, and the
 * calls closed at exit added by function (a function beyond the table's
 * room is in the drops' count only). */
static void merge_end(struct gs_header *mh, const struct gs_header *own)
{
    if (own->end_time_ns >= mh->end_time_ns) {
        mh->end_time_ns = own->end_time_ns;
        mh->end_tsc = own->end_tsc;
        mh->end_mono_ns = own->end_mono_ns;
    }
    uint32_t n = mh->exit_nfuncs < GS_EXIT_CALLS_MAX ? mh->exit_nfuncs : GS_EXIT_CALLS_MAX;
    for (uint32_t i = 0; i < own->exit_nfuncs && i < GS_EXIT_CALLS_MAX; i++) {
        uint32_t j = 0;
        while (j < n && mh->exit_calls[j].rec != own->exit_calls[i].rec)
            j++;
        if (j == n && n == GS_EXIT_CALLS_MAX)
            continue;
        if (j == n)
            mh->exit_calls[n++] = (struct gs_exit_call){.rec = own->exit_calls[i].rec};
        uint64_t sum = (uint64_t)mh->exit_calls[j].calls + own->exit_calls[i].calls;
        mh->exit_calls[j].calls = sum < UINT32_MAX ? (uint32_t)sum : UINT32_MAX;
    }
    mh->exit_nfuncs = n;
}

/* A temporary file: M's header with one process more, the program's
 * tables, M's and the own file's counts added; then put at M. The own
 * file's magic is cleared first, so a reader (gostat merge --dir) never
 * counts it beside M if the process dies before removing it; it is
 * written back when the counts were not placed. */
static long merge_into(const struct finish *f, long m, const char *path, uint32_t *error)
{
    struct gs_header mh, own;
    if (gs_read_all(m, &mh, sizeof mh, 0) < 0 || !same_layout(&mh, f->img) || !same_tables(f, m) ||
        gs_read_all(f->own, &own, sizeof own, 0) < 0) {
        *error = GS_MERGE_INVALID;
        return -1;
    }
    merge_end(&mh, &own);
    char tmp[GS_PATH_MAX];
    long t = open_tmp(f, path, tmp, sizeof tmp);
    if (t < 0)
        return t;
    mh.processes++;
    long rc = gs_syscall3(GS_SYS_ftruncate, t, mh.file_size, 0);
    if (rc >= 0)
        rc = gs_write_all(t, &mh, sizeof mh, 0);
    if (rc >= 0)
        rc = gs_write_all(t, f->image + sizeof mh, f->image_size - sizeof mh, sizeof mh);
    if (rc >= 0)
        rc = gs_write_all(t, f->names, f->names_size, f->image_size);
    if (rc >= 0)
        rc = merge_data(f, m, t);
    gs_syscall3(GS_SYS_close, t, 0, 0);
    if (rc >= 0)
        rc = gs_write_all(f->own, "\0\0\0\0\0\0\0\0", GS_MAGIC_LEN, 0);
    if (rc >= 0 && (rc = commit(m, tmp, path)) < 0)
        gs_write_all(f->own, GS_MAGIC, GS_MAGIC_LEN, 0);
    gs_syscall3(GS_SYS_unlink, tmp, 0, 0);   /* M's old file on success */
    return rc;
}

/* The first process: its own file, one process, becomes the merged file,
 * moved there in one step (never replacing one that appeared meanwhile,
 * never two names a reader might count twice). */
static long become_merged(const struct finish *f, const char *path)
{
    const struct gs_header *h = f->img;
    uint64_t one = 1;
    long rc = 0;
    if (h->flags & GS_HDR_SITES) {        /* goroutines alive in a running process: none here */
        uint64_t g = h->sites_off + h->glive_off, n = h->file_size - g;
        gs_zero(f->a, n);
        rc = gs_write_all(f->own, f->a, n, g);
    }
    if (rc >= 0)
        rc = gs_write_all(f->own, &one, sizeof one, offsetof(struct gs_header, processes));
    if (rc >= 0)
        rc = gs_syscall6(GS_SYS_renameat2, GS_AT_FDCWD, (long)f->info->own, GS_AT_FDCWD, (long)path,
                         GS_RENAME_NOREPLACE, 0);
    if (rc == -GS_EINVAL)   /* a file system without it: a second name, the first removed after */
        rc = gs_syscall3(GS_SYS_link, f->info->own, path, 0);
    return rc;
}

/* Tries until the counts are placed or the merged file is refused: each
 * retry follows another process's finished merge or a moved merged file. */
static long merge(const struct finish *f, uint32_t *error)
{
    char path[GS_PATH_MAX];
    if (merged_path(f, path, sizeof path) < 0) {
        *error = GS_MERGE_INVALID;
        return -1;
    }
    for (;;) {
        *error = 0;
        long m = lock_merged(f, path, error);
        if (m == -GS_ENOENT) {
            long rc = become_merged(f, path);
            if (rc == -GS_EEXIST)
                continue;
            *error = rc < 0 ? GS_MERGE_IO : 0;
            return rc;
        }
        if (m < 0)
            return m;
        long rc = merge_into(f, m, path, error);
        gs_syscall3(GS_SYS_close, m, 0, 0);
        if (rc == MOVED)
            continue;
        if (rc < 0 && !*error)
            *error = GS_MERGE_IO;
        return rc;
    }
}

/* The own file's sites section, compacted into f->b: the head, the sites
 * in use in the smallest table that holds them, a live table of one empty
 * entry (goroutines alive in a running process: none now). *len is its
 * size; h gets its geometry. */
static long compact_sites(const struct finish *f, struct gs_header *h, uint64_t *len)
{
    const struct gs_header *img = f->img;
    long rc = read_sparse(f->own, img->sites_off, img->file_size - img->sites_off, f->a);
    if (rc < 0)
        return rc;
    const struct gs_site *tab = (const struct gs_site *)(f->a + GS_PAGE);
    uint64_t used = 0, n = 1;
    for (uint64_t i = 0; i < img->max_sites; i++)
        used += tab[i].key != 0;
    while (n < used)
        n *= 2;
    h->max_sites = (uint32_t)n;
    h->glive_off = page_up(GS_PAGE + n * sizeof(struct gs_site));
    h->max_glive = 1;
    *len = page_up(h->glive_off + sizeof(struct gs_glive));
    if (img->flags & GS_HDR_SITE_PATHS) {   /* entry i the path of site i: they move together */
        h->spaths_off = *len;
        *len = page_up(h->spaths_off + n * sizeof(struct gs_spath));
    }
    gs_zero(f->b, *len);
    uint64_t *out = (uint64_t *)f->b;
    for (unsigned w = 0; w < GS_PAGE / 8; w++)
        out[w] = ((const uint64_t *)f->a)[w];
    struct gs_site *sites = (struct gs_site *)(f->b + GS_PAGE);
    struct gs_spath *paths = (struct gs_spath *)(f->b + h->spaths_off);
    const struct gs_spath *was = (const struct gs_spath *)(f->a + img->spaths_off);
    for (uint64_t i = 0, j = 0; i < img->max_sites; i++) {
        if (!tab[i].key)
            continue;
        sites[j] = tab[i];
        if (img->flags & GS_HDR_SITE_PATHS)
            paths[j] = was[i];
        j++;
    }
    return 0;
}

/* Without merging: the own file keeps row 0 and the claimed rows as they
 * are (gostat reads a row's head and its ready pages whole, and budgets
 * them by the space the file occupies); the sites section, compacted,
 * follows them; the file is cut there. The magic is cleared meanwhile, so a reader never sees
 * the header and the data disagree; the new sites never overlap the old,
 * so a failure (a full tmpfs) restores the header as it was. */
static long shrink(const struct finish *f, uint32_t error)
{
    const struct gs_header *img = f->img;
    struct gs_header was, h;
    struct gs_live *live = (struct gs_live *)f->b;
    long rc = gs_read_all(f->own, &was, sizeof was, 0);
    if (rc < 0 || (rc = gs_read_all(f->own, live, GS_PAGE, img->live_off)) < 0)
        return rc;
    h = was;
    h.merge_error = error;
    h.processes = 0;           /* set if an attempt to become the merged file failed */
    uint64_t rows = used_rows(img, live);
    uint64_t rows_end = img->rows_off + rows * img->row_stride, sites = 0;
    if ((rc = gs_write_all(f->own, "\0\0\0\0\0\0\0\0", GS_MAGIC_LEN, 0)) < 0)
        return rc;
    if (img->flags & GS_HDR_SITES)
        rc = compact_sites(f, &h, &sites);
    if (rc >= 0 && sites && rows_end + sites > img->sites_off) {   /* every row used: nothing to cut */
        h.max_sites = was.max_sites, h.glive_off = was.glive_off, h.max_glive = was.max_glive;
        h.spaths_off = was.spaths_off;
        rows = img->max_rows, rows_end = img->sites_off, sites = img->file_size - img->sites_off;
    } else if (rc >= 0 && sites) {
        rc = gs_write_all(f->own, f->b, sites, rows_end);
        h.sites_off = rows_end;
    }
    if (rc >= 0) {
        h.max_rows = (uint32_t)rows;
        h.file_size = rows_end + sites;
        rc = gs_syscall3(GS_SYS_ftruncate, f->own, h.file_size, 0);
    }
    const struct gs_header *out = rc >= 0 ? &h : &was;
    long wrc = gs_write_all(f->own, (const uint8_t *)out + GS_MAGIC_LEN, sizeof *out - GS_MAGIC_LEN, GS_MAGIC_LEN);
    if (wrc >= 0)
        wrc = gs_write_all(f->own, GS_MAGIC, GS_MAGIC_LEN, 0);
    return rc < 0 ? rc : wrc;
}

/* The largest span merged at once: a row, the sites section. */
static uint64_t span_max(const struct gs_header *h)
{
    uint64_t n = h->row_stride;
    if (h->flags & GS_HDR_SITES)
        n = max_u64(n, h->file_size - h->sites_off);
    return max_u64(n, CHUNK);
}

static long scratch(struct finish *f)
{
    f->span_max = span_max(f->img);
    long p = gs_syscall6(GS_SYS_mmap, 0, (long)(2 * f->span_max), GS_PROT_READ | GS_PROT_WRITE,
                         GS_MAP_PRIVATE | GS_MAP_ANONYMOUS | GS_MAP_NORESERVE, -1, 0);
    if (p < 0 && p > -4096)
        return p;
    f->a = (uint8_t *)p;
    f->b = f->a + f->span_max;
    return 0;
}

/* Replaces the shared mappings (the segment's live page and row 0, and
 * the rows and sites beyond it) by private memory: threads still running
 * count into it, the file stays as it is now. */
static void freeze(uint8_t *rw)
{
    const struct gs_private *priv = (const struct gs_private *)rw;
    gs_syscall6(GS_SYS_mmap, (long)(rw + GS_PAGE), (long)gs_config.shared_size, GS_PROT_READ | GS_PROT_WRITE,
                GS_MAP_PRIVATE | GS_MAP_ANONYMOUS | GS_MAP_FIXED | GS_MAP_NORESERVE, -1, 0);
    if (priv->rows_base != (uint64_t)(rw + 2 * GS_PAGE))
        gs_syscall6(GS_SYS_mmap, (long)priv->rows_base, (long)gs_config.rows_size, GS_PROT_READ | GS_PROT_WRITE,
                    GS_MAP_PRIVATE | GS_MAP_ANONYMOUS | GS_MAP_FIXED | GS_MAP_NORESERVE, -1, 0);
}

long gs_open_own(const struct gs_finish_info *in)
{
    long fd = gs_syscall6(GS_SYS_openat, GS_AT_FDCWD, (long)in->own, GS_O_RDWR | GS_O_NOFOLLOW | GS_O_CLOEXEC,
                          0, 0, 0);
    struct gs_stat st;
    if (fd >= 0 && (gs_syscall3(GS_SYS_fstat, fd, &st, 0) < 0 || st.dev != in->dev || st.ino != in->ino)) {
        gs_syscall3(GS_SYS_close, fd, 0, 0);
        return -1;
    }
    return fd;
}

static uint64_t read_tsc(void)
{
    uint32_t lo, hi;
    __asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
    return (uint64_t)hi << 32 | lo;
}

static uint64_t clock_ns(long clock)
{
    struct { int64_t sec, nsec; } ts = {0, 0};
    gs_syscall3(GS_SYS_clock_gettime, clock, &ts, 0);
    return (uint64_t)ts.sec * 1000000000ull + (uint64_t)ts.nsec;
}

/* The end's clocks: CLOCK_REALTIME, and a (TSC, CLOCK_MONOTONIC) pair
 * with the TSC at the middle of the narrowest of three reads, as
 * start-up's pairs (stubs/startup.c). */
static void end_clocks(struct gs_header *h)
{
    uint64_t best = ~0ull;
    h->end_tsc = h->end_mono_ns = 0;
    for (int i = 0; i < 3; i++) {
        uint64_t before = read_tsc(), t = clock_ns(1 /* CLOCK_MONOTONIC */), after = read_tsc();
        if (after - before < best) {
            best = after - before;
            h->end_tsc = before + (after - before) / 2;
            h->end_mono_ns = t;
        }
    }
    h->end_time_ns = clock_ns(0 /* CLOCK_REALTIME */);
}

/* Each site's oldest goroutine still running at the end (from the live
 * table of the own file), its age into the site's exit_oldest. */
static long fold_live(const struct finish *f, uint64_t end_tsc)
{
    const struct gs_header *h = f->img;
    uint64_t len = h->file_size - h->sites_off;
    long rc = read_sparse(f->own, h->sites_off, len, f->a);
    if (rc < 0)
        return rc;
    struct gs_site *sites = (struct gs_site *)(f->a + GS_PAGE);
    const struct gs_glive *live = (const struct gs_glive *)(f->a + h->glive_off);
    for (uint64_t k = 0; k < h->max_glive; k++) {
        uint64_t off = live[k].site, i = (off - GS_PAGE) / sizeof(struct gs_site);
        if (live[k].g <= GS_GLIVE_FREED || !live[k].tick || off < GS_PAGE ||
            (off - GS_PAGE) % sizeof(struct gs_site) || i >= h->max_sites || !sites[i].key)
            continue;
        uint64_t age = end_tsc > live[k].tick ? end_tsc - live[k].tick : 0;
        sites[i].exit_oldest = max_u64(sites[i].exit_oldest, age);
    }
    return gs_write_all(f->own, sites, h->max_sites * (uint64_t)sizeof *sites, h->sites_off + GS_PAGE);
}

/* The own file's header gets the end (end: its clocks, closed: the calls
 * closed at it), and its sites their oldest ages then. */
static long stamp_end(const struct finish *f, const struct gs_header *end, const struct gs_exit_closed *closed)
{
    struct gs_header h;
    long rc = gs_read_all(f->own, &h, sizeof h, 0);
    if (rc < 0)
        return rc;
    h.end_time_ns = end->end_time_ns;
    h.end_tsc = end->end_tsc;
    h.end_mono_ns = end->end_mono_ns;
    h.exit_nfuncs = closed->n;
    for (uint32_t i = 0; i < closed->n; i++)
        h.exit_calls[i] = closed->calls[i];
    uint64_t at = offsetof(struct gs_header, end_time_ns), to = offsetof(struct gs_header, reserved);
    rc = gs_write_all(f->own, (const uint8_t *)&h + at, to - at, at);
    if (rc >= 0 && (f->img->flags & GS_HDR_SITES))
        rc = fold_live(f, end->end_tsc);
    return rc;
}

/* 1 when this thread is to finish the file (the state was RUNNING, now
 * BUSY). While another thread is busy with it (finishing it, or starting
 * the file a failed exec makes), it waits, at most 20 s: so that
 * exit_group or execve does not cut a merge short (which would cost this
 * process its counts), and a file started meanwhile is finished too. */
static int claim(volatile uint64_t *state)
{
    for (unsigned i = 0; i < WAIT_TRIES; i++) {
        uint64_t expect = GS_FINISH_RUNNING;
        if (__atomic_compare_exchange_n(state, &expect, GS_FINISH_BUSY, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
            return 1;
        if (expect != GS_FINISH_BUSY)
            return 0;
        sleep_ms(1);
    }
    return 0;
}

/* Finishes the file (at exit, or before an exec: exec set). An exec
 * keeps the own file's header as it was, for gs_exec_resume. */
static void finish(uint64_t g, uint64_t rsp, int exec)
{
    uint8_t *rw = __blob_start + gs_config.rw_rel;
    struct gs_private *priv = (struct gs_private *)rw;
    struct gs_finish_info *in = (struct gs_finish_info *)priv->finish;
    if (!in)
        return;
    if (!claim(&in->state))
        return;
    struct gs_header end;
    struct gs_exit_closed closed;
    struct gs_live live;
    end_clocks(&end);
    gs_exit_close_calls(g, rsp, end.end_tsc, (const struct gs_header *)(__blob_start + gs_config.image_rel),
                        &closed);
    struct finish f = {.img = (const struct gs_header *)(__blob_start + gs_config.image_rel),
                       .image = __blob_start + gs_config.image_rel,
                       .image_size = gs_config.image_size,
                       .names = __blob_start + gs_config.names_rel,
                       .names_size = gs_config.names_size,
                       .info = in};
    /* locked before freeze drops the mapping's lock: the file stays
     * visibly in use while it shrinks or merges */
    f.own = gs_open_own(in);
    if (f.own >= 0)
        gs_hold_read_lock(f.own);
    gs_mem_copy(&live, rw + GS_PAGE, sizeof live);
    freeze(rw);
    /* the rows handed out stay handed out: a thread that claims one now
     * (after a failed exec, into the new file) gets a row no other has */
    gs_mem_copy(rw + GS_PAGE, &live, sizeof live);
    if (f.own >= 0 && scratch(&f) >= 0) {
        uint32_t error = 0;
        if (exec && gs_read_all(f.own, &in->exec_header, sizeof in->exec_header, 0) >= 0)
            in->exec_finished = 1;
        stamp_end(&f, &end, &closed);
        if (in->merge[0] && merge(&f, &error) >= 0)
            gs_syscall3(GS_SYS_unlink, in->own, 0, 0);
        else
            shrink(&f, error);
        gs_syscall3(GS_SYS_munmap, f.a, 2 * f.span_max, 0);
    }
    if (f.own >= 0)
        gs_syscall3(GS_SYS_close, f.own, 0, 0);
    __atomic_store_n(&in->state, GS_FINISH_DONE, __ATOMIC_SEQ_CST);
}

__attribute__((used)) void gs_finish(uint64_t g, uint64_t rsp)
{
    finish(g, rsp, 0);
}

/* Before an exec (syscall.runtime_BeforeExec, stubs/exit.S): the file is
 * finished as at exit, so the old image's counts are merged or shrunk
 * with its end recorded, and the new image starts a file of its own. */
__attribute__((used)) void gs_exec_finish(uint64_t g, uint64_t rsp)
{
    finish(g, rsp, 1);
}

long gs_write_tables(long fd, const struct gs_header *h)
{
    long rc = gs_write_all(fd, (const uint8_t *)h + GS_MAGIC_LEN, sizeof *h - GS_MAGIC_LEN, GS_MAGIC_LEN);
    if (rc >= 0)
        rc = gs_write_all(fd, __blob_start + gs_config.image_rel + sizeof *h, gs_config.image_size - sizeof *h,
                          sizeof *h);
    if (rc >= 0 && gs_config.names_size)
        rc = gs_write_all(fd, __blob_start + gs_config.names_rel, gs_config.names_size, gs_config.image_size);
    return rc;
}

/* dir/gostat.<exe>.<pid>.<16 hex digits>: the start-up's name after a
 * collision (the pid's own name may be the finished file's). */
static int resume_path(const struct gs_finish_info *in, char *path, size_t cap)
{
    uint64_t r = 0;
    if (gs_syscall3(GS_SYS_getrandom, &r, sizeof r, 1 /* GRND_NONBLOCK */) != (long)sizeof r)
        r = read_tsc() * 0x9e3779b97f4a7c15ull;
    size_t len = 0;
    return gs_append(path, &len, cap, in->own, in->stem) < 0 ||
                   gs_append_u64(path, &len, cap, (uint64_t)gs_syscall3(GS_SYS_getpid, 0, 0, 0)) ||
                   gs_append(path, &len, cap, ".", 1) < 0 || gs_append_hex64(path, &len, cap, r)
               ? -1
               : 0;
}

/* The private memory at addr (len bytes, what threads counted into since
 * the freeze) into the new file at off, then the file mapped there. */
static long map_back(long fd, uint8_t *addr, uint64_t len, uint64_t off)
{
    long rc = write_sparse(fd, off, addr, len);
    if (rc >= 0)
        rc = gs_syscall6(GS_SYS_mmap, (long)addr, (long)len, GS_PROT_READ | GS_PROT_WRITE,
                         GS_MAP_SHARED | GS_MAP_FIXED, fd, (long)off);
    return rc < 0 && rc > -4096 ? rc : 0;
}

/* A new file for the process after a failed exec: the old file's header
 * (start, clocks, calibration) without an end, the program's tables, and
 * what was counted since the freeze; then mapped where the old one was.
 * The old file keeps the counts up to the exec, so nothing is counted
 * twice, merged or not. */
static long resume(struct gs_finish_info *in, uint8_t *rw)
{
    const struct gs_private *priv = (const struct gs_private *)rw;
    struct gs_header *h = &in->exec_header;
    char path[GS_PATH_MAX];
    long fd = -GS_EEXIST;
    for (int i = 0; i < 8 && fd == -GS_EEXIST; i++) {
        if (resume_path(in, path, sizeof path) < 0)
            return -1;
        fd = gs_syscall6(GS_SYS_openat, GS_AT_FDCWD, (long)path,
                         GS_O_RDWR | GS_O_CREAT | GS_O_EXCL | GS_O_NOFOLLOW | GS_O_CLOEXEC, 0600, 0, 0);
    }
    if (fd < 0)
        return fd;
    gs_hold_read_lock(fd);
    const struct gs_live *live = (const struct gs_live *)(rw + GS_PAGE);
    uint64_t eager = h->rows_off + (h->timing_off ? h->timing_off : h->row_stride);
    long rc = gs_syscall3(GS_SYS_ftruncate, fd, h->file_size, 0);
    if (rc >= 0)
        rc = gs_syscall6(GS_SYS_fallocate, fd, 0, (long)h->live_off, (long)(eager - h->live_off), 0, 0);
    if (rc >= 0 && (h->flags & GS_HDR_SITES))
        rc = gs_syscall6(GS_SYS_fallocate, fd, 0, (long)h->sites_off, (long)(h->file_size - h->sites_off), 0, 0);
    for (uint64_t r = 1; rc >= 0 && r < h->max_rows && r < 64 * 64; r++)   /* rows readers may look at */
        if (live->rows_backed[r / 64] >> (r % 64) & 1)
            rc = gs_syscall6(GS_SYS_fallocate, fd, 0, (long)(h->rows_off + r * h->row_stride),
                             (long)gs_config.row_head, 0, 0);
    if (rc == -GS_EOPNOTSUPP)
        rc = 0;
    if (rc >= 0)
        rc = gs_write_tables(fd, h);
    if (rc >= 0 && priv->rows_base != (uint64_t)(rw + 2 * GS_PAGE))   /* the rows' own mapping, then row 0 */
        rc = map_back(fd, (uint8_t *)priv->rows_base, gs_config.rows_size, h->rows_off);
    if (rc >= 0)
        rc = map_back(fd, rw + GS_PAGE, gs_config.shared_size, h->live_off);
    struct gs_stat st;
    if (rc >= 0 && (rc = gs_syscall3(GS_SYS_fstat, fd, &st, 0)) >= 0)
        rc = gs_write_all(fd, GS_MAGIC, GS_MAGIC_LEN, 0);
    gs_syscall3(GS_SYS_close, fd, 0, 0);   /* the shared mapping keeps the lock */
    if (rc < 0) {
        gs_syscall3(GS_SYS_unlink, path, 0, 0);
        return rc;
    }
    size_t len = 0;
    gs_append_str(in->own, &len, sizeof in->own, path);
    in->dev = st.dev;
    in->ino = st.ino;
    in->header = *h;
    return 0;
}

/* After a failed exec (syscall.runtime_AfterExec, stubs/exit.S): the
 * process goes on, so it counts into a new file, finished at its exit (or
 * its next exec) as any. Nothing when no exec finished the file. */
__attribute__((used)) void gs_exec_resume(uint64_t g, uint64_t rsp)
{
    (void)g, (void)rsp;
    uint8_t *rw = __blob_start + gs_config.rw_rel;
    struct gs_finish_info *in = (struct gs_finish_info *)((struct gs_private *)rw)->finish;
    uint64_t expect = GS_FINISH_DONE;
    if (!in || !in->exec_finished ||
        !__atomic_compare_exchange_n(&in->state, &expect, GS_FINISH_BUSY, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
        return;
    in->exec_finished = 0;
    __atomic_store_n(&in->state, resume(in, rw) >= 0 ? GS_FINISH_RUNNING : GS_FINISH_DONE, __ATOMIC_SEQ_CST);
}
