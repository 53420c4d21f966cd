/* cmd_folded.c: "gostat folded": a stats file's calling contexts as folded
 * stacks for flame graph tools (out/folded.c). */
#include "gostat/model/callgraph.h"
#include "gostat/cmd/cmdline.h"
#include "gostat/cmd/commands.h"
#include "gostat/cmd/exitcode.h"
#include "gostat/render/folded.h"
#include "gostat/render/outfile.h"
#include "gostat/read/target.h"

#include <inttypes.h>
#include <string.h>

struct folded_args {
    const char *target;
    const char *output;        /* "-" (default): stdout */
    enum gst_folded_value value;
};

static const struct gr_opt_choice folded_values[] = {
    { "self", GST_FOLDED_SELF }, { "calls", GST_FOLDED_CALLS }, { "time", GST_FOLDED_TIME },
    { "oncpu", GST_FOLDED_ONCPU }, { NULL, 0 },
};

static const struct gr_opt folded_opts[] = {
    { "value", 0, "self", GR_OPT_CHOICE, GR_OPT_AT(struct folded_args, value),
      .choices = folded_values, .bad = "--value takes self, calls, time or oncpu, not '%s'",
      .help = GR_OPT_HELP("(default) the path's self time in ns: the time in its",
                          "last function itself, outside its timed callees. Tools",
                          "add a path's value to every frame on it, so a frame's",
                          "width is its inclusive time"),
      .man =
          "(default) the path's self time in ns: a flame graph's widths are then\n"
          "inclusive times.\n" },
    { "value", 0, "calls", GR_OPT_DOC,
      .help = GR_OPT_HELP("the calls of the path's last function through it: a",
                          "frame's width counts the calls made under it"),
      .man =
          "the calls of the path's last function through it. Calls whose path did\n"
          "not fit in the program's path tables are one last line\n"
          ".BI \"(path overflow) \" N\\fR.\n" },
    { "value", 0, "time", GR_OPT_DOC,
      .help = GR_OPT_HELP("the path's inclusive time in ns: to read per path",
                          "(not for flame graphs: nested paths would count twice)"),
      .man =
          "the path's inclusive time in ns (nested paths count twice in a flame\n"
          "graph).\n" },
    { "value", 0, "oncpu", GR_OPT_DOC,
      .help = GR_OPT_HELP("the path's on-CPU self time in ns (its self time less",
                          "the time its goroutine was descheduled): a flame",
                          "graph of on-CPU time"),
      .man =
          "the path's on-CPU self time in ns: its on-CPU time (total less the time\n"
          "its goroutine was descheduled) less its timed callees'. A flame graph's\n"
          "widths are then inclusive on-CPU times. Files without on-CPU time are\n"
          "refused.\n" },
    { "output", 'o', "FILE", GR_OPT_STRING, GR_OPT_AT(struct folded_args, output),
      .help = GR_OPT_HELP("write FILE (default - : standard output), replaced at",
                          "once when complete"),
      .man =
          "Write\n"
          ".I FILE\n"
          "(default standard output), replaced at once when complete.\n" },
    GST_HELP_OPTION,
};

const struct gr_opt_table gst_folded_options = {
    .program = "gostat folded",
    .intro =
        "usage: gostat folded [-o FILE] [--value self|calls|time|oncpu] PID|FILE\n"
        "\n"
        "Writes the calling contexts (call paths) of a program instrumented with\n"
        "gorewrite --call-graph as folded stacks, one line per path:\n"
        "  runtime.main;main.main;main.work;main.busy 1234567\n"
        "root first, then the value: the input of flamegraph.pl, speedscope and\n"
        "inferno (`gostat folded FILE | flamegraph.pl > flame.svg`).\n"
        "\n",
    .outro =
        "\n"
        "Frames are timed functions; a function that called a timed one from\n"
        "untimed code is a frame of its own between them, and a goroutine's first\n"
        "timed call starts with its caller ((unknown) outside Go code). Lines\n"
        "whose value rounds to 0 are left out. In a name, ';' becomes ',' and\n"
        "control characters '?'. Calls whose path did not fit in the program's\n"
        "path tables are in no path: with --value calls they are one last line\n"
        "\"(path overflow) N\"; otherwise their count goes to stderr. A path\n"
        "deeper than 64 frames keeps its 64 innermost under a first frame\n"
        "\"(truncated)\", as Go's CPU profiles cap stack depth (so the output\n"
        "grows with the paths, not with their depth squared).\n"
        "\n"
        "exit status: 0 ok, 1 usage error, 2 stats file missing, unreadable or\n"
        "invalid, built without --call-graph, or FILE could not be written\n",
    GR_OPT_TABLE_OPTS(folded_opts),
    .min_operands = 1, .max_operands = 1,
    .too_few = "missing PID|FILE", .too_many = "unexpected argument '%s'",
    .column = 17,
    .long_indent = 2,
};

static int write_folded(const struct folded_args *a, const struct gst_callgraph *cg,
                        struct gr_error *err)
{
    struct gst_outfile o;
    if (gst_outfile_open(&o, a->output, err) < 0)
        return -1;
    if (gst_folded_write(o.fp, cg, a->value, err) < 0) {
        gst_outfile_abort(&o);
        return -1;
    }
    return gst_outfile_commit(&o, err);
}

static int run(const struct folded_args *a, const struct gst_stats *st, struct gr_error *err)
{
    struct gst_callgraph cg;
    if (a->value == GST_FOLDED_ONCPU && !st->oncpu)
        return gr_fail(err, "%s: no on-CPU time recorded (built before it existed, or the "
                       "scheduler's hand-offs were not found): use --value self", st->path);
    if (gst_callgraph_build(st, &(struct gst_cg_request){ .required = true }, &cg, err) < 0)
        return -1;
    int rc = write_folded(a, &cg, err);
    uint64_t in_no_path = cg.path_overflow_calls;   /* holds overflow_calls */
    if (rc == 0 && in_no_path > 0 && a->value != GST_FOLDED_CALLS)
        fprintf(stderr, "gostat: folded: %" PRIu64 " calls did not fit in the path tables "
                "(at most %" PRIu64 " paths per thread, the fullest thread's held %" PRIu64
                "): %s\n", in_no_path, cg.max_paths, cg.path_fill.fullest,
                a->value == GST_FOLDED_SELF ? "their self time is the '(path overflow)' line"
                                            : "their time is in no line");
    gst_callgraph_free(&cg);
    return rc;
}

int gst_cmd_folded(int argc, char **argv)
{
    struct folded_args a = { .output = "-", .value = GST_FOLDED_SELF };
    struct gr_error err;
    struct gst_stats st;
    int next;
    int status = gst_parse_command(&gst_folded_options, argc, argv, &a, &next);
    if (status >= 0)
        return status;
    a.target = argv[next];
    if (gst_open_target(a.target, &st, &err) < 0) {
        fprintf(stderr, "gostat: %s\n", err.msg);
        return gr_error_exit_status(err.kind);
    }
    int rc = run(&a, &st, &err);
    gst_stats_close(&st);
    if (rc < 0) {
        fprintf(stderr, "gostat: %s\n", err.msg);
        return gr_error_exit_status(err.kind);
    }
    return GST_EXIT_OK;
}
