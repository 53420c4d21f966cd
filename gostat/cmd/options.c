/* options.c: parsing and checking gostat's arguments. */
#include "gostat/cmd/options.h"

#include "gostat/cmd/commands.h"
#include "gostat/read/statsdir.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_WATCH_SECONDS 86400.0

enum { OPT_JSON = 256, OPT_WATCH, OPT_TOP, OPT_SORT, OPT_FILTER, OPT_NONZERO, OPT_CALLERS,
       OPT_CALLEES };

static const struct option long_options[] = {
    { "help", no_argument, NULL, 'h' },
    { "json", no_argument, NULL, OPT_JSON },
    { "watch", required_argument, NULL, OPT_WATCH },
    { "top", required_argument, NULL, OPT_TOP },
    { "sort", required_argument, NULL, OPT_SORT },
    { "filter", required_argument, NULL, OPT_FILTER },
    { "nonzero", no_argument, NULL, OPT_NONZERO },
    { "callers", required_argument, NULL, OPT_CALLERS },
    { "callees", required_argument, NULL, OPT_CALLEES },
    { NULL, 0, NULL, 0 },
};

void gst_print_usage(FILE *out)
{
    fprintf(out,
        "usage: gostat [PID|FILE] [options]\n"
        "       gostat COMMAND [ARGS]   (gostat COMMAND --help for each)\n"
        "\n"
        "  gostat                  list stats files in $GOSTAT_DIR (default %s)\n"
        "  gostat PID|FILE         per-function call counts (and times), most-called first\n"
        "  gostat --json PID|FILE  the same as one JSON object\n"
        "\n"
        "A PID selects gostat.<exe>.<pid>[.<n>] in $GOSTAT_DIR (the newest live one).\n"
        "A file named like a command or a number needs a path: ./top, ./123.\n"
        "The summary line (and JSON) shows goroutines created, exited and live,\n"
        "from the calls of runtime.newproc1 and runtime.goexit1.\n"
        "\n"
        "options (with PID|FILE):\n"
        "  --top N           show only the first N functions\n"
        "  --sort calls|name|time|self\n"
        "                    most calls first (default), by name, most total\n"
        "                    time first (files built for timing), or most self\n"
        "                    time first (time outside timed callees; recorded\n"
        "                    only with gorewrite --call-graph, \"-\" otherwise)\n"
        "  --filter REGEX    only functions whose name matches (POSIX extended regex)\n"
        "  --nonzero         table: hide functions with zero calls (JSON shows all)\n"
        "  --watch SECONDS   refresh every SECONDS with a calls/s column, until the\n"
        "                    process exits or Ctrl-C\n"
        "  --json            print JSON instead of a table\n"
        "  --callers FUNC    who called FUNC (a REGEX, as --filter): per caller its\n"
        "                    exact calls, their total time and the share of FUNC's\n"
        "                    calls and time (files built with gorewrite --call-graph)\n"
        "  --callees FUNC    whom FUNC called, likewise; with --callers, both\n"
        "  -h, --help        this text\n"
        "  --version         gostat's version and the stats file format it reads\n"
        "\n"
        "commands:\n",
        GST_DEFAULT_DIR);
    gst_commands_print(out);
    fprintf(out,
        "\n"
        "exit status: 0 ok, 1 usage error, 2 stats file missing, unreadable or invalid\n"
        "(gostat diff --fail-on-regression: 3 when a regression is found)\n");
}

static int parse_top(const char *arg, size_t *top, struct gr_error *err)
{
    char *end;
    errno = 0;
    unsigned long long n = strtoull(arg, &end, 10);
    if (arg[0] < '0' || arg[0] > '9' || *end || errno || n == 0 || n > SIZE_MAX)
        return gr_fail(err, "--top needs a positive whole number, not '%s'", arg);
    *top = (size_t)n;
    return 0;
}

