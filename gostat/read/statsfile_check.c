/* statsfile_check.c: validation of a stats file's header against the file's size.
 * Everything here guards later reads and allocations: once a header passes,
 * every offset the reader computes from it stays inside the file. */
#include "gostat/read/statsfile_check.h"
#include "format/timing_mode.h"

#include <inttypes.h>
#include <string.h>

/* Largest counter slot we accept; real writers use 8 bytes. Anything
 * bigger than a page is a corrupt header, not a future format. */
#define MAX_COUNTER_SIZE GS_PAGE

/* off..off+len lies inside 0..limit, computed without overflow. */
static bool fits(uint64_t off, uint64_t len, uint64_t limit)
{
    return off <= limit && len <= limit - off;
}

static bool is_nul_terminated(const char *s, size_t cap)
{
    return memchr(s, '\0', cap) != NULL;
}

static int check_identity(const struct gs_header *h, uint64_t actual_size,
                          const char *path, struct gr_error *err)
{
    if (actual_size == 0)
        return gr_fail(err, "%s: empty file (still being written, or not a stats file)", path);
    size_t stem = sizeof GS_MAGIC_STEM - 1;
    if (actual_size >= GS_MAGIC_LEN && memcmp(h->magic, GS_MAGIC_STEM, stem) == 0
        && memcmp(h->magic, GS_MAGIC, GS_MAGIC_LEN) != 0 && h->magic[stem] >= '1' && h->magic[stem] <= '9')
        return gr_fail(err, "%s: a stats file of format version %c, which this gostat does not read "
                       "(it reads version %d: read it with the gostat of the gorewrite that built the program)",
                       path, h->magic[stem], GS_VERSION);
    if (actual_size < GS_MAGIC_LEN || memcmp(h->magic, GS_MAGIC, GS_MAGIC_LEN) != 0)
        return gr_fail(err, "%s: not a stats file (no %s magic; still being written?)",
                        path, GS_MAGIC);
    if (actual_size < sizeof *h)
        return gr_fail(err, "%s: truncated: %" PRIu64 " bytes, shorter than the %zu-byte header",
                        path, actual_size, sizeof *h);
    if (h->version != GS_VERSION)
        return gr_fail(err, "%s: unsupported format version %" PRIu32 " (this gostat reads version %d)",
                        path, h->version, GS_VERSION);
    return 0;
}

static int check_sizes(const struct gs_header *h, uint64_t actual_size,
                       const char *path, struct gr_error *err)
{
    if (h->file_size > actual_size)
        return gr_fail(err, "%s: truncated: %" PRIu64 " bytes, header says %" PRIu64,
                        path, actual_size, h->file_size);
    if (h->header_size < sizeof *h || h->header_size % 8 != 0 || h->header_size > h->file_size)
        return gr_fail(err, "%s: corrupt: header_size %" PRIu32 " (expected at least %zu, within the file)",
                        path, h->header_size, sizeof *h);
    if (h->pid <= 0 || h->pid > INT32_MAX)
        return gr_fail(err, "%s: corrupt: pid %" PRId64 " out of range", path, h->pid);
    if (h->processes > GS_MAX_PROCESSES || h->merge_error > GS_MERGE_IO)
        return gr_fail(err, "%s: corrupt: merged from %" PRIu64 " processes, merge error %" PRIu32
                       " (at most %llu, %u)", path, h->processes, h->merge_error,
                       (unsigned long long)GS_MAX_PROCESSES, GS_MERGE_IO);
    if (!is_nul_terminated(h->exe, sizeof h->exe))
        return gr_fail(err, "%s: corrupt: exe is not NUL-terminated", path);
    if (!is_nul_terminated(h->build_id, sizeof h->build_id))
        return gr_fail(err, "%s: corrupt: build_id is not NUL-terminated", path);
    if (!is_nul_terminated(h->go_version, sizeof h->go_version))
        return gr_fail(err, "%s: corrupt: go_version is not NUL-terminated", path);
    return 0;
}

/* The read-only prefix: function table and string table sit between the
 * header and the page the program maps and updates. */
