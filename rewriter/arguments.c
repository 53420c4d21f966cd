/* arguments.c: gorewrite's option table, and what its command line asks
 * for once parsed: a rewrite, --print-layout, or an exit (--help,
 * --version, a usage error). Options are whole words ("-v", "--sample N"),
 * anywhere among INPUT and OUTPUT. */
#include "rewriter/arguments.h"

#include "common/go_duration.h"
#include "common/version.h"
#include "format/gostat_format.h"
#include "format/stub_abi.h"
#include "rewriter/find/runtime_offsets.h"
#include "rewriter/gen/segments.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_MAX_THREADS 127
#define MAX_THREADS 4095
#define MIN_PATHS 64          /* one page of struct gs_path */
#define MAX_PATHS_TEXT "16777216"
#define STR_(x) #x
#define STR(x) STR_(x)

_Static_assert(GS_MAX_PATHS == 16777216, "--max-paths' message says " MAX_PATHS_TEXT);
_Static_assert(GR_MIN_ARCS == 4096 && GR_MAX_ARCS == 65536, "--max-arcs' help says 4096 to 65536");
_Static_assert(GR_MIN_DEFAULT_PATHS == 16384 && GR_MAX_DEFAULT_PATHS == 1048576 && GR_PATHS_PER_TIMED == 8,
               "--max-paths' help says 8 per timed function, from 16384 to 1048576");
_Static_assert(GS_PATH_BLOCK == 128 && GS_PATH_BLOCK % MIN_PATHS == 0, "--max-paths' help says whole blocks of 128");

static int parse_number(const char *s, unsigned long max, uint32_t *out)
{
    char *end;
    errno = 0;
    unsigned long v = strtoul(s, &end, 10);
    if (errno || *end || *s < '0' || *s > '9' || v < 1 || v > max)
        return -1;
    *out = (uint32_t)v;
    return 0;
}

/* --max-arcs and --max-paths: a number, rounded up to a table's size: a
 * power of two, at least a page of entries, for arcs; for paths
 * gs_path_table_entries (whole blocks beyond GS_PATH_BLOCK). --max-paths
 * may be 0 (none). */
static int parse_table_size(const char *s, int paths, uint32_t *out)
{
    uint32_t n;
    if (parse_number(s, GS_MAX_PATHS, &n) < 0)
        return -1;
    uint32_t p = MIN_PATHS;
    while (p < n)
        p *= 2;
    *out = paths ? (uint32_t)gs_path_table_entries(n) : p;
    return 0;
}

static int call_graph(const char *value, void *dest)
{
    struct gr_arguments *a = dest;
    (void)value;
    a->time_all = a->call_graph = 1;
    return 0;
}

static int max_threads(const char *value, void *dest)
{
    struct gr_arguments *a = dest;
    uint32_t threads;
    if (parse_number(value, MAX_THREADS, &threads) < 0)
        return -1;
    a->opt.max_rows = threads + 1;
    return 0;
}

static int max_paths(const char *value, void *dest)
{
    struct gr_arguments *a = dest;
    a->max_paths_given = 1;
    if (strcmp(value, "0") == 0) {
        a->max_paths = 0;
        return 0;
    }
    return parse_table_size(value, 1, &a->max_paths);
}

static int first_calls(const char *value, void *dest)
{
    struct gr_arguments *a = dest;
    a->first_given = 1;
    if (strcmp(value, "0") == 0) {
        a->opt.first_n = 0;
        return 0;
    }
    return parse_number(value, GS_FIRST_MAX, &a->opt.first_n);
}

static int max_arcs(const char *value, void *dest)
{
    struct gr_arguments *a = dest;
    return parse_table_size(value, 0, &a->opt.max_arcs);
}

/* --only, --exclude: repeatable patterns in opt.select (plan/select.h). */
#define PATTERNS(name, list, n)                                                             \
    name, 0, "REGEX", GR_OPT_REPEAT, GR_OPT_AT(struct gr_arguments, opt.select.list),      \
        .count = offsetof(struct gr_arguments, opt.select.n), .max = GR_SELECT_MAX,    \
        .bad = "--" name " given more than " GR_SELECT_MAX_TEXT " times"
/* --trace-buffer: bytes, or with a K, M or G suffix (powers of 1024). */
static int trace_buffer(const char *value, void *dest)
{
    struct gr_arguments *a = dest;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(value, &end, 10);
    if (errno || end == value || *value < '0' || *value > '9')
        return -1;
    int shift = *end == 'K' || *end == 'k' ? 10 : *end == 'M' || *end == 'm' ? 20 : *end == 'G' || *end == 'g' ? 30 : 0;
    if (shift)
        end++;
    if (*end || v > (GS_TRACE_MAX_RING >> shift))
        return -1;
    v <<= shift;
    if (v < GR_TRACE_MIN_BUFFER)
        return -1;
    a->opt.trace_buffer = v;
    return 0;
}

