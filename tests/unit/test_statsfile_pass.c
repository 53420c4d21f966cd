/* test_statsfile_pass.c: gostat/read/statsfile.c reads each row's page map
 * once per pass: the pages counted against the read budget are the pages
 * then read, even when the file's owner flips the map's bytes while gostat
 * reads. A small timing file (two functions, one thread row whose second
 * page holds their records) is opened; then the page holding the row's map
 * is made unreadable to the reader, and every read of it faults: the
 * handler notes which byte was read and lets that one instruction run
 * (single-stepped), then flips the byte in the file (1 <-> 0, through a
 * mapping of its own) and shuts the page again. Each refresh must read
 * each byte of the map exactly once, and sum the records according to
 * that one read. */
#include "gostat/read/statsfile.h"
#include "tests/unit/unit.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#define ROW_STRIDE (2 * GS_PAGE)
#define MAX_ROWS 2u
#define FILE_SIZE (2 * GS_PAGE + MAX_ROWS * ROW_STRIDE)
#define MAP_LEN (ROW_STRIDE / GS_PAGE)   /* page map bytes of a row */
#define TOTAL 1000u                      /* each record's total */
#define TF 0x100                         /* x86 EFLAGS trap flag */

static unsigned char file[FILE_SIZE];

/* Row 1's page map says its timing page is backed; both records hold TOTAL. */
static void build(void)
{
    struct gs_header *h = (struct gs_header *)file;
    memcpy(h->magic, GS_MAGIC, GS_MAGIC_LEN);
    h->version = GS_VERSION;
    h->header_size = sizeof *h;
    h->file_size = FILE_SIZE;
    h->pid = 0x7ffffff0;
    h->nfuncs = 2;
    h->flags = GS_HDR_SHARED | GS_HDR_TIMING;
    h->functab_off = sizeof *h;
    h->strtab_off = sizeof *h + 2 * sizeof(struct gs_func);
    static const char strings[] = "\0main.a\0main.b";
    h->strtab_size = sizeof strings;
    memcpy(file + h->strtab_off, strings, sizeof strings);
    h->live_off = GS_PAGE;
    h->rows_off = 2 * GS_PAGE;
    h->row_stride = ROW_STRIDE;
    h->max_rows = MAX_ROWS;
    h->counter_size = sizeof(struct gs_counter);
    strcpy(h->go_version, "go1.22.12");
    h->ntimed = 2;
    h->timing_size = sizeof(struct gs_timing);
    h->counts_off = GS_ROW_PAGEMAP + 64;
    h->timing_off = GS_PAGE;
    h->sample_every = 1;
    struct gs_func *f = (struct gs_func *)(file + h->functab_off);
    for (uint32_t i = 0; i < 2; i++)
        f[i] = (struct gs_func){ .entry = 0x401000 + 0x100 * i, .size = 0x100, .name_off = 1 + 7 * i,
                                 .timing = i };
    struct gs_live *live = (struct gs_live *)(file + h->live_off);
    live->rows_claimed = 1;
    live->rows_backed[0] = 2;
    unsigned char *row = file + h->rows_off + ROW_STRIDE;
    row[GS_ROW_PAGEMAP + 1] = 1;
    for (uint32_t i = 0; i < 2; i++) {
        struct gs_timing *t = (struct gs_timing *)(row + gs_timing_offset(h->timing_off, i));
        t->total = TOTAL;
        t->samples = 1;
        t->hist[5] = 1;
    }
}

/* The fault handler's state: the reader's view of row 1's map, the test's
 * own writable view of it, and reads of each byte. */
static volatile unsigned char *seen_map;
static unsigned char *own_map;
static unsigned char *shut_page;
static volatile unsigned reads[MAP_LEN], other_reads;
static volatile int just_read = -1;   /* the map byte the faulting instruction reads */

