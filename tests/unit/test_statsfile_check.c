/* test_statsfile_check.c: gostat/read/statsfile_check.c, the rules a stats
 * file's header must meet before gostat reads anything it points at. A
 * valid header (the geometry gorewrite writes: header, functions, strings,
 * live page, rows of 2 pages with counters then timing records) passes;
 * each rule is then broken alone, at its boundary where it has one (the
 * last value that passes, the first that fails), and must be refused with
 * its own message. */
#include "gostat/read/statsfile_check.h"
#include "tests/unit/unit.h"

#include <stdio.h>
#include <string.h>

#define PATH "/dev/shm/gostat.app.1234"
#define NFUNCS 3u
#define HDR ((uint64_t)sizeof(struct gs_header))          /* 1784 */
#define FUNCTAB_END (HDR + NFUNCS * sizeof(struct gs_func)) /* 1904 */
#define STRTAB_SIZE 40u
#define ROW_STRIDE (2 * GS_PAGE)
#define MAX_ROWS 4u
#define FILE_SIZE (2 * GS_PAGE + MAX_ROWS * ROW_STRIDE)   /* 40960 */

static struct gs_header valid(void)
{
    struct gs_header h;
    memset(&h, 0, sizeof h);
    memcpy(h.magic, GS_MAGIC, GS_MAGIC_LEN);
    h.version = GS_VERSION;
    h.header_size = (uint32_t)HDR;
    h.file_size = FILE_SIZE;
    h.pid = 1234;
    h.nfuncs = NFUNCS;
    h.flags = GS_HDR_SHARED | GS_HDR_TIMING;
    h.functab_off = HDR;
    h.strtab_off = FUNCTAB_END;
    h.strtab_size = STRTAB_SIZE;
    h.live_off = GS_PAGE;
    h.rows_off = 2 * GS_PAGE;
    h.row_stride = ROW_STRIDE;
    h.max_rows = MAX_ROWS;
    h.counter_size = sizeof(struct gs_counter);
    strcpy(h.exe, "/usr/bin/app");
    strcpy(h.build_id, "abc/def");
    strcpy(h.go_version, "go1.22.12");
    h.ntimed = 2;
    h.timing_size = sizeof(struct gs_timing);
    h.counts_off = GS_ROW_PAGEMAP + 64;
    h.timing_off = GS_PAGE;
    return h;
}

static struct gr_error err;

static int check(const struct gs_header *h)
{
    memset(&err, 0, sizeof err);
    return gst_geometry_check(h, FILE_SIZE, PATH, &err);
}

#define PASSES(h)                             \
    do {                                      \
        CHECK_INT(check(&(h)), 0);            \
        CHECK_STR(err.msg, "");               \
    } while (0)
#define FAILS(h, want)                        \
    do {                                      \
        CHECK_INT(check(&(h)), -1);           \
        CHECK_STR(err.msg, PATH ": " want);   \
    } while (0)

static void valid_header_passes(void)
{
    struct gs_header h = valid();
    PASSES(h);
    CHECK_INT(sizeof h, 1784);
    h.flags = GS_HDR_SHARED;                  /* --count-only: no timing fields */
    h.ntimed = h.timing_size = 0;
    h.timing_off = 0;
    PASSES(h);
    h = valid();
    CHECK_INT(gst_geometry_check(&h, FILE_SIZE + 100, PATH, &err), 0);  /* grown file */
}

static void identity(void)
{
    struct gs_header h = valid();
    CHECK_INT(gst_geometry_check(&h, 0, PATH, &err), -1);
    CHECK_STR(err.msg, PATH ": empty file (still being written, or not a stats file)");
    CHECK_INT(gst_geometry_check(&h, 7, PATH, &err), -1);
    CHECK_STR(err.msg, PATH ": not a stats file (no GOSTATv6 magic; still being written?)");
    CHECK_INT(gst_geometry_check(&h, HDR - 1, PATH, &err), -1);
    CHECK_STR(err.msg, PATH ": truncated: 1783 bytes, shorter than the 1784-byte header");
    h.magic[7] = '5';   /* a file of the previous format */
    FAILS(h, "a stats file of format version 5, which this gostat does not read (it reads version 6: "
             "read it with the gostat of the gorewrite that built the program)");
    h.magic[7] = 'x';
    FAILS(h, "not a stats file (no GOSTATv6 magic; still being written?)");
    h = valid();
    h.magic[0] = 0;
    FAILS(h, "not a stats file (no GOSTATv6 magic; still being written?)");
    h = valid();
    h.version = 2;
    FAILS(h, "unsupported format version 2 (this gostat reads version 6)");
    h.version = 7;
    FAILS(h, "unsupported format version 7 (this gostat reads version 6)");
}