static int trace_slower(const char *value, void *dest)
{
    struct gr_arguments *a = dest;
    return gr_go_duration_parse(value, &a->opt.trace_slower_ns);
}

/* A power of two from 1 to max (rounded up). */
static int parse_power_of_two(const char *s, uint32_t max, uint32_t *out)
{
    uint32_t n, p = 1;
    if (parse_number(s, max, &n) < 0)
        return -1;
    while (p < n)
        p *= 2;
    *out = p;
    return 0;
}

/* --max-goroutine-sites: 0 keeps no sites (newproc1 and goexit1 as
 * without them: the cost's baseline), else rounded up to a power of two. */
static int max_sites(const char *value, void *dest)
{
    struct gr_options *opt = &((struct gr_arguments *)dest)->opt;
    opt->no_sites = strcmp(value, "0") == 0;
    return opt->no_sites ? 0 : parse_power_of_two(value, GS_MAX_SITES, &opt->max_sites);
}

static int max_glive(const char *value, void *dest)
{
    return parse_power_of_two(value, GS_MAX_GLIVE, &((struct gr_arguments *)dest)->opt.max_glive);
}

static const struct gr_opt_choice engines[] = {
    { "trampoline", GR_ENGINE_TRAMPOLINE }, { "copy", GR_ENGINE_COPY }, { NULL, 0 },
};