static int parse_sort(const char *arg, enum gst_sort *sort, struct gr_error *err)
{
    if (strcmp(arg, "calls") == 0)
        *sort = GST_SORT_CALLS;
    else if (strcmp(arg, "name") == 0)
        *sort = GST_SORT_NAME;
    else if (strcmp(arg, "time") == 0)
        *sort = GST_SORT_TIME;
    else if (strcmp(arg, "self") == 0)
        *sort = GST_SORT_SELF;
    else
        return gr_fail(err, "--sort takes 'calls', 'name', 'time' or 'self', not '%s'", arg);
    return 0;
}

static int parse_seconds(const char *arg, double *seconds, struct gr_error *err)
{
    char *end;
    errno = 0;
    double s = strtod(arg, &end);
    if (end == arg || *end || errno || !isfinite(s) || s <= 0 || s > MAX_WATCH_SECONDS)
        return gr_fail(err, "--watch needs a number of seconds (0 < SECONDS <= %.0f), not '%s'",
                        MAX_WATCH_SECONDS, arg);
    *seconds = s;
    return 0;
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

static int parse_one(int opt, const char *arg, struct gst_options *o, struct gr_error *err)
{
    switch (opt) {
    case 'h': o->help = true; return 0;
    case OPT_JSON: o->json = true; return 0;
    case OPT_NONZERO: o->nonzero = true; return 0;
    case OPT_FILTER: o->filter = arg; return 0;
    case OPT_CALLERS: o->callers = arg; return 0;
    case OPT_CALLEES: o->callees = arg; return 0;
    case OPT_TOP: return parse_top(arg, &o->top, err);
    case OPT_SORT: return parse_sort(arg, &o->sort, err);
    case OPT_WATCH: return parse_seconds(arg, &o->watch_seconds, err);
    default: return gr_fail(err, "internal error: option %d", opt);
    }
}

static int bad_option(char **argv, struct gr_error *err)
{
    for (const struct option *lo = long_options; lo->name; lo++)
        if (optopt && lo->val == optopt && lo->has_arg == required_argument)
            return gr_fail(err, "--%s needs a value (see gostat --help)", lo->name);
    if (optopt > 0 && optopt < 256)
        return gr_fail(err, "unknown option '-%c' (see gostat --help)", optopt);
    return gr_fail(err, "unknown option '%s' (see gostat --help)", argv[optind - 1]);
}

static int check_combination(const struct gst_options *o, struct gr_error *err)
{
    const char *needs = option_needing_target(o);
    if (!o->target && needs)
        return gr_fail(err, "%s needs a PID or FILE (see gostat --help)", needs);
    if (o->json && o->watch_seconds > 0)
        return gr_fail(err, "--watch and --json cannot be combined");
    const char *arcs = o->callers ? "--callers" : o->callees ? "--callees" : NULL;
    if (arcs && (o->json || o->watch_seconds > 0 || o->filter || o->nonzero))
        return gr_fail(err, "%s cannot be combined with %s", arcs,
                       o->json ? "--json" : o->watch_seconds > 0 ? "--watch"
                       : o->filter ? "--filter" : "--nonzero");
    if (o->callers && o->callees && strcmp(o->callers, o->callees) != 0)
        return gr_fail(err, "--callers and --callees together need the same FUNC");
    return 0;
}

int gst_parse_options(int argc, char **argv, struct gst_options *o, struct gr_error *err)
{
    int opt;

    memset(o, 0, sizeof *o);
    opterr = 0; /* our own messages, one line each */
    optind = 1;
    while ((opt = getopt_long(argc, argv, "h", long_options, NULL)) != -1) {
        if (opt == '?' || opt == ':')
            return bad_option(argv, err);
        if (parse_one(opt, optarg, o, err) < 0)
            return -1;
    }
    if (o->help)
        return 0;
    if (optind < argc)
        o->target = argv[optind++];
    if (optind < argc)
        return gr_fail(err, "unexpected argument '%s': give one PID or FILE", argv[optind]);
    return check_combination(o, err);
}
