/* cmd_diff.c: "gostat diff BASE NEW": the functions whose calls or time
 * per call changed by a factor of --threshold or more, beyond the run-to-run
 * spread, as a table or JSON; in CI, --fail-on-regression turns growth into
 * exit status 3. */
#include "gostat/cmd/cmdline.h"
#include "common/regex_compile.h"
#include "gostat/cmd/commands.h"
#include "gostat/cmd/exitcode.h"
#include "gostat/profile/profdiff.h"
#include "gostat/profile/profdiff_out.h"
#include "gostat/profile/profile.h"
#include "gostat/profile/profile_load.h"
#include "gostat/profile/psites.h"
#include "gostat/render/term.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

struct diff_cli {
    struct gst_diff_options diff;
    bool json, fail_on_regression, wide;
    const char *base, *next;
    const char *filter;        /* --filter, or NULL */
    double min_time_ms;        /* --min-time */
};

static const struct gr_opt_choice metrics[] = {
    { "calls", GST_METRIC_CALLS }, { "time", GST_METRIC_TIME }, { "both", GST_METRIC_BOTH },
    { NULL, 0 },
};

static const struct gr_opt diff_opts[] = {
    { "threshold", 't', "X", GR_OPT_DOUBLE, GR_OPT_AT(struct diff_cli, diff.threshold),
      .min = 1, .open_min = 1, .max = HUGE_VAL,
      .bad = "--threshold wants a number > 1, got '%s'",
      .help = GR_OPT_HELP("the factor, a number > 1 (default 1.5): grew when",
                          "NEW >= X * BASE, shrank when BASE >= X * NEW"),
      .man =
          "The factor, above 1 (default 1.5): grew when NEW >= X * BASE, shrank when\n"
          "BASE >= X * NEW. A function made 2x slower measures 1.8-2x (the probe's\n"
          "and the call's own cost do not double), hence 1.5.\n" },
    { "min-calls", 'm', "N", GR_OPT_UINT, GR_OPT_AT(struct diff_cli, diff.min_calls),
      .min = 0, .max = (double)UINT64_MAX,
      .bad = "--min-calls wants a whole number >= 0, got '%s'",
      .help = GR_OPT_HELP("ignore functions with fewer than N calls in both",
                          "(default 0: none ignored), to keep rare ones quiet"),
      .man =
          "Ignore functions with fewer than\n"
          ".I N\n"
          "calls in both profiles.\n" },
    { "metric", 0, "WHICH", GR_OPT_CHOICE, GR_OPT_AT(struct diff_cli, diff.metric),
      .choices = metrics, .bad = "--metric wants calls, time or both, got '%s'",
      .help = GR_OPT_HELP("calls, time or both (default both): which changes",
                          "count"),
      .man =
          "Which changes count (default both). Calls are exact on every machine;\n"
          "times depend on the machine.\n" },
    { "sigma", 0, "Z", GR_OPT_DOUBLE, GR_OPT_AT(struct diff_cli, diff.sigma),
      .min = 0, .max = HUGE_VAL,
      .bad = "--sigma wants a number >= 0, got '%s'",
      .help = GR_OPT_HELP("a change must also lie Z standard errors beyond the",
                          "run-to-run spread (default 5; 0: every change by X",
                          "counts); see below"),
      .man =
          "A change must also lie\n"
          ".I Z\n"
          "standard errors beyond the run-to-run spread (default 5); 0 turns the\n"
          "spread rule off, so that every change by the factor counts.\n" },
    { "min-timed", 0, "N", GR_OPT_UINT, GR_OPT_AT(struct diff_cli, diff.min_timed),
      .min = 0, .max = (double)UINT64_MAX,
      .bad = "--min-timed wants a whole number >= 0, got '%s'",
      .help = GR_OPT_HELP("time per call is compared only with N or more calls",
                          "timed in both (default 100)"),
      .man =
          "Time per call is compared only where both profiles timed\n"
          ".I N\n"
          "or more calls (default 100).\n" },
    { "min-time", 0, "MS", GR_OPT_DOUBLE, GR_OPT_AT(struct diff_cli, min_time_ms),
      .min = 0, .max = HUGE_VAL,
      .bad = "--min-time wants milliseconds >= 0, got '%s'",
      .help = GR_OPT_HELP("... and with a total time of MS milliseconds or more",
                          "in both (default 1)"),
      .man =
          "Time per call is compared only where the function's total time is\n"
          ".I MS\n"
          "milliseconds or more in both profiles (default 1).\n" },
    { "min-delta", 0, "NS", GR_OPT_DOUBLE, GR_OPT_AT(struct diff_cli, diff.min_delta_ns),
      .min = 0, .max = HUGE_VAL,
      .bad = "--min-delta wants nanoseconds >= 0, got '%s'",
      .help = GR_OPT_HELP("... and where the time per call moved by NS",
                          "nanoseconds or more (default 100: about what a",
                          "probe costs, which moves with the machine's load)"),
      .man =
          "Time per call changes only where it (the median, else the mean) moved by\n"
          ".I NS\n"
          "nanoseconds or more (default 100): below, a probe's own cost, which\n"
          "moves with the machine's load, dominates.\n" },
    { "runtime", 0, NULL, GR_OPT_FLAG, GR_OPT_AT(struct diff_cli, diff.runtime),
      .help = GR_OPT_HELP("also count changes of the runtime's functions",
                          "(runtime.*, runtime/*, internal/*, and pkg.runtime_X it",
                          "lends a standard package, e.g. sync.runtime_doSpin), whose calls and",
                          "times follow garbage collections and scheduling"),
      .man =
          "Also count changes of the Go runtime's functions (runtime.*, runtime/*,\n"
          "internal/*, and the pkg.runtime_X it lends a standard package, such as\n"
          "sync.runtime_doSpin); by default their changes never count, as their calls and\n"
          "times follow garbage collections and scheduling more than the program.\n" },
    { "filter", 0, "REGEX", GR_OPT_STRING, GR_OPT_AT(struct diff_cli, filter),
      .help = GR_OPT_HELP("compare only functions whose name matches REGEX",
                          "(POSIX extended, unanchored), e.g. your own code's",
                          "'^example\\.com/app/': the runtime's counts vary",
                          "from run to run (garbage collections, scheduling)"),
      .man =
          "Compare only functions whose name matches.\n" },
    { "json", 'j', NULL, GR_OPT_FLAG, GR_OPT_AT(struct diff_cli, json),
      .help = GR_OPT_HELP("JSON instead of the table"),
      .man =
          "JSON instead of the table.\n" },
    { "fail-on-regression", 0, NULL, GR_OPT_FLAG, GR_OPT_AT(struct diff_cli, fail_on_regression),
      .help = GR_OPT_HELP("", "exit 3 when any function's calls or time per call",
                          "grew by X or more (changes that count: beyond the",
                          "spread, after --min-calls)"),
      .man =
          "Exit with status 3 when a function's calls or time per call grew by the\n"
          "factor or more, beyond the spread; the worst one is named on standard\n"
          "error.\n" },
    GST_WIDE_OPTION(struct diff_cli),
    GST_HELP_OPTION,
};