static const struct gr_opt gorewrite_opts[] = {
    { .kind = GR_OPT_TEXT,
      .help = GR_OPT_HELP("Timing modes (each counts every call exactly; instructions per call from",
                          "callgrind in make bench, BENCHMARKS.md):"),
      .man =
          "Timing modes. Every mode counts every call exactly; they differ in which\n"
          "calls are timed and what that costs (instructions per call measured by\n"
          ".BR \"make bench\" ,\n"
          "see BENCHMARKS.md):\n" },
    { .head = "(default)", .kind = GR_OPT_DOC,
      .help = GR_OPT_HELP("time each function's first " STR(GS_FIRST_DEFAULT) " calls in the process",
                          "(on any threads; --first), then a random sample that",
                          "thins out as its calls grow (mean gap calls/" STR(GS_ADAPT_DIV),
                          "on each thread, from " STR(GS_GAP_MIN) " to " STR(GS_GAP_MAX) "): mean and percentiles",
                          "unbiased (each timed call weighs the calls it stands",
                          "for), totals estimated as mean x calls (gostat marks",
                          "them); under 1 % of a compiler's calls timed. A call",
                          "not timed costs 5-9 instructions, a timed one ~100",
                          "and two rdtsc"),
      .man =
          "Time each function's first " STR(GS_FIRST_DEFAULT) " calls in the process (on whichever\n"
          "threads;\n"
          ".BR \\-\\-first ),\n"
          "then a random sample that thins out as its calls grow (mean\n"
          "gap calls/" STR(GS_ADAPT_DIV) " on each thread, from " STR(GS_GAP_MIN) " to " STR(GS_GAP_MAX) "). Each timed\n"
          "call weighs the calls it stands for (the gap since the previous timed\n"
          "one), so means and percentiles are unbiased; totals are estimated as mean\n"
          "times calls and marked as estimates by gostat (a\n"
          ".B ~\n"
          "before TOTAL in the table,\n"
          ".B time_estimated\n"
          "in JSON). A function with at most " STR(GS_FIRST_DEFAULT) " calls in the run has every call\n"
          "timed. On the Go compiler's build of cmd/gofmt under 1 % of the calls are\n"
          "timed. A call that is not timed costs 5\\-9 instructions (counting alone: 4\\-5.5).\n" },
    { "first", 0, "N", GR_OPT_CALL, .call = first_calls,
      .bad = "--first takes a number from 0 to " STR(GS_FIRST_MAX),
      .help = GR_OPT_HELP("the default mode: time each function's first N calls",
                          "in the process (default " STR(GS_FIRST_DEFAULT) "), so a function with at",
                          "most N calls is exact; 0 to " STR(GS_FIRST_MAX) ". Each timed call",
                          "costs two rdtsc and ~100 instructions"),
      .man =
          "In the default mode: time each function's first\n"
          ".I N\n"
          "calls in the process, on whichever threads (default " STR(GS_FIRST_DEFAULT) "), then sample\n"
          "as above; a function with at most\n"
          ".I N\n"
          "calls has every call timed and exact times.\n"
          ".I N\n"
          "is 0 to " STR(GS_FIRST_MAX) ". A larger\n"
          ".I N\n"
          "costs two\n"
          ".B rdtsc\n"
          "and about 100 instructions per extra timed call: the compiler's build of\n"
          "cmd/gofmt times 0.4 % of its calls in its first 16 calls per function,\n"
          "1.6 % with 100 (docs/timing.md, \"Timing modes\").\n" },
    { "time-all", 0, NULL, GR_OPT_FLAG, GR_OPT_AT(struct gr_arguments, time_all),
      .help = GR_OPT_HELP("time every call: exact totals, ~100 instructions and",
                          "two rdtsc on every call"),
      .man =
          "Time every call: exact totals, at two\n"
          ".B rdtsc\n"
          "and the bookkeeping on every call (about 100 instructions beyond the\n"
          "count).\n" },
    { "call-graph", 0, NULL, GR_OPT_CALL, .call = call_graph,
      .help = GR_OPT_HELP("--time-all, and record who called whom: self time,",
                          "exact caller -> callee arcs and call paths (for gostat",
                          "folded, its callers listings, pprof). 27-41",
                          "instructions more per call than --time-all (make",
                          "bench), ~50 in a program whose paths overflow",
                          "(--max-paths; recursion, direct or through up to 8",
                          "timed calls, is folded: BENCHMARKS.md, the Go",
                          "compiler). The only mode with self time and arcs"),
      .man =
          "As\n"
          ".BR \\-\\-time\\-all ,\n"
          "and record who called whom: each function's self time (its time minus\n"
          "that of the timed calls it made), exact caller \\-> callee arcs (the caller\n"
          "found from the return address, also when it is not instrumented) and the\n"
          "call paths, in bounded tables per thread\n"
          ".RB ( \\-\\-max\\-paths ,\n"
          ".BR \\-\\-max\\-arcs ).\n"
          "Recursion, direct or through up to 8 timed calls, is folded into one\n"
          "path per call site. 27\\-41 instructions more per call than\n"
          ".B \\-\\-time\\-all\n"
          "on make bench's rows, about 50 in a large program whose paths overflow\n"
          "(BENCHMARKS.md measures the Go compiler).\n"
          "The only mode with self time and arcs. docs/timing.md explains recursion,\n"
          "panics, Goexit and goroutines.\n" },
    { "sample", 0, "N", GR_OPT_UINT, GR_OPT_AT(struct gr_arguments, sample), .min = 1, .max = 1000000,
      .bad = "--sample takes a number from 1 to 1000000",
      .help = GR_OPT_HELP("time about 1 call in N of each function (at random",
                          "intervals; unbiased as above); N from 1 to 1000000",
                          "(--sample 1 is --time-all)"),
      .man =
          "Count every call, time about 1 call in\n"
          ".I N\n"
          "of each function (at random intervals; weighted as in the default mode,\n"
          "so means and percentiles stay unbiased; totals are estimated as mean\n"
          "times calls).\n"
          ".I N\n"
          "is 1 to 1000000\n"
          ".RB ( \"\\-\\-sample 1\"\n"
          "is\n"
          ".BR \\-\\-time\\-all ).\n" },
    { "count-only", 0, NULL, GR_OPT_FLAG, GR_OPT_AT(struct gr_arguments, count_only),
      .help = GR_OPT_HELP("count calls, do not time them: 4-5 instructions per",
                          "call, smaller stats"),
      .man =
          "Count calls, do not time them: the cheapest (4\\-5 instructions per direct call, one more through a\n"
          "register or in cgo programs),\n"
          "smaller stats file.\n" },
    { .kind = GR_OPT_TEXT,
      .help = GR_OPT_HELP("", "Selection (which functions are instrumented at all; docs/selection.md):"),
      .man = "Selection: which functions are instrumented at all (docs/selection.md).\n" },
    { PATTERNS("only", only, nonly),
      .help = GR_OPT_HELP("instrument only the functions whose name REGEX",
                          "matches (POSIX extended, anywhere in the name:",
                          "'^main\\.' for package main); repeatable: any of",
                          "them. The others are left as they are: no count,",
                          "no time, no row in gostat"),
      .man =
          "Instrument only the functions whose name\n"
          ".I REGEX\n"
          "matches (a POSIX extended regular expression, matched anywhere in the\n"
          "name as Go's tracebacks print it: anchor it,\n"
          ".B '^main\\e.'\n"
          "for package main). Repeatable: a function is chosen when any\n"
          ".B \\-\\-only\n"
          "matches. The others keep their code as it is: not counted, not timed,\n"
          "no row in gostat. The runtime functions gostat's goroutine counts and\n"
          "on-CPU time need stay instrumented whatever the patterns say:\n"
          ".B runtime.newproc1\n"
          "and\n"
          ".BR runtime.goexit1 ,\n"
          "and the scheduler's hand-offs (docs/selection.md).\n"
          "A bad pattern is a usage error (exit status 1, nothing written).\n" },
    { PATTERNS("exclude", exclude, nexclude),
      .help = GR_OPT_HELP("leave out the functions whose name REGEX matches,",
                          "even those an --only chose; repeatable.",
                          "runtime.newproc1, runtime.goexit1 and the scheduler's",
                          "hand-offs (goroutine counts, on-CPU time) stay"),
      .man =
          "Leave out the functions whose name\n"
          ".I REGEX\n"
          "matches, even those an\n"
          ".B \\-\\-only\n"
          "chose. Repeatable. So a function is instrumented when it matches some\n"
          ".B \\-\\-only\n"
          "(or none is given) and no\n"
          ".BR \\-\\-exclude ,\n"
          "or is one of the runtime functions above.\n"
          ".B \\-v\n"
          "lists the others as\n"
          ".B left out\n"
          "and counts them.\n" },
    { .kind = GR_OPT_TEXT, .help = GR_OPT_HELP("", "Tracing (docs/trace.md):"), .man = "Tracing (docs/trace.md):\n" },
    { "trace", 0, "REGEX", GR_OPT_REPEAT, GR_OPT_AT(struct gr_arguments, opt.trace),
      .count = offsetof(struct gr_arguments, opt.ntrace), .max = GR_MAX_TRACE_REGEXES,
      .bad = "--trace given more than " STR(GR_MAX_TRACE_REGEXES) " times",
      .help = GR_OPT_HELP("record every call of the functions whose names match",
                          "REGEX (POSIX extended; repeatable): start, duration,",
                          "goroutine, thread, caller, arguments and results, for",
                          "gostat trace. Traced functions are timed on every call;",
                          "the others keep their mode"),
      .man =
          "Record every call of the functions whose names match the POSIX extended\n"
          "regular expression\n"
          ".I REGEX\n"
          "(repeatable) as an event: start, duration, goroutine, thread, caller,\n"
          "arguments and results, read by\n"
          ".BR \"gostat trace\" .\n"
          "Traced functions are timed on every call; the others keep their mode.\n"
          "A bad pattern is a usage error (exit status 1, nothing written).\n" },
    { "trace-buffer", 0, "SIZE", GR_OPT_CALL, .call = trace_buffer,
      .bad = "--trace-buffer takes a size from 4K to 1G (bytes, or K, M, G)",
      .help = GR_OPT_HELP("each thread's event ring in the stats file (default",
                          "256K; K, M, G suffixes). A full ring overwrites its",
                          "oldest events, which readers count as lost"),
      .man =
          "Each thread's event ring in the stats file (default 256K; K, M, G\n"
          "suffixes). A full ring overwrites its oldest events; every reader shows\n"
          "how many were lost.\n" },
    { "trace-slower-than", 0, "DURATION", GR_OPT_CALL, .call = trace_slower,
      .bad = "--trace-slower-than takes a duration as Go writes them (250us, 20ms, 1.5s)",
      .help = GR_OPT_HELP("keep a traced call's event only when it took longer",
                          "(Go's duration syntax: 250us, 20ms, 1.5s)"),
      .man =
          "Keep a traced call's event only when the call took longer than\n"
          ".I DURATION\n"
          "(Go's syntax: 250us, 20ms, 1.5s); the arguments are taken at entry and\n"
          "kept until the return decides.\n" },
    { "trace-bytes", 0, "N", GR_OPT_UINT, GR_OPT_AT(struct gr_arguments, opt.trace_bytes), .min = 0, .max = 4096,
      .bad = "--trace-bytes takes a number from 0 to 4096",
      .help = GR_OPT_HELP("bytes of a traced string or []byte kept (default 64)"),
      .man = "Bytes of a traced string or []byte argument or result kept (default 64).\n" },
    { .kind = GR_OPT_TEXT, .help = GR_OPT_HELP("", "Other options:"), .man = "Other options:\n" },
    { NULL, 'v', NULL, GR_OPT_FLAG, GR_OPT_AT(struct gr_arguments, opt.verbose),
      .help = GR_OPT_HELP("list every function with its decision, and why it is",
                          "skipped or untimed"),
      .man =
          "List every function with its decision:\n"
          ".B count+time\n"
          "(with the check shape and number of returns),\n"
          ".B count\n"
          "with the reason it is not timed, or\n"
          ".B skip\n"
          "with the reason it is left alone; then a count per reason.\n" },
    { "max-threads", 0, "N", GR_OPT_CALL, .call = max_threads,
      .bad = "--max-threads takes a number from 1 to " STR(MAX_THREADS),
      .help = GR_OPT_HELP("threads that count without locks (default " STR(DEFAULT_MAX_THREADS) "); more",
                          "threads still count exactly, with a locked increment"),
      .man =
          "Threads that count without locks (default 127). More threads still count\n"
          "exactly, with a locked increment into a shared row.\n" },
    { "max-paths", 0, "N", GR_OPT_CALL, .call = max_paths,
      .bad = "--max-paths takes a number from 0 to " MAX_PATHS_TEXT,
      .help = GR_OPT_HELP("--call-graph: distinct call paths each thread records",
                          "(default: 8 per timed function, from 16384 to",
                          "1048576; rounded up to a multiple of 128, or a power",
                          "of two from " STR(MIN_PATHS) " below that). A thread backs a page of",
                          "its table in the stats file as its paths first reach",
                          "it: 64 bytes a path, and 4 bytes of filter per path",
                          "at its first timed call. Calls on paths that do not",
                          "fit keep exact arcs (--max-arcs) and are counted as",
                          "overflow. 0: no paths, arcs or self time"),
      .man =
          "With\n"
          ".BR \\-\\-call\\-graph :\n"
          "the distinct call paths each thread records (default 8 per timed\n"
          "function, from 16384 to 1048576; rounded up to a multiple of 128, or a\n"
          "power of two from 64 below that). A thread backs each page of its path\n"
          "table in the stats file when its paths first reach it (64 bytes a path;\n"
          "paths spread over the table, so a thread with many touches all of it),\n"
          "and its filter (4 bytes per path) at its first timed call; if that fails\n"
          "(tmpfs full), the calls are counted but not timed. A call whose path\n"
          "does not fit keeps an exact arc (in the arc table,\n"
          ".BR \\-\\-max\\-arcs )\n"
          "and is counted as overflow, which gostat shows; recursion through more\n"
          "than 8 timed calls makes a path per level and overflows early, and so\n"
          "does a large program's variety of call chains. 0: no paths, arcs or self\n"
          "time (the plain timing of every call).\n" },
    { "max-arcs", 0, "N", GR_OPT_CALL, .call = max_arcs,
      .bad = "--max-arcs takes a number from 1 to " MAX_PATHS_TEXT,
      .help = GR_OPT_HELP("--call-graph: distinct caller -> callee arcs (call",
                          "site and callee) each thread records for the calls",
                          "whose paths do not fit (default: 4 per timed",
                          "function, from 4096 to 65536, and at least a quarter of",
                          "--max-paths; rounded up to a power of two, at least",
                          STR(MIN_PATHS) "). Calls in no arc are counted"),
      .man =
          "With\n"
          ".BR \\-\\-call\\-graph :\n"
          "the distinct arcs (call site and callee) each thread records for the\n"
          "calls whose paths do not fit (default 4 per timed function, from 4096 to\n"
          "65536, and at least a quarter of\n"
          ".BR \\-\\-max\\-paths ;\n"
          "rounded up to a power of two, at least 64), 64 bytes each, backed a page\n"
          "at a time. A call that finds room in neither table is counted (gostat\n"
          "says so and names this option) and keeps its counts and times in its\n"
          "function's totals.\n" },
    { "max-goroutine-sites", 0, "N", GR_OPT_CALL, .call = max_sites,
      .bad = "--max-goroutine-sites takes a number from 0 to 65536",
      .help = GR_OPT_HELP("distinct (go statement, start function) pairs kept",
                          "(default 2048, 320 bytes each; rounded up to a power",
                          "of two); more are counted as not kept; 0: no sites",
                          "(docs/goroutines.md)"),
      .man =
          "Distinct (go statement, start function) pairs whose goroutines are kept\n"
          "by site (default 2048, 320 bytes each in the stats file; rounded up to a\n"
          "power of two). Goroutines of further sites are counted as not kept\n"
          "(docs/goroutines.md). 0 keeps no sites: goroutine creation and end\n"
          "cost what they cost without them.\n" },
    { "max-live-goroutines", 0, "N", GR_OPT_CALL, .call = max_glive,
      .bad = "--max-live-goroutines takes a number from 1 to 4194304",
      .help = GR_OPT_HELP("live goroutines whose creation time is kept (default",
                          "65536, 32 bytes each; rounded up to a power of two):",
                          "beyond, their lifetimes and ages are unknown, their",
                          "counts still exact"),
      .man =
          "Live goroutines whose creation time is kept, for their age and\n"
          "lifetime (default 65536, 32 bytes each in the stats file; rounded up to\n"
          "a power of two). Beyond, counts stay exact and lifetimes are unknown.\n" },
    { "layout-report", 0, "FILE", GR_OPT_STRING, GR_OPT_AT(struct gr_arguments, opt.layout_report),
      .help = GR_OPT_HELP("once OUTPUT is written, describe it in FILE: entry",
                          "point, program headers, added sections, symbol table,",
                          "patched ranges (a text format for checking tools)"),
      .man =
          "Once\n"
          ".I OUTPUT\n"
          "is written, describe it in\n"
          ".IR FILE ,\n"
          "one record a line: the old and new entry point, every program header,\n"
          "the section header table and the two sections gorewrite added, the size\n"
          "and end names of the symbol table (unchanged from\n"
          ".IR INPUT ),\n"
          "and every patched address range. It is what gorewrite says it wrote, for\n"
          "tools that check the output independently (the project's tests re-read\n"
          "every output with LIEF and compare). The format is described in\n"
          ".IR format/output_report_format.h .\n"
          "If\n"
          ".I FILE\n"
          "cannot be written, or is\n"
          ".I INPUT\n"
          "or\n"
          ".IR OUTPUT ,\n"
          "gorewrite removes\n"
          ".I OUTPUT\n"
          "and exits 2.\n" },
    { "engine", 0, "NAME", GR_OPT_CHOICE, GR_OPT_AT(struct gr_arguments, opt.engine),
      .choices = engines, .bad = "--engine takes trampoline or copy, not '%s'",
      .help = GR_OPT_HELP("trampoline (default) or copy: experimental, moves each",
                          "chosen compiled Go function outside the runtime into a",
                          "second Go module, as it is (not counted yet); the",
                          "others keep their trampolines (docs/architecture.md)"),
      .man =
          "How functions are instrumented:\n"
          ".B trampoline\n"
          "(the default) or\n"
          ".BR copy ,\n"
          "an experiment: each chosen compiled Go function outside the runtime is\n"
          "copied, byte for byte, into a second Go module that the runtime knows as\n"
          "its own (tracebacks, profiles and the GC see the original's functions and\n"
          "lines); its entry jumps to the copy. Copies are not counted yet; the\n"
          "functions the copy engine cannot take keep their trampolines, and\n"
          ".B \\-v\n"
          "says why (docs/architecture.md, \"The copy engine's module\").\n" },
    { "keep-call-sites", 0, NULL, GR_OPT_FLAG, GR_OPT_AT(struct gr_arguments, opt.keep_call_sites),
      .help = GR_OPT_HELP("leave direct calls aimed at each function's entry.",
                          "By default a call rel32 (or jmp rel32) to an",
                          "instrumented function goes straight to its trampoline,",
                          "saving the entry's jump on every such call; the",
                          "return address stays the caller's own. Calls through",
                          "registers always take the entry. Keep them to stop a",
                          "debugger at the entry address itself (break *ADDR);",
                          "gdb's `break FUNC` lands after the stack check and",
                          "stops either way"),
      .man =
          "Leave direct calls aimed at each function's entry.\n"
          "By default every\n"
          ".B call\n"
          "or\n"
          ".B jmp\n"
          "with a 32-bit displacement whose target is an instrumented function's\n"
          "entry is aimed at that function's trampoline instead, so the call skips\n"
          "the jump at the entry (the larger part of what counting costs; the return\n"
          "address pushed is still the caller's own).\n"
          "Calls through registers (interface methods, closures, function values)\n"
          "take the jump at the entry either way.\n"
          "Use this option to stop a debugger at the entry address itself\n"
          ".RB ( \"break *ADDR\" );\n"
          "gdb's\n"
          ".B break\n"
          ".I FUNC\n"
          "sets its breakpoint after the stack check and stops either way.\n" },
    { "keep-setuid", 0, NULL, GR_OPT_FLAG, GR_OPT_AT(struct gr_arguments, opt.keep_setuid),
      .help = GR_OPT_HELP("keep INPUT's setuid/setgid bits on OUTPUT (dropped by",
                          "default). Risk: the instrumented code then runs with",
                          "the owner's privileges and creates a root-owned stats",
                          "file in /dev/shm (GOSTAT_DIR is ignored); only for",
                          "binaries you trust, on machines you control"),
      .man =
          "Keep the setuid and setgid bits of\n"
          ".I INPUT\n"
          "on\n"
          ".IR OUTPUT .\n"
          "By default they are dropped (the rest of the mode is copied).\n"
          "Risk: a setuid instrumented program runs gorewrite's start-up code with\n"
          "its owner's privileges and creates a stats file owned by that user in\n"
          ".B /dev/shm\n"
          "(as a secure process it ignores\n"
          ".B GOSTAT_DIR\n"
          "and\n"
          ".BR GOSTAT_QUIET );\n"
          "any user who can run it can make it create such files.\n"
          "Use it only for binaries you trust, on machines you control.\n" },
    { "strict-release", 0, NULL, GR_OPT_FLAG, GR_OPT_AT(struct gr_arguments, opt.strict_release),
      .help = GR_OPT_HELP("refuse a Go release newer than those verified (${GO_RELEASES})",
                          "or a development build; by default such a program is",
                          "instrumented when its runtime layout can be derived",
                          "from the binary and checked, with one warning line on stderr"),
      .man =
          "Refuse a program built with a Go release newer than those with a verified\n"
          "layout, or with a development build of Go, (exit status 2) instead of\n"
          "instrumenting it with the layout derived from the binary.\n" },
    { "print-layout", 0, "INPUT", GR_OPT_STRING, GR_OPT_AT(struct gr_arguments, print_layout),
      .help = GR_OPT_HELP("", "print the runtime offsets of INPUT (g, m, moduledata)",
                          "as each source states them (table row, DWARF, type",
                          "descriptors, the runtime's code, its moduledata) and the",
                          "layout used; exit 2 if INPUT would be refused"),
      .man =
          "Print, for\n"
          ".IR INPUT ,\n"
          "every runtime offset of its release's description (g.m, g.stack.hi,\n"
          "g.racectx, m.tls, g.goid, g.sched.sp, m.g0, m.curg, moduledata.text,\n"
          "moduledata.gofunc, the signal fields g.sig, g.sigcode0, g.sigcode1,\n"
          "g.sigpc and g.gopc, g.startpc) as each source states\n"
          "them: the table row of its release, DWARF, the runtime's type descriptors,\n"
          "runtime.rt0_go's code, runtime.sigpanic's and runtime.sighandler's, and\n"
          "runtime.firstmoduledata (\"-\" where a source says nothing), then the\n"
          "layout gorewrite would use and whether it is verified. Writes nothing\n"
          "else; exit status 2 when\n"
          ".I INPUT\n"
          "would be refused.\n" },
    { "help", 'h', NULL, GR_OPT_STOP,
      .help = GR_OPT_HELP("this text"),
      .man =
          "Print the usage text.\n" },
    { "version", 0, NULL, GR_OPT_STOP,
      .help = GR_OPT_HELP("gorewrite's version and the Go releases it instruments"),
      .man =
          "Print gorewrite's version and the Go releases it instruments.\n" },
};