static int check_prefix(const struct gs_header *h, const char *path, struct gr_error *err)
{
    uint64_t functab_len = (uint64_t)h->nfuncs * sizeof(struct gs_func); /* < 2^37: no overflow */

    if (h->nfuncs > GS_MAX_FUNCS)
        return gr_fail(err, "%s: corrupt: %" PRIu32 " functions (at most %u)", path, h->nfuncs,
                       GS_MAX_FUNCS);
    if (h->nsyms > GS_MAX_FUNCS)
        return gr_fail(err, "%s: corrupt: %" PRIu32 " symbols (at most %u)", path, h->nsyms,
                       GS_MAX_FUNCS);
    if (h->ngostmts > GS_MAX_FUNCS)
        return gr_fail(err, "%s: corrupt: %" PRIu32 " go statements (at most %u)", path,
                       h->ngostmts, GS_MAX_FUNCS);
    uint64_t strtab_max = GS_MAX_STRTAB(h->nfuncs, h->nsyms, h->ngostmts);
    if (h->strtab_size > strtab_max)
        return gr_fail(err, "%s: corrupt: a %" PRIu64 "-byte string table for %" PRIu32
                       " functions, %" PRIu32 " symbols and %" PRIu32 " go statements (at most %" PRIu64 ")",
                       path, h->strtab_size, h->nfuncs, h->nsyms, h->ngostmts, strtab_max);
    if (h->nsyms && (h->syms_off < h->header_size || h->syms_off % 8 != 0
                     || !fits(h->syms_off, (uint64_t)h->nsyms * sizeof(struct gs_sym), h->file_size)))
        return gr_fail(err, "%s: corrupt: symbol table (%" PRIu32 " entries at offset %" PRIu64
                       ") does not fit in the %" PRIu64 "-byte file", path, h->nsyms, h->syms_off,
                       h->file_size);

    if (h->functab_off < h->header_size || !fits(h->functab_off, functab_len, h->file_size))
        return gr_fail(err, "%s: corrupt: function table (%" PRIu32 " entries at offset %" PRIu64
                        ") does not fit in the %" PRIu64 "-byte file",
                        path, h->nfuncs, h->functab_off, h->file_size);
    if (h->strtab_size == 0 || h->strtab_off < h->header_size
        || !fits(h->strtab_off, h->strtab_size, h->file_size))
        return gr_fail(err, "%s: corrupt: string table (%" PRIu64 " bytes at offset %" PRIu64
                        ") does not fit in the %" PRIu64 "-byte file",
                        path, h->strtab_size, h->strtab_off, h->file_size);
    return 0;
}

/* Runs after both regions are known to fit in the file, so the sums below
 * cannot overflow. */
static int check_prefix_before_counters(const struct gs_header *h, const char *path,
                                        struct gr_error *err)
{
    uint64_t functab_end = h->functab_off + (uint64_t)h->nfuncs * sizeof(struct gs_func);
    uint64_t syms_end = h->syms_off + (uint64_t)h->nsyms * sizeof(struct gs_sym);

    if (functab_end > h->live_off || h->strtab_off + h->strtab_size > h->live_off
        || (h->nsyms && syms_end > h->live_off))
        return gr_fail(err, "%s: corrupt: function or string table overlaps the counter area at %" PRIu64,
                        path, h->live_off);
    return 0;
}

static int check_counter_geometry(const struct gs_header *h, const char *path, struct gr_error *err)
{
    if (h->counter_size < sizeof(struct gs_counter) || h->counter_size % 8 != 0
        || h->counter_size > MAX_COUNTER_SIZE)
        return gr_fail(err, "%s: corrupt: counter_size %" PRIu32 " (must be a multiple of 8, 8..%u)",
                        path, h->counter_size, MAX_COUNTER_SIZE);
    if (h->max_rows == 0 || h->max_rows > GS_MAX_ROWS)
        return gr_fail(err, "%s: corrupt: max_rows %" PRIu32 " (must be 1..%u)", path,
                       h->max_rows, GS_MAX_ROWS);
    if (h->row_stride == 0 || h->row_stride % GS_PAGE != 0)
        return gr_fail(err, "%s: corrupt: row_stride %" PRIu64 " (must be page aligned)",
                        path, h->row_stride);
    if (h->counts_off < GS_ROW_PAGEMAP || h->counts_off % 8 != 0
        || !fits(h->counts_off, (uint64_t)h->nfuncs * h->counter_size, h->row_stride))
        return gr_fail(err, "%s: corrupt: counts_off %" PRIu64 " (%" PRIu32 " counters of %" PRIu32
                        " bytes must fit in a %" PRIu64 "-byte row after its first %u bytes)",
                        path, h->counts_off, h->nfuncs, h->counter_size, h->row_stride, GS_ROW_PAGEMAP);
    return 0;
}