static void sizes(void)
{
    struct gs_header h = valid();
    CHECK_INT(gst_geometry_check(&h, FILE_SIZE - 1, PATH, &err), -1);
    CHECK_STR(err.msg, PATH ": truncated: 40959 bytes, header says 40960");
    h.header_size = (uint32_t)HDR - 8;
    FAILS(h, "corrupt: header_size 1776 (expected at least 1784, within the file)");
    h.header_size = (uint32_t)HDR + 4;
    FAILS(h, "corrupt: header_size 1788 (expected at least 1784, within the file)");
    h = valid();
    h.header_size = FILE_SIZE + 8;
    FAILS(h, "corrupt: header_size 40968 (expected at least 1784, within the file)");
    h = valid();
    h.header_size = (uint32_t)HDR + 8;        /* a longer header of a later writer */
    h.functab_off = h.header_size;
    h.strtab_off += 8;
    PASSES(h);
}

static void pid_range(void)
{
    struct gs_header h = valid();
    h.pid = 0;
    FAILS(h, "corrupt: pid 0 out of range");
    h.pid = -5;
    FAILS(h, "corrupt: pid -5 out of range");
    h.pid = INT32_MAX;
    PASSES(h);
    h.pid = (int64_t)INT32_MAX + 1;
    FAILS(h, "corrupt: pid 2147483648 out of range");
    h.pid = 1;
    PASSES(h);
}

/* A merged file's process count and a kept file's merge error (GOSTAT_MERGE). */
static void merge_fields(void)
{
    struct gs_header h = valid();
    h.processes = GS_MAX_PROCESSES;
    h.merge_error = GS_MERGE_IO;
    PASSES(h);
    h.processes = GS_MAX_PROCESSES + 1;
    FAILS(h, "corrupt: merged from 1099511627777 processes, merge error 3 (at most 1099511627776, 3)");
    h.processes = 2;
    h.merge_error = GS_MERGE_IO + 1;
    FAILS(h, "corrupt: merged from 2 processes, merge error 4 (at most 1099511627776, 3)");
}

static void header_strings_nul_terminated(void)
{
    struct gs_header h = valid();
    memset(h.exe, 'x', sizeof h.exe);
    FAILS(h, "corrupt: exe is not NUL-terminated");
    h.exe[sizeof h.exe - 1] = 0;              /* the last byte may be the NUL */
    PASSES(h);
    h = valid();
    memset(h.build_id, 'x', sizeof h.build_id);
    FAILS(h, "corrupt: build_id is not NUL-terminated");
    h = valid();
    memset(h.go_version, 'x', sizeof h.go_version);
    FAILS(h, "corrupt: go_version is not NUL-terminated");
}

static void function_and_string_tables(void)
{
    struct gs_header h = valid();
    h.functab_off = HDR - 8;                  /* inside the header */
    FAILS(h, "corrupt: function table (3 entries at offset 1776) does not fit in the 40960-byte file");
    h = valid();
    h.functab_off = FILE_SIZE - 119;          /* 120 bytes: one past the end */
    FAILS(h, "corrupt: function table (3 entries at offset 40841) does not fit in the 40960-byte file");
    h = valid();
    h.functab_off = UINT64_MAX - 8;           /* offset + length wraps */
    FAILS(h, "corrupt: function table (3 entries at offset 18446744073709551607) does not fit in the "
             "40960-byte file");
    h = valid();
    h.strtab_size = 0;                        /* offset 0 must hold the empty string */
    FAILS(h, "corrupt: string table (0 bytes at offset 1904) does not fit in the 40960-byte file");
    h = valid();
    h.strtab_off = 8;
    FAILS(h, "corrupt: string table (40 bytes at offset 8) does not fit in the 40960-byte file");
    h = valid();
    h.strtab_size = FILE_SIZE - FUNCTAB_END + 1;
    FAILS(h, "corrupt: string table (39057 bytes at offset 1904) does not fit in the 40960-byte file");
}