#define TOO_MANY "unexpected argument %s: takes INPUT and OUTPUT"

static const char *expand(const char *name)
{
    return strcmp(name, "GO_RELEASES") == 0 ? gr_offsets_known() : "";
}

const struct gr_opt_table gr_gorewrite_options = {
    .program = "gorewrite",
    .intro =
        "usage: gorewrite [-v] [--count-only | --time-all | --call-graph | --sample N]\n"
        "                 [--first N] [--max-threads N] [--max-paths N] [--max-arcs N]\n"
        "                 [--only REGEX]... [--exclude REGEX]...\n"
        "                 [--strict-release] [--keep-call-sites] [--keep-setuid]\n"
        "                 [--engine trampoline|copy]\n"
        "                 [--layout-report FILE]\n"
        "                 INPUT OUTPUT\n"
        "       gorewrite [--strict-release] --print-layout INPUT\n"
        "\n"
        "Writes OUTPUT, a copy of the Go program INPUT that counts every call of\n"
        "nearly every Go function and times those with a stack check. INPUT is never\n"
        "modified. Run OUTPUT as you would run INPUT; its statistics appear in\n"
        "$GOSTAT_DIR (default /dev/shm) as gostat.<name>.<pid>; read them with gostat.\n"
        "\n",
    .outro =
        "\n"
        "Exit status: 0 written, 1 usage error, 2 input rejected or output not written.\n",
    GR_OPT_TABLE_OPTS(gorewrite_opts),
    /* INPUT OUTPUT, or none with --print-layout */
    .min_operands = 0, .max_operands = GR_ARGUMENTS_OPERANDS,
    .too_many = TOO_MANY,
    .column = 19,
    .long_indent = 2,
    .expand = expand,
};

