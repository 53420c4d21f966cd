/* exported by format */
/* stub_abi.h: the contract between gorewrite and the stub blob it embeds.
 *
 * The blob is position-independent machine code built from the C and
 * assembly files in stubs/. It starts with struct gs_blob_header; gorewrite
 * copies the blob into the new executable segment, fills struct
 * gs_stub_config inside the copy, and points trampolines at the routines
 * the header names. All addresses in the config are relative to the blob's
 * first byte, so the same blob works at any load address (PIE included).
 *
 * The run-time data segment (RW, zero-filled, placed by gorewrite) is:
 *   rw + 0                 struct gs_private (never shared with the file)
 *   rw + GS_PAGE           struct gs_live    \  replaced by a MAP_SHARED
 *   rw + 2*GS_PAGE         counter rows      /  mapping of the stats file
 *   rw + first_off         the default mode's first-calls counters (private)
 *   (elsewhere)            timing stacks, one per goroutine (private, mapped
 *                          at start-up)
 *
 * This header is included by assembly too. Constants are macros. Byte
 * offsets are named once, in GS_STUB_OFFSETS below, beside the struct
 * field each one is: C reads them as enum constants (offsetof), the
 * assembly as macros generated from the same list at build time
 * (format/asm_offsets.c, as Linux's asm-offsets). */
#ifndef GS_STUB_ABI_H
#define GS_STUB_ABI_H

#define GS_BLOB_MAGIC 0x31304f4c42524721 /* "!GRBLO01" */

/* tracing (--trace; format/trace_format.h) */
/* A traced entry's capture follows a jmp back of this many bytes, where
 * gs_trace_enter continues instead when the call has no pending record. */
#define GS_TRACE_NO_RECORD 5
/* The captures keep RDI, RSI and RCX at this many bytes below RSP and
 * the two words under it: gs_trace_return's -24(%rsp) (the on-CPU ticks,
 * for gs_time_record) outlives a return capture. */
#define GS_TRACE_CAPTURE_SAVE 64

/* m.g0, the M's scheduling goroutine: struct m's first field in every
 * release (1.15-1.27); finding g.m relies on it too (rewriter/find). */
#define GS_M_G0 0

/* histogram buckets (gostat_format.h GS_HIST_BUCKETS): bucket =
 * clamp(floor(log2 ticks), FIRST_BIT, FIRST_BIT + BUCKETS - 1) - FIRST_BIT */
#define GS_HIST_FIRST_BIT 4

/* The sites section (gostat_format.h: gs_site_head, gs_site, gs_glive) */
#define GS_SPATH_SHIFT 7
#define GS_GLIVE_SHIFT 5
#define GS_SITE_HASH 0x9e3779b97f4a7c15 /* keys are spread by the high half of key * this */

/* a row: struct gs_drops at 0, then the page map (GS_ROW_PAGEMAP): a byte per page */
#define GS_PAGE_READY 1
#define GS_PAGE_FAILED 2

/* The goroutines' timing stacks (struct gs_stack_head and its entries,
 * below): g.racectx holds high 32 bits = the stack's address >>
 * GS_SLOT_SHIFT (0: none claimed yet, GS_SLOT_NONE: none left); low 32
 * bits = the marker, the low half of the innermost open timed call's RSP
 * at its entry (GS_MARKER_NONE: no call open; 0, as in a new g or once
 * the stack has moved: unknown), which lets the return of a deeper call,
 * not timed, leave after one compare (`cmp esp, marker; jae` to the
 * stubs) without looking at the stack. Each stack is an 8 MiB piece
 * (aligned to its size) of one range the start-up code reserves with
 * MAP_NORESERVE: pages are touched as the depth grows, so memory follows
 * the deepest recursion a goroutine reached. */
