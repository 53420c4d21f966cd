/* gostat_format.h: the stats file written by an instrumented program and
 * read by gostat. This header is the single definition of the format; it is
 * included by the freestanding start-up stub, by gorewrite (which prepares
 * the file's read-only prefix) and by gostat. docs/stats-format.md explains it.
 *
 * File layout (all little endian, offsets from the start of the file):
 *
 *   0                 struct gs_header
 *   functab_off       struct gs_func[nfuncs], sorted by entry address
 *   strtab_off        NUL-terminated strings; offset 0 is the empty string
 *   live_off          struct gs_live, one page          \  mapped MAP_SHARED
 *   rows_off          max_rows rows of counters         /  by the program
 *
 * Row r holds one struct gs_counter per function, at
 *   rows_off + r * row_stride + i * counter_size.
 * Row 0 is shared and only ever updated with locked instructions (used by
 * threads that found no free row); rows 1..max_rows-1 are each owned by one
 * thread, which updates them with plain instructions. A function's calls are
 * the sum over rows 0 .. min(live.rows_claimed, max_rows - 1).
 */
#ifndef GOSTAT_FORMAT_H
#define GOSTAT_FORMAT_H

#include <stdint.h>

#define GS_MAGIC "GOSTATv1"        /* 8 bytes, no NUL; written last */
#define GS_MAGIC_LEN 8
#define GS_VERSION 1
#define GS_PAGE 4096u
#define GS_EXE_MAX 1024u
#define GS_BUILDID_MAX 128u
#define GS_GOVERSION_MAX 32u
#define GS_FILE_PREFIX "gostat."   /* file names: gostat.<exe basename>.<pid>[.<n>] */

/* gs_header.flags */
#define GS_HDR_SHARED 1u           /* counters are mapped from this file (live).
                                      The start-up code removes a file it could
                                      not map, so every complete file has it;
                                      readers may ignore it. */

/* gs_func.flags */
#define GS_FUNC_INLINED 1u         /* also inlined elsewhere: counts real calls only */

struct gs_header {
    char magic[GS_MAGIC_LEN];      /* GS_MAGIC once the file is complete */
    uint32_t version;              /* GS_VERSION */
    uint32_t header_size;          /* sizeof(struct gs_header) */
    uint64_t file_size;            /* size the writer gave the file */
    int64_t pid;
    uint64_t start_time_ns;        /* CLOCK_REALTIME at start-up */
    uint64_t proc_start_ticks;     /* field 22 of /proc/PID/stat: tells a live
                                      process from a later one with the same pid */
    uint64_t load_bias;            /* run-time minus link-time address (PIE) */
    uint32_t nfuncs;
    uint32_t flags;                /* GS_HDR_* */
    uint64_t functab_off;
    uint64_t strtab_off;
    uint64_t strtab_size;
    uint64_t live_off;             /* page aligned */
    uint64_t rows_off;             /* page aligned, live_off + GS_PAGE */
    uint64_t row_stride;           /* page aligned */
    uint32_t max_rows;             /* including the shared row 0 */
    uint32_t counter_size;         /* sizeof(struct gs_counter) */
    char exe[GS_EXE_MAX];          /* /proc/self/exe of the writer, NUL-terminated */
    char build_id[GS_BUILDID_MAX]; /* Go build ID, NUL-terminated, may be empty */
    char go_version[GS_GOVERSION_MAX]; /* "go1.22.12", NUL-terminated */
    uint8_t reserved[480];         /* zero; room for later fields */
};

struct gs_func {
    uint64_t entry;                /* link-time entry address: the function's key */
    uint32_t size;                 /* bytes, entry to next function */
    uint32_t name_off;             /* into strtab */
    uint32_t file_off;             /* into strtab; 0 (empty) when unknown */
    uint32_t line;                 /* 0 when unknown */
    uint32_t flags;                /* GS_FUNC_* */
    uint32_t reserved;
};

/* Mutable state shared by all threads; the first page of the mapping. */
struct gs_live {
    uint64_t rows_claimed;         /* thread rows handed out (lock xadd) */
    uint64_t reserved[511];
};

struct gs_counter {
    uint64_t calls;
};

#ifdef __STDC_VERSION__
_Static_assert(sizeof(struct gs_func) == 32, "gs_func layout");
_Static_assert(sizeof(struct gs_live) == GS_PAGE, "gs_live is one page");
_Static_assert(sizeof(struct gs_header) % 8 == 0, "gs_header alignment");
#endif

#endif
