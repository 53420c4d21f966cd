/* fuzz_rewrite.c: libFuzzer harness over gorewrite's whole pipeline
 * (rewrite.c: read, find, plan, the --trace plan, segments, trampolines
 * and the stats-file prefix from gen/, elf_write.c), which fuzz_elf stops
 * short of. The input is written to a file in a private temporary folder
 * and rewritten to another there; the input's size picks the mode (size
 * mod 4: the default, --call-graph with a small path table, --count-only,
 * --time-all --trace 'main\.'), so a seed is tried in every mode by its
 * mutations. A written output must read back as an ELF. Every input must
 * end in a clean error or an output; the sanitizers turn anything else
 * into a crash report. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "elf/elf_read.h"
#include "rewriter/rewrite.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[64], in_path[96], out_path[96];
static FILE *devnull;

static void remove_dir(void)
{
    rmdir(dir);
}

static int setup(void)
{
    if (dir[0])
        return 0;
    snprintf(dir, sizeof dir, "/tmp/fuzz_rewrite.XXXXXX");
    if (!mkdtemp(dir) || !(devnull = fopen("/dev/null", "w")))
        return -1;
    snprintf(in_path, sizeof in_path, "%s/in", dir);
    snprintf(out_path, sizeof out_path, "%s/out", dir);
    atexit(remove_dir);
    return 0;
}

static void options_for(size_t size, struct gr_options *opt)
{
    static const char *trace_main = "main\\.";
    memset(opt, 0, sizeof *opt);
    opt->max_rows = 4;
    opt->trace_bytes = 16;
    opt->trace_buffer = 1 << 16;
    switch (size % 4) {
    case 1:
        opt->timing.mode = GS_MODE_CALL_GRAPH;
        opt->max_paths = 64;
        break;
    case 2:
        opt->timing.mode = GS_MODE_COUNT;
        break;
    case 3:
        opt->timing.mode = GS_MODE_EVERY_CALL;
        opt->trace[0] = trace_main;
        opt->ntrace = 1;
        break;
    }
}

static int write_input(const uint8_t *data, size_t size)
{
    FILE *f = fopen(in_path, "wb");
    if (!f)
        return -1;
    int ok = fwrite(data, 1, size, f) == size;
    return fclose(f) == 0 && ok ? 0 : -1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (setup() < 0 || write_input(data, size) < 0)
        abort();   /* the harness's own failure, not a finding */
    struct gr_options opt;
    options_for(size, &opt);
    struct gr_result res;
    struct gr_error err;
    if (gr_rewrite(in_path, out_path, &opt, devnull, &res, &err) == 0) {
        struct gr_elf out;
        if (gr_elf_read(out_path, &out, &err) < 0) {
            fprintf(stderr, "fuzz_rewrite: the output does not read back: %s\n", err.msg);
            abort();
        }
        gr_elf_free(&out);
    } else if (getenv("FUZZ_VERBOSE")) {
        fprintf(stderr, "rejected: %s\n", err.msg);
    }
    unlink(out_path);
    unlink(in_path);
    return 0;
}