/* The read-only prefix ends at live_off, exactly or before. */
static void prefix_before_counters(void)
{
    struct gs_header h = valid();
    h.strtab_size = GS_PAGE - FUNCTAB_END;    /* ends exactly at live_off */
    PASSES(h);
    h.strtab_size++;
    FAILS(h, "corrupt: function or string table overlaps the counter area at 4096");
    h = valid();
    h.functab_off = GS_PAGE - NFUNCS * sizeof(struct gs_func);   /* ends at live_off */
    PASSES(h);
    h.functab_off += 8;
    FAILS(h, "corrupt: function or string table overlaps the counter area at 4096");
}

static void live_and_rows(void)
{
    struct gs_header h = valid();
    h.live_off = GS_PAGE + 8;
    FAILS(h, "corrupt: live_off 4104 (must be page aligned, with its page inside the 40960-byte file)");
    h.live_off = FILE_SIZE;                   /* its page would be past the end */
    FAILS(h, "corrupt: live_off 40960 (must be page aligned, with its page inside the 40960-byte file)");
    h = valid();
    h.rows_off = GS_PAGE;                     /* on the live page */
    FAILS(h, "corrupt: rows_off 4096 (must be page aligned, after the live page at 4096)");
    h.rows_off = 2 * GS_PAGE + 64;
    FAILS(h, "corrupt: rows_off 8256 (must be page aligned, after the live page at 4096)");
    h = valid();
    h.max_rows = MAX_ROWS + 1;                /* one row past the end */
    FAILS(h, "corrupt: 5 rows of 8192 bytes at offset 8192 extend beyond the 40960-byte file");
    h = valid();
    h.flags = GS_HDR_SHARED;
    h.max_rows = GS_MAX_ROWS;
    h.row_stride = (uint64_t)1 << 52;         /* the product wraps to exactly 0 */
    FAILS(h, "corrupt: 4096 rows of 4503599627370496 bytes at offset 8192 extend beyond the "
             "40960-byte file");
    h = valid();
    h.max_rows = GS_MAX_ROWS + 1;             /* the format's limit */
    FAILS(h, "corrupt: max_rows 4097 (must be 1..4096)");
    h = valid();
    h.max_rows = 0;
    FAILS(h, "corrupt: max_rows 0 (must be 1..4096)");
}

static void counter_geometry(void)
{
    struct gs_header h = valid();
    h.counter_size = 4;
    FAILS(h, "corrupt: counter_size 4 (must be a multiple of 8, 8..4096)");
    h.counter_size = 12;
    FAILS(h, "corrupt: counter_size 12 (must be a multiple of 8, 8..4096)");
    h.counter_size = GS_PAGE + 8;
    FAILS(h, "corrupt: counter_size 4104 (must be a multiple of 8, 8..4096)");
    h = valid();
    h.row_stride = 0;
    FAILS(h, "corrupt: row_stride 0 (must be page aligned)");
    h.row_stride = GS_PAGE + 512;
    FAILS(h, "corrupt: row_stride 4608 (must be page aligned)");
    h = valid();
    h.counts_off = GS_ROW_PAGEMAP - 8;        /* over the row's drops and page map */
    FAILS(h, "corrupt: counts_off 120 (3 counters of 8 bytes must fit in a 8192-byte row after its "
             "first 128 bytes)");
    h.counts_off = 196;
    FAILS(h, "corrupt: counts_off 196 (3 counters of 8 bytes must fit in a 8192-byte row after its "
             "first 128 bytes)");
    /* counters ending exactly at the row's end fit (count-only: no timing) */
    h = valid();
    h.flags = GS_HDR_SHARED;
    h.counts_off = ROW_STRIDE - NFUNCS * 8;
    PASSES(h);
    h.counts_off += 8;
    FAILS(h, "corrupt: counts_off 8176 (3 counters of 8 bytes must fit in a 8192-byte row after its "
             "first 128 bytes)");
}

