/* test_trace_read.c: gostat/read/trace_read.c's check of an untrusted
 * trace section (gst_trace_section_check): a sound section passes, and
 * each field pushed out of bounds is refused; its ring reads, bounded
 * whatever a ring's head says and an error when the file shrinks under
 * them; common/go_duration.c's parsing of Go durations. */
#include "common/go_duration.h"
#include "gostat/read/trace_read.h"
#include "tests/unit/unit.h"

#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

struct fixture {
    struct gs_header hdr;
    uint64_t buf[64];           /* the section, 8-aligned */
};

/* A section with one function: 2 words and a 64-byte copy at entry, 1 word at the return. */
static void sound(struct fixture *f)
{
    memset(f, 0, sizeof *f);
    f->hdr.nfuncs = 3;
    f->hdr.row_stride = 65536;
    struct gs_trace_section *sec = (struct gs_trace_section *)f->buf;
    struct gs_trace_func *fn = (struct gs_trace_func *)(sec + 1);
    *sec = (struct gs_trace_section){.magic = GS_TRACE_MAGIC, .nfuncs = 1, .event_size = 168,
                                     .ring_off = 8192, .ring_size = 4096, .funcs_off = sizeof *sec,
                                     .bytes_max = 64};
    *fn = (struct gs_trace_func){.func = 2, .entry_nwords = 2, .entry_nbytes = 1, .return_nwords = 1,
                                 .entry_off = GS_EV_DATA, .desc_off = sizeof *sec + sizeof *fn, .desc_len = 8};
    fn->return_off = gs_trace_part_end(fn->entry_off, 2, 1, 64);
    fn->used = gs_trace_part_end(fn->return_off, 1, 0, 64);
}

static int check(struct fixture *f)
{
    return gst_trace_section_check(&f->hdr, (const uint8_t *)f->buf,
                                   sizeof(struct gs_trace_section) + sizeof(struct gs_trace_func) + 8);
}

static void accepts_sound(void)
{
    struct fixture f;
    sound(&f);
    CHECK_INT(check(&f), 0);
    CHECK_INT(((struct gs_trace_func *)((struct gs_trace_section *)f.buf + 1))->used, GS_EV_DATA + 96);
}

static void refuses_each_bad_field(void)
{
    struct fixture f;
    struct gs_trace_section *sec = (struct gs_trace_section *)f.buf;
    struct gs_trace_func *fn = (struct gs_trace_func *)(sec + 1);
#define BAD(change) do { sound(&f); change; CHECK_INT(check(&f), -1); } while (0)
    BAD(sec->magic++);
    BAD(sec->nfuncs = 2);                       /* the table runs past the section */
    BAD(sec->nfuncs = GS_TRACE_MAX_FUNCS + 1);
    BAD(sec->event_size = 144);                 /* the function's events do not fit */
    BAD(sec->event_size = 172);                 /* not a multiple of 8 */
    BAD(sec->event_size = GS_TRACE_MAX_EVENT + 8);
    BAD(sec->bytes_max = 4097);
    BAD(sec->funcs_off = 0);
    BAD(sec->ring_size = 64);                   /* no slot */
    BAD(sec->ring_off = 65536 - 1024);          /* past the row */
    BAD(sec->ring_off = UINT64_MAX - 100);      /* wraps */
    BAD(fn->func = 3);                          /* no such function */
    BAD(fn->entry_nwords = 65);
    BAD(fn->return_nbytes = 17);
    BAD(fn->return_off = GS_EV_DATA + 8);         /* inside the entry part */
    BAD(fn->used = 136);                        /* the return part past the end */
    BAD(fn->used = 148);                        /* not a multiple of 8 */
    BAD(fn->entry_off = 0);
    BAD(fn->desc_len = 9);                      /* past the section */
    BAD(fn->desc_off = UINT32_MAX);
#undef BAD
}

/* One row of 64 KiB after the live page, its ring at 8 KiB, in a memfd
 * mapped as gostat maps a stats file. */
struct ring_file {
    struct fixture f;
    struct gst_stats st;
    struct gst_trace tr;
    int fd;
    uint8_t *map, *ring;
};

static int ring_file_open(struct ring_file *rf)
{
    memset(rf, 0, sizeof *rf);
    sound(&rf->f);
    size_t len = sizeof(struct gs_live) + 65536;
    rf->fd = memfd_create("ring", 0);
    if (!CHECK(rf->fd >= 0) || !CHECK(ftruncate(rf->fd, (off_t)len) == 0))
        return -1;
    rf->map = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, rf->fd, 0);
    if (!CHECK(rf->map != MAP_FAILED))
        return -1;
    ((struct gs_live *)rf->map)->rows_backed[0] = 1;
    rf->st.hdr = rf->f.hdr;
    rf->st.hdr.max_rows = 1;
    rf->st.hdr.rows_off = sizeof(struct gs_live);
    rf->st.map = rf->map;
    rf->st.map_len = len;
    strcpy(rf->st.path, "ring.stats");
    rf->tr.sec = (const struct gs_trace_section *)rf->f.buf;
    rf->tr.funcs = (const struct gs_trace_func *)(rf->tr.sec + 1);
    rf->ring = rf->map + sizeof(struct gs_live) + rf->tr.sec->ring_off;
    return 0;
}

