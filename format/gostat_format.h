/* exported by format */
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
 *   gostmts_off       struct gs_gostmt[ngostmts] (GS_HDR_SITES): every go
 *                     statement's creator PC with its function, file, line
 *   syms_off          struct gs_sym[nsyms]: every function of the program,
 *                     instrumented or not, sorted by entry (call paths only:
 *                     callers are found from return addresses)
 *   live_off          struct gs_live, one page          \  mapped MAP_SHARED
 *   rows_off          max_rows rows of counters         |  by the program
 *   sites_off         goroutine sites (GS_HDR_SITES)    /
 *                     struct gs_site_head (one page), struct gs_site[max_sites],
 *                     then, page aligned, struct gs_glive[max_glive],
 *                     then (GS_HDR_SITE_PATHS), page aligned, struct
 *                     gs_spath[max_sites] at spaths_off
 *
 * Row r (at rows_off + r * row_stride) holds:
 *   + 0               struct gs_drops: why calls went untimed (timing mode)
 *   + GS_ROW_PAGEMAP  one byte per page of the row: 1 once the page is
 *                     backed by memory, 2 if that failed (tmpfs full)
 *   + counts_off      struct gs_counter[nfuncs]: calls, by function index
 *   + timing_off      struct gs_timing records, GS_TIMING_PER_PAGE to a
 *                     page (none straddles pages), by gs_func.timing
 *   + paths_off       call paths (GS_HDR_PATHS): struct gs_path[max_paths],
 *                     an open-addressing hash table keyed by gs_path.key
 *   + arcs_off        struct gs_path[max_arcs]: calls whose path did not
 *                     fit, keyed by (return address, callee) only
 * Row 0 is shared and only ever updated with locked instructions (used by
 * threads that found no free row); it holds no timing. Rows
 * 1..max_rows-1 are each owned by one thread, which updates them with plain
 * instructions. A function's totals are the sums over rows
 * 0 .. min(live.rows_claimed, max_rows - 1). Pages of the timing part are
 * only backed (and read as non-zero) once a thread times a call there.
 *
 * Times are TSC ticks; the header says how to turn them into nanoseconds
 * (docs/stats-format.md, "Clock").
 */
#ifndef GOSTAT_FORMAT_H
#define GOSTAT_FORMAT_H

#include <stdint.h>

#define GS_MAGIC "GOSTATv6"        /* 8 bytes, no NUL; written last */
#define GS_MAGIC_LEN 8
#define GS_VERSION 6
#define GS_MAGIC_STEM "GOSTATv"   /* the magic before the version digit */
#define GS_PAGE 4096u
#define GS_EXE_MAX 1024u
#define GS_BUILDID_MAX 128u
#define GS_GOVERSION_MAX 32u
#define GS_FILE_PREFIX "gostat."   /* file names: gostat.<exe basename>.<pid>[.<16 hex digits>] */
#define GS_BOOTID_MAX 40u
#define GS_HIST_BUCKETS 32u
#define GS_HIST_FIRST_LOG2 5       /* bucket 0: < 2^5 ticks; bucket b >= 1:
                                      [2^(b+4), 2^(b+5)) ticks; the last
                                      bucket has no upper bound */
#define GS_UNTIMED 0xffffffffu     /* gs_func.timing of a function not timed */
#define GS_ROW_PAGEMAP 128u        /* in a row, after struct gs_drops */

/* Limits no writer exceeds; readers reject a header claiming more, so a
 * hostile file cannot make them allocate or map without bound. */
#define GS_MAX_ROWS 4096u          /* gs_live.rows_backed has one bit per row */
#define GS_MAX_FUNCS (1u << 22)    /* real Go programs: up to a few 100 000 */
/* A function has up to three strings (name, file, untimed reason), a
 * symbol one, a go statement two (creator, file), each far below a page;
 * the table starts with the empty string, and may end with the program's
 * names, at most twice the bytes of the names they serve. */
#define GS_MAX_STRTAB(nfuncs, nsyms, ngostmts) \
    (GS_PAGE + ((uint64_t)(nfuncs) * 3u + (nsyms) + (uint64_t)(ngostmts) * 2u) * 3u * GS_PAGE)
#define GS_MAX_PATHS (1u << 24)    /* entries of either per-row path table */
#define GS_PATH_BLOCK 128u         /* a path table of at least this many entries is
                                      whole blocks of them: the writer's probes
                                      stay in a key's block (stubs/paths.S) */
#define GS_MAX_PROCESSES (1ull << 40) /* gs_header.processes of a merged file */