static void timing_geometry(void)
{
    struct gs_header h = valid();
    h.timing_size = sizeof(struct gs_timing) - 8;
    FAILS(h, "corrupt: timing_size 312 (expected 320)");
    h = valid();
    h.probe_ticks = 60;
    h.probe_inner_ticks = 60;
    PASSES(h);
    h.probe_inner_ticks = 61;                 /* the part inside cannot exceed the whole */
    FAILS(h, "corrupt: a probe's cost inside its call, 61 ticks, is above its whole cost, 60");
    h = valid();
    h.counts_off = GS_ROW_PAGEMAP;            /* the 2-byte page map runs into the counters */
    FAILS(h, "corrupt: the 2-byte page map at row offset 128 overlaps the counters at 128");
    h.counts_off = GS_ROW_PAGEMAP + 8;
    PASSES(h);
    /* rows of 8 pages: an 8-byte page map, ending exactly at counts_off 136 */
    h = valid();
    h.row_stride = 8 * GS_PAGE;
    h.file_size = 2 * GS_PAGE + MAX_ROWS * h.row_stride;
    h.counts_off = GS_ROW_PAGEMAP + 8;
    CHECK_INT(gst_geometry_check(&h, h.file_size, PATH, &err), 0);
    h.counts_off = GS_ROW_PAGEMAP;
    CHECK_INT(gst_geometry_check(&h, h.file_size, PATH, &err), -1);
    CHECK_STR(err.msg, PATH ": corrupt: the 8-byte page map at row offset 128 overlaps the counters at 128");
    h = valid();
    h.timing_off = GS_PAGE + 8;
    FAILS(h, "corrupt: 2 timing records at row offset 4104 (must be page aligned, after the "
             "counters, inside the 8192-byte row)");
    h = valid();
    h.counts_off = GS_PAGE - 16;              /* counters run past the first page */
    FAILS(h, "corrupt: 2 timing records at row offset 4096 (must be page aligned, after the "
             "counters, inside the 8192-byte row)");
    h = valid();
    h.timing_off = 0;
    FAILS(h, "corrupt: 2 timing records at row offset 0 (must be page aligned, after the "
             "counters, inside the 8192-byte row)");
    /* 12 records fill one page; the 13th starts a page past the row */
    h = valid();
    h.ntimed = GS_TIMING_PER_PAGE;
    CHECK_INT(GS_TIMING_PER_PAGE, 12);
    PASSES(h);
    h.ntimed++;
    FAILS(h, "corrupt: 13 timing records at row offset 4096 (must be page aligned, after the "
             "counters, inside the 8192-byte row)");
    h.ntimed = 0;                             /* nothing timed: timing_off unused */
    h.timing_off = 12345;
    PASSES(h);
    /* without GS_HDR_TIMING the timing fields are not looked at */
    h = valid();
    h.flags = GS_HDR_SHARED;
    h.timing_size = 1;
    h.timing_off = 3;
    PASSES(h);
}

static void strings(void)
{
    static const char tab[] = "\0main.main\0main.go\0x"; /* 20 bytes used: "x" unterminated */
    uint64_t size = sizeof tab - 1;
    CHECK_INT(gst_geometry_check_string(tab, size, 0, "name", 0, PATH, &err), 0);
    CHECK_INT(gst_geometry_check_string(tab, size, 1, "name", 0, PATH, &err), 0);
    CHECK_INT(gst_geometry_check_string(tab, size, 11, "file", 1, PATH, &err), 0);
    CHECK_INT(gst_geometry_check_string(tab, size, 18, "file", 1, PATH, &err), 0);
    CHECK_INT(gst_geometry_check_string(tab, size, 19, "untimed reason", 2, PATH, &err), -1);
    CHECK_STR(err.msg, PATH ": corrupt: function 2: untimed reason at offset 19 is not "
                       "NUL-terminated inside the string table");
    CHECK_INT(gst_geometry_check_string(tab, size, 20, "name", 7, PATH, &err), -1);
    CHECK_STR(err.msg, PATH ": corrupt: function 7: name offset 20 is outside the 20-byte string table");
    CHECK_INT(gst_geometry_check_string(tab, size, UINT32_MAX, "file", 3, PATH, &err), -1);
    CHECK_STR(err.msg, PATH ": corrupt: function 3: file offset 4294967295 is outside the 20-byte "
                       "string table");
}

