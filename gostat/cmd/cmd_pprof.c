/* cmd_pprof.c: "gostat pprof": a stats file as a pprof profile. */
#include "gostat/cmd/cmdline.h"
#include "gostat/cmd/commands.h"
#include "gostat/cmd/export.h"
#include "gostat/render/pprof.h"

#include <inttypes.h>

static const struct gr_opt pprof_opts[] = {
    { "output", 'o', "FILE", GR_OPT_STRING, GR_OPT_AT(struct gst_export_args, output),
      .help = GR_OPT_HELP("write FILE (- for standard output); default",
                          "pprof.<exe>.<pid>.pb.gz in the current directory.",
                          "FILE is replaced at once when complete; on error",
                          "nothing is written"),
      .man =
          "Write\n"
          ".I FILE\n"
          "(\\fB\\-\\fR for standard output; default\n"
          ".BI pprof. exe . pid .pb.gz\n"
          "in the current directory), replaced at once when complete.\n" },
    GST_EXPORT_FILTER_OPTION,
    GST_HELP_OPTION,
};

const struct gr_opt_table gst_pprof_options = {
    .program = "gostat pprof",
    .intro =
        "usage: gostat pprof [-o FILE] [--filter REGEX] PID|FILE\n"
        "\n"
        "Writes the call counts and times of a stats file (a live process's\n"
        "counters at this moment, or an exited one's final ones) as a pprof\n"
        "profile: gzipped profile.proto, for `go tool pprof FILE`.\n"
        "\n",
    .outro =
        "\n"
        "Samples have two values: calls/count, exact numbers of calls (the default\n"
        "sample type), and time/nanoseconds (-sample_index=time).\n"
        "With call paths (programs instrumented with gorewrite --call-graph), one\n"
        "sample per calling context: its stack is the path from the goroutine's\n"
        "first timed call (leaf first), its values the calls of its last function\n"
        "through that path and their SELF time. So flat is self time and cum\n"
        "inclusive time (-top), -peek and -traces show callers, callees and\n"
        "paths, -svg and -http draw the call graph and a flame graph. A caller\n"
        "that ran untimed between two timed calls is a frame of its own. Calls\n"
        "whose path did not fit in the program's path tables are one sample\n"
        "'(path overflow)' with time 0. A path deeper than 64 frames keeps its\n"
        "64 innermost under a root frame '(truncated)', as Go's CPU profiles cap\n"
        "stack depth (a comment says how many). With --filter, paths ending in a matching\n"
        "function are kept.\n"
        "Without paths (other modes), one sample per function called at least\n"
        "once, its only location the function itself, its time INCLUSIVE of its\n"
        "callees': pprof shows it as flat (flat equals cum), and totals and\n"
        "percentages count nested calls more than once.\n"
        "Functions without a time (untimed, or timing off) are samples of their\n"
        "own, time 0 and the label untimed=REASON (-tags shows them). time_nanos is the process's start; the duration is\n"
        "its run time so far for a live process, unset for an exited one.\n"
        "\n"
        "exit status: 0 ok, 1 usage error, 2 stats file missing, unreadable or\n"
        "invalid, or FILE could not be written\n",
    GR_OPT_TABLE_OPTS(pprof_opts),
    .min_operands = 1, .max_operands = 1,
    .too_few = "missing PID|FILE", .too_many = "unexpected argument '%s'",
    .column = 21,
    .long_indent = 2,
};

static void default_path(const struct gst_stats *st, char *buf, size_t len)
{
    char base[256];
    gst_export_exe_base(st, base, sizeof base);
    snprintf(buf, len, "pprof.%s.%" PRId64 ".pb.gz", base, st->hdr.pid);
}

static const struct gst_exporter pprof_exporter = {
    .name = "pprof",
    .options = &gst_pprof_options,
    .default_path = default_path,
    .write = gst_pprof_write,
};

int gst_cmd_pprof(int argc, char **argv)
{
    return gst_export_main(argc, argv, &pprof_exporter);
}
