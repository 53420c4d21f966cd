/* file_cut.c: the stats file cut short while the program runs (`truncate`,
 * `: > file`, by its owner: no one else may write it). A counter on a page
 * past the file's new end raises SIGBUS, and the gate before Go's signal
 * handler (stubs/signal_gate.S) calls gs_file_cut before any Go code can
 * count and fault again. The file is made whole: its size back, its header
 * and tables written again when the cut reached them, the live page
 * rebuilt from its private copies (the rows handed out and backed), the
 * pages every thread writes backed; then the faulting instruction runs
 * again. What was counted in the cut part starts again from zero. When
 * the file cannot be made whole (removed,
 * replaced, a full file system), the faulting page becomes private
 * memory: the program goes on, that page's counts no longer reach the
 * file. Each is said once on stderr. */
#include "format/gostat_format.h"
#include "format/stub_abi.h"
#include "stubs/finish.h"
#include "stubs/freestanding.h"
#include "stubs/sys.h"

#include <stddef.h>
#include <stdint.h>

extern uint8_t __blob_start[];
extern volatile struct gs_stub_config gs_config;

#define SIGBUS 7
#define BUS_ADRERR 2               /* an address past the end of its file */

struct siginfo_head {
    int32_t signo, err, code, pad;
    uint64_t addr;
};

static int inside(uint64_t a, uint64_t base, uint64_t size)
{
    return a - base < size;
}

/* Whether a is in a mapping of the stats file (else the program's own
 * SIGBUS: Go's handler takes it), and where in the file. */
static int stats_address(const uint8_t *rw, uint64_t a)
{
    const struct gs_private *priv = (const struct gs_private *)rw;
    uint64_t shared = (uint64_t)rw + GS_PAGE;
    return inside(a, shared, gs_config.shared_size) ||
           (priv->rows_base != shared + GS_PAGE && inside(a, priv->rows_base, gs_config.rows_size));
}

static uint64_t file_offset(const uint8_t *rw, const struct gs_header *h, uint64_t a)
{
    const struct gs_private *priv = (const struct gs_private *)rw;
    uint64_t shared = (uint64_t)rw + GS_PAGE;
    return inside(a, shared, gs_config.shared_size) ? h->live_off + (a - shared)
                                                    : h->rows_off + (a - priv->rows_base);
}

static long back(long fd, uint64_t off, uint64_t len)
{
    long rc = gs_syscall6(GS_SYS_fallocate, fd, 0, (long)off, (long)len, 0, 0);
    return rc == -GS_EOPNOTSUPP ? 0 : rc;
}

/* The live page again, from the private copies of what it holds. */
static long rebuild_live(long fd, const uint8_t *rw, const struct gs_header *h)
{
    const struct gs_private *priv = (const struct gs_private *)rw;
    struct gs_live live;
    gs_zero(&live, sizeof live);
    live.rows_claimed = __atomic_load_n(&priv->rows_claimed, __ATOMIC_ACQUIRE);
    for (unsigned i = 0; i < 64; i++)
        live.rows_backed[i] = __atomic_load_n(&priv->rows_backed[i], __ATOMIC_ACQUIRE);
    return gs_write_all(fd, &live, sizeof live, h->live_off);
}

/* What start-up backs (the live page, row 0, the sites) and each claimed
 * row's head, wherever the cut reached them. */
static long back_cut_pages(long fd, const uint8_t *rw, const struct gs_header *h, uint64_t cut)
{
    const struct gs_private *priv = (const struct gs_private *)rw;
    uint64_t row0_end = h->rows_off + (h->timing_off ? h->timing_off : h->row_stride);
    long rc = back(fd, h->live_off, row0_end - h->live_off);
    if (rc >= 0 && (h->flags & GS_HDR_SITES))
        rc = back(fd, h->sites_off, h->file_size - h->sites_off);
    for (uint64_t r = 1; rc >= 0 && r < h->max_rows && r < GS_MAX_ROWS; r++) {
        uint64_t off = h->rows_off + r * h->row_stride;
        if (off + gs_config.row_head > cut && (priv->rows_backed[r / 64] >> (r % 64) & 1))
            rc = back(fd, off, gs_config.row_head);
    }
    return rc;
}