/* The timing part of a row: whole pages after the counters, and a page map
 * (one byte per row page) that ends before the counters. */
static int check_timing_geometry(const struct gs_header *h, const char *path, struct gr_error *err)
{
    if (!(h->flags & GS_HDR_TIMING))
        return 0;
    if (h->timing_size != sizeof(struct gs_timing))
        return gr_fail(err, "%s: corrupt: timing_size %" PRIu32 " (expected %zu)",
                        path, h->timing_size, sizeof(struct gs_timing));
    if (GS_ROW_PAGEMAP + h->row_stride / GS_PAGE > h->counts_off)
        return gr_fail(err, "%s: corrupt: the %" PRIu64 "-byte page map at row offset %u overlaps"
                        " the counters at %" PRIu64, path, h->row_stride / GS_PAGE, GS_ROW_PAGEMAP,
                        h->counts_off);
    if (h->probe_inner_ticks > h->probe_ticks)
        return gr_fail(err, "%s: corrupt: a probe's cost inside its call, %" PRIu32 " ticks, is above"
                        " its whole cost, %" PRIu32, path, h->probe_inner_ticks, h->probe_ticks);
    if (h->ntimed == 0)
        return 0;
    uint64_t counts_end = h->counts_off + (uint64_t)h->nfuncs * h->counter_size;
    /* timing_off <= row_stride <= file_size: the offset below cannot overflow. */
    if (h->timing_off % GS_PAGE != 0 || h->timing_off < counts_end || h->timing_off > h->row_stride
        || !fits(gs_timing_offset(h->timing_off, h->ntimed - 1), sizeof(struct gs_timing), h->row_stride))
        return gr_fail(err, "%s: corrupt: %" PRIu32 " timing records at row offset %" PRIu64
                        " (must be page aligned, after the counters, inside the %" PRIu64 "-byte row)",
                        path, h->ntimed, h->timing_off, h->row_stride);
    return 0;
}

/* The flags and sample_every name one timing mode (format/timing_mode.h). */
static int check_mode(const struct gs_header *h, const char *path, struct gr_error *err)
{
    if (!gs_mode_header_consistent(h->flags, h->sample_every))
        return gr_fail(err, "%s: corrupt: flags 0x%" PRIx32 " with sample_every %" PRIu32
                       " name no timing mode (call paths need every call timed; the default's"
                       " adaptive sampling has no period)", path, h->flags, h->sample_every);
    return 0;
}

/* The path and arc tables: whole pages after the timing records, inside
 * the row, power-of-two sizes (the writer masks keys with them). */
static int check_path_geometry(const struct gs_header *h, const char *path, struct gr_error *err)
{
    if (!(h->flags & GS_HDR_PATHS))
        return 0;
    uint64_t timing_end = h->ntimed ? gs_timing_offset(h->timing_off, h->ntimed - 1) + sizeof(struct gs_timing)
                                    : h->timing_off;
    uint64_t paths_len = (uint64_t)h->max_paths * sizeof(struct gs_path);
    uint64_t arcs_len = (uint64_t)h->max_arcs * sizeof(struct gs_path);
    if (!(h->flags & GS_HDR_TIMING) || h->path_size != sizeof(struct gs_path)
        || h->max_paths < GS_PATHS_PER_PAGE || h->max_paths > GS_MAX_PATHS
        || gs_path_table_entries(h->max_paths) != h->max_paths
        || h->max_arcs < GS_PATHS_PER_PAGE
        || h->max_arcs > GS_MAX_PATHS || (h->max_arcs & (h->max_arcs - 1)))
        return gr_fail(err, "%s: corrupt: path tables of %" PRIu32 " and %" PRIu32 " entries of %"
                       PRIu32 " bytes (must be %zu..%u entries of %zu bytes, in a timing file: arcs a power of"
                       " two, paths too below %u and a multiple of it above)",
                       path, h->max_paths, h->max_arcs, h->path_size, GS_PATHS_PER_PAGE, GS_MAX_PATHS,
                       sizeof(struct gs_path), GS_PATH_BLOCK);
    if (h->paths_off % GS_PAGE != 0 || h->paths_off < timing_end || h->arcs_off != h->paths_off + paths_len
        || !fits(h->arcs_off, arcs_len, h->row_stride))
        return gr_fail(err, "%s: corrupt: path tables at row offsets %" PRIu64 " and %" PRIu64
                       " (must be page aligned, after the timing records, inside the %" PRIu64 "-byte row)",
                       path, h->paths_off, h->arcs_off, h->row_stride);
    return 0;
}

