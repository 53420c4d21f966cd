/* options.c: the command line of "gostat [options] [PID|FILE]" (the
 * table command): its option table, and the checks of what goes
 * together. */
#include "gostat/cmd/options.h"
#include "gostat/cmd/cmdline.h"

#include "gostat/cmd/commands.h"
#include "gostat/read/statsdir.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

static const struct gr_opt_choice sorts[] = {
    { "calls", GST_SORT_CALLS }, { "name", GST_SORT_NAME }, { "time", GST_SORT_TIME },
    { "self", GST_SORT_SELF }, { "cum", GST_SORT_CUM }, { "oncpu", GST_SORT_ONCPU }, { NULL, 0 },
};

static const struct gr_opt table_opts[] = {
    { "top", 0, "N", GR_OPT_UINT, GR_OPT_AT(struct gst_options, top), .min = 1, .max = (double)SIZE_MAX,
      .bad = "--top needs a positive whole number, not '%s'",
      .help = GR_OPT_HELP("show only the first N functions"),
      .man =
          "Only the first\n"
          ".I N\n"
          "functions.\n" },
    { "sort", 0, "calls|name|time|self|cum|oncpu", GR_OPT_CHOICE, GR_OPT_AT(struct gst_options, sort),
      .choices = sorts, .bad = "--sort takes 'calls', 'name', 'time', 'self', 'cum' or 'oncpu', not '%s'",
      .help = GR_OPT_HELP("", "most calls first (default), by name, most total",
                          "time first (files built for timing), most self",
                          "time first (time outside timed callees), most cum",
                          "time first (inclusive time counted once per call",
                          "stack, as pprof's cum), or most on-CPU time first",
                          "(total less the time descheduled); self and cum are",
                          "recorded only with gorewrite --call-graph: other",
                          "files are refused"),
      .man =
          "Most calls first (default), by name, most total time first, most self\n"
          "time first, most cum time first (inclusive time counted once per call\n"
          "stack however deep a function recurses in it, as pprof's cum; files built\n"
          "with gorewrite --call-graph), or most on-CPU time first (total time less\n"
          "the time the calls' goroutines were descheduled). Self and cum are recorded\n"
          "only with gorewrite --call-graph: sorting another file by them is refused.\n" },
    { "runtime", 0, NULL, GR_OPT_FLAG, GR_OPT_AT(struct gst_options, runtime),
      .help = GR_OPT_HELP("with --sort oncpu, keep the scheduler's idle functions",
                          "(findRunnable, stopm, notesleep, ...: they sleep on an",
                          "M's own stack, which reads as on-CPU)"),
      .man =
          "With\n"
          ".BR \"\\-\\-sort oncpu\" ,\n"
          "keep the scheduler's idle functions (runtime.findRunnable, stopm, mPark,\n"
          "notesleep, futexsleep, netpoll, usleep and the like), which are otherwise left out with a\n"
          "line saying how many: an idle thread waits for work in them on its own\n"
          "stack, where nothing is descheduled, so their sleep reads as on-CPU time.\n" },
    { "filter", 0, "REGEX", GR_OPT_STRING, GR_OPT_AT(struct gst_options, filter),
      .help = GR_OPT_HELP("only functions whose name matches (POSIX extended regex)"),
      .man =
          "Only functions whose name matches the POSIX extended regular expression.\n" },
    { "nonzero", 0, NULL, GR_OPT_FLAG, GR_OPT_AT(struct gst_options, nonzero),
      .help = GR_OPT_HELP("table: hide functions with zero calls (JSON shows all)"),
      .man =
          "Table only: hide functions never called.\n" },
    GST_WIDE_OPTION(struct gst_options),
    { "watch", 0, "SECONDS", GR_OPT_DOUBLE, GR_OPT_AT(struct gst_options, watch_seconds),
      .min = 0, .open_min = 1, .max = 86400,
      .bad = "--watch needs a number of seconds (0 < SECONDS <= 86400), not '%s'",
      .help = GR_OPT_HELP("refresh every SECONDS with a calls/s column, until the",
                          "process exits or Ctrl-C"),
      .man =
          "Print the table again every\n"
          ".I SECONDS\n"
          "with a CALLS/S column, until the process exits or Ctrl-C.\n" },
    { "json", 0, NULL, GR_OPT_FLAG, GR_OPT_AT(struct gst_options, json),
      .help = GR_OPT_HELP("print JSON instead of a table"),
      .man =
          "One JSON object instead: pid, exe, live, build_id, go_version,\n"
          "start_time_ns, total_calls, timing, mode (count-only, sampled, time-all or\n"
          "call-graph: how the program was built), timing_mode (count-only, time-all,\n"
          "default or sample; call-graph files read time-all), sample_every (0 in the\n"
          "default mode, 1 when every call is timed), tsc_hz, clock_source,\n"
          "probe_cost_ns (the start-up calibration that every duration is compensated\n"
          "by: timed, timed_inside, untimed; and sampled, the mean probe of the sampled\n"
          "modes' timed calls as measured in the run, which is what they are\n"
          "compensated by, null when none was; null when uncompensated),\n"
          "drops, goroutines (created, exited, live; null when unknown), call_paths\n"
          "(recorded: true with max_paths, max_arcs, nodes, arcs,\n"
          "path_overflow_calls, overflow_calls, fullest_paths and fullest_arcs\n"
          "(entries in use in the fullest thread's tables), threads_with_paths and,\n"
          "when calls overflowed the paths, suggested_max_paths (a --max-paths to\n"
          "rebuild with: at least twice the table and what the fullest thread needed) for\n"
          ".B \"gorewrite \\-\\-call\\-graph\"\n"
          "programs; else recorded: false and why) and\n"
          "functions (name, entry, calls, file, line, inlined, timed,\n"
          "untimed_reason, timed_calls (calls actually timed), time_estimated (true\n"
          "when not every call was timed: total_ns is then mean x calls), total_ns,\n"
          "mean_ns, p50_ns, p90_ns, p99_ns, min_ns, max_ns, and with call paths\n"
          "self_ns, cum_ns (inclusive time counted once per call stack, as pprof's cum;\n"
          "null with cum_exceeds_total true when it would exceed total_ns, a defect:\n"
          "time of calls that never returned; the table shows ! there)\n"
          "and callers: name, entry (null when the return address is in no\n"
          "function), calls and total_ns per calling function). Every function is listed, also those never called.\n" },
    { "callers", 0, "FUNC", GR_OPT_STRING, GR_OPT_AT(struct gst_options, callers),
      .help = GR_OPT_HELP("who called FUNC (a REGEX, as --filter): per caller its",
                          "exact calls, their total time and the share of FUNC's",
                          "calls and time (files built with gorewrite --call-graph)"),
      .man =
          "For each function whose name matches\n"
          ".I FUNC\n"
          "(a POSIX extended regular expression, like\n"
          ".BR \\-\\-filter ),\n"
          "its callers, gprof-style: per caller the exact calls, the total\n"
          "(inclusive) time of the function through that caller, and their shares of\n"
          "the function's calls and time; calls in no arc (the program's path and arc\n"
          "tables full, or calls that did not return normally or not yet) are a line\n"
          "of their own. Needs a file of a program\n"
          "instrumented with\n"
          ".BR \"gorewrite \\-\\-call\\-graph\" ;\n"
          "otherwise exit status 2 with \"built without \\-\\-call\\-graph: no call graph\".\n" },
    { "callees", 0, "FUNC", GR_OPT_STRING, GR_OPT_AT(struct gst_options, callees),
      .help = GR_OPT_HELP("whom FUNC called, likewise; with --callers, both"),
      .man =
          "Likewise, the functions it called, most calls first, with shares of the\n"
          "calls it made to timed functions and of its own total time. With\n"
          ".B \\-\\-callers\n"
          "(the same\n"
          ".IR FUNC ),\n"
          "both.\n" },
    /* a flag, not GR_OPT_STOP: "gostat --help --bogus" is an error */
    { "help", 'h', NULL, GR_OPT_FLAG, GR_OPT_AT(struct gst_options, help),
      .help = GR_OPT_HELP("this text"),
      .man =
          "The usage text, with the list of commands.\n" },
    /* main.c answers "gostat --version" alone */
    { "version", 0, NULL, GR_OPT_DOC,
      .help = GR_OPT_HELP("gostat's version and the stats file format it reads"),
      .man =
          "gostat's version and the stats file format version it reads.\n" },
};