/* gs_header.flags */
#define GS_HDR_SHARED 1u           /* counters are mapped from this file (live).
                                      The start-up code removes a file it could
                                      not map, so every complete file has it;
                                      readers may ignore it. */
#define GS_HDR_TIMING 2u           /* built to time calls (not --count-only) */
#define GS_HDR_NO_TSC 4u           /* timing was off at run time: the CPU has
                                      no invariant TSC */
#define GS_HDR_ADAPTIVE 8u         /* the default timing mode: a function's first
                                      N calls in the process timed, then
                                      sampled ever more rarely (sample_every 0) */
#define GS_HDR_PATHS 16u           /* every call timed with its calling context:
                                      rows hold path tables, gs_timing.self_total
                                      is kept, the symbol table is present */
#define GS_HDR_PATH_TOTALS 32u     /* with GS_HDR_PATHS: a timed call's calls,
                                      ticks and self ticks are added to its path
                                      or arc entry only; gs_timing.samples, total
                                      and self_total hold those of calls that
                                      found room in neither (readers add the
                                      entries to their callee's sums) */
#define GS_HDR_ONCPU 64u           /* gs_timing.oncpu_total (and with paths
                                      gs_path.oncpu) is kept: the scheduler's
                                      hand-offs are hooked (docs/timing.md
                                      "On-CPU time") */

#define GS_HDR_SITES 128u         /* goroutines are kept by creation site: the
                                      sites section (sites_off) is present */
#define GS_HDR_SITE_PATHS 256u    /* with GS_HDR_SITES and GS_HDR_PATHS: sites are
                                      keyed by the creator's call path too
                                      (gs_site.path), whose functions are in the
                                      site paths table (spaths_off) */
#define GS_HDR_ONCPU_OFF 512u      /* timed, but on-CPU time is not kept: the
                                      program's scheduler hand-offs could not
                                      all be hooked (gorewrite warned why) */

/* gs_header.merge_error: the process exited with GOSTAT_MERGE set but
 * kept its own file, because the merged file ... */
#define GS_MERGE_BUSY 1u           /* stayed locked by another process */
#define GS_MERGE_INVALID 2u        /* is not one of this program's (or corrupt) */
#define GS_MERGE_IO 3u             /* could not be read, written or renamed */

/* gs_func.flags */
#define GS_FUNC_INLINED 1u         /* also inlined elsewhere: counts real calls only */

/* Timed calls still open on the exiting goroutine when its process
 * exited (os.Exit, a fatal error): closed at the exit's time, by function
 * (timing record); the drops' closed_at_exit counts them all, these the
 * outermost GS_EXIT_CALLS_MAX functions' (docs/stats-format.md "At exit"). */