#define GS_MARKER_NONE 0xffffffff
#define GS_SLOT_SHIFT 23
#define GS_SLOT_SIZE (1 << GS_SLOT_SHIFT)
#define GS_UNTIMED_SHIFT 8     /* gs_stack_head.untimed is in 1/256 ticks */
#define GS_SLOT_LAST (GS_SLOT_SIZE - GS_ENT_SIZE) /* top above this: full */
#define GS_PROBE_MEASURED_MAX 65536 /* ticks: a sampled call's measured probe above
                                       this was preempted (the calibration's instead) */
#define GS_SLOT_NONE 0xffffffff
#define GS_SLOT_DEPTH_MAX ((GS_SLOT_SIZE - GS_SLOT_ENTRIES) / GS_ENT_SIZE)
/* Call paths' entries (struct gs_path_entry): the sentinel's record. */
#define GS_PENT_NO_REC 0xffffffff
#define GS_PATH_FOLD_LEVELS 8 /* stubs/paths.S FOLD_LEVELS lists 1 .. this */
#define GS_PSLOT_DEPTH_MAX ((GS_SLOT_SIZE - GS_SLOT_ENTRIES) / GS_PENT_SIZE)
#define GS_PSLOT_LAST (GS_SLOT_SIZE - GS_PENT_SIZE)

/* struct gs_path (gostat_format.h) */
#define GS_PATH_SHIFT 6
#define GS_PATH_PROBES 16     /* path table: the entries of the key's aligned group
                                 of sixteen (paths.S SEARCH_GROUP, unrolled), then
                                 those of the other groups of its block of eight
                                 (paths.S GROUPS_TRIED), then overflow */
#define GS_ARC_PROBES 64      /* arc index: slots tried, in the key's page of slots */
/* The arc index (stubs/paths.S), after the path filter and private to the
 * writer like it: GS_ARCIDX_SLOTS_PER_ARC u32 slots per arc-table entry,
 * each 0 or an arc entry's row offset + GS_PATH_SIZE (rows are under
 * 4 GiB). Arc entries are taken in order, so a thread's arcs fill as many
 * pages of the arc table as they need, however their keys hash. */
#define GS_ARCIDX_SLOTS_PER_ARC 2
#define GS_ARCIDX_SLOT_SIZE 4
/* The path filter (stubs/paths.S), after the arc table in each row and
 * private to the writer: a bit per group of GS_PATH_PROBES paths, set once
 * the group is full, and GS_FILTER_BITS_PER_PATH bits per path, of which a
 * key sets bit (key >> GS_FILTER_KEY_SHIFT) & mask when it is added (the
 * key's high half: its low half places it in the table). A key whose bit is clear is in no entry, so
 * with its block of groups full (one byte of group bits) the call
 * overflows without probing. */
#define GS_FILTER_BITS_PER_PATH 32
#define GS_FILTER_KEY_SHIFT 32
/* The key of a call mixes the caller's path key, the return address and
 * the callee's record offset (stubs/paths.S); K3 is a 32-bit immediate. */
#define GS_PATH_K1 0x9e3779b97f4a7c15
#define GS_PATH_K3 0x5bd1e995
/* An entry trampoline hands gs_path_enter its record offset rec as this
 * 64-bit word: rec in the low half (what r12d means everywhere), rec * K3
 * (mod 2^32) in the high half, so the key needs one xor for the callee. */
#define GS_PATH_CALLEE_WORD(rec) \
    ((uint64_t)(uint32_t)(rec) | (uint64_t)(uint32_t)((uint32_t)(rec) * (uint32_t)GS_PATH_K3) << 32)

/* The default mode (gs_stub_config.sample == 0): a function's first N
 * calls in the process (gs_stub_config.first_n, --first N, GS_FIRST_DEFAULT
 * unless given), on whichever threads, are all timed (first_off); after
 * that, a thread that made c calls of it draws a mean gap of
 * max(c >> GS_ADAPT_SHIFT, GS_GAP_MIN), at most GS_GAP_MAX, to its next
 * timed one (docs/timing.md "Timing modes": why these numbers). */
#define GS_FIRST_DEFAULT 16
#define GS_FIRST_MAX 1000000
#define GS_ADAPT_SHIFT 6
#define GS_ADAPT_DIV 64         /* 1 << GS_ADAPT_SHIFT, for texts */
#define GS_GAP_MIN 64
/* The mean gap stops growing at GS_GAP_MAX, so that a function's sampled
 * calls stay near enough together for what only they run to stay warm
 * (docs/timing.md "Timing modes": coldsample's mean read 1.27x
 * --time-all's with gaps of calls/64 up to 3,000, within 25 % below 512). */
#define GS_GAP_MAX 512

#ifdef __ASSEMBLER__
#include "format/asm_offsets.h"
#else
#include <stddef.h>
#include <stdint.h>

#include "format/gostat_format.h"
#include "format/offset_names.h"

struct gs_blob_header {
    uint64_t magic;
    uint32_t entry_off;     /* start-up entry: the new ELF entry point */
    uint32_t config_off;    /* struct gs_stub_config */
    uint32_t claim_row_off; /* in: r13 = continue; out: r12 = row or 0 */
    uint32_t time_enter_off;/* in: r12d = record offset, r13 = continue */
    uint32_t time_return_off; /* in: r12d = record offset; returns to the caller */
    uint32_t sample_enter_off;       /* in: r12 = row, r13 = descriptor; or r12 = 0
                                        (row at fs:[0]): as row_slow, then the count
                                        decides between back and the sampled call */
    uint32_t path_enter_off;         /* as time_enter, recording call paths */
    uint32_t path_return_off;          /* as time_return, recording call paths */
    uint32_t sched_off_off;          /* in: r12 = a goroutine the scheduler takes off
                                        its thread, r13 = continue (stubs/oncpu.S) */
    uint32_t sched_on_off;           /* in: r12 = a goroutine about to run again */
    uint32_t trace_enter_off;        /* in: r12 = record | traced | function << 32, r13 = capture */
    uint32_t trace_return_off;         /* in: r12d = record | traced, r13 = capture */
    uint32_t trace_commit_off;       /* in: r12 = the pending record; returns for the function */
    uint32_t row_slow_off;           /* in: r12 = 0, r13 = a function's GS_ROWSLOW_*
                                        words; as claim_row, then continues at its
                                        count, or counts in row 0 and goes back */
    uint32_t site_create_off;        /* in: r12 = the new g, r13 = continue */
    uint32_t site_end_off;          /* in: r14 = the ending g, r13 = continue */
    uint32_t tail_return_off;          /* in: r12d = record offset, r13 = a tail call's
                                        target; jumps there (stubs/tail_return.S) */
    uint32_t exit_off;               /* replaces runtime.exit: finishes the stats
                                        file (stubs/finish.c), then exit_group */
    uint32_t stack_moved_off;        /* in: r12 = a goroutine whose stack is about to
                                        move (runtime.copystack), r13 = continue */
    uint32_t sample_return_off;        /* as time_return, for the sampled modes: adds the
                                        call's probe as measured to the callers' */
    uint32_t exec_before_off;        /* before an exec (syscall.runtime_BeforeExec):
                                        finishes the stats file as exit_off does;
                                        in: r14 = g, r13 = continue */
    uint32_t exec_after_off;         /* a failed exec (syscall.runtime_AfterExec):
                                        a new file; in: r13 = continue */
    uint32_t signal_gate_off;        /* before runtime.sigtramp (C ABI: edi = the
                                        signal, rsi = its siginfo), r11 = continue:
                                        a stats file cut short (stubs/file_cut.c) */
};

struct gs_stub_config {
    int64_t orig_entry_rel; /* the program's own entry point */
    int64_t image_rel;      /* read-only file prefix: header, functab, strtab */
    uint64_t image_size;
    int64_t rw_rel;         /* start of the RW data segment (struct gs_private) */
    uint64_t shared_size;   /* bytes from rw + GS_PAGE: live page and row 0 */
    uint64_t blob_link_addr;/* link-time address of the blob, for load_bias */
    uint64_t g_m;           /* Go runtime offsets (rewriter/find/runtime_offsets.c); */
    uint64_t g_stack_hi;    /* 64-bit so the assembly can add them directly */
    uint64_t g_slot;        /* g.racectx */
    uint64_t m_row;         /* m.tls[1] */
    uint64_t row_stride;
    uint64_t max_rows;
    uint64_t row_head;      /* bytes at a row's start backed when claimed:
                               drops, page map, counters */
    uint64_t slots_off;     /* from rw: timing stacks */
    uint64_t nslots;        /* 0: built with --count-only */
    uint64_t sample;        /* 1: time every call; N > 1: about 1 call in N;
                               0: the default (first_n, then adaptive) */
    uint64_t paths_off;     /* in a row: the path table (call paths only) */
    uint64_t paths_mask;    /* (the power of two >= its entries, less 1) <<
                               GS_PATH_SHIFT: keeps a place in a table of
                               fewer entries than a block */
    uint64_t arcs_off;      /* in a row: the arc table */
    uint64_t arcs_mask;     /* as paths_mask */
    uint64_t full_bit0;     /* in a row, in bits: the path filter's group-full
                               bits (one per GS_PATH_PROBES paths) */
    uint64_t filter_bit0;   /* in a row, in bits: its key bits */
    uint64_t filter_mask;   /* key bits - 1 (a power of two - 1) */
    uint64_t first_off;     /* from rw, the default mode: a u32 per function at
                               half its counter's row offset, the calls that took
                               a share of its first first_n (private) */
    uint64_t arcidx_off;    /* in a row: the arc index (GS_ARCIDX_*), after the
                               filter; the arcs taken (x GS_PATH_SIZE) in the 8
                               bytes before it */
    uint64_t arcidx_mask;   /* (its slots - 1) * 4: a key's slot offset is
                               key & mask */
    uint64_t g_goid;        /* tracing (GS_CFG_G_GOID ...): g.goid */
    uint64_t trace_m, trace_limit, trace_slot, trace_ring, trace_event, trace_end;
    uint64_t trace_min_ns;  /* --trace-slower-than: kept when longer */
    uint64_t trace_nslots;  /* goroutines with pending records (0: not tracing) */
    uint64_t g_gopc;        /* goroutine sites: g.gopc, g.startpc */
    uint64_t g_startpc;
    uint64_t sites_mask;    /* entries of the site table - 1 */
    uint64_t glive_off;     /* from the sites section: the live table */
    uint64_t glive_mask;    /* entries of the live table - 1 */
    uint64_t sites_off;     /* the sites section (0: none), from rw as if every
                               row followed row 0 there: at rows_base +
                               sites_off - 2 * GS_PAGE */
    uint64_t m_curg;        /* sites by creator path (--call-graph): m.curg, */
    uint64_t g_sched_sp;    /* g.sched.sp */
    uint64_t spaths_off;    /* from the sites section: the site paths; 0: not kept */
    uint64_t first_n;       /* the default mode: calls of each function timed
                               first, in the process (GS_FIRST_DEFAULT) */
    int64_t names_rel;      /* the program's own function-name table, the */
    uint64_t names_size;    /* file's strings after the image's (0: none) */
    uint64_t paths_n;       /* entries of the path table: a key's home entry is
                               (key mod 2^32) * paths_n >> 32 */
    uint64_t rows_size;     /* bytes of every row and the sites section, mapped
                               at start-up from the file's rows_off at
                               gs_private.rows_base (row 0 again: the segment
                               maps it too, for the trampolines) */
};

/* Process-private state; first page of the RW segment. */
struct gs_private {
    uint64_t rows_base;     /* run-time address of counter row 0 */
    uint64_t slots_base;    /* run-time address of timing stack 0 (8 MiB aligned) */
    uint64_t slots_next;    /* timing stacks handed out (lock xadd) */
    uint64_t slots_max;     /* 0 when timing is off at run time */
    uint64_t probe;         /* ticks a timed call's probe adds to its callers */
    uint64_t probe_inner;   /* ticks of it inside the call's own interval */
    uint64_t probe_untimed; /* an untimed counted call's, in 1/256 ticks */
    uint64_t sites_base;    /* run-time address of the sites section, or 0 */
    uint64_t load_bias;     /* run-time minus link-time address */
    uint64_t rows_backed[64]; /* gs_live.rows_backed's copy, which a stats
                                 file cut short forgets (stubs/file_cut.c) */
    uint64_t rows_claimed;  /* rows handed out (lock xadd): the claims' own
                               count; gs_live.rows_claimed is the readers' */
    uint64_t reserved[53];
    uint64_t finish;        /* struct gs_finish_info (stubs/finish.h), or 0 */
    uint64_t trace_base;    /* tracing: pending records of goroutine stack 0 */
    uint64_t trace_slots;   /* stacks that have pending records */
    uint64_t trace_min;     /* ticks, from gs_stub_config.trace_min_ns */
    uint64_t reserved_trace[381];
};

/* A goroutine's timing stack: this header, then its entries from
 * GS_SLOT_ENTRIES on (struct gs_stack_entry, or struct gs_path_entry with
 * call paths), a sentinel entry of depth 0 just before the first. */
struct gs_stack_head {
    uint32_t top;           /* offset of the end of the entries in use */
    uint32_t unused;
    /* Overhead compensation (docs/timing.md "Compensation"): the probes'
     * cost so far on this goroutine; an entry's start is kept on the
     * compensated clock, TSC - comp, so that a duration leaves out every
     * probe run inside it. Then the start-up calibration, copied in when
     * the stack is claimed (gs_private.probe_*). */
    uint64_t comp;
    uint64_t probe;         /* a timed call's probe, as its callers see it */
    uint64_t inner;         /* the part of it inside the call's own interval */
    uint64_t untimed;       /* an untimed (counted) call's, in 1/256 ticks */
    /* On-CPU time (stubs/oncpu.S, docs/timing.md "On-CPU time"): the
     * ticks this goroutine spent descheduled so far, and when it was last
     * descheduled (TSC; 0 while it runs). An entry keeps off as at its
     * start. */
    uint64_t off;
    uint64_t off_since;
    uint64_t reserved[9];
    union {
        /* call paths: the entries a recursion search reads below the
         * first (stubs/paths.S): the sentinel and those before it, whose
         * records are GS_PENT_NO_REC */
        struct gs_path_entry {
            uint32_t depth, rec;
            uint64_t tsc;
            uint64_t children;  /* ticks of the timed calls made inside that returned */
            uint64_t key;       /* the call's path key (gs_path.key; the sentinel's: 0) */
            uint64_t base;      /* the key a direct recursion under this call starts
                                   from: the call's own key or, when the call is
                                   itself a recursion (its callee is that of one of
                                   the GS_PATH_FOLD_LEVELS entries below it), that
                                   entry's base */
            uint64_t off;       /* as gs_stack_entry.off */
        } fold[GS_PATH_FOLD_LEVELS];
        /* tracing (--trace excludes --call-graph): the goroutine's pending
         * records, less GS_SLOT_ENTRIES * gs_stub_config.trace_m (0: not
         * looked up yet, 1: none); a save area for the routines that
         * commit an unwound call's event from inside the other routines
         * (stubs/trace.S); gs_private.trace_min, copied in with pending;
         * the entry offsets that have a pending record (below this; 0
         * until looked up or when none) */
        struct {
            uint64_t reserved[16];
            uint64_t pending;
            uint64_t save[8];
            uint64_t min;
            uint64_t limit;
        } trace;
    } below;
};

/* A timed call's entry: depth is g.stack.hi - rsp at the call (the same
 * at entry and return, wherever the stack has moved), tsc its start on the
 * goroutine's compensated clock, w the calls the sample stands for. */
struct gs_stack_entry {
    uint32_t depth;
    uint32_t rec;           /* its timing record's offset in a row */
    uint64_t tsc;
    uint32_t w;
    uint32_t probe;         /* a sampled entry's probe before its start, measured */
    uint64_t off;           /* gs_stack_head.off at the start */
};

/* The words after a trampoline's jmp to gs_row_slow (programs without
 * runtime/cgo): where its count is, its counter's offset in a row, where
 * the function goes on; the two addresses relative to the words. */
struct gs_rowslow_words {
    int32_t resume;
    uint32_t counter;
    int32_t back;
};

/* The sampled entry's descriptor, after the trampoline's code: where to
 * continue (relative to the descriptor: PIE), the function's counter and
 * timing record offsets in a row. */
struct gs_sample_desc {
    int32_t back;
    uint32_t counter;
    uint32_t rec;
};

/* Every byte offset the assembly uses, named once beside its field: the
 * enum below gives C the names; format/asm_offsets.c writes them as
 * macros for the assembly (build/gen/format/asm_offsets.h). */
#define GS_STUB_OFFSETS(OFFSET, SIZE) \
    OFFSET(GS_CFG_RW_REL, struct gs_stub_config, rw_rel) \
    OFFSET(GS_CFG_G_M, struct gs_stub_config, g_m) \
    OFFSET(GS_CFG_G_STACK_HI, struct gs_stub_config, g_stack_hi) \
    OFFSET(GS_CFG_G_SLOT, struct gs_stub_config, g_slot) \
    OFFSET(GS_CFG_M_ROW, struct gs_stub_config, m_row) \
    OFFSET(GS_CFG_ROW_STRIDE, struct gs_stub_config, row_stride) \
    OFFSET(GS_CFG_MAX_ROWS, struct gs_stub_config, max_rows) \
    OFFSET(GS_CFG_ROW_HEAD, struct gs_stub_config, row_head) \
    OFFSET(GS_CFG_SAMPLE, struct gs_stub_config, sample) \
    OFFSET(GS_CFG_PATHS_OFF, struct gs_stub_config, paths_off) \
    OFFSET(GS_CFG_PATHS_MASK, struct gs_stub_config, paths_mask) \
    OFFSET(GS_CFG_PATHS_N, struct gs_stub_config, paths_n) \
    OFFSET(GS_CFG_ARCS_OFF, struct gs_stub_config, arcs_off) \
    OFFSET(GS_CFG_ARCS_MASK, struct gs_stub_config, arcs_mask) \
    OFFSET(GS_CFG_FULL_BIT0, struct gs_stub_config, full_bit0) \
    OFFSET(GS_CFG_FILTER_BIT0, struct gs_stub_config, filter_bit0) \
    OFFSET(GS_CFG_FILTER_MASK, struct gs_stub_config, filter_mask) \
    OFFSET(GS_CFG_FIRST_OFF, struct gs_stub_config, first_off) \
    OFFSET(GS_CFG_FIRST_N, struct gs_stub_config, first_n) \
    OFFSET(GS_CFG_ARCIDX_OFF, struct gs_stub_config, arcidx_off) \
    OFFSET(GS_CFG_ARCIDX_MASK, struct gs_stub_config, arcidx_mask) \
    OFFSET(GS_CFG_G_GOID, struct gs_stub_config, g_goid) \
    OFFSET(GS_CFG_TRACE_M, struct gs_stub_config, trace_m) \
    OFFSET(GS_CFG_TRACE_LIMIT, struct gs_stub_config, trace_limit) \
    OFFSET(GS_CFG_TRACE_SLOT, struct gs_stub_config, trace_slot) \
    OFFSET(GS_CFG_TRACE_RING, struct gs_stub_config, trace_ring) \
    OFFSET(GS_CFG_TRACE_EVENT, struct gs_stub_config, trace_event) \
    OFFSET(GS_CFG_TRACE_END, struct gs_stub_config, trace_end) \
    OFFSET(GS_CFG_TRACE_MIN_NS, struct gs_stub_config, trace_min_ns) \
    OFFSET(GS_CFG_G_GOPC, struct gs_stub_config, g_gopc) \
    OFFSET(GS_CFG_G_STARTPC, struct gs_stub_config, g_startpc) \
    OFFSET(GS_CFG_SITES_MASK, struct gs_stub_config, sites_mask) \
    OFFSET(GS_CFG_GLIVE_OFF, struct gs_stub_config, glive_off) \
    OFFSET(GS_CFG_GLIVE_MASK, struct gs_stub_config, glive_mask) \
    OFFSET(GS_CFG_M_CURG, struct gs_stub_config, m_curg) \
    OFFSET(GS_CFG_G_SCHED_SP, struct gs_stub_config, g_sched_sp) \
    OFFSET(GS_CFG_SPATHS_OFF, struct gs_stub_config, spaths_off) \
    OFFSET(GS_PRIV_ROWS_BASE, struct gs_private, rows_base) \
    OFFSET(GS_PRIV_SLOTS_BASE, struct gs_private, slots_base) \
    OFFSET(GS_PRIV_SLOTS_NEXT, struct gs_private, slots_next) \
    OFFSET(GS_PRIV_SLOTS_MAX, struct gs_private, slots_max) \
    OFFSET(GS_PRIV_PROBE, struct gs_private, probe) \
    OFFSET(GS_PRIV_INNER, struct gs_private, probe_inner) \
    OFFSET(GS_PRIV_UNTIMED, struct gs_private, probe_untimed) \
    OFFSET(GS_PRIV_SITES_BASE, struct gs_private, sites_base) \
    OFFSET(GS_PRIV_LOAD_BIAS, struct gs_private, load_bias) \
    OFFSET(GS_PRIV_ROWS_BACKED, struct gs_private, rows_backed) \
    OFFSET(GS_PRIV_ROWS_CLAIMED, struct gs_private, rows_claimed) \
    OFFSET(GS_PRIV_FINISH, struct gs_private, finish) \
    OFFSET(GS_PRIV_TRACE_BASE, struct gs_private, trace_base) \
    OFFSET(GS_PRIV_TRACE_SLOTS, struct gs_private, trace_slots) \
    OFFSET(GS_PRIV_TRACE_MIN, struct gs_private, trace_min) \
    OFFSET(GS_SHEAD_NO_SITE, struct gs_site_head, no_site) \
    OFFSET(GS_SHEAD_NO_LIVE, struct gs_site_head, no_live) \
    OFFSET(GS_SHEAD_UNBORN, struct gs_site_head, unborn) \
    OFFSET(GS_SITE_KEY, struct gs_site, key) \
    OFFSET(GS_SITE_CREATED, struct gs_site, created) \
    OFFSET(GS_SITE_UNTIMED_EXITS, struct gs_site, untimed_exits) \
    OFFSET(GS_SITE_TOTAL, struct gs_site, total) \
    OFFSET(GS_SITE_MAX, struct gs_site, max) \
    OFFSET(GS_SITE_PATH, struct gs_site, path) \
    OFFSET(GS_SITE_CLAIM, struct gs_site, claim) \
    OFFSET(GS_SITE_HIST, struct gs_site, hist) \
    SIZE(GS_SITE_SIZE, struct gs_site) \
    OFFSET(GS_SPATH_DEPTH, struct gs_spath, depth) \
    OFFSET(GS_SPATH_REC, struct gs_spath, rec) \
    OFFSET(GS_GLIVE_G, struct gs_glive, g) \
    OFFSET(GS_GLIVE_TICK, struct gs_glive, tick) \
    OFFSET(GS_GLIVE_SITE, struct gs_glive, site) \
    OFFSET(GS_LIVE_ROWS_CLAIMED, struct gs_live, rows_claimed) \
    OFFSET(GS_LIVE_ROWS_BACKED, struct gs_live, rows_backed) \
    OFFSET(GS_DROP_UNWOUND, struct gs_drops, unwound) \
    OFFSET(GS_DROP_TOO_DEEP, struct gs_drops, too_deep) \
    OFFSET(GS_DROP_NO_SLOT, struct gs_drops, no_slot) \
    OFFSET(GS_DROP_UNMATCHED, struct gs_drops, unmatched) \
    OFFSET(GS_DROP_NO_SPACE, struct gs_drops, no_space) \
    OFFSET(GS_DROP_PATH_OVERFLOW, struct gs_drops, path_overflow) \
    OFFSET(GS_ROW_SAMPLE_RNG, struct gs_drops, sample_rng) \
    OFFSET(GS_DROP_ARC_OVERFLOW, struct gs_drops, arc_overflow) \
    OFFSET(GS_DROP_ABANDONED, struct gs_drops, abandoned) \
    OFFSET(GS_DROP_SAMPLED_PROBES, struct gs_drops, sampled_probes) \
    OFFSET(GS_DROP_SAMPLED_TICKS, struct gs_drops, sampled_probe_ticks) \
    OFFSET(GS_TIM_TOTAL, struct gs_timing, total) \
    OFFSET(GS_TIM_MAX, struct gs_timing, max) \
    OFFSET(GS_TIM_MIN_INV, struct gs_timing, min_inverted) \
    OFFSET(GS_TIM_HIST, struct gs_timing, hist) \
    OFFSET(GS_TIM_NEXT, struct gs_timing, next) \
    OFFSET(GS_TIM_GAP, struct gs_timing, gap) \
    OFFSET(GS_TIM_SAMPLES, struct gs_timing, samples) \
    OFFSET(GS_TIM_SELF, struct gs_timing, self_total) \
    OFFSET(GS_TIM_ONCPU, struct gs_timing, oncpu_total) \
    OFFSET(GS_SLOT_TOP, struct gs_stack_head, top) \
    OFFSET(GS_SLOT_COMP, struct gs_stack_head, comp) \
    OFFSET(GS_SLOT_PROBE, struct gs_stack_head, probe) \
    OFFSET(GS_SLOT_INNER, struct gs_stack_head, inner) \
    OFFSET(GS_SLOT_UNTIMED, struct gs_stack_head, untimed) \
    OFFSET(GS_SLOT_OFF, struct gs_stack_head, off) \
    OFFSET(GS_SLOT_OFF_SINCE, struct gs_stack_head, off_since) \
    OFFSET(GS_SLOT_TRACE, struct gs_stack_head, below.trace.pending) \
    OFFSET(GS_SLOT_TSAVE, struct gs_stack_head, below.trace.save) \
    OFFSET(GS_SLOT_TMIN, struct gs_stack_head, below.trace.min) \
    OFFSET(GS_SLOT_TLIMIT, struct gs_stack_head, below.trace.limit) \
    SIZE(GS_SLOT_ENTRIES, struct gs_stack_head) \
    OFFSET(GS_ENT_DEPTH, struct gs_stack_entry, depth) \
    OFFSET(GS_ENT_REC, struct gs_stack_entry, rec) \
    OFFSET(GS_ENT_TSC, struct gs_stack_entry, tsc) \
    OFFSET(GS_ENT_W, struct gs_stack_entry, w) \
    OFFSET(GS_ENT_PROBE, struct gs_stack_entry, probe) \
    OFFSET(GS_ENT_OFF, struct gs_stack_entry, off) \
    SIZE(GS_ENT_SIZE, struct gs_stack_entry) \
    OFFSET(GS_PENT_DEPTH, struct gs_path_entry, depth) \
    OFFSET(GS_PENT_REC, struct gs_path_entry, rec) \
    OFFSET(GS_PENT_TSC, struct gs_path_entry, tsc) \
    OFFSET(GS_PENT_CHILDREN, struct gs_path_entry, children) \
    OFFSET(GS_PENT_KEY, struct gs_path_entry, key) \
    OFFSET(GS_PENT_BASE, struct gs_path_entry, base) \
    OFFSET(GS_PENT_OFF, struct gs_path_entry, off) \
    SIZE(GS_PENT_SIZE, struct gs_path_entry) \
    OFFSET(GS_PATH_KEY, struct gs_path, key) \
    OFFSET(GS_PATH_PARENT, struct gs_path, parent) \
    OFFSET(GS_PATH_RET, struct gs_path, ret) \
    OFFSET(GS_PATH_REC, struct gs_path, rec) \
    OFFSET(GS_PATH_CALLS, struct gs_path, calls) \
    OFFSET(GS_PATH_TOTAL, struct gs_path, total) \
    OFFSET(GS_PATH_SELF, struct gs_path, self) \
    OFFSET(GS_PATH_ONCPU, struct gs_path, oncpu) \
    SIZE(GS_PATH_SIZE, struct gs_path) \
    OFFSET(GS_ROWSLOW_RESUME, struct gs_rowslow_words, resume) \
    OFFSET(GS_ROWSLOW_COUNTER, struct gs_rowslow_words, counter) \
    OFFSET(GS_ROWSLOW_BACK, struct gs_rowslow_words, back) \
    SIZE(GS_ROWSLOW_SIZE, struct gs_rowslow_words) \
    OFFSET(GS_DESC_BACK, struct gs_sample_desc, back) \
    OFFSET(GS_DESC_COUNTER, struct gs_sample_desc, counter) \
    OFFSET(GS_DESC_REC, struct gs_sample_desc, rec) \
    SIZE(GS_DESC_SIZE, struct gs_sample_desc)

GS_OFFSET_NAMES(GS_STUB_OFFSETS);

/* The constants of format/gostat_format.h the assembly uses, under their
 * own names (format/asm_offsets.c gives the assembly their values). */
#define GS_STUB_CONSTANTS(CONSTANT) \
    CONSTANT(GS_PAGE) CONSTANT(GS_ROW_PAGEMAP) CONSTANT(GS_HIST_BUCKETS) CONSTANT(GS_SITE_PROBES) \
    CONSTANT(GS_GLIVE_PROBES) CONSTANT(GS_GLIVE_FREED) CONSTANT(GS_SPATH_MAX)

_Static_assert(GS_FIRST_MAX < (1u << 31), "the first-calls counters are u32");
_Static_assert(GS_ADAPT_DIV == 1 << GS_ADAPT_SHIFT, "the mean gap's divisor");
_Static_assert(sizeof(struct gs_spath) == 1 << GS_SPATH_SHIFT, "spath");
_Static_assert(sizeof(struct gs_glive) == 1 << GS_GLIVE_SHIFT, "sites");
_Static_assert(sizeof(struct gs_private) == GS_PAGE, "gs_private is one page");
_Static_assert(GS_PATH_SIZE == 1 << GS_PATH_SHIFT, "path");
_Static_assert(GS_PATH_PROBES == 16, "paths.S: groups of 16 (FULL_BIT, the Gray-code steps)");
_Static_assert(GS_PATH_BLOCK == 8 * GS_PATH_PROBES, "paths.S: GROUPS_TRIED groups of a block, its full bits a byte");
_Static_assert(GS_FILTER_KEY_SHIFT == 32 && 32 + 24 + 5 < 63 && (1ull << 24) == GS_MAX_PATHS &&
                   GS_FILTER_BITS_PER_PATH == 1 << 5,
               "path filter: the key's high half, below its bit 63 (always set), the table's place its low half");
_Static_assert(offsetof(struct gs_stack_head, below.fold) + sizeof(((struct gs_stack_head *)0)->below.fold) ==
                   GS_SLOT_ENTRIES,
               "call paths: the entries a recursion search reads end at the first entry");
_Static_assert(GS_PSLOT_DEPTH_MAX > 170000, "call paths: 170,000 open timed calls per goroutine");
_Static_assert(GS_HIST_FIRST_BIT == GS_HIST_FIRST_LOG2 - 1, "histogram");
_Static_assert(GS_SITE_SIZE % 64 == 0, "sites.S: a site entry starts 64-byte aligned in its table");

/* Where the path filter, the count of arcs taken and the arc index lie in
 * a row, after the arc table (the format's arcs_off + max_arcs entries),
 * from the header's max_paths: the writer's layout (rewriter/gen/
 * segments.c), found the same way by tests that poke a running program's
 * file. Bytes of the group-full bits; of the whole filter; from the
 * filter's start to the index (the count is in the 8 bytes before it). */
static inline uint64_t gs_filter_full_bytes(uint64_t max_paths)
{
    return ((max_paths / GS_PATH_PROBES + 7) / 8 + 63) & ~(uint64_t)63;
}

/* The power of two at or above max_paths (a table of whole blocks need
 * not be one): the filter has GS_FILTER_BITS_PER_PATH key bits for each
 * of its entries, indexed by a mask. */
static inline uint64_t gs_paths_pow2(uint64_t max_paths)
{
    uint64_t n = 1;
    while (n < max_paths)
        n *= 2;
    return n;
}

static inline uint64_t gs_filter_bytes(uint64_t max_paths)
{
    return gs_filter_full_bytes(max_paths) + gs_paths_pow2(max_paths) * GS_FILTER_BITS_PER_PATH / 8;
}

static inline uint64_t gs_arcidx_start(uint64_t max_paths)
{
    return (gs_filter_bytes(max_paths) + 8 + GS_PAGE - 1) & ~(uint64_t)(GS_PAGE - 1);
}
#endif

#endif