const struct gr_opt_table gst_table_options = {
    .program = "gostat",
    .intro =
        "usage: gostat [PID|FILE] [options]\n"
        "       gostat COMMAND [ARGS]   (gostat COMMAND --help for each)\n"
        "\n"
        "  gostat                  list stats files in $GOSTAT_DIR (default " GST_DEFAULT_DIR ")\n"
        "  gostat PID|FILE         per-function call counts (and times), most-called first\n"
        "  gostat --json PID|FILE  the same as one JSON object\n"
        "\n"
        "A PID selects gostat.<exe>.<pid>[.<n>] in $GOSTAT_DIR (the newest live one).\n"
        "A file named like a command or a number needs a path: ./top, ./123.\n"
        "The summary line (and JSON) shows goroutines created, exited and live,\n"
        "from the calls of runtime.newproc1 and runtime.goexit1.\n"
        "\n"
        "options (with PID|FILE):\n",
    .outro =
        "\n"
        "commands:\n",
    GR_OPT_TABLE_OPTS(table_opts),
    .min_operands = 0, .max_operands = 1,
    .too_many = "unexpected argument '%s': give one PID or FILE",
    .column = 20,
    .long_indent = 2,
};

void gst_print_usage(FILE *out)
{
    gr_opt_print_help(out, &gst_table_options);
    gst_commands_print(out);
    fprintf(out,
        "\n"
        "exit status: 0 ok, 1 usage error, 2 stats file missing, unreadable or invalid\n"
        "(gostat diff --fail-on-regression: 3 when a regression is found)\n");
}