/* A parse that ended early: --help or --version printed, or the usage
 * error in err. */
static enum gr_arguments_action ended(const struct gr_opt_result *r, struct gr_error *err)
{
    char bad[256];
    switch (r->status) {
    case GR_OPT_STOPPED:
        if (r->opt->letter == 'h') {
            gr_opt_print_help(stdout, &gr_gorewrite_options);
        } else {
            printf("gorewrite %s\nGo releases: %s verified, newer ones derived from the binary "
                   "(linux/amd64)\n", GR_VERSION, gr_offsets_known());
        }
        return GR_ACTION_DONE;
    case GR_OPT_EXTRA:
        gr_fail_as(err, GR_ERR_USAGE, TOO_MANY, r->word);
        return GR_ACTION_FAILED;
    case GR_OPT_BAD:
        gr_opt_bad_message(r, bad, sizeof bad);
        gr_fail_as(err, GR_ERR_USAGE, "%s", bad);
        return GR_ACTION_FAILED;
    default:
        gr_fail_as(err, GR_ERR_USAGE, "unknown option %s (see gorewrite --help)", r->word);
        return GR_ACTION_FAILED;
    }
}

/* The mode the words name: --call-graph --max-paths 0 keeps no paths, so
 * it times every call as --time-all does; --sample 1 is --time-all. */
