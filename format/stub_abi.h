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
 * This header is included by assembly too: offsets are macros, checked
 * against the structs below. */
#ifndef GS_STUB_ABI_H
#define GS_STUB_ABI_H

#define GS_BLOB_MAGIC 0x31304f4c42524721 /* "!GRBLO01" */

/* struct gs_stub_config, as byte offsets for the assembly */
#define GS_CFG_RW_REL 24
#define GS_CFG_G_M 48
#define GS_CFG_G_STACK_HI 56
#define GS_CFG_G_SLOT 64
#define GS_CFG_M_ROW 72
#define GS_CFG_ROW_STRIDE 80
#define GS_CFG_MAX_ROWS 88
#define GS_CFG_ROW_HEAD 96
#define GS_CFG_SAMPLE 120
#define GS_CFG_PATHS_OFF 128
#define GS_CFG_PATHS_MASK 136
#define GS_CFG_ARCS_OFF 144
#define GS_CFG_ARCS_MASK 152
#define GS_CFG_FULL_BIT0 160
#define GS_CFG_FILTER_BIT0 168
#define GS_CFG_FILTER_MASK 176
#define GS_CFG_FIRST_OFF 184
#define GS_CFG_ARCIDX_OFF 192
#define GS_CFG_ARCIDX_MASK 200
/* tracing (--trace; format/trace_format.h) */
#define GS_CFG_G_GOID 208
#define GS_CFG_TRACE_M 216        /* pending record = GS_SLOT_TRACE + entry offset * this */
#define GS_CFG_TRACE_LIMIT 224    /* entry offsets from this on have no pending record */
#define GS_CFG_TRACE_SLOT 232     /* bytes of a goroutine's pending records */
#define GS_CFG_TRACE_RING 240     /* in a row: the ring */
#define GS_CFG_TRACE_EVENT 248    /* an event's (and a pending record's) bytes */
#define GS_CFG_TRACE_END 256      /* in a ring: the end of its last whole slot */
#define GS_CFG_TRACE_MIN_NS 264   /* --trace-slower-than (start-up turns it into GS_PRIV_TRACE_MIN) */
/* A traced entry's capture follows a jmp back of this many bytes, where
 * gs_trace_enter continues instead when the call has no pending record. */
#define GS_TRACE_NO_RECORD 5
/* The captures keep RDI, RSI and RCX at this many bytes below RSP and
 * the two words under it: gs_trace_exit's -24(%rsp) (the on-CPU ticks,
 * for gs_time_record) outlives an exit capture. */
#define GS_TRACE_CAPTURE_SAVE 64
#define GS_CFG_G_GOPC 280       /* goroutine sites (stubs/sites.S) */
#define GS_CFG_G_STARTPC 288
#define GS_CFG_SITES_MASK 296
#define GS_CFG_GLIVE_OFF 304
#define GS_CFG_GLIVE_MASK 312
#define GS_CFG_M_CURG 328       /* sites by creator path: m.curg, g.sched.sp */
#define GS_CFG_G_SCHED_SP 336
#define GS_CFG_SPATHS_OFF 344   /* from the sites section; 0: sites not keyed by path */
#define GS_CFG_FIRST_N 352      /* the default mode's first-N (--first N) */
#define GS_CFG_PATHS_N 376      /* entries of the path table (stubs/paths.S HOME_PLACE) */

#define GS_PAGE_SIZE 4096

/* m.g0, the M's scheduling goroutine: struct m's first field in every
 * release (1.15-1.27); finding g.m relies on it too (rewriter/find). */
#define GS_M_G0 0

/* histogram buckets (gostat_format.h): bucket = clamp(floor(log2 ticks),
 * FIRST_BIT, FIRST_BIT + NBUCKETS - 1) - FIRST_BIT */
#define GS_HIST_FIRST_BIT 4
#define GS_HIST_NBUCKETS 32

/* struct gs_private */
#define GS_PRIV_ROWS_BASE 0
#define GS_PRIV_SLOTS_BASE 8
#define GS_PRIV_SLOTS_NEXT 16
#define GS_PRIV_SLOTS_MAX 24
#define GS_PRIV_PROBE 32        /* the probe's cost, measured at start-up: */
#define GS_PRIV_INNER 40        /* gs_private.probe_* (docs/timing.md, "Compensation") */
#define GS_PRIV_UNTIMED 48
#define GS_PRIV_SITES_BASE 56   /* run-time address of the sites section; 0: none */
#define GS_PRIV_LOAD_BIAS 64    /* run-time minus link-time address */

