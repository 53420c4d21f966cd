/* cmd_goroutines.c: "gostat goroutines": a process's goroutines by
 * creation site (docs/goroutines.md): who started them, how many ended,
 * how many live and since when. */
#include "gostat/cmd/cmdline.h"
#include "gostat/cmd/commands.h"
#include "gostat/cmd/exitcode.h"
#include "common/go_duration.h"
#include "gostat/model/gsites.h"
#include "gostat/read/sites.h"
#include "gostat/read/target.h"
#include "gostat/render/gsites_out.h"

#include <stdbool.h>
#include <stdio.h>

struct goroutines_args {
    bool json;
    const char *older_than;    /* a Go duration, or NULL */
    uint64_t older_than_ns;
};

static int take_older_than(const char *value, void *dest)
{
    struct goroutines_args *a = dest;
    a->older_than = value;
    return gr_go_duration_parse(value, &a->older_than_ns) < 0 || a->older_than_ns == 0 ? -1 : 0;
}

static const struct gr_opt goroutines_opts[] = {
    { "older-than", 0, "DURATION", GR_OPT_CALL, .call = take_older_than,
      .bad = "--older-than takes a Go duration above 0 (300ms, 1m30s, 2h), not '%s'",
      .help = GR_OPT_HELP("only sites with a live goroutine at least DURATION old",
                          "(Go syntax: 300ms, 1m30s, 2h): the leak view"),
      .man =
          "Only sites with a live goroutine at least\n"
          ".I DURATION\n"
          "old (Go syntax: 300ms, 1m30s, 2h): the leak view.\n" },
    { "json", 0, NULL, GR_OPT_FLAG, GR_OPT_AT(struct goroutines_args, json),
      .help = GR_OPT_HELP("print {\"goroutines\":[...]} for scripts"),
      .man = "Print {\"ended_ns\":...,\"goroutines\":[...]}, one object per site (docs/goroutines.md).\n" },
    GST_HELP_OPTION,
};

const struct gr_opt_table gst_goroutines_options = {
    .program = "gostat goroutines",
    .intro =
        "usage: gostat goroutines [--older-than DURATION] [--json] PID|FILE\n"
        "\n"
        "Lists a program's goroutines by creation site: the go statement (the\n"
        "function holding it, its file and line) and the goroutine's start\n"
        "function; how many it started, how many ended and how many live now, the\n"
        "age of the oldest live one, and the lifetimes of those that ended\n"
        "(p50/p90/p99/max). Most live first. A program rewritten with\n"
        "--call-graph also tells sites apart by the creator's call path: a row per\n"
        "path, with a \"via CALLER <- ...\" line (\"creator_path\" in --json).\n"
        "\n",
    .outro =
        "\n"
        "Counts are exact; the runtime's own goroutines are included. OLDEST is\n"
        "known while the process runs and, after it exited (its file records the\n"
        "end), as of its end: LIVE becomes AT EXIT, the goroutines still running\n"
        "then (\"running_at_exit\" and \"ended_ns\" in --json). Needs a program\n"
        "rewritten by this gorewrite (the file says whether it keeps goroutines\n"
        "by site).\n"
        "\n"
        "exit status: 0 ok, 1 usage error, 2 stats file missing, unreadable,\n"
        "invalid or without goroutine sites\n",
    GR_OPT_TABLE_OPTS(goroutines_opts),
    .min_operands = 1, .max_operands = 1,
    .too_few = "missing PID|FILE", .too_many = "unexpected argument '%s'",
    .column = 24,
    .long_indent = 2,
};

static int run(const struct goroutines_args *a, const struct gst_stats *st, struct gr_error *err)
{
    struct gst_sites sites;
    struct gst_gsites g;
    if (gst_sites_read_paths(st, &sites, err) < 0)
        return -1;
    if (!sites.present) {
        gst_sites_free(&sites);
        return gr_fail(err, "%s: keeps no goroutine sites (built by an older gorewrite or with "
                       "--max-goroutine-sites 0, or the runtime's g.gopc and g.startpc were "
                       "not found)", st->path);
    }
    int rc = gst_gsites_build(st, &sites, &g);
    if (rc < 0)
        gr_fail(err, "%s: out of memory for the goroutine sites", st->path);
    else if (a->json)
        gst_gsites_json(stdout, &g, a->older_than_ns);
    else
        gst_gsites_table(stdout, &g, a->older_than_ns);
    gst_gsites_free(&g);
    gst_sites_free(&sites);
    return rc;
}

int gst_cmd_goroutines(int argc, char **argv)
{
    struct goroutines_args a = {0};
    struct gr_error err;
    struct gst_stats st;
    int next;
    int status = gst_parse_command(&gst_goroutines_options, argc, argv, &a, &next);
    if (status >= 0)
        return status;
    if (gst_open_target(argv[next], &st, &err) < 0) {
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