static struct gs_timing_mode timing_mode(const struct gr_arguments *a)
{
    if (a->count_only)
        return (struct gs_timing_mode){ GS_MODE_COUNT, 0 };
    if (a->call_graph && a->max_paths)
        return (struct gs_timing_mode){ GS_MODE_CALL_GRAPH, 0 };
    if (a->time_all || a->sample == 1)
        return (struct gs_timing_mode){ GS_MODE_EVERY_CALL, 0 };
    return (struct gs_timing_mode){ GS_MODE_SAMPLED, a->sample };
}

/* The options that do not go together, or NULL. */
static const char *conflict(const struct gr_arguments *a)
{
    if (a->count_only + a->time_all + (a->sample > 0) > 1)
        return "--count-only, --time-all (or --call-graph) and --sample exclude each other";
    if (a->first_given && (a->count_only || a->time_all || a->sample))
        return "--first sets the default mode's first calls: not with --count-only, --time-all or --sample";
    if (a->max_paths_given && !a->call_graph)
        return "--max-paths bounds the paths of --call-graph; add --call-graph";
    if (a->opt.max_arcs && !a->call_graph)
        return "--max-arcs bounds the arcs of --call-graph; add --call-graph";
    if (a->opt.max_arcs && !a->max_paths)
        return "--max-arcs with --max-paths 0: no arcs are recorded without paths";
    if (a->opt.ntrace && (a->call_graph || a->count_only))
        return "--trace times the traced calls: not with --count-only or --call-graph";
    if (!a->opt.ntrace && (a->trace_given))
        return "--trace-buffer, --trace-slower-than and --trace-bytes need --trace";
    return NULL;
}

