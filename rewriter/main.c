/* main.c: the gorewrite command line. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "rewriter/find/runtime_offsets.h"
#include "format/gostat_format.h"
#include "rewriter/print_offsets.h"
#include "rewriter/rewrite.h"
#include "rewriter/gen/segments.h"
#include "common/version.h"

#define EXIT_USAGE 1
#define EXIT_REJECTED 2
#define DEFAULT_MAX_THREADS 127
#define DEFAULT_MAX_PATHS 16384
#define MIN_PATHS 64          /* one page of struct gs_path */

static void usage(FILE *out)
{
    fprintf(out,
            "usage: gorewrite [-v] [--count-only | --time-all | --call-graph | --sample N]\n"
            "                 [--max-threads N] [--max-paths N] [--max-arcs N]\n"
            "                 [--strict-release] [--keep-call-sites] [--keep-setuid]\n"
            "                 [--layout-report FILE]\n"
            "                 INPUT OUTPUT\n"
            "       gorewrite [--strict-release] --print-layout INPUT\n"
            "\n"
            "Writes OUTPUT, a copy of the Go program INPUT that counts every call of\n"
            "nearly every Go function and times those with a stack check. INPUT is never\n"
            "modified. Run OUTPUT as you would run INPUT; its statistics appear in\n"
            "$GOSTAT_DIR (default /dev/shm) as gostat.<name>.<pid>; read them with gostat.\n"
            "\n"
            "Timing modes (each counts every call exactly; instructions per call from\n"
            "callgrind in make bench, BENCHMARKS.md):\n"
            "  (default)        time each function's first 1000 calls in the process\n"
            "                   (on any threads), then a random sample that thins\n"
            "                   out as its calls grow (mean gap calls/256 on each\n"
            "                   thread): mean and percentiles unbiased (each\n"
            "                   timed call weighs the calls it stands for), totals\n"
            "                   estimated as mean x calls (gostat marks them). A call\n"
            "                   not timed costs 11 instructions, a timed one ~100\n"
            "                   and two rdtsc\n"
            "  --time-all       time every call: exact totals, ~100 instructions and\n"
            "                   two rdtsc on every call\n"
            "  --call-graph     --time-all, and record who called whom: self time,\n"
            "                   exact caller -> callee arcs and call paths (for gostat\n"
            "                   folded, its callers listings, pprof). 27-41\n"
            "                   instructions more per call than --time-all (make\n"
            "                   bench), ~50 in a program whose paths overflow\n"
            "                   (--max-paths; recursion, direct or through up to 8\n"
            "                   timed calls, is folded: BENCHMARKS.md, the Go\n"
            "                   compiler). The only mode with self time and arcs\n"
            "  --sample N       time about 1 call in N of each function (at random\n"
            "                   intervals; unbiased as above); N from 1 to 1000000\n"
            "                   (--sample 1 is --time-all)\n"
            "  --count-only     count calls, do not time them: 4-5 instructions per\n"
            "                   call, smaller stats\n"
            "\n"
            "Other options:\n"
            "  -v               list every function with its decision, and why it is\n"
            "                   skipped or untimed\n"
            "  --max-threads N  threads that count without locks (default %d); more\n"
            "                   threads still count exactly, with a locked increment\n"
            "  --max-paths N    --call-graph: distinct call paths each thread records\n"
            "                   (default %d, rounded up to a power of two, at least\n"
            "                   %d). Each thread's first timed call backs its tables\n"
            "                   in the stats file: 68 bytes per path (its entry and\n"
            "                   filter bits), and the arc table (--max-arcs; 64\n"
            "                   bytes an arc). Calls on paths that do not fit\n"
            "                   keep exact arcs and are counted as overflow.\n"
            "                   0: no paths, arcs or self time\n"
            "  --max-arcs N     --call-graph: distinct caller -> callee arcs (call\n"
            "                   site and callee) each thread records for the calls\n"
            "                   whose paths do not fit (default: 4 per timed\n"
            "                   function, from %d to %d, and at least a quarter of\n"
            "                   --max-paths; rounded up to a power of two, at least\n"
            "                   %d). Calls in no arc are counted\n"
            "  --layout-report FILE  once OUTPUT is written, describe it in FILE: entry\n"
            "                   point, program headers, added sections, symbol table,\n"
            "                   patched ranges (a text format for checking tools)\n"
            "  --keep-call-sites  leave direct calls aimed at each function's entry.\n"
            "                   By default a call rel32 (or jmp rel32) to an\n"
            "                   instrumented function goes straight to its trampoline,\n"
            "                   saving the entry's jump on every such call; the\n"
            "                   return address stays the caller's own. Calls through\n"
            "                   registers always take the entry. Keep them to stop a\n"
            "                   debugger at the entry address itself (break *ADDR);\n"
            "                   gdb's `break FUNC` lands after the stack check and\n"
            "                   stops either way\n"
            "  --keep-setuid    keep INPUT's setuid/setgid bits on OUTPUT (dropped by\n"
            "                   default). Risk: the instrumented code then runs with\n"
            "                   the owner's privileges and creates a root-owned stats\n"
            "                   file in /dev/shm (GOSTAT_DIR is ignored); only for\n"
            "                   binaries you trust, on machines you control\n"
            "  --strict-release refuse a Go release newer than those verified (%s);\n"
            "                   by default such a program is instrumented when its\n"
            "                   runtime layout can be derived from the binary and\n"
            "                   checked, with one warning line on stderr\n"
            "  --print-layout INPUT\n"
            "                   print the g/m offsets of INPUT as each source states\n"
            "                   them (table row, DWARF, type descriptors, rt0_go code)\n"
            "                   and the layout used; exit 2 if INPUT would be refused\n"
            "  -h, --help       this text\n"
            "  --version        gorewrite's version and the Go releases it instruments\n"
            "\n"
            "Exit status: 0 written, 1 usage error, 2 input rejected or output not written.\n",
            DEFAULT_MAX_THREADS, DEFAULT_MAX_PATHS, MIN_PATHS, GR_MIN_ARCS, GR_MAX_ARCS, MIN_PATHS,
            gr_offsets_known());
}

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

