/* cmd_folded.c: "gostat folded": a stats file's calling contexts as folded
 * stacks for flame graph tools (out/folded.c). */
#include "gostat/model/callgraph.h"
#include "gostat/cmd/cmdline.h"
#include "gostat/cmd/commands.h"
#include "gostat/cmd/exitcode.h"
#include "gostat/render/folded.h"
#include "gostat/render/outfile.h"
#include "gostat/read/target.h"

#include <getopt.h>
#include <inttypes.h>
#include <string.h>

struct folded_args {
    const char *target;
    const char *output;        /* "-" (default): stdout */
    enum gst_folded_value value;
};

static void usage(FILE *out)
{
    fputs("usage: gostat folded [-o FILE] [--value self|calls|time] PID|FILE\n"
          "\n"
          "Writes the calling contexts (call paths) of a program instrumented with\n"
          "gorewrite --call-graph as folded stacks, one line per path:\n"
          "  runtime.main;main.main;main.work;main.busy 1234567\n"
          "root first, then the value: the input of flamegraph.pl, speedscope and\n"
          "inferno (`gostat folded FILE | flamegraph.pl > flame.svg`).\n"
          "\n"
          "  --value self   (default) the path's self time in ns: the time in its\n"
          "                 last function itself, outside its timed callees. Tools\n"
          "                 add a path's value to every frame on it, so a frame's\n"
          "                 width is its inclusive time\n"
          "  --value calls  the calls of the path's last function through it: a\n"
          "                 frame's width counts the calls made under it\n"
          "  --value time   the path's inclusive time in ns: to read per path\n"
          "                 (not for flame graphs: nested paths would count twice)\n"
          "  -o, --output FILE  write FILE (default - : standard output), replaced at\n"
          "                 once when complete\n"
          "  -h, --help     this text\n"
          "\n"
          "Frames are timed functions; a function that called a timed one from\n"
          "untimed code is a frame of its own between them, and a goroutine's first\n"
          "timed call starts with its caller ((unknown) outside Go code). Lines\n"
          "whose value rounds to 0 are left out. In a name, ';' becomes ',' and\n"
          "control characters '?'. Calls whose path did not fit in the program's\n"
          "path tables are in no path: with --value calls they are one last line\n"
          "\"(path overflow) N\"; otherwise their count goes to stderr.\n"
          "\n"
          "exit status: 0 ok, 1 usage error, 2 stats file missing, unreadable or\n"
          "invalid, built without --call-graph, or FILE could not be written\n",
          out);
}

static int parse_value(const char *arg, enum gst_folded_value *v)
{
    if (strcmp(arg, "self") == 0)
        *v = GST_FOLDED_SELF;
    else if (strcmp(arg, "calls") == 0)
        *v = GST_FOLDED_CALLS;
    else if (strcmp(arg, "time") == 0)
        *v = GST_FOLDED_TIME;
    else
        return gst_usage_error("folded", "--value takes self, calls or time, not '%s'", arg);
    return -1;
}

/* Returns -1 to go on, else the exit status. */
static int parse(int argc, char **argv, struct folded_args *a)
{
    static const struct option opts[] = {
        { "output", required_argument, NULL, 'o' },
        { "value", required_argument, NULL, 'v' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    int opt, status;
    opterr = 0;
    optind = 1;
    while ((opt = getopt_long(argc, argv, ":o:h", opts, NULL)) != -1) {
        if (opt == 'o') {
            a->output = optarg;
        } else if (opt == 'v') {
            if ((status = parse_value(optarg, &a->value)) >= 0)
                return status;
        } else if (opt == 'h') {
            usage(stdout);
            return GST_EXIT_OK;
        } else {
            return gst_bad_option("folded", opt, argv);
        }
    }
    if (optind == argc)
        return gst_usage_error("folded", "missing PID|FILE");
    if (optind + 1 < argc)
        return gst_usage_error("folded", "unexpected argument '%s'", argv[optind + 1]);
    a->target = argv[optind];
    return -1;
}

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
    if (gst_callgraph_build(st, &(struct gst_cg_request){ .required = true }, &cg, err) < 0)
        return -1;
    int rc = write_folded(a, &cg, err);
    uint64_t in_no_path = cg.path_overflow_calls + cg.overflow_calls;
    if (rc == 0 && in_no_path > 0 && a->value != GST_FOLDED_CALLS)
        fprintf(stderr, "gostat: folded: %" PRIu64 " calls did not fit in the path tables "
                "(at most %" PRIu64 " paths per thread): their time is in no line\n",
                in_no_path, cg.max_paths);
    gst_callgraph_free(&cg);
    return rc;
}

int gst_cmd_folded(int argc, char **argv)
{
    struct folded_args a = { .output = "-", .value = GST_FOLDED_SELF };
    struct gr_error err;
    struct gst_stats st;
    int status = parse(argc, argv, &a);
    if (status >= 0)
        return status;
    if (gst_open_target(a.target, &st, &err) < 0) {
        fprintf(stderr, "gostat: %s\n", err.msg);
        return GST_EXIT_STATS;
    }
    int rc = run(&a, &st, &err);
    gst_stats_close(&st);
    if (rc < 0) {
        fprintf(stderr, "gostat: %s\n", err.msg);
        return GST_EXIT_STATS;
    }
    return GST_EXIT_OK;
}