/* The patterns a REGEX option's row holds in a: its repeated values, or
 * its one value if given. */
static const char *const *row_patterns(const struct gr_arguments *a, const struct gr_opt *o, size_t *n)
{
    const char *base = (const char *)a;
    const char *const *p = (const char *const *)(const void *)(base + o->offset);
    *n = o->kind == GR_OPT_REPEAT ? *(const size_t *)(const void *)(base + o->count) : *p != NULL;
    return p;
}

/* Every pattern of every REGEX option compiled once, so that a bad one is
 * a usage error found before INPUT is read (the plan compiles them again
 * for its own use). */
static int patterns_check(const struct gr_arguments *a, struct gr_error *err)
{
    for (size_t i = 0; i < gr_gorewrite_options.nopts; i++) {
        const struct gr_opt *o = &gr_gorewrite_options.opts[i];
        if (!o->name || !o->arg || strcmp(o->arg, "REGEX") != 0)
            continue;
        char what[64];
        size_t n;
        const char *const *patterns = row_patterns(a, o, &n);
        struct gr_regex_set set;
        snprintf(what, sizeof what, "--%s", o->name);
        if (gr_regex_set_compile(&set, patterns, n, what, err) < 0)
            return -1;
        gr_regex_set_free(&set);
    }
    return 0;
}