static void on_segv(int sig, siginfo_t *si, void *ctx)
{
    (void)sig;
    uintptr_t a = (uintptr_t)si->si_addr, m = (uintptr_t)seen_map;
    if ((uintptr_t)shut_page > a || a >= (uintptr_t)shut_page + GS_PAGE)
        abort();   /* a real fault */
    if (a >= m && a < m + MAP_LEN) {
        reads[a - m]++;
        just_read = (int)(a - m);
    } else {
        other_reads++;
    }
    mprotect(shut_page, GS_PAGE, PROT_READ);
    ((ucontext_t *)ctx)->uc_mcontext.gregs[REG_EFL] |= TF;
}

static void on_trap(int sig, siginfo_t *si, void *ctx)
{
    (void)sig, (void)si;
    ((ucontext_t *)ctx)->uc_mcontext.gregs[REG_EFL] &= ~TF;
    if (just_read >= 0)
        own_map[just_read] ^= 1;   /* once read: what a second read would see */
    just_read = -1;
    mprotect(shut_page, GS_PAGE, PROT_NONE);
}

static uint64_t total_of(const struct gst_stats *st, uint32_t i)
{
    return st->funcs[i].total_ticks;
}

static void one_read_per_pass(void)
{
    char path[] = "/tmp/gostat.passXXXXXX";
    int fd = mkstemp(path);
    if (!CHECK(fd >= 0))
        return;
    build();
    CHECK_INT(write(fd, file, sizeof file), (long long)sizeof file);
    struct gst_stats st;
    struct gr_error err = { 0 };
    if (!CHECK_INT(gst_stats_open(&st, path, &err), 0)) {
        unit_fail(__FILE__, __LINE__, "%s", err.msg);
        goto out;
    }
    CHECK_U64(total_of(&st, 0), TOTAL);
    own_map = mmap(NULL, FILE_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (!CHECK(own_map != MAP_FAILED))
        goto close;
    own_map += st.hdr.rows_off + ROW_STRIDE + GS_ROW_PAGEMAP;
    const unsigned char *live = st.map + st.map_skew;
    shut_page = (unsigned char *)live + (st.hdr.rows_off - st.hdr.live_off) + ROW_STRIDE;
    seen_map = shut_page + GS_ROW_PAGEMAP;

    struct sigaction segv = { .sa_sigaction = on_segv, .sa_flags = SA_SIGINFO | SA_NODEFER };
    struct sigaction trap = { .sa_sigaction = on_trap, .sa_flags = SA_SIGINFO };
    struct sigaction old_segv, old_trap;
    sigaction(SIGSEGV, &segv, &old_segv);
    sigaction(SIGTRAP, &trap, &old_trap);
    /* pass 1 reads 1 (backed) and sums; pass 2 reads the flipped 0 */
    for (int pass = 1; pass <= 2; pass++) {
        memset((void *)reads, 0, sizeof reads);
        mprotect(shut_page, GS_PAGE, PROT_NONE);
        int rc = gst_stats_refresh(&st, &err);
        mprotect(shut_page, GS_PAGE, PROT_READ);
        CHECK_INT(rc, 0);
        for (unsigned p = 0; p < MAP_LEN; p++)
            CHECK_INT(reads[p], 1);
        CHECK_U64(total_of(&st, 0), pass == 1 ? TOTAL : 0);
        CHECK_U64(total_of(&st, 1), pass == 1 ? TOTAL : 0);
    }
    CHECK(other_reads > 0);   /* the counters of the same page were read too */
    sigaction(SIGSEGV, &old_segv, NULL);
    sigaction(SIGTRAP, &old_trap, NULL);
    munmap(own_map - (st.hdr.rows_off + ROW_STRIDE + GS_ROW_PAGEMAP), FILE_SIZE);
close:
    gst_stats_close(&st);
out:
    unlink(path);
}

UNIT_CASES("statsfile_pass", UNIT_CASE(one_read_per_pass));