/* The sites section (gostat_format.h: gs_site_head, gs_site, gs_glive) */
#define GS_SHEAD_NO_SITE 0
#define GS_SHEAD_NO_LIVE 8
#define GS_SHEAD_UNBORN 16
#define GS_SITE_KEY 0
#define GS_SITE_CREATED 8
#define GS_SITE_UNTIMED_EXITS 16
#define GS_SITE_TOTAL 32
#define GS_SITE_MAX 40
#define GS_SITE_HIST 64
#define GS_SITE_SIZE 320
#define GS_SITE_PATH 48
#define GS_SITE_CLAIM 56
#define GS_SPATH_DEPTH 0
#define GS_SPATH_REC 4
#define GS_SPATH_SHIFT 7
#define GS_SPATH_RECS 31        /* gostat_format.h GS_SPATH_MAX */
#define GS_GLIVE_G 0
#define GS_GLIVE_TICK 8
#define GS_GLIVE_SITE 16
#define GS_GLIVE_SHIFT 5
#define GS_SITE_TRIES 16        /* gostat_format.h GS_SITE_PROBES */
#define GS_GLIVE_TRIES 32       /* gostat_format.h GS_GLIVE_PROBES */
#define GS_GLIVE_FREE1 1        /* gostat_format.h GS_GLIVE_FREED */
#define GS_SITE_HASH 0x9e3779b97f4a7c15 /* keys are spread by the high half of key * this */

#define GS_PRIV_FINISH 1016     /* struct gs_finish_info (stubs/finish.h) */
#define GS_PRIV_TRACE_BASE 1024 /* tracing: the goroutines' pending records, */
#define GS_PRIV_TRACE_SLOTS 1032 /* and how many goroutines have them */
#define GS_PRIV_TRACE_MIN 1040  /* ticks: a traced call is kept when at least this long */

/* struct gs_live (gostat_format.h) */
#define GS_LIVE_ROWS_CLAIMED 0
#define GS_LIVE_ROWS_BACKED 8

/* struct gs_drops (gostat_format.h) */
#define GS_DROP_UNWOUND 0
#define GS_DROP_TOO_DEEP 8
#define GS_DROP_NO_SLOT 16
#define GS_DROP_UNMATCHED 24
#define GS_DROP_NO_SPACE 32
#define GS_DROP_PATH_OVERFLOW 40
#define GS_ROW_SAMPLE_RNG 48
#define GS_DROP_ARC_OVERFLOW 56
#define GS_DROP_ABANDONED 64
#define GS_DROP_SAMPLED_PROBES 72
#define GS_DROP_SAMPLED_TICKS 80

/* a row: struct gs_drops at 0, then the page map */
#define GS_ROW_MAP 128
#define GS_PAGE_READY 1
#define GS_PAGE_FAILED 2

/* struct gs_timing (gostat_format.h) */
#define GS_TIM_TOTAL 0
#define GS_TIM_MAX 8
#define GS_TIM_MIN_INV 16
#define GS_TIM_HIST 24
#define GS_TIM_NEXT (GS_TIM_HIST + 8 * GS_HIST_NBUCKETS)
#define GS_TIM_GAP (GS_TIM_NEXT + 8)
#define GS_TIM_SAMPLES (GS_TIM_GAP + 8)
#define GS_TIM_SELF (GS_TIM_SAMPLES + 8)
#define GS_TIM_ONCPU (GS_TIM_SELF + 8)

/* A goroutine's timing stack: a header, then 32-byte entries
 * {u32 depth; u32 timing record offset; u64 start; u64 weight; u64 off}
 * (off: GS_SLOT_OFF at the start; start: on
 * the goroutine's compensated clock, GS_SLOT_COMP below), where depth
 * is g.stack.hi - rsp at the call (the same at entry and return, wherever
 * the stack has moved) and weight the calls the sample stands for. Each
 * stack is an 8 MiB piece (aligned to its size) of one range the start-up
 * code reserves with MAP_NORESERVE: pages are touched as the depth grows,
 * so memory follows the deepest recursion a goroutine reached.
 * g.racectx: high 32 bits = the stack's address >> GS_SLOT_SHIFT (0: none
 * claimed yet, GS_SLOT_NONE: none left); low 32 bits = the marker, the
 * low half of the innermost open timed call's RSP at its entry
 * (GS_MARKER_NONE: no call open; 0, as in a new g or once the stack has
 * moved: unknown), which lets the exit of a deeper call, not timed, leave
 * after one compare (`cmp esp, marker; jae` to the stubs) without looking
 * at the stack. */