enum gr_arguments_action gr_arguments_parse(int argc, char **argv, struct gr_arguments *a,
                                            struct gr_error *err)
{
    struct gr_opt_result r;
    *a = (struct gr_arguments){
        .opt = { .max_rows = DEFAULT_MAX_THREADS + 1, .first_n = GS_FIRST_DEFAULT,
                 .trace_bytes = GR_TRACE_DEFAULT_BYTES,
                 .trace_buffer = GR_TRACE_DEFAULT_BUFFER },
        .max_paths = GR_PATHS_FROM_PROGRAM,
    };
    if (gr_opt_parse_exact(&gr_gorewrite_options, argc, argv, a, a->paths, GR_ARGUMENTS_OPERANDS,
                           &r) != GR_OPT_DONE)
        return ended(&r, err);
    a->npaths = r.next;
    a->trace_given = a->opt.trace_bytes != GR_TRACE_DEFAULT_BYTES ||
                     a->opt.trace_buffer != GR_TRACE_DEFAULT_BUFFER || a->opt.trace_slower_ns;
    const char *why = conflict(a);
    if (why) {
        gr_fail_as(err, GR_ERR_USAGE, "%s", why);
        return GR_ACTION_FAILED;
    }
    if (patterns_check(a, err) < 0)
        return GR_ACTION_FAILED;
    a->opt.timing = timing_mode(a);
    if (a->opt.timing.mode == GS_MODE_CALL_GRAPH)
        a->opt.max_paths = a->max_paths;
    if (a->print_layout && a->npaths == 0)
        return GR_ACTION_PRINT_LAYOUT;
    if (a->npaths != 2 || a->print_layout)
        return GR_ACTION_USAGE;
    return GR_ACTION_REWRITE;
}