static bool power_of_two_upto(uint32_t n, uint32_t max)
{
    return n && n <= max && !(n & (n - 1));
}

/* The creators' call paths (GS_HDR_SITE_PATHS, with call paths only):
 * page aligned after the live table, inside the file. */
static int check_site_paths(const struct gs_header *h, const char *path, struct gr_error *err)
{
    if (!(h->flags & GS_HDR_SITE_PATHS))
        return 0;
    uint64_t live_end = h->glive_off + (uint64_t)h->max_glive * sizeof(struct gs_glive);
    if (!(h->flags & GS_HDR_PATHS) || h->spath_size != sizeof(struct gs_spath)
        || h->spaths_off % GS_PAGE != 0 || h->spaths_off < live_end || h->spaths_off > h->file_size
        || !fits(h->sites_off + h->spaths_off, (uint64_t)h->max_sites * sizeof(struct gs_spath), h->file_size))
        return gr_fail(err, "%s: corrupt: creator paths of %" PRIu32 " bytes at +%" PRIu64 " from the goroutine"
                       " sites (must be %zu bytes each, page aligned after the live table, inside the %" PRIu64
                       "-byte file, with call paths)", path, h->spath_size, h->spaths_off,
                       sizeof(struct gs_spath), h->file_size);
    return 0;
}

/* The goroutine sites section (GS_HDR_SITES): after the rows, its head
 * page, the site table, the live table from a page boundary, inside the
 * file; the go statements' table inside the prefix. rows_end: the end of
 * the rows, already checked to lie inside the file. */
static int check_sites_geometry(const struct gs_header *h, uint64_t rows_end, const char *path,
                                struct gr_error *err)
{
    if (!(h->flags & GS_HDR_SITES))
        return 0;
    if (h->site_size != sizeof(struct gs_site) || h->glive_size != sizeof(struct gs_glive)
        || !power_of_two_upto(h->max_sites, GS_MAX_SITES) || !power_of_two_upto(h->max_glive, GS_MAX_GLIVE))
        return gr_fail(err, "%s: corrupt: goroutine sites: %" PRIu32 " sites of %" PRIu32 " bytes, %"
                       PRIu32 " live entries of %" PRIu32 " bytes (must be powers of two up to %u and %u,"
                       " of %zu and %zu bytes)", path, h->max_sites, h->site_size, h->max_glive,
                       h->glive_size, GS_MAX_SITES, GS_MAX_GLIVE, sizeof(struct gs_site),
                       sizeof(struct gs_glive));
    uint64_t sites_end = GS_PAGE + (uint64_t)h->max_sites * sizeof(struct gs_site);
    if (h->sites_off % GS_PAGE != 0 || h->sites_off < rows_end || h->glive_off % GS_PAGE != 0
        || h->glive_off < sites_end
        || !fits(h->sites_off, h->glive_off, h->file_size)
        || !fits(h->sites_off + h->glive_off, (uint64_t)h->max_glive * sizeof(struct gs_glive), h->file_size))
        return gr_fail(err, "%s: corrupt: goroutine sites at offset %" PRIu64 " (live table at +%" PRIu64
                       ") must be page aligned, after the rows, inside the %" PRIu64 "-byte file",
                       path, h->sites_off, h->glive_off, h->file_size);
    if (check_site_paths(h, path, err) < 0)
        return -1;
    if (h->ngostmts && (h->gostmt_size != sizeof(struct gs_gostmt) || h->ngostmts > GS_MAX_FUNCS
                        || h->gostmts_off % 8 != 0 || h->gostmts_off < h->header_size
                        || !fits(h->gostmts_off, (uint64_t)h->ngostmts * sizeof(struct gs_gostmt), h->live_off)))
        return gr_fail(err, "%s: corrupt: %" PRIu32 " go statements of %" PRIu32 " bytes at offset %" PRIu64
                       " (must be %zu bytes each, before the counters at %" PRIu64 ")", path, h->ngostmts,
                       h->gostmt_size, h->gostmts_off, sizeof(struct gs_gostmt), h->live_off);
    return 0;
}