/* --max-paths: 0 (none), or rounded up to a power of two, at least a page
 * of entries; --max-arcs: the same, but not 0. */
static int parse_max_paths(const char *s, uint32_t *out)
{
    if (strcmp(s, "0") == 0) {
        *out = 0;
        return 0;
    }
    uint32_t n;
    if (parse_number(s, GS_MAX_PATHS, &n) < 0)
        return -1;
    uint32_t p = MIN_PATHS;
    while (p < n)
        p *= 2;
    *out = p;
    return 0;
}

int main(int argc, char **argv)
{
    struct gr_options opt = {.verbose = 0, .count_only = 0, .max_rows = DEFAULT_MAX_THREADS + 1,
                             .max_paths = 0,
                             .layout_report = NULL};
    const char *paths[2];
    const char *print_layout = NULL;
    int npaths = 0, call_graph = 0, max_paths_given = 0;
    uint32_t max_paths = DEFAULT_MAX_PATHS;
    for (int i = 1; i < argc; i++) {
        uint32_t threads;
        if (strcmp(argv[i], "-v") == 0) {
            opt.verbose = 1;
        } else if (strcmp(argv[i], "--keep-call-sites") == 0) {
            opt.keep_call_sites = 1;
        } else if (strcmp(argv[i], "--keep-setuid") == 0) {
            opt.keep_setuid = 1;
        } else if (strcmp(argv[i], "--strict-release") == 0) {
            opt.strict_release = 1;
        } else if (strcmp(argv[i], "--print-layout") == 0 && i + 1 < argc) {
            print_layout = argv[++i];
        } else if (strcmp(argv[i], "--count-only") == 0) {
            opt.count_only = 1;
        } else if (strcmp(argv[i], "--time-all") == 0) {
            opt.time_all = 1;
        } else if (strcmp(argv[i], "--call-graph") == 0) {
            opt.time_all = call_graph = 1;
        } else if (strcmp(argv[i], "--sample") == 0 && i + 1 < argc) {
            if (parse_number(argv[++i], 1000000, &opt.sample) < 0) {
                fprintf(stderr, "gorewrite: --sample takes a number from 1 to 1000000\n");
                return EXIT_USAGE;
            }
        } else if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            usage(stdout);
            return 0;
        } else if (strcmp(argv[i], "--version") == 0) {
            printf("gorewrite %s\nGo releases: %s verified, newer ones derived from the binary "
                   "(linux/amd64)\n", GR_VERSION, gr_offsets_known());
            return 0;
        } else if (strcmp(argv[i], "--max-threads") == 0 && i + 1 < argc) {
            if (parse_number(argv[++i], 4095, &threads) < 0) {
                fprintf(stderr, "gorewrite: --max-threads takes a number from 1 to 4095\n");
                return EXIT_USAGE;
            }
            opt.max_rows = threads + 1;
        } else if (strcmp(argv[i], "--max-paths") == 0 && i + 1 < argc) {
            max_paths_given = 1;
            if (parse_max_paths(argv[++i], &max_paths) < 0) {
                fprintf(stderr, "gorewrite: --max-paths takes a number from 0 to %u\n", GS_MAX_PATHS);
                return EXIT_USAGE;
            }
        } else if (strcmp(argv[i], "--max-arcs") == 0 && i + 1 < argc) {
            if (parse_max_paths(argv[++i], &opt.max_arcs) < 0 || opt.max_arcs == 0) {
                fprintf(stderr, "gorewrite: --max-arcs takes a number from 1 to %u\n", GS_MAX_PATHS);
                return EXIT_USAGE;
            }
        } else if (strcmp(argv[i], "--layout-report") == 0 && i + 1 < argc) {
            opt.layout_report = argv[++i];
        } else if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "gorewrite: unknown option %s (see gorewrite --help)\n", argv[i]);
            return EXIT_USAGE;
        } else if (npaths == 2) {
            fprintf(stderr, "gorewrite: unexpected argument %s: takes INPUT and OUTPUT\n", argv[i]);
            return EXIT_USAGE;
        } else {
            paths[npaths++] = argv[i];
        }
    }
    if (opt.count_only + opt.time_all + (opt.sample > 0) > 1) {
        fprintf(stderr, "gorewrite: --count-only, --time-all (or --call-graph) and --sample exclude each other\n");
        return EXIT_USAGE;
    }
    if (max_paths_given && !call_graph) {
        fprintf(stderr, "gorewrite: --max-paths bounds the paths of --call-graph; add --call-graph\n");
        return EXIT_USAGE;
    }
    if (opt.max_arcs && !call_graph) {
        fprintf(stderr, "gorewrite: --max-arcs bounds the arcs of --call-graph; add --call-graph\n");
        return EXIT_USAGE;
    }
    if (opt.max_arcs && !max_paths) {
        fprintf(stderr, "gorewrite: --max-arcs with --max-paths 0: no arcs are recorded without paths\n");
        return EXIT_USAGE;
    }
    if (call_graph)
        opt.max_paths = max_paths;
    if (print_layout && npaths == 0) {
        struct gr_error err;
        if (gr_print_offsets(print_layout, opt.strict_release, stdout, &err) < 0) {
            fprintf(stderr, "gorewrite: %s\n", err.msg);
            return EXIT_REJECTED;
        }
        return 0;
    }
    if (npaths != 2 || print_layout) {
        usage(stderr);
        return EXIT_USAGE;
    }
    struct gr_result res;
    struct gr_error err;
    if (gr_rewrite(paths[0], paths[1], &opt, stderr, &res, &err) < 0) {
        fprintf(stderr, "gorewrite: %s\n", err.msg);
        return EXIT_REJECTED;
    }
    struct stat st;
    uint64_t out_size = stat(paths[1], &st) == 0 ? (uint64_t)st.st_size : res.out_size;
    printf("gorewrite: %s -> %s: %zu functions instrumented (%zu timed), %zu skipped (%s); "
           "output %.1f MB (+%.1f%%)\n",
           paths[0], paths[1], res.ninstrumented, res.ntimed, res.nfuncs - res.ninstrumented,
           res.go_version,
           out_size / 1e6, res.in_size ? 100.0 * ((double)out_size - (double)res.in_size) / (double)res.in_size : 0.0);
    return 0;
}