/* The file its full size again, with what the cut took that the program
 * cannot do without; *cut = its size as found (the full size when another
 * thread has already made it whole: then only the faulting page is backed,
 * which also ends a fault of a full file system). */
static long make_whole(const struct gs_finish_info *in, const uint8_t *rw, uint64_t page, uint64_t *cut)
{
    const struct gs_header *h = &in->header;
    long fd = gs_open_own(in);
    if (fd < 0)
        return fd;
    struct gs_stat st;
    long rc = gs_syscall3(GS_SYS_fstat, fd, &st, 0);
    *cut = rc < 0 || st.size < 0 ? 0 : (uint64_t)st.size;
    if (rc >= 0 && *cut < h->file_size) {
        rc = gs_syscall3(GS_SYS_ftruncate, fd, h->file_size, 0);
        if (rc >= 0 && *cut < h->live_off && (rc = gs_write_tables(fd, h)) >= 0)
            rc = gs_write_all(fd, GS_MAGIC, GS_MAGIC_LEN, 0);
        if (rc >= 0 && *cut < h->rows_off)
            rc = rebuild_live(fd, rw, h);
        if (rc >= 0)
            rc = back_cut_pages(fd, rw, h, *cut);
    }
    if (rc >= 0)
        rc = back(fd, page, GS_PAGE);
    gs_syscall3(GS_SYS_close, fd, 0, 0);
    return rc;
}

static void say_once(struct gs_finish_info *in, uint64_t cut, long rc)
{
    if (in->quiet || __atomic_exchange_n(&in->cut_said, 1, __ATOMIC_SEQ_CST))
        return;
    char line[GS_PATH_MAX + 300];
    size_t len = 0;
    gs_append_str(line, &len, sizeof line, "gostat: the stats file ");
    gs_append_str(line, &len, sizeof line, in->own);
    if (rc >= 0) {
        gs_append_str(line, &len, sizeof line, " was cut to ");
        gs_append_u64(line, &len, sizeof line, cut);
        gs_append_str(line, &len, sizeof line, " bytes while the program ran: it is whole again, and what was "
                                               "counted past the cut starts again from zero\n");
    } else {
        gs_append_str(line, &len, sizeof line, " was cut short while the program ran and cannot be made whole "
                                               "(errno ");
        gs_append_u64(line, &len, sizeof line, (uint64_t)-rc);
        gs_append_str(line, &len, sizeof line, "): the counts on its lost pages go on in memory only\n");
    }
    gs_syscall3(GS_SYS_write, 2, line, len);
}

/* The faulting page as private memory: the last resort, never a signal. */
static long keep_in_memory(uint64_t addr)
{
    long rc = gs_syscall6(GS_SYS_mmap, (long)(addr & ~(uint64_t)(GS_PAGE - 1)), GS_PAGE,
                          GS_PROT_READ | GS_PROT_WRITE, GS_MAP_PRIVATE | GS_MAP_ANONYMOUS | GS_MAP_FIXED, -1, 0);
    return rc < 0 && rc > -4096 ? rc : 0;
}

/* 1 when the signal was a page of the stats file gone and the page is
 * usable again, else 0 (Go's handler takes the signal). */
__attribute__((used)) int gs_file_cut(long sig, const struct siginfo_head *info)
{
    uint8_t *rw = __blob_start + gs_config.rw_rel;
    struct gs_finish_info *in = (struct gs_finish_info *)((struct gs_private *)rw)->finish;
    if (sig != SIGBUS || !info || info->code != BUS_ADRERR || !stats_address(rw, info->addr))
        return 0;
    if (!in)
        return keep_in_memory(info->addr) >= 0;
    uint64_t page = file_offset(rw, &in->header, info->addr) & ~(uint64_t)(GS_PAGE - 1);
    uint64_t cut = in->header.file_size;
    long rc = make_whole(in, rw, page, &cut);
    if (rc < 0 || cut < in->header.file_size)
        say_once(in, cut, rc);
    return rc >= 0 || keep_in_memory(info->addr) >= 0;
}