static void timing_index(void)
{
    struct gs_header h = valid();             /* ntimed 2 */
    CHECK_INT(gst_geometry_check_timing_index(&h, 0, 0, PATH, &err), 0);
    CHECK_INT(gst_geometry_check_timing_index(&h, 1, 1, PATH, &err), 0);
    CHECK_INT(gst_geometry_check_timing_index(&h, GS_UNTIMED, 2, PATH, &err), 0);
    CHECK_INT(gst_geometry_check_timing_index(&h, 2, 5, PATH, &err), -1);
    CHECK_STR(err.msg, PATH ": corrupt: function 5: timing record 2 (the file has 2)");
    h.flags = GS_HDR_SHARED;                  /* count-only files: all untimed */
    CHECK_INT(gst_geometry_check_timing_index(&h, 2, 5, PATH, &err), 0);
}

/* A file with call paths: rows of 4 pages (counters, timing records,
 * 64 paths, 64 arcs), 2 rows, a symbol table of 3 entries after the
 * function table. */
static struct gs_header with_paths(void)
{
    struct gs_header h = valid();
    h.flags |= GS_HDR_PATHS;
    h.row_stride = 4 * GS_PAGE;
    h.max_rows = 2;
    h.path_size = sizeof(struct gs_path);
    h.max_paths = 64;
    h.max_arcs = 64;
    h.paths_off = 2 * GS_PAGE;
    h.arcs_off = 3 * GS_PAGE;
    h.nsyms = 3;
    h.syms_off = FUNCTAB_END;
    h.strtab_off = FUNCTAB_END + 3 * sizeof(struct gs_sym);
    return h;
}

static void path_geometry(void)
{
    struct gs_header h = with_paths();
    PASSES(h);
    h.max_paths = 32;                         /* below a page */
    FAILS(h, "corrupt: path tables of 32 and 64 entries of 64 bytes (must be 64..16777216 "
             "entries of 64 bytes, in a timing file: arcs a power of two, paths too below 128 and a multiple of "
             "it above)");
    h = with_paths();
    h.max_paths = 96;                         /* below a block: not a power of two */
    FAILS(h, "corrupt: path tables of 96 and 64 entries of 64 bytes (must be 64..16777216 "
             "entries of 64 bytes, in a timing file: arcs a power of two, paths too below 128 and a multiple of "
             "it above)");
    h.max_paths = 192;                        /* above a block: not whole blocks */
    FAILS(h, "corrupt: path tables of 192 and 64 entries of 64 bytes (must be 64..16777216 "
             "entries of 64 bytes, in a timing file: arcs a power of two, paths too below 128 and a multiple of "
             "it above)");
    h = with_paths();
    h.max_arcs = 96;                          /* not a power of two */
    FAILS(h, "corrupt: path tables of 64 and 96 entries of 64 bytes (must be 64..16777216 "
             "entries of 64 bytes, in a timing file: arcs a power of two, paths too below 128 and a multiple of "
             "it above)");
    h = with_paths();
    h.flags &= ~GS_HDR_TIMING;
    h.ntimed = 0;
    FAILS(h, "corrupt: path tables of 64 and 64 entries of 64 bytes (must be 64..16777216 "
             "entries of 64 bytes, in a timing file: arcs a power of two, paths too below 128 and a multiple of "
             "it above)");
    h = with_paths();
    h.paths_off = GS_PAGE;                    /* on the timing records */
    h.arcs_off = 2 * GS_PAGE;
    FAILS(h, "corrupt: path tables at row offsets 4096 and 8192 (must be page aligned, after the "
             "timing records, inside the 16384-byte row)");
    h = with_paths();
    h.max_arcs = 128;                         /* past the row's end */
    FAILS(h, "corrupt: path tables at row offsets 8192 and 12288 (must be page aligned, after the "
             "timing records, inside the 16384-byte row)");
    h = with_paths();
    h.arcs_off += 64;                         /* not right after the paths */
    FAILS(h, "corrupt: path tables at row offsets 8192 and 12352 (must be page aligned, after the "
             "timing records, inside the 16384-byte row)");
}