#define GS_MARKER_NONE 0xffffffff
#define GS_SLOT_SHIFT 23
#define GS_SLOT_SIZE (1 << GS_SLOT_SHIFT)
#define GS_SLOT_TOP 0          /* u32: offset of the end of the entries in use */
/* Overhead compensation (docs/timing.md): the probes' cost so far on this
 * goroutine (u64 ticks), and the start-up calibration copied in when the
 * stack is claimed (gs_private.probe_*). An entry's start is kept on the
 * compensated clock, TSC - GS_SLOT_COMP, so that a duration leaves out
 * every probe run inside it. */
#define GS_SLOT_COMP 8
#define GS_SLOT_PROBE 16       /* a timed call's probe, as its callers see it */
#define GS_SLOT_INNER 24       /* the part of it inside the call's own interval */
#define GS_SLOT_UNTIMED 32     /* an untimed (counted) call's, in 1/256 ticks */
#define GS_UNTIMED_SHIFT 8
/* On-CPU time (stubs/oncpu.S, docs/timing.md "On-CPU time"): the ticks
 * this goroutine spent descheduled so far (u64), and when it was last
 * descheduled (TSC; 0 while it runs). An entry keeps OFF as at its start. */
#define GS_SLOT_OFF 40
#define GS_SLOT_OFF_SINCE 48
/* Tracing: the goroutine's pending records, less GS_SLOT_ENTRIES *
 * GS_CFG_TRACE_M (0: not looked up yet, 1: none), the entry offsets that
 * have one (below TLIMIT; 0 until looked up or when none), and a save
 * area for the routines that commit an unwound call's event from inside
 * the other routines (stubs/trace.S). */