#define GS_EXIT_CALLS_MAX 16u
struct gs_exit_call {
    uint32_t rec;                  /* the function's timing record offset in a row */
    uint32_t calls;                /* of its calls, those closed at exit */
};

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
    /* timing (GS_HDR_TIMING) */
    uint32_t ntimed;               /* struct gs_timing records per row */
    uint32_t timing_size;          /* sizeof(struct gs_timing) */
    uint64_t counts_off;           /* in a row: struct gs_counter[nfuncs] */
    uint64_t timing_off;           /* in a row: the first gs_timing page */
    /* the clock: two (TSC, CLOCK_MONOTONIC ns) pairs taken at start-up at
       least GS_CALIBRATE_NS apart, and the boot they belong to */
    uint64_t tsc0, mono0_ns;
    uint64_t tsc1, mono1_ns;
    char boot_id[GS_BOOTID_MAX];   /* /proc/sys/kernel/random/boot_id */
    uint32_t sample_every;         /* timing: about 1 call in this many is
                                      timed (all are counted); 1: all; 0 with
                                      GS_HDR_ADAPTIVE: the default mode */
    uint32_t reserved32;
    /* call paths (GS_HDR_PATHS; all zero without) */
    uint64_t syms_off;             /* struct gs_sym[nsyms], sorted by entry */
    uint32_t nsyms;
    uint32_t path_size;            /* sizeof(struct gs_path) */
    uint64_t paths_off;            /* in a row: page aligned, after the timing pages */
    uint64_t arcs_off;             /* in a row: page aligned, after the paths */
    uint32_t max_paths;            /* entries of the path table: a power of two
                                      below GS_PATH_BLOCK, whole blocks above */
    uint32_t max_arcs;             /* entries of the arc table, a power of two */
    /* overhead compensation (GS_HDR_TIMING; zero: durations uncompensated):
       what a probe cost at start-up, subtracted from every duration it ran in */
    uint32_t probe_ticks;          /* a timed call's probe, as its callers see it */
    uint32_t probe_inner_ticks;    /* the part of it inside the call's own interval */
    uint32_t probe_untimed_q8;     /* an untimed counted call's, in 1/256 ticks */
    uint32_t reserved32b;
    /* tracing (gorewrite --trace; format/trace_format.h; all zero without) */
    uint64_t trace_off;            /* struct gs_trace_section, in the prefix */
    uint64_t trace_size;
    /* goroutine sites (GS_HDR_SITES; all zero without): shared, written by
       every thread with locked instructions */
    uint64_t sites_off;            /* page aligned, after the rows */
    uint64_t glive_off;            /* from sites_off: the live table, page aligned */
    uint32_t max_sites;            /* entries of the site table, a power of two */
    uint32_t max_glive;            /* entries of the live table, a power of two */
    uint32_t site_size;            /* sizeof(struct gs_site) */
    uint32_t glive_size;           /* sizeof(struct gs_glive) */
    uint64_t gostmts_off;          /* struct gs_gostmt[ngostmts], sorted by pc */
    uint32_t ngostmts;
    uint32_t gostmt_size;          /* sizeof(struct gs_gostmt) */
    /* creators' call paths (GS_HDR_SITE_PATHS; all zero without) */
    uint64_t spaths_off;           /* from sites_off: struct gs_spath[max_sites],
                                      page aligned, after the live table */
    uint32_t spath_size;           /* sizeof(struct gs_spath) */
    uint32_t reserved32c;
    /* merging at exit (GOSTAT_MERGE; docs/stats-format.md "Merged files") */
    uint64_t processes;            /* processes whose counts this file holds:
                                      0 in a process's own file, >= 1 in a
                                      merged one */
    uint32_t merge_error;          /* GS_MERGE_*: why this process's own file
                                      was kept instead of merged; 0: none */
    uint32_t reserved_merge;
    /* the process's end (written at exit by stubs/finish.c; all zero while
       it runs, and in the file of a process killed by a signal); a merged
       file keeps the latest end of its processes */
    uint64_t end_time_ns;          /* CLOCK_REALTIME at exit */
    uint64_t end_tsc, end_mono_ns; /* a (TSC, CLOCK_MONOTONIC ns) pair at exit */
    uint32_t exit_nfuncs;          /* entries of exit_calls in use */
    uint32_t reserved_exit;
    struct gs_exit_call exit_calls[GS_EXIT_CALLS_MAX];
    uint8_t reserved[64];          /* zero; room for later fields */
};

#define GS_CALIBRATE_NS 200000u

struct gs_func {
    uint64_t entry;                /* link-time entry address: the function's key */
    uint32_t size;                 /* bytes, entry to next function */
    uint32_t name_off;             /* into strtab */
    uint32_t file_off;             /* into strtab; 0 (empty) when unknown */
    uint32_t line;                 /* 0 when unknown */
    uint32_t flags;                /* GS_FUNC_* */
    uint32_t timing;               /* index into a row's gs_timing, or GS_UNTIMED */
    uint32_t untimed_off;          /* into strtab: why not timed; 0 when timed */
    uint32_t reserved;
};

/* A function of the program (instrumented or not): what a return
 * address belongs to. Names are in strtab. */
struct gs_sym {
    uint64_t entry;                /* link-time */
    uint32_t size;
    uint32_t name_off;
};

/* Mutable state shared by all threads; the first page of the mapping. */
struct gs_live {
    uint64_t rows_claimed;         /* thread rows handed out (lock xadd) */
    uint64_t rows_backed[64];      /* bit r: row r's head (drops, page map,
                                      counters) is backed by memory; readers
                                      must not touch rows 1.. without it: on
                                      a full tmpfs, reading an unbacked page
                                      of the mapping raises SIGBUS */
    uint64_t reserved[447];
};

/* calls, or in a timing mode that samples: calls - gs_timing.next of the
 * same row (negative until the next timed call: the entry's `inc; js`
 * decides both). Readers add next back (docs/stats-format.md). */
struct gs_counter {
    uint64_t calls;
};