static void symbol_table(void)
{
    struct gs_header h = with_paths();
    h.syms_off = FILE_SIZE - 16;              /* 3 entries from 16 bytes before the end */
    FAILS(h, "corrupt: symbol table (3 entries at offset 40944) does not fit in the 40960-byte file");
    h = with_paths();
    h.nsyms = GS_MAX_FUNCS + 1;
    FAILS(h, "corrupt: 4194305 symbols (at most 4194304)");
    h = with_paths();
    h.syms_off = GS_PAGE - 16;                /* runs into the live page */
    FAILS(h, "corrupt: function or string table overlaps the counter area at 4096");
}

/* Two rows (ending at 24576), then the goroutine sites: the head page,
 * one site, from 8192 on 128 live entries (ending at 36864). */
static void add_sites(struct gs_header *h)
{
    h->flags |= GS_HDR_SITES;
    h->sites_off = 6 * GS_PAGE;
    h->glive_off = 2 * GS_PAGE;
    h->max_sites = 1;
    h->max_glive = 128;
    h->site_size = sizeof(struct gs_site);
    h->glive_size = sizeof(struct gs_glive);
}

static struct gs_header with_sites(void)
{
    struct gs_header h = valid();
    h.max_rows = 2;
    add_sites(&h);
    h.gostmts_off = FUNCTAB_END + STRTAB_SIZE;   /* 1944 */
    h.ngostmts = 2;
    h.gostmt_size = sizeof(struct gs_gostmt);
    return h;
}

static void sites_geometry(void)
{
    struct gs_header h = with_sites();
    PASSES(h);
    h.max_glive = 256;                        /* ends at the file's end */
    PASSES(h);
    h.max_glive = 512;
    FAILS(h, "corrupt: goroutine sites at offset 24576 (live table at +8192) must be page aligned, "
             "after the rows, inside the 40960-byte file");
    h = with_sites();
    h.sites_off = 5 * GS_PAGE;                /* on the last row */
    FAILS(h, "corrupt: goroutine sites at offset 20480 (live table at +8192) must be page aligned, "
             "after the rows, inside the 40960-byte file");
    h = with_sites();
    h.glive_off = GS_PAGE;                    /* on the site table */
    FAILS(h, "corrupt: goroutine sites at offset 24576 (live table at +4096) must be page aligned, "
             "after the rows, inside the 40960-byte file");
    h = with_sites();
    h.max_sites = 3;
    FAILS(h, "corrupt: goroutine sites: 3 sites of 320 bytes, 128 live entries of 32 bytes (must be "
             "powers of two up to 65536 and 4194304, of 320 and 32 bytes)");
    h = with_sites();
    h.glive_size = 24;
    FAILS(h, "corrupt: goroutine sites: 1 sites of 320 bytes, 128 live entries of 24 bytes (must be "
             "powers of two up to 65536 and 4194304, of 320 and 32 bytes)");
    h = with_sites();
    h.gostmts_off = GS_PAGE - 40;             /* runs into the live page */
    FAILS(h, "corrupt: 2 go statements of 24 bytes at offset 4056 (must be 24 bytes each, before the "
             "counters at 4096)");
    h = with_sites();
    h.flags &= ~GS_HDR_SITES;                 /* fields of an absent section are not read */
    h.max_sites = 3;
    PASSES(h);
}

/* Call paths (with_paths, one row: ending at 24576) and goroutine sites
 * keyed by creator path: the head page, one site, 128 live entries from
 * +8192, the creator paths from +12288 (the file ends at +16384). */