/* Returns the name of an option given that only makes sense with a
 * target, or NULL. */
static const char *option_needing_target(const struct gst_options *o)
{
    if (o->json)
        return "--json";
    if (o->watch_seconds > 0)
        return "--watch";
    if (o->top)
        return "--top";
    if (o->filter)
        return "--filter";
    if (o->nonzero)
        return "--nonzero";
    if (o->callers)
        return "--callers";
    if (o->callees)
        return "--callees";
    return NULL;
}

static int parse_error(const struct gr_opt_result *r, struct gr_error *err)
{
    char bad[sizeof err->msg];
    switch (r->status) {
    case GR_OPT_MISSING:
        return gr_fail_as(err, GR_ERR_USAGE, "--%s needs a value (see gostat --help)", r->opt->name);
    case GR_OPT_UNKNOWN:
        if (r->letter)
            return gr_fail_as(err, GR_ERR_USAGE, "unknown option '-%c' (see gostat --help)", r->letter);
        return gr_fail_as(err, GR_ERR_USAGE, "unknown option '%s' (see gostat --help)", r->word);
    default:
        gr_opt_bad_message(r, bad, sizeof bad);
        return gr_fail_as(err, GR_ERR_USAGE, "%s", bad);
    }
}

static int check_combination(const struct gst_options *o, struct gr_error *err)
{
    const char *needs = option_needing_target(o);
    if (!o->target && needs)
        return gr_fail_as(err, GR_ERR_USAGE, "%s needs a PID or FILE (see gostat --help)", needs);
    if (o->json && o->watch_seconds > 0)
        return gr_fail_as(err, GR_ERR_USAGE, "--watch and --json cannot be combined");
    const char *arcs = o->callers ? "--callers" : o->callees ? "--callees" : NULL;
    if (arcs && (o->json || o->watch_seconds > 0 || o->filter || o->nonzero))
        return gr_fail_as(err, GR_ERR_USAGE, "%s cannot be combined with %s", arcs,
                          o->json ? "--json" : o->watch_seconds > 0 ? "--watch"
                          : o->filter ? "--filter" : "--nonzero");
    if (o->callers && o->callees && strcmp(o->callers, o->callees) != 0)
        return gr_fail_as(err, GR_ERR_USAGE, "--callers and --callees together need the same FUNC");
    return 0;
}

int gst_parse_options(int argc, char **argv, struct gst_options *o, struct gr_error *err)
{
    struct gr_opt_result r;

    memset(o, 0, sizeof *o);
    if (gr_opt_parse(&gst_table_options, argc, argv, o, &r) != GR_OPT_DONE)
        return parse_error(&r, err);
    if (o->help)
        return 0;
    if (argc - r.next > gst_table_options.max_operands) {
        char what[sizeof err->msg];
        snprintf(what, sizeof what, gst_table_options.too_many, argv[r.next + 1]);
        return gr_fail_as(err, GR_ERR_USAGE, "%s", what);
    }
    if (r.next < argc)
        o->target = argv[r.next];
    return check_combination(o, err);
}