/* Per thread: calls of timed functions that got no duration, by cause. */
struct gs_drops {
    uint64_t unwound;              /* left without returning: panic, Goexit
                                      (never on g0: see abandoned) */
    uint64_t too_deep;             /* the goroutine's timing stack was full */
    uint64_t no_slot;              /* more goroutines than timing stacks */
    uint64_t unmatched;            /* returns with no recorded entry */
    uint64_t no_space;             /* no memory for the record's page */
    uint64_t path_overflow;        /* call paths: calls whose path found no room
                                      in the path table: recorded in the arc
                                      table only (no path, exact arc) */
    uint64_t sample_rng;           /* sampled timing: xorshift state */
    uint64_t arc_overflow;         /* call paths: calls that found room in
                                      neither table: timed, in no path or arc */
    uint64_t abandoned;            /* left open by the scheduler: calls on an
                                      M's system stack (g0), which the runtime
                                      resets at each switch (docs/timing.md) */
    uint64_t sampled_probes;       /* the sampled modes: timed calls whose probe
                                      was measured (stubs/timing.S gs_sample_return) */
    uint64_t sampled_probe_ticks;  /* and the ticks those probes took outside the
                                      calls' own intervals, summed */
    uint64_t closed_at_exit;       /* timed calls still open on the exiting
                                      goroutine at the process's exit: timed to
                                      the exit (gs_header.exit_calls) */
    uint64_t reserved[4];          /* zero; room for later causes */
};

/* Per thread and timed function. A timed call of d ticks that stands for
 * w calls (1 when every call is timed; the gap since the previous timed
 * call when sampling) adds w to
 * hist[max(0, min(GS_HIST_BUCKETS - 1, floor(log2 d) - GS_HIST_FIRST_LOG2 + 1))]
 * and w * d to total: sums over the calls they stand for, so means and
 * percentiles read from them are unbiased. */
struct gs_timing {
    uint64_t total;                /* weighted ticks, inclusive of callees */
    uint64_t max;                  /* ticks */
    uint64_t min_inverted;         /* ~min ticks; 0 when nothing recorded */
    uint64_t hist[GS_HIST_BUCKETS];/* weighted calls */
    uint64_t next;                 /* sampling: the call number of the next
                                      timed call (gs_counter holds calls - next) */
    uint64_t gap;                  /* sampling: calls since the previous timed call */
    uint64_t samples;              /* calls actually timed */
    uint64_t self_total;           /* GS_HDR_PATHS: ticks minus those of the
                                      timed calls made inside (which returned) */
    /* on-CPU time (GS_HDR_ONCPU; docs/timing.md "On-CPU time") */
    uint64_t oncpu_total;          /* weighted ticks as total, less those the
                                      call's goroutine spent descheduled */
};

/* One calling context in a thread's path table (or, in the arc table, one
 * return address and callee). key = mix(parent, rec, ret) with bit 63 set
 * (stubs/timing.S, GS_PATH_MIX): 0 marks a free entry. A key is written
 * last, after the fields it names, so a reader that sees it sees them.
 * Keys of the same path are equal in every row: gostat merges rows by key.
 * Two different paths would be merged only if their 64-bit keys collided. */
struct gs_path {
    uint64_t key;
    uint64_t parent;               /* the caller's path key; 0: the goroutine's
                                      first timed call; 0 in the arc table */
    uint64_t ret;                  /* run-time return address of the call */
    uint32_t rec;                  /* the callee's timing record offset in a row */
    uint32_t reserved;
    uint64_t calls;
    uint64_t total;                /* ticks, inclusive */
    uint64_t self;                 /* ticks, minus the timed callees' */
    uint64_t oncpu;                /* GS_HDR_ONCPU: ticks as total, less those
                                      the goroutine spent descheduled */
};

/* Goroutines by creation site (docs/goroutines.md). The site table is an
 * open-addressing hash keyed by (gopc, startpc) as link-time addresses:
 * key = gopc << 32 | startpc (0: a free entry); both are below 2^32 in
 * every Go executable (the text starts at 0x400000, PIE links at 0). A
 * creation or an end that finds no entry in GS_SITE_PROBES tries is
 * counted in gs_site_head.no_site. The live table holds each goroutine
 * alive now, keyed by its g's address (g structures are reused only after
 * their goroutine ended): g 0 is a free entry, 1 one freed. */
#define GS_SITE_PROBES 16u
#define GS_GLIVE_PROBES 32u
#define GS_GLIVE_FREED 1u
#define GS_MAX_SITES (1u << 16)
#define GS_MAX_GLIVE (1u << 22)

/* A go statement: the return address of its call of runtime.newproc,
 * which the runtime keeps as g.gopc, and where it is. */
struct gs_gostmt {
    uint64_t pc;                   /* link-time */
    uint32_t func_off;             /* into strtab: the function holding it */
    uint32_t file_off;             /* into strtab; 0 when unknown */
    uint32_t line;                 /* of the go statement; 0 when unknown */
    uint32_t reserved;
};