static struct gs_header with_site_paths(void)
{
    struct gs_header h = with_paths();
    h.max_rows = 1;
    add_sites(&h);
    h.flags |= GS_HDR_SITE_PATHS;
    h.spaths_off = 3 * GS_PAGE;
    h.spath_size = sizeof(struct gs_spath);
    return h;
}

/* The message for creator paths of SIZE bytes at +OFF. */
#define SPATHS_BAD(size, off) \
    "corrupt: creator paths of " size " bytes at +" off " from the goroutine sites (must be 128 bytes " \
    "each, page aligned after the live table, inside the 40960-byte file, with call paths)"

static void site_paths_geometry(void)
{
    struct gs_header h = with_site_paths();
    PASSES(h);
    const struct { uint64_t off; uint32_t size; const char *msg; } bad[] = {
        {2 * GS_PAGE, 128, SPATHS_BAD("128", "8192")},                  /* on the live table */
        {4 * GS_PAGE, 128, SPATHS_BAD("128", "16384")},                 /* beyond the file */
        {UINT64_MAX - GS_PAGE + 1, 128, SPATHS_BAD("128", "18446744073709547520")},   /* wraps */
        {3 * GS_PAGE, 64, SPATHS_BAD("64", "12288")},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        h = with_site_paths();
        h.spaths_off = bad[i].off;
        h.spath_size = bad[i].size;
        char want[512];
        snprintf(want, sizeof want, "%s: %s", PATH, bad[i].msg);
        CHECK_INT(check(&h), -1);
        CHECK_STR(err.msg, want);
    }
    h = with_site_paths();
    h.flags &= ~GS_HDR_SITE_PATHS;            /* fields of an absent section are not read */
    h.spath_size = 64;
    PASSES(h);
}

/* The flags and sample_every name one timing mode. */
static void timing_mode_named(void)
{
    struct gs_header h = valid();
    h.flags |= GS_HDR_ADAPTIVE;                       /* the default mode */
    PASSES(h);
    h.sample_every = 8;
    FAILS(h, "corrupt: flags 0xb with sample_every 8 name no timing mode (call paths need every call"
             " timed; the default's adaptive sampling has no period)");
    h = valid();
    h.flags |= GS_HDR_PATHS;
    h.sample_every = 2;
    FAILS(h, "corrupt: flags 0x13 with sample_every 2 name no timing mode (call paths need every call"
             " timed; the default's adaptive sampling has no period)");
    h = valid();
    h.sample_every = 8;                               /* --sample 8 */
    PASSES(h);
}

static void rows_and_area(void)
{
    struct gs_header h = valid();             /* 4 rows */
    CHECK_U64(gst_geometry_rows_in_use(&h, 0), 1);
    CHECK_U64(gst_geometry_rows_in_use(&h, 2), 3);
    CHECK_U64(gst_geometry_rows_in_use(&h, 3), 4);
    CHECK_U64(gst_geometry_rows_in_use(&h, 4), 4);
    CHECK_U64(gst_geometry_rows_in_use(&h, UINT64_MAX), 4);
    CHECK_U64(gst_geometry_counter_area_size(&h), GS_PAGE + MAX_ROWS * ROW_STRIDE);
    CHECK_U64(h.live_off + gst_geometry_counter_area_size(&h), FILE_SIZE);
}

UNIT_CASES("statsfile_check",
           UNIT_CASE(valid_header_passes),
           UNIT_CASE(identity),
           UNIT_CASE(sizes),
           UNIT_CASE(pid_range),
           UNIT_CASE(merge_fields),
           UNIT_CASE(header_strings_nul_terminated),
           UNIT_CASE(function_and_string_tables),
           UNIT_CASE(prefix_before_counters),
           UNIT_CASE(live_and_rows),
           UNIT_CASE(counter_geometry),
           UNIT_CASE(timing_geometry),
           UNIT_CASE(strings),
           UNIT_CASE(timing_index),
           UNIT_CASE(path_geometry),
           UNIT_CASE(symbol_table),
           UNIT_CASE(sites_geometry),
           UNIT_CASE(site_paths_geometry),
           UNIT_CASE(timing_mode_named),
           UNIT_CASE(rows_and_area));