const struct gr_opt_table gst_diff_options = {
    .program = "gostat diff",
    .intro =
        "usage: gostat diff [--threshold X] [--min-calls N] [--metric calls|time|both]\n"
        "                   [--sigma Z] [--min-timed N] [--min-time MS]\n"
        "                   [--min-delta NS] [--runtime] [--wide]\n"
        "                   [--filter REGEX] [--json] [--fail-on-regression] BASE NEW\n"
        "\n"
        "Compares two profiles function by function and lists those whose calls\n"
        "or time per call changed by a factor of X or more, either way, beyond the\n"
        "spread two runs of the same program and input show. BASE and NEW\n"
        "are each a PID, a stats file, or JSON from gostat --json or gostat merge\n"
        "(e.g. a baseline committed to the repository).\n"
        "\n",
    .outro =
        "\n"
        "When a change counts (docs/ci.md): calls changed when they changed by X\n"
        "and |NEW - BASE| >= Z sqrt(BASE + NEW) (a count's spread). Time changed\n"
        "when the time per call changed by X relative to the run's speed, and by\n"
        "NS ns, both profiles timed N calls (with sampled timing, the samples)\n"
        "and spent MS ms in the function, and the change lies Z standard errors\n"
        "beyond the spread. The time per call is the median where both are known\n"
        "(stats files; JSON's p50_ns), else the mean: a mean is pulled by a few\n"
        "descheduled calls. The run's speed (JSON \"speed\") is the median over\n"
        "20 or more such functions of NEW's median over BASE's, else 1. The\n"
        "spread: with histograms on both sides (stats files), the fractions of\n"
        "BASE's and NEW's calls under the bucket edge nearest their pooled\n"
        "median, as two proportions; else (JSON holds no histogram) the means'\n"
        "(Welch), each call's variance bounded by (max - mean)(mean - min), which\n"
        "one long call makes wide. The runtime's functions count only with\n"
        "--runtime. --sigma 0 turns the spread and the speed off. Two runs of\n"
        "one program and input report no change.\n"
        "\n"
        "A function missing from one profile has 0 calls there; going from 0 to any\n"
        "calls, or from any to 0, is a change of any factor (if beyond the spread).\n"
        "Times are compared only where both profiles measured them and both are\n"
        "> 0 (0 -> n shows in the calls). Functions are keyed by name.\n"
        "\n"
        "Table: FUNCTION, BASE CALLS, NEW CALLS, CALLS (factor: \"10.0x\" grew,\n"
        "\"0.10x\" shrank, \"new\" from 0, \"gone\" to 0), BASE TIME, NEW TIME, TIME\n"
        "(total times and their factor; \"-\" where not compared), PER CALL (the\n"
        "time per call's factor: the medians', else the means'), CHANGE (\"grew\" when\n"
        "calls or time per call grew, else \"shrank\"); most changed first (largest\n"
        "factor either way, then name); then one summary line.\n"
        "JSON: {\"threshold\",\"min_calls\",\"metric\",\"sigma\",\"min_timed\",\n"
        "\"min_time_ns\",\"min_delta_ns\",\"runtime\",\"speed\",\"compared\",\"changed\",\"regressions\",\n"
        "\"functions\":[{\"name\",\"base_calls\",\"new_calls\",\"calls_ratio\"\n"
        "(NEW/BASE, null when BASE is 0),\"base_total_ns\",\"new_total_ns\" (null\n"
        "when unknown),\"time_ratio\" (totals; null when not compared),\n"
        "\"base_mean_ns\",\"new_mean_ns\",\"mean_ratio\" (null when not compared),\n"
        "\"per_call_ratio\" (the medians', else the means'; null when not compared),\n"
        "\"base_median_ns\",\"new_median_ns\" (null when unknown),\n"
        "\"calls_sigma\",\"time_sigma\" (how many standard errors apart;\n"
        "null when not compared),\"spread\" (\"histograms\", \"min/max\" or null),\n"
        "\"base_self_ns\",\"new_self_ns\" (self time, shown, not compared; null when\n"
        "unknown),\"calls_changed\",\"time_changed\",\"regression\"}..], in the table's\n"
        "order, \"arcs_compared\",\"arcs_changed\",\"arcs\":[{\"caller\",\"callee\",\n"
        "\"base_calls\",\"new_calls\",\"calls_ratio\",\"base_total_ns\",\"new_total_ns\",\n"
        "\"time_ratio\",\"base_mean_ns\",\"new_mean_ns\",\"mean_ratio\",\"per_call_ratio\",\n"
        "\"calls_sigma\",\n"
        "\"calls_changed\",\"time_changed\",\"grew\"}..]}.\n"
        "\n"
        "Call graph: where both profiles recorded a function's callers (programs\n"
        "instrumented with gorewrite --call-graph, or JSON with \"callers\"), each\n"
        "caller -> callee arc is compared the same way (its calls, and the callee's\n"
        "time per call through it, which counts only where the callee's time\n"
        "changed; keyed by the two names) and changed arcs are a second\n"
        "table, CALLER -> CALLEE first. Arcs are shown, not counted as regressions:\n"
        "a callee whose calls grew is one already.\n"
        "\n"
        "Goroutine sites (programs rewritten to keep them, or JSON with\n"
        "\"goroutine_sites\"): a site whose live goroutines (at exit: goroutines\n"
        "left behind) grew as calls must, by X and Z sqrt(BASE + NEW), is listed\n"
        "after the summary\n"
        "(JSON \"goroutine_sites_grew\") and is a regression; sites the runtime\n"
        "creates count only with --runtime (docs/goroutines.md).\n"
        "\n"
        "exit status: 0 ok (also when functions changed, without\n"
        "--fail-on-regression), 1 usage error, 2 an input is missing or invalid,\n"
        "3 --fail-on-regression and a function or a goroutine site grew (named on\n"
        "stderr)\n",
    GR_OPT_TABLE_OPTS(diff_opts),
    .min_operands = 2, .max_operands = 2,
    .too_few = "wants BASE and NEW", .too_many = "wants only BASE and NEW",
    .column = 25,
    .long_indent = 6,
};

