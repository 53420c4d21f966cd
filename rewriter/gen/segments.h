/* exported by rewriter/gen */
/* segments.h: where the new segments go in the output's address space. The
 * RW counter segment comes first, right after the program's own segments,
 * then the RX segment with the program headers, stub blob, trampolines and
 * stats-file image. Both lie within rel32 reach of the Go text. The RW
 * segment holds row 0 (the trampolines address it directly); rows 1.. and
 * the goroutine sites are mapped wherever the kernel puts them at start-up,
 * so that their number does not depend on that reach. */
#ifndef GR_SEGMENTS_H
#define GR_SEGMENTS_H

#include <stddef.h>
#include <stdint.h>

#include "common/align.h"
#include "elf/elf_read.h"
#include "common/error.h"
#include "format/timing_mode.h"

/* The segment plan: the RW segment's rows and offsets, and where both
 * segments go. */
struct gr_segment_plan {
    uint32_t nfuncs;          /* instrumented functions (counters per row) */
    uint32_t ntimed;          /* timed functions (timing records per row) */
    uint32_t max_rows;        /* counter rows, the shared row 0 included */
    uint64_t row_stride;
    uint64_t row_head;        /* drops, page map and counters: backed when a
                                 thread claims the row */
    uint64_t counts_off;      /* in a row */
    uint64_t timing_off;      /* in a row: first timing page */
    uint64_t first_off;       /* from rw_vaddr: the end of the part mapped in the
                                 segment (live page and row 0), then the default
                                 mode's first-calls counters (private) */
    uint64_t slots_off;       /* from rw_vaddr: the end of the segment (the timing
                                 stacks are mapped elsewhere at start-up) */
    uint64_t nslots;          /* 0 when not timing */
    struct gs_timing_mode timing;  /* which calls are timed (format/timing_mode.h) */
    uint32_t first_n;         /* the default mode: --first N */
    uint32_t max_paths;       /* call paths per thread (gostat_format.h: a power
                                 of two below GS_PATH_BLOCK, whole blocks above);
                                 0: none (set so unless GS_MODE_CALL_GRAPH); on input
                                 GR_PATHS_FROM_PROGRAM: sized from it */
    uint32_t max_arcs;        /* entries of the arc table (power of two; 0 on
                                 input: sized from the program) */
    uint64_t paths_off;       /* in a row: the path table, then the arc table */
    uint64_t arcs_off;
    uint64_t full_off;        /* in a row: the path filter (segments.c) */
    uint64_t filter_off;
    uint64_t arcidx_off;      /* the arc index; the arcs taken in the 8 bytes before */

    uint64_t trace_ring_size; /* --trace: each row's event ring (0: none; set by
                                 the caller), in the row's head after the counters */
    uint64_t trace_ring_off;
    uint32_t max_sites;       /* goroutine sites (a power of two; 0: none) */
    uint32_t max_glive;       /* live goroutines kept (a power of two) */
    uint64_t sites_off;       /* the sites section, after the rows, as if every row
                                 followed row 0 in the segment (the file's layout,
                                 from rw_vaddr) */
    uint64_t glive_off;       /* from sites_off: the live table */
    uint64_t spaths_off;      /* from sites_off: the creators' call paths (with
                                 call paths only; 0: none) */

    uint64_t shared_end;      /* the end of the rows and sites, counted as sites_off */
    uint64_t module_size;     /* --engine copy: the moduledata's bytes (set by the
                                 caller; 0: none), at module_off from rw_vaddr,
                                 after the private part */
    uint64_t module_off;

    uint64_t rw_vaddr;        /* struct gs_private, then the shared part */
    uint64_t rw_memsz;
    uint64_t rx_vaddr;
    uint64_t rx_offset;       /* file offset of the RX segment */
    uint64_t phdr_area;       /* bytes reserved at rx_vaddr for program headers */
    uint64_t blob_addr;
};

/* Default path table sizes (segments.c: default_max_paths); max_paths on
 * input GR_PATHS_FROM_PROGRAM asks for them. */
#define GR_PATHS_FROM_PROGRAM UINT32_MAX
#define GR_MIN_DEFAULT_PATHS 16384u
#define GR_MAX_DEFAULT_PATHS 1048576u
#define GR_PATHS_PER_TIMED 8u

/* Default arc table sizes (segments.c: default_max_arcs). */
#define GR_MIN_ARCS 4096u
#define GR_MAX_ARCS 65536u
#define GR_TIMING_STACKS 32768u  /* goroutines that can be timed at once; each
                                    stack reserves GS_SLOT_SIZE of address
                                    space (256 GiB in all, MAP_NORESERVE) */

/* Goroutine sites: entries of the site table and of the live table. */
#define GR_SITES 2048u
#define GR_GLIVE 65536u

/* Fills *seg (whose timing, max_paths, max_arcs and max_sites the caller set) for
 * nfuncs instrumented and ntimed timed functions. */
int gr_segments_place(const struct gr_elf *elf, uint32_t nfuncs, uint32_t ntimed,
                      uint32_t max_rows, struct gr_segment_plan *seg,
                      struct gr_error *err);

/* The shared row 0's address, for the trampolines. */
static inline uint64_t gr_segments_row0(const struct gr_segment_plan *seg) { return seg->rw_vaddr + 2 * GR_PAGE; }

/* Offset in a row of function counter i (timing records: gs_timing_offset). */
static inline uint64_t gr_segments_counter(const struct gr_segment_plan *seg, uint32_t i)
{
    return seg->counts_off + 8ull * i;
}

#endif
