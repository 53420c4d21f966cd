/* main.c: the gorewrite command line. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "go_runtime.h"
#include "rewrite.h"
#include "version.h"

#define EXIT_USAGE 1
#define EXIT_REJECTED 2
#define DEFAULT_MAX_THREADS 127

static void usage(FILE *out)
{
    fprintf(out,
            "usage: gorewrite [-v] [--count-only | --sample N] [--max-threads N] INPUT OUTPUT\n"
            "\n"
            "Writes OUTPUT, a copy of the Go program INPUT that counts every call of\n"
            "nearly every Go function and times those with a stack check. INPUT is never\n"
            "modified. Run OUTPUT as you would run INPUT; its statistics appear in\n"
            "$GOSTAT_DIR (default /dev/shm) as gostat.<name>.<pid>; read them with gostat.\n"
            "\n"
            "  -v               list every function with its decision, and why it is\n"
            "                   skipped or untimed\n"
            "  --count-only     count calls, do not time them (cheaper, smaller)\n"
            "  --sample N       count every call, time about 1 call in N (at random\n"
            "                   intervals; mean and percentiles stay unbiased, totals\n"
            "                   are estimated as mean x calls); N from 1 to 1000000\n"
            "  --max-threads N  threads that count without locks (default %d); more\n"
            "                   threads still count exactly, with a locked increment\n"
            "  -h, --help       this text\n"
            "  --version        gorewrite's version and the Go releases it instruments\n"
            "\n"
            "Exit status: 0 written, 1 usage error, 2 input rejected or output not written.\n",
            DEFAULT_MAX_THREADS);
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

int main(int argc, char **argv)
{
    struct gr_options opt = {.verbose = 0, .count_only = 0, .max_rows = DEFAULT_MAX_THREADS + 1};
    const char *paths[2];
    int npaths = 0;
    for (int i = 1; i < argc; i++) {
        uint32_t threads;
        if (strcmp(argv[i], "-v") == 0) {
            opt.verbose = 1;
        } else if (strcmp(argv[i], "--count-only") == 0) {
            opt.count_only = 1;
        } else if (strcmp(argv[i], "--sample") == 0 && i + 1 < argc) {
            if (parse_number(argv[++i], 1000000, &opt.sample) < 0) {
                fprintf(stderr, "gorewrite: --sample takes a number from 1 to 1000000\n");
                return EXIT_USAGE;
            }
        } else if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            usage(stdout);
            return 0;
        } else if (strcmp(argv[i], "--version") == 0) {
            printf("gorewrite %s\nGo releases: %s (linux/amd64)\n", GR_VERSION, gr_go_layouts_known());
            return 0;
        } else if (strcmp(argv[i], "--max-threads") == 0 && i + 1 < argc) {
            if (parse_number(argv[++i], 4095, &threads) < 0) {
                fprintf(stderr, "gorewrite: --max-threads takes a number from 1 to 4095\n");
                return EXIT_USAGE;
            }
            opt.max_rows = threads + 1;
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
    if (opt.count_only && opt.sample > 1) {
        fprintf(stderr, "gorewrite: --count-only and --sample exclude each other\n");
        return EXIT_USAGE;
    }
    if (npaths != 2) {
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