static int load(const char *target, const regex_t *filter, struct gst_profile *p)
{
    struct gr_error err;
    gst_profile_init(p);
    if (gst_profile_load(target, p, &err) == 0) {
        if (filter)
            gst_profile_keep_matching(p, filter);
        return 0;
    }
    fprintf(stderr, "gostat: diff: %s\n", err.msg);
    return -1;
}

static int compare(const struct diff_cli *c, const struct gst_profile *base,
                   const struct gst_profile *next)
{
    struct gst_diff d;
    struct gr_error err;
    if (gst_diff_profiles(base, next, &c->diff, &d, &err) < 0) {
        fprintf(stderr, "gostat: diff: %s\n", err.msg);
        return GST_EXIT_STATS;
    }
    struct gst_site_growth *grew = NULL;
    struct gst_site_report sites = {0};
    if (base->sites_known && next->sites_known &&
        gst_diff_sites(base, next, &c->diff, &grew, &sites.n) < 0) {
        fprintf(stderr, "gostat: diff: out of memory comparing goroutine sites\n");
        gst_diff_free(&d);
        return GST_EXIT_STATS;
    }
    sites.grew = grew;
    if (c->json)
        gst_diff_print_json(&c->diff, &d, &sites);
    else
        gst_diff_print_text(&c->diff, &d, &sites, c->wide ? 0 : gst_output_columns(stdout));
    int status = GST_EXIT_OK;
    if (c->fail_on_regression && d.regressions) {
        gst_diff_report_regressions(&d);
        status = GST_EXIT_REGRESSION;
    }
    if (c->fail_on_regression && sites.n) {
        gst_diff_report_site(&sites);
        status = GST_EXIT_REGRESSION;
    }
    free(grew);
    gst_diff_free(&d);
    return status;
}

