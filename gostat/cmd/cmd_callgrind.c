/* cmd_callgrind.c: "gostat callgrind": a stats file in the Callgrind
 * format. */
#include "gostat/render/callgrind.h"
#include "gostat/cmd/cmdline.h"
#include "gostat/cmd/commands.h"
#include "gostat/cmd/export.h"

#include <inttypes.h>

static const struct gr_opt callgrind_opts[] = {
    { "output", 'o', "FILE", GR_OPT_STRING, GR_OPT_AT(struct gst_export_args, output),
      .help = GR_OPT_HELP("write FILE (- for standard output); default",
                          "callgrind.out.<pid> in the current directory, the",
                          "name KCachegrind looks for. FILE is replaced at once",
                          "when complete; on error nothing is written"),
      .man =
          "Write\n"
          ".I FILE\n"
          "(\\fB\\-\\fR for standard output; default\n"
          ".BI callgrind.out. pid\n"
          "in the current directory, the name KCachegrind looks for).\n" },
    GST_EXPORT_FILTER_OPTION,
    GST_HELP_OPTION,
};

const struct gr_opt_table gst_callgrind_options = {
    .program = "gostat callgrind",
    .intro =
        "usage: gostat callgrind [-o FILE] [--filter REGEX] PID|FILE\n"
        "\n"
        "Writes the call counts and times of a stats file (a live process's\n"
        "counters at this moment, or an exited one's final ones) in the Callgrind\n"
        "format, for callgrind_annotate and KCachegrind.\n"
        "\n",
    .outro =
        "\n"
        "Each function called at least once has one cost line, at its source file\n"
        "and line, with two events: Calls, the exact number of calls, and TimeNs,\n"
        "time in nanoseconds.\n"
        "With a call graph (programs instrumented with gorewrite --call-graph),\n"
        "TimeNs is the function's SELF time (outside its timed callees), and each\n"
        "caller -> callee arc is a call (cfn=, calls=N) with the exact calls and\n"
        "the callee's inclusive time through that arc, so callgrind_annotate\n"
        "(inclusive costs, --tree=caller|calling) and KCachegrind's call graph\n"
        "show them. A call's Calls count the callee's calls through the arc, not\n"
        "its callees'. Callers not written otherwise (untimed, not instrumented,\n"
        "(unknown) outside Go code) have a block with zero self cost.\n"
        "Without a call graph (other modes) TimeNs is INCLUSIVE: a function's time\n"
        "includes its callees', the readers show it as self cost, and totals and\n"
        "percentages count nested calls more than once.\n"
        "Functions without a time (untimed, or timing off) have TimeNs 0. Control\n"
        "characters in names become '?' and invalid UTF-8 U+FFFD, so every name\n"
        "stays on its line.\n"
        "\n"
        "exit status: 0 ok, 1 usage error, 2 stats file missing, unreadable or\n"
        "invalid, or FILE could not be written\n",
    GR_OPT_TABLE_OPTS(callgrind_opts),
    .min_operands = 1, .max_operands = 1,
    .too_few = "missing PID|FILE", .too_many = "unexpected argument '%s'",
    .column = 21,
    .long_indent = 2,
};

static void default_path(const struct gst_stats *st, char *buf, size_t len)
{
    snprintf(buf, len, "callgrind.out.%" PRId64, st->hdr.pid);
}

static int write_callgrind(FILE *out, const char *path, const struct gst_stats *st,
                           const struct gst_view *view, const struct gst_callgraph *cg,
                           struct gr_error *err)
{
    (void)path;
    return gst_callgrind_write(out, st, view, cg, err);
}

static const struct gst_exporter callgrind_exporter = {
    .name = "callgrind",
    .options = &gst_callgrind_options,
    .default_path = default_path,
    .write = write_callgrind,
};

int gst_cmd_callgrind(int argc, char **argv)
{
    return gst_export_main(argc, argv, &callgrind_exporter);
}
