/* cmd_pprof.c: "gostat pprof": a stats file as a pprof profile. */
#include "commands.h"
#include "export.h"
#include "pprof.h"

#include <inttypes.h>

static void usage(FILE *out)
{
    fprintf(out,
        "usage: gostat pprof [-o FILE] [--filter REGEX] PID|FILE\n"
        "\n"
        "Writes the call counts and times of a stats file (a live process's\n"
        "counters at this moment, or an exited one's final ones) as a pprof\n"
        "profile: gzipped profile.proto, for `go tool pprof FILE`.\n"
        "\n"
        "  -o, --output FILE  write FILE (- for standard output); default\n"
        "                     pprof.<exe>.<pid>.pb.gz in the current directory.\n"
        "                     FILE is replaced at once when complete; on error\n"
        "                     nothing is written\n"
        "  --filter REGEX     only functions whose name matches (POSIX extended)\n"
        "  -h, --help         this text\n"
        "\n"
        "The profile has one sample per function called at least once, with two\n"
        "values: calls/count, the exact number of calls (the default sample type:\n"
        "it adds up the way pprof adds samples), and time/nanoseconds, the total\n"
        "time of those calls (-sample_index=time). The times are INCLUSIVE: a\n"
        "function's time includes its callees'. A sample has no call stack, so\n"
        "pprof shows that inclusive time as flat (flat equals cum), and totals and\n"
        "percentages count nested calls more than once. Functions without a time\n"
        "(untimed, or timing off) have time 0 and the label untimed=REASON\n"
        "(-tags shows them). time_nanos is the process's start; the duration is\n"
        "its run time so far for a live process, unset for an exited one.\n"
        "\n"
        "exit status: 0 ok, 1 usage error, 2 stats file missing, unreadable or\n"
        "invalid, or FILE could not be written\n");
}

static void default_path(const struct gst_stats *st, char *buf, size_t len)
{
    char base[256];
    gst_export_exe_base(st, base, sizeof base);
    snprintf(buf, len, "pprof.%s.%" PRId64 ".pb.gz", base, st->hdr.pid);
}

static const struct gst_exporter pprof_exporter = {
    .name = "pprof",
    .usage = usage,
    .default_path = default_path,
    .write = gst_pprof_write,
};

int gst_cmd_pprof(int argc, char **argv)
{
    return gst_export_main(argc, argv, &pprof_exporter);
}