struct gs_site_head {
    uint64_t no_site;              /* creations and ends whose site found no entry
                                      (table full, or an address beyond 32 bits) */
    uint64_t no_live;              /* creations that found no live entry: their
                                      ends are counted, their lifetimes are not */
    uint64_t unborn;               /* ends of goroutines not in the live table */
    uint64_t reserved[509];
};

struct gs_site {
    uint64_t key;                  /* gopc << 32 | startpc, link-time; 0: free */
    uint64_t created;              /* goroutines started here */
    uint64_t untimed_exits;        /* of them, those that ended without a known
                                      lifetime (born before the stubs ran, or not
                                      in the live table); the others are the sum
                                      of hist: one locked add less per end */
    uint64_t exit_oldest;          /* ticks: at the process's end, the age of
                                      the oldest of its goroutines still running
                                      then (written at exit; 0 before, or none
                                      running; a merged file: the largest) */
    uint64_t total;                /* ticks lived, summed over those */
    uint64_t max;                  /* ticks: the longest of those */
    uint64_t path;                 /* GS_HDR_SITE_PATHS: the creator's call path
                                      (its innermost open timed call's path key;
                                      0: none); else 0 */
    uint64_t claim;                /* GS_HDR_SITE_PATHS: key again; (path, claim)
                                      is claimed with one 16-byte cmpxchg, then
                                      key is written; else 0 */
    uint64_t hist[GS_HIST_BUCKETS];/* lifetimes, as gs_timing.hist */
};

/* A site's creator call path (GS_HDR_SITE_PATHS), at the site's index in
 * the site paths table, written once when the site is claimed, before its
 * key: the timing records (row offsets, as gs_path.rec) of the creating
 * goroutine's open timed calls, innermost first. */
#define GS_SPATH_MAX 31u
struct gs_spath {
    uint32_t depth;                /* open timed calls; beyond GS_SPATH_MAX the
                                      outermost are not in rec */
    uint32_t rec[GS_SPATH_MAX];
};

struct gs_glive {
    uint64_t g;                    /* the g's address; 0 free, GS_GLIVE_FREED freed */
    uint64_t tick;                 /* TSC at creation; 0 while being written */
    uint32_t site;                 /* offset of its gs_site from sites_off; 0: none */
    uint32_t reserved;
    uint64_t reserved2;
};

#define GS_PATHS_PER_PAGE (GS_PAGE / sizeof(struct gs_path))

/* The path table that holds at least n entries (n <= GS_MAX_PATHS): a
 * power of two from a page of them up to GS_PATH_BLOCK, whole blocks
 * beyond. A header's max_paths is one of these. */
static inline uint64_t gs_path_table_entries(uint64_t n)
{
    uint64_t p = GS_PATHS_PER_PAGE;
    while (p < n && p < GS_PATH_BLOCK)
        p *= 2;
    return p >= n ? p : (n + GS_PATH_BLOCK - 1) / GS_PATH_BLOCK * GS_PATH_BLOCK;
}

#define GS_TIMING_PER_PAGE (GS_PAGE / sizeof(struct gs_timing))

/* Offset in a row of timing record k. */
static inline uint64_t gs_timing_offset(uint64_t timing_off, uint32_t k)
{
    return timing_off + (uint64_t)(k / GS_TIMING_PER_PAGE) * GS_PAGE +
           (uint64_t)(k % GS_TIMING_PER_PAGE) * sizeof(struct gs_timing);
}

#ifdef __STDC_VERSION__
_Static_assert(sizeof(struct gs_func) == 40, "gs_func layout");
_Static_assert(sizeof(struct gs_drops) == GS_ROW_PAGEMAP, "gs_drops layout");
_Static_assert(sizeof(struct gs_timing) == 64 + 8 * GS_HIST_BUCKETS, "gs_timing layout");
_Static_assert(sizeof(struct gs_path) == 64, "gs_path layout");
_Static_assert(sizeof(struct gs_sym) == 16, "gs_sym layout");
_Static_assert(sizeof(struct gs_live) == GS_PAGE, "gs_live is one page");
_Static_assert(sizeof(struct gs_header) == 1784, "gs_header keeps its size");
_Static_assert(sizeof(struct gs_site_head) == GS_PAGE, "gs_site_head is one page");
_Static_assert(sizeof(struct gs_site) == 64 + 8 * GS_HIST_BUCKETS, "gs_site layout");
_Static_assert(sizeof(struct gs_glive) == 32, "gs_glive layout");
_Static_assert(sizeof(struct gs_spath) == 128, "gs_spath layout");
_Static_assert(sizeof(struct gs_gostmt) == 24, "gs_gostmt layout");
#endif

#endif