#define GS_SLOT_TRACE 256      /* inside the path fold area: --trace excludes --call-graph */
#define GS_SLOT_TSAVE 264      /* 8 words */
#define GS_SLOT_TMIN 328       /* gs_private.trace_min, copied in with GS_SLOT_TRACE */
#define GS_SLOT_TLIMIT 336     /* u64 */
#define GS_SLOT_ENTRIES 512    /* the first entry; a sentinel entry of depth 0 just before */
#define GS_SLOT_LAST (GS_SLOT_SIZE - GS_ENT_SIZE) /* top above this: full */
#define GS_ENT_DEPTH 0
#define GS_ENT_REC 4
#define GS_ENT_TSC 8
#define GS_ENT_W 16            /* u32 weight (the calls it stands for) */
#define GS_ENT_PROBE 20        /* u32: a sampled entry's probe before its start, measured */
#define GS_ENT_OFF 24
#define GS_ENT_SIZE 32
#define GS_PROBE_MEASURED_MAX 65536 /* ticks: a sampled call's measured probe above
                                       this was preempted (the calibration's instead) */
#define GS_SLOT_NONE 0xffffffff
#define GS_SLOT_DEPTH_MAX ((GS_SLOT_SIZE - GS_SLOT_ENTRIES) / GS_ENT_SIZE)

/* With call paths (--call-graph, gs_path_enter/gs_path_exit) the same
 * stacks hold 48-byte entries {u32 depth; u32 record offset; u64 tsc; u64
 * children; u64 key; u64 base; u64 off}: children = ticks of the timed calls made
 * inside that returned, key = the call's path key (gs_path.key; the
 * sentinel's is 0, its record GS_PENT_NO_REC), base = the key a direct
 * recursion under this call starts from (stubs/paths.S): the call's own
 * key, or, when the call is itself a recursion (its callee is that of one
 * of the GS_PATH_FOLD_LEVELS entries below it: the caller's, the caller's
 * caller's, ...), that entry's base. The search reads that many entries
 * below the first one: the sentinel and the entries before it, whose
 * records are GS_PENT_NO_REC. */
#define GS_PENT_DEPTH 0
#define GS_PENT_REC 4
#define GS_PENT_TSC 8
#define GS_PENT_CHILDREN 16
#define GS_PENT_KEY 24
#define GS_PENT_BASE 32
#define GS_PENT_OFF 40         /* as GS_ENT_OFF: GS_SLOT_OFF at the start */
#define GS_PENT_SIZE 48
#define GS_PENT_NO_REC 0xffffffff
#define GS_PATH_FOLD_LEVELS 8 /* stubs/paths.S FOLD_LEVELS lists 1 .. this */
#define GS_PSLOT_DEPTH_MAX ((GS_SLOT_SIZE - GS_SLOT_ENTRIES) / GS_PENT_SIZE)
#define GS_PSLOT_LAST (GS_SLOT_SIZE - GS_PENT_SIZE)

/* struct gs_path (gostat_format.h) */
#define GS_PATH_KEY 0
#define GS_PATH_PARENT 8
#define GS_PATH_RET 16
#define GS_PATH_REC 24
#define GS_PATH_CALLS 32
#define GS_PATH_TOTAL 40
#define GS_PATH_SELF 48
#define GS_PATH_ONCPU 56
#define GS_PATH_SHIFT 6
#define GS_PATH_SIZE 64
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

/* The words after a trampoline's jmp to gs_row_slow (programs without
 * runtime/cgo): where its count is, its counter's offset in a row, where
 * the function goes on; the two addresses relative to the words. */
#define GS_ROWSLOW_RESUME 0
#define GS_ROWSLOW_COUNTER 4
#define GS_ROWSLOW_BACK 8
#define GS_ROWSLOW_SIZE 12

/* The sampled entry's descriptor, after the trampoline's code: where to
 * continue (relative to the descriptor: PIE), the function's counter and
 * timing record offsets in a row. */
#define GS_DESC_BACK 0
#define GS_DESC_COUNTER 4
#define GS_DESC_REC 8
#define GS_DESC_SIZE 12

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

#ifndef __ASSEMBLER__
#include <stddef.h>
#include <stdint.h>

#include "format/gostat_format.h"

struct gs_blob_header {
    uint64_t magic;
    uint32_t entry_off;     /* start-up entry: the new ELF entry point */
    uint32_t config_off;    /* struct gs_stub_config */
    uint32_t claim_row_off; /* in: r13 = continue; out: r12 = row or 0 */
    uint32_t time_enter_off;/* in: r12d = record offset, r13 = continue */
    uint32_t time_exit_off; /* in: r12d = record offset; returns to the caller */
    uint32_t sample_enter_off;       /* in: r12 = row, r13 = descriptor; or r12 = 0
                                        (row at fs:[0]): as row_slow, then the count
                                        decides between back and the sampled call */
    uint32_t path_enter_off;         /* as time_enter, recording call paths */
    uint32_t path_exit_off;          /* as time_exit, recording call paths */
    uint32_t sched_off_off;          /* in: r12 = a goroutine the scheduler takes off
                                        its thread, r13 = continue (stubs/oncpu.S) */
    uint32_t sched_on_off;           /* in: r12 = a goroutine about to run again */
    uint32_t trace_enter_off;        /* in: r12 = record | traced | function << 32, r13 = capture */
    uint32_t trace_exit_off;         /* in: r12d = record | traced, r13 = capture */
    uint32_t trace_commit_off;       /* in: r12 = the pending record; returns for the function */
    uint32_t row_slow_off;           /* in: r12 = 0, r13 = a function's GS_ROWSLOW_*
                                        words; as claim_row, then continues at its
                                        count, or counts in row 0 and goes back */
    uint32_t site_create_off;        /* in: r12 = the new g, r13 = continue */
    uint32_t site_exit_off;          /* in: r14 = the ending g, r13 = continue */
    uint32_t tail_exit_off;          /* in: r12d = record offset, r13 = a tail call's
                                        target; jumps there (stubs/tail_exit.S) */
    uint32_t exit_off;               /* replaces runtime.exit: finishes the stats
                                        file (stubs/finish.c), then exit_group */
    uint32_t stack_moved_off;        /* in: r12 = a goroutine whose stack is about to
                                        move (runtime.copystack), r13 = continue */
    uint32_t sample_exit_off;        /* as time_exit, for the sampled modes: adds the
                                        call's probe as measured to the callers' */
    uint32_t exec_before_off;        /* before an exec (syscall.runtime_BeforeExec):
                                        finishes the stats file as exit_off does;
                                        in: r14 = g, r13 = continue */
    uint32_t exec_after_off;         /* a failed exec (syscall.runtime_AfterExec):
                                        a new file; in: r13 = continue */
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
    uint64_t reserved[118];
    uint64_t finish;        /* struct gs_finish_info (stubs/finish.h), or 0 */
    uint64_t trace_base;    /* tracing: pending records of goroutine stack 0 */
    uint64_t trace_slots;   /* stacks that have pending records */
    uint64_t trace_min;     /* ticks, from gs_stub_config.trace_min_ns */
    uint64_t reserved_trace[381];
};

/* Each offset macro above is its struct field's offset. */
#define GS_OFFSET_IS(type, field, off) _Static_assert(offsetof(type, field) == (off), #type "." #field)
/* struct gs_stub_config */
GS_OFFSET_IS(struct gs_stub_config, rw_rel, GS_CFG_RW_REL);
GS_OFFSET_IS(struct gs_stub_config, g_m, GS_CFG_G_M);
GS_OFFSET_IS(struct gs_stub_config, g_stack_hi, GS_CFG_G_STACK_HI);
GS_OFFSET_IS(struct gs_stub_config, g_slot, GS_CFG_G_SLOT);
GS_OFFSET_IS(struct gs_stub_config, m_row, GS_CFG_M_ROW);
GS_OFFSET_IS(struct gs_stub_config, row_stride, GS_CFG_ROW_STRIDE);
GS_OFFSET_IS(struct gs_stub_config, max_rows, GS_CFG_MAX_ROWS);
GS_OFFSET_IS(struct gs_stub_config, row_head, GS_CFG_ROW_HEAD);
GS_OFFSET_IS(struct gs_stub_config, sample, GS_CFG_SAMPLE);
GS_OFFSET_IS(struct gs_stub_config, paths_off, GS_CFG_PATHS_OFF);
GS_OFFSET_IS(struct gs_stub_config, paths_mask, GS_CFG_PATHS_MASK);
GS_OFFSET_IS(struct gs_stub_config, paths_n, GS_CFG_PATHS_N);
GS_OFFSET_IS(struct gs_stub_config, arcs_off, GS_CFG_ARCS_OFF);
GS_OFFSET_IS(struct gs_stub_config, arcs_mask, GS_CFG_ARCS_MASK);
GS_OFFSET_IS(struct gs_stub_config, full_bit0, GS_CFG_FULL_BIT0);
GS_OFFSET_IS(struct gs_stub_config, filter_bit0, GS_CFG_FILTER_BIT0);
GS_OFFSET_IS(struct gs_stub_config, filter_mask, GS_CFG_FILTER_MASK);
GS_OFFSET_IS(struct gs_stub_config, first_off, GS_CFG_FIRST_OFF);
GS_OFFSET_IS(struct gs_stub_config, arcidx_off, GS_CFG_ARCIDX_OFF);
GS_OFFSET_IS(struct gs_stub_config, arcidx_mask, GS_CFG_ARCIDX_MASK);
GS_OFFSET_IS(struct gs_stub_config, g_goid, GS_CFG_G_GOID);
GS_OFFSET_IS(struct gs_stub_config, trace_m, GS_CFG_TRACE_M);
GS_OFFSET_IS(struct gs_stub_config, trace_limit, GS_CFG_TRACE_LIMIT);
GS_OFFSET_IS(struct gs_stub_config, trace_slot, GS_CFG_TRACE_SLOT);
GS_OFFSET_IS(struct gs_stub_config, trace_ring, GS_CFG_TRACE_RING);
GS_OFFSET_IS(struct gs_stub_config, trace_event, GS_CFG_TRACE_EVENT);
GS_OFFSET_IS(struct gs_stub_config, trace_end, GS_CFG_TRACE_END);
GS_OFFSET_IS(struct gs_stub_config, trace_min_ns, GS_CFG_TRACE_MIN_NS);
GS_OFFSET_IS(struct gs_private, trace_min, GS_PRIV_TRACE_MIN);
GS_OFFSET_IS(struct gs_private, trace_base, GS_PRIV_TRACE_BASE);
GS_OFFSET_IS(struct gs_private, trace_slots, GS_PRIV_TRACE_SLOTS);
GS_OFFSET_IS(struct gs_stub_config, g_gopc, GS_CFG_G_GOPC);
GS_OFFSET_IS(struct gs_stub_config, g_startpc, GS_CFG_G_STARTPC);
GS_OFFSET_IS(struct gs_stub_config, sites_mask, GS_CFG_SITES_MASK);
GS_OFFSET_IS(struct gs_stub_config, glive_off, GS_CFG_GLIVE_OFF);
GS_OFFSET_IS(struct gs_stub_config, glive_mask, GS_CFG_GLIVE_MASK);
GS_OFFSET_IS(struct gs_stub_config, first_n, GS_CFG_FIRST_N);
_Static_assert(GS_FIRST_MAX < (1u << 31), "the first-calls counters are u32");
_Static_assert(GS_ADAPT_DIV == 1 << GS_ADAPT_SHIFT, "the mean gap's divisor");
/* the sites section */
GS_OFFSET_IS(struct gs_site_head, no_site, GS_SHEAD_NO_SITE);
GS_OFFSET_IS(struct gs_site_head, no_live, GS_SHEAD_NO_LIVE);
GS_OFFSET_IS(struct gs_site_head, unborn, GS_SHEAD_UNBORN);
GS_OFFSET_IS(struct gs_site, key, GS_SITE_KEY);
GS_OFFSET_IS(struct gs_site, created, GS_SITE_CREATED);
GS_OFFSET_IS(struct gs_site, untimed_exits, GS_SITE_UNTIMED_EXITS);
GS_OFFSET_IS(struct gs_site, total, GS_SITE_TOTAL);
GS_OFFSET_IS(struct gs_site, max, GS_SITE_MAX);
GS_OFFSET_IS(struct gs_site, hist, GS_SITE_HIST);
GS_OFFSET_IS(struct gs_site, path, GS_SITE_PATH);
GS_OFFSET_IS(struct gs_site, claim, GS_SITE_CLAIM);
GS_OFFSET_IS(struct gs_spath, depth, GS_SPATH_DEPTH);
GS_OFFSET_IS(struct gs_spath, rec, GS_SPATH_REC);
GS_OFFSET_IS(struct gs_stub_config, m_curg, GS_CFG_M_CURG);
GS_OFFSET_IS(struct gs_stub_config, g_sched_sp, GS_CFG_G_SCHED_SP);
GS_OFFSET_IS(struct gs_stub_config, spaths_off, GS_CFG_SPATHS_OFF);
_Static_assert(sizeof(struct gs_spath) == 1 << GS_SPATH_SHIFT && GS_SPATH_RECS == GS_SPATH_MAX, "spath");
GS_OFFSET_IS(struct gs_glive, g, GS_GLIVE_G);
GS_OFFSET_IS(struct gs_glive, tick, GS_GLIVE_TICK);
GS_OFFSET_IS(struct gs_glive, site, GS_GLIVE_SITE);
_Static_assert(sizeof(struct gs_site) == GS_SITE_SIZE && sizeof(struct gs_glive) == 1 << GS_GLIVE_SHIFT,
               "sites");
_Static_assert(GS_SITE_TRIES == GS_SITE_PROBES && GS_GLIVE_TRIES == GS_GLIVE_PROBES &&
               GS_GLIVE_FREE1 == GS_GLIVE_FREED, "sites");
/* struct gs_drops */
GS_OFFSET_IS(struct gs_drops, no_space, GS_DROP_NO_SPACE);
GS_OFFSET_IS(struct gs_drops, sampled_probes, GS_DROP_SAMPLED_PROBES);
GS_OFFSET_IS(struct gs_drops, sampled_probe_ticks, GS_DROP_SAMPLED_TICKS);
GS_OFFSET_IS(struct gs_drops, path_overflow, GS_DROP_PATH_OVERFLOW);
GS_OFFSET_IS(struct gs_drops, arc_overflow, GS_DROP_ARC_OVERFLOW);
GS_OFFSET_IS(struct gs_drops, sample_rng, GS_ROW_SAMPLE_RNG);
GS_OFFSET_IS(struct gs_drops, unwound, GS_DROP_UNWOUND);
GS_OFFSET_IS(struct gs_drops, too_deep, GS_DROP_TOO_DEEP);
GS_OFFSET_IS(struct gs_drops, no_slot, GS_DROP_NO_SLOT);
GS_OFFSET_IS(struct gs_drops, unmatched, GS_DROP_UNMATCHED);
GS_OFFSET_IS(struct gs_drops, abandoned, GS_DROP_ABANDONED);
/* struct gs_private */
GS_OFFSET_IS(struct gs_private, slots_base, GS_PRIV_SLOTS_BASE);
GS_OFFSET_IS(struct gs_private, slots_next, GS_PRIV_SLOTS_NEXT);
GS_OFFSET_IS(struct gs_private, slots_max, GS_PRIV_SLOTS_MAX);
GS_OFFSET_IS(struct gs_private, probe, GS_PRIV_PROBE);
GS_OFFSET_IS(struct gs_private, probe_inner, GS_PRIV_INNER);
GS_OFFSET_IS(struct gs_private, probe_untimed, GS_PRIV_UNTIMED);
GS_OFFSET_IS(struct gs_private, sites_base, GS_PRIV_SITES_BASE);
GS_OFFSET_IS(struct gs_private, load_bias, GS_PRIV_LOAD_BIAS);
GS_OFFSET_IS(struct gs_private, finish, GS_PRIV_FINISH);
/* struct gs_live */
GS_OFFSET_IS(struct gs_live, rows_claimed, GS_LIVE_ROWS_CLAIMED);
GS_OFFSET_IS(struct gs_live, rows_backed, GS_LIVE_ROWS_BACKED);
/* struct gs_timing */
GS_OFFSET_IS(struct gs_timing, total, GS_TIM_TOTAL);
GS_OFFSET_IS(struct gs_timing, max, GS_TIM_MAX);
GS_OFFSET_IS(struct gs_timing, min_inverted, GS_TIM_MIN_INV);
GS_OFFSET_IS(struct gs_timing, hist, GS_TIM_HIST);
GS_OFFSET_IS(struct gs_timing, next, GS_TIM_NEXT);
GS_OFFSET_IS(struct gs_timing, gap, GS_TIM_GAP);
GS_OFFSET_IS(struct gs_timing, samples, GS_TIM_SAMPLES);
GS_OFFSET_IS(struct gs_timing, self_total, GS_TIM_SELF);
GS_OFFSET_IS(struct gs_timing, oncpu_total, GS_TIM_ONCPU);
/* struct gs_path */
GS_OFFSET_IS(struct gs_path, key, GS_PATH_KEY);
GS_OFFSET_IS(struct gs_path, parent, GS_PATH_PARENT);
GS_OFFSET_IS(struct gs_path, ret, GS_PATH_RET);
GS_OFFSET_IS(struct gs_path, rec, GS_PATH_REC);
GS_OFFSET_IS(struct gs_path, calls, GS_PATH_CALLS);
GS_OFFSET_IS(struct gs_path, total, GS_PATH_TOTAL);
GS_OFFSET_IS(struct gs_path, self, GS_PATH_SELF);
GS_OFFSET_IS(struct gs_path, oncpu, GS_PATH_ONCPU);
_Static_assert(GS_ROW_PAGEMAP == GS_ROW_MAP, "row layout");
_Static_assert(sizeof(struct gs_private) == GS_PAGE_SIZE, "gs_private is one page");
_Static_assert(GS_PAGE_SIZE == GS_PAGE, "page size");
_Static_assert(sizeof(struct gs_path) == 1 << GS_PATH_SHIFT && GS_PATH_SIZE == 1 << GS_PATH_SHIFT, "path");
_Static_assert(GS_HIST_NBUCKETS == GS_HIST_BUCKETS, "histogram");
_Static_assert(GS_PATH_PROBES == 16, "paths.S: groups of 16 (FULL_BIT, the Gray-code steps)");
_Static_assert(GS_PATH_BLOCK == 8 * GS_PATH_PROBES, "paths.S: GROUPS_TRIED groups of a block, its full bits a byte");
_Static_assert(GS_FILTER_KEY_SHIFT == 32 && 32 + 24 + 5 < 63 && (1ull << 24) == GS_MAX_PATHS &&
                   GS_FILTER_BITS_PER_PATH == 1 << 5,
               "path filter: the key's high half, below its bit 63 (always set), the table's place its low half");
_Static_assert(GS_SLOT_OFF_SINCE + 8 <= GS_SLOT_ENTRIES - GS_PATH_FOLD_LEVELS * GS_PENT_SIZE,
               "the stack's header lies below the entries a recursion search reads");
_Static_assert(GS_SLOT_ENTRIES - GS_PATH_FOLD_LEVELS * GS_PENT_SIZE >= GS_SLOT_TOP + 4,
               "call paths: the entries a recursion search reads lie in the stack");
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