static int check_counter_area(const struct gs_header *h, const char *path, struct gr_error *err)
{
    uint64_t rows_len;

    if (h->live_off % GS_PAGE != 0 || !fits(h->live_off, GS_PAGE, h->file_size))
        return gr_fail(err, "%s: corrupt: live_off %" PRIu64
                        " (must be page aligned, with its page inside the %" PRIu64 "-byte file)",
                        path, h->live_off, h->file_size);
    if (h->rows_off % GS_PAGE != 0 || h->rows_off < h->live_off + GS_PAGE)
        return gr_fail(err, "%s: corrupt: rows_off %" PRIu64 " (must be page aligned, after the live page at %"
                        PRIu64 ")", path, h->rows_off, h->live_off);
    if (check_counter_geometry(h, path, err) < 0)
        return -1;
    if (__builtin_mul_overflow(h->row_stride, (uint64_t)h->max_rows, &rows_len)
        || !fits(h->rows_off, rows_len, h->file_size))
        return gr_fail(err, "%s: corrupt: %" PRIu32 " rows of %" PRIu64 " bytes at offset %" PRIu64
                        " extend beyond the %" PRIu64 "-byte file",
                        path, h->max_rows, h->row_stride, h->rows_off, h->file_size);
    if (check_mode(h, path, err) < 0)
        return -1;
    if (check_timing_geometry(h, path, err) < 0)   /* row_stride is now below the file size */
        return -1;
    if (check_sites_geometry(h, h->rows_off + rows_len, path, err) < 0)
        return -1;
    return check_path_geometry(h, path, err);
}

int gst_geometry_check(const struct gs_header *hdr, uint64_t actual_size,
                     const char *path, struct gr_error *err)
{
    if (check_identity(hdr, actual_size, path, err) < 0
        || check_sizes(hdr, actual_size, path, err) < 0
        || check_prefix(hdr, path, err) < 0
        || check_counter_area(hdr, path, err) < 0
        || check_prefix_before_counters(hdr, path, err) < 0)
        return -1;
    return 0;
}

int gst_geometry_check_string(const char *strtab, uint64_t strtab_size,
                            uint32_t off, const char *what, uint32_t index,
                            const char *path, struct gr_error *err)
{
    if (off >= strtab_size)
        return gr_fail(err, "%s: corrupt: function %" PRIu32 ": %s offset %" PRIu32
                        " is outside the %" PRIu64 "-byte string table",
                        path, index, what, off, strtab_size);
    if (!memchr(strtab + off, '\0', strtab_size - off))
        return gr_fail(err, "%s: corrupt: function %" PRIu32 ": %s at offset %" PRIu32
                        " is not NUL-terminated inside the string table",
                        path, index, what, off);
    return 0;
}

uint64_t gst_geometry_rows_in_use(const struct gs_header *hdr, uint64_t rows_claimed)
{
    uint64_t last = hdr->max_rows - 1;
    return (rows_claimed < last ? rows_claimed : last) + 1;
}

uint64_t gst_geometry_counter_area_size(const struct gs_header *hdr)
{
    return hdr->rows_off - hdr->live_off + hdr->row_stride * hdr->max_rows;
}

int gst_geometry_check_timing_index(const struct gs_header *hdr, uint32_t timing, uint32_t index,
                                  const char *path, struct gr_error *err)
{
    if (!(hdr->flags & GS_HDR_TIMING) || timing == GS_UNTIMED || timing < hdr->ntimed)
        return 0;
    return gr_fail(err, "%s: corrupt: function %" PRIu32 ": timing record %" PRIu32
                    " (the file has %" PRIu32 ")", path, index, timing, hdr->ntimed);
}