static int load_and_compare(const struct diff_cli *c, const regex_t *filter)
{
    struct gst_profile base, next;
    int status = GST_EXIT_STATS;
    gst_profile_init(&next);
    if (load(c->base, filter, &base) == 0 && load(c->next, filter, &next) == 0)
        status = compare(c, &base, &next);
    gst_profile_free(&base);
    gst_profile_free(&next);
    return status;
}

int gst_cmd_diff(int argc, char **argv)
{
    struct diff_cli c = {
        .diff = { .threshold = 1.5, .metric = GST_METRIC_BOTH, .sigma = 5, .min_timed = 100,
                  .min_delta_ns = 100 },
        .min_time_ms = 1,
    };
    struct gr_error err;
    regex_t filter;
    int next;
    int status = gst_parse_command(&gst_diff_options, argc, argv, &c, &next);
    if (status >= 0)
        return status;
    c.diff.min_time_ns = c.min_time_ms * 1e6;
    c.base = argv[next];
    c.next = argv[next + 1];
    if (c.filter && gr_regex_compile(&filter, c.filter, "--filter", &err) < 0) {
        fprintf(stderr, "gostat: diff: %s\n", err.msg);
        return GST_EXIT_USAGE;
    }
    status = load_and_compare(&c, c.filter ? &filter : NULL);
    if (c.filter)
        regfree(&filter);
    return status;
}