static void ring_file_close(struct ring_file *rf)
{
    munmap(rf->map, rf->st.map_len);
    close(rf->fd);
}

/* Writes event seq into its slot, as the stubs would. */
static void put_event(struct ring_file *rf, uint64_t seq)
{
    uint64_t nslots = (rf->tr.sec->ring_size - GS_RING_SLOTS) / rf->tr.sec->event_size;
    uint8_t *slot = rf->ring + GS_RING_SLOTS + ((seq - 1) % nslots) * rf->tr.sec->event_size;
    uint32_t used = rf->tr.funcs[0].used;
    memcpy(slot + GS_EV_SEQ, &seq, 8);
    memcpy(slot + GS_EV_USED, &used, 4);
    memcpy(rf->ring + GS_RING_HEAD, &seq, 8);
}

static void ring_head_at_the_top(void)
{
    struct ring_file rf;
    struct gst_trace_batch b;
    struct gr_error err;
    if (ring_file_open(&rf) < 0)
        return;
    uint64_t nslots = (rf.tr.sec->ring_size - GS_RING_SLOTS) / rf.tr.sec->event_size;
    put_event(&rf, 3);
    CHECK_INT(gst_trace_read(&rf.st, &rf.tr, &b, &err), 0);
    CHECK_INT(b.n, 1);
    CHECK_U64(b.lost, 0);           /* seqs 1 and 2 never written: not lost to a newer one */
    gst_trace_batch_free(&b);
    put_event(&rf, UINT64_MAX);     /* a head no ring reaches: ends, one ring's slots at most */
    CHECK_INT(gst_trace_read(&rf.st, &rf.tr, &b, &err), 0);
    CHECK_INT(b.n, 1);
    CHECK_U64(b.ev[0].seq, UINT64_MAX);
    CHECK_U64(b.lost, UINT64_MAX - 3 - nslots);   /* all but the last ring's worth */
    gst_trace_batch_free(&b);
    CHECK_INT(gst_trace_read(&rf.st, &rf.tr, &b, &err), 0);
    CHECK_INT(b.n, 0);              /* nothing newer than the top */
    gst_trace_batch_free(&b);
    put_event(&rf, 5);              /* a head below the last read: nothing */
    CHECK_INT(gst_trace_read(&rf.st, &rf.tr, &b, &err), 0);
    CHECK_INT(b.n, 0);
    gst_trace_batch_free(&b);
    ring_file_close(&rf);
}

static void ring_file_shrinks(void)
{
    struct ring_file rf;
    struct gst_trace_batch b;
    struct gr_error err;
    if (ring_file_open(&rf) < 0)
        return;
    put_event(&rf, 1);
    CHECK_INT(ftruncate(rf.fd, 0), 0);
    CHECK_INT(gst_trace_read(&rf.st, &rf.tr, &b, &err), -1);
    CHECK(strstr(err.msg, "ring.stats: file shrank while reading its trace rings") != NULL);
    ring_file_close(&rf);
}

static void durations(void)
{
    uint64_t ns = 1;
    CHECK_INT(gr_go_duration_parse("250us", &ns), 0);
    CHECK_INT(ns, 250000);
    CHECK_INT(gr_go_duration_parse("20ms", &ns), 0);
    CHECK_INT(ns, 20000000);
    CHECK_INT(gr_go_duration_parse("1.5s", &ns), 0);
    CHECK_INT(ns, 1500000000);
    CHECK_INT(gr_go_duration_parse("1m30s", &ns), 0);
    CHECK_INT(ns, 90000000000);
    CHECK_INT(gr_go_duration_parse("2h", &ns), 0);
    CHECK_INT(ns, 7200000000000);
    CHECK_INT(gr_go_duration_parse("0", &ns), 0);
    CHECK_INT(ns, 0);
    CHECK_INT(gr_go_duration_parse("7\xc2\xb5s", &ns), 0);
    CHECK_INT(ns, 7000);
    CHECK_INT(gr_go_duration_parse("", &ns), -1);
    CHECK_INT(gr_go_duration_parse("10", &ns), -1);
    CHECK_INT(gr_go_duration_parse("ms", &ns), -1);
    CHECK_INT(gr_go_duration_parse("-1s", &ns), -1);
    CHECK_INT(gr_go_duration_parse("5d", &ns), -1);
    CHECK_INT(gr_go_duration_parse("99999999999999999999h", &ns), -1);
}

UNIT_CASES("trace_read", UNIT_CASE(accepts_sound), UNIT_CASE(refuses_each_bad_field),
           UNIT_CASE(ring_head_at_the_top), UNIT_CASE(ring_file_shrinks), UNIT_CASE(durations));
