/* rewrite.h: the whole pipeline, input path to output path:
 * read the ELF -> find functions -> plan patches -> generate trampolines
 * -> write the ELF. */
#ifndef GR_REWRITE_H
#define GR_REWRITE_H

#include <stdint.h>
#include <stdio.h>

#include "common/error.h"
#include "format/timing_mode.h"
#include "rewriter/plan/select.h"

#define GR_MAX_TRACE_REGEXES 64

/* How functions are instrumented: entry trampolines (the default), or
 * the experimental copy engine: copies in a second Go module
 * (rewriter/gen/copy_module.h), the rest with trampolines. */
enum gr_engine { GR_ENGINE_TRAMPOLINE, GR_ENGINE_COPY };

struct gr_options {
    int verbose;            /* list every function's decision on the log */
    struct gs_timing_mode timing;   /* which calls are timed, and how (--count-only,
                                       --sample N, --time-all, --call-graph) */
    uint32_t first_n;       /* the default mode: each function's first calls
                               in the process that are all timed (--first) */
    uint32_t max_rows;      /* counter rows: threads counted without locks, plus one */
    uint32_t max_paths;     /* GS_MODE_CALL_GRAPH: call paths per thread (whole
                               blocks); GR_PATHS_FROM_PROGRAM (gen/segments.h):
                               sized from the program */
    uint32_t max_arcs;      /* --call-graph: arcs per thread (a power of two);
                               0: sized from the program */
    uint32_t max_sites;     /* goroutine sites kept (a power of two; 0: GR_SITES) */
    int no_sites;           /* --max-goroutine-sites 0: no goroutine sites */
    uint32_t max_glive;     /* live goroutines tracked (a power of two; 0: GR_GLIVE) */
    const char *layout_report;  /* --layout-report FILE, or NULL */
    int keep_call_sites;    /* direct calls keep going through the entry's jmp */
    int keep_setuid;        /* copy the input's setuid/setgid bits (dropped by default) */
    int strict_release;     /* refuse a Go release newer than every verified row */
    int engine;             /* enum gr_engine */
    struct gr_select_patterns select;   /* --only, --exclude (select.h) */
    /* --trace (docs/trace.md): functions whose names match one of these
       are traced: timed on every call, each call an event with its values */
    const char *trace[GR_MAX_TRACE_REGEXES];
    size_t ntrace;
    uint64_t trace_buffer;  /* bytes of each thread's ring */
    uint64_t trace_slower_ns; /* --trace-slower-than; 0: every call */
    uint32_t trace_bytes;   /* bytes of a string or []byte kept */
};

struct gr_result {
    size_t nfuncs;
    size_t ninstrumented;
    size_t ntimed;
    size_t nleft_out;       /* left out by --only/--exclude */
    uint64_t in_size;
    uint64_t out_size;
    char go_version[32];
};

int gr_rewrite(const char *in_path, const char *out_path, const struct gr_options *opt,
               FILE *log, struct gr_result *res, struct gr_error *err);

#endif
