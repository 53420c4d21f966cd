/* main.c: gostat's entry point: parse the command line, open the stats file
 * the user named (or list the dir), and hand it to one output. Errors from
 * below arrive as values; here they become one stderr line and an exit
 * status. */
#include "commands.h"
#include "error.h"
#include "exitcode.h"
#include "json.h"
#include "listing.h"
#include "options.h"
#include "statsdir.h"
#include "statsfile.h"
#include "table.h"
#include "target.h"
#include "view.h"
#include "watch.h"

#include <regex.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static int report(const struct gr_error *err, int status)
{
    fprintf(stderr, "gostat: %s\n", err->msg);
    return status;
}

static int compile_filter(const char *pattern, regex_t *re, struct gr_error *err)
{
    int rc = regcomp(re, pattern, REG_EXTENDED | REG_NOSUB);
    if (rc != 0) {
        char why[256];
        regerror(rc, re, why, sizeof why);
        return gr_fail(err, "--filter: bad regular expression '%s': %s", pattern, why);
    }
    return 0;
}

/* JSON always lists zero-call functions: scripts want every function. */
static int print_once(const struct gst_options *o, struct gst_view_options vo,
                      const struct gst_stats *st, struct gr_error *err)
{
    struct gst_view view;
    if (o->json)
        vo.nonzero = false;
    if (gst_view_build(st, &vo, &view, err) < 0)
        return -1;
    if (o->json)
        gst_json_print(stdout, st, &view);
    else
        gst_table_print(stdout, st, &view, NULL);
    gst_view_free(&view);
    return 0;
}

static int show_target(const struct gst_options *o, const regex_t *filter)
{
    struct gr_error err;
    struct gst_stats st;
    struct gst_view_options vo = {
        .sort = o->sort, .filter = filter, .nonzero = o->nonzero, .top = o->top,
    };

    if (gst_open_target(o->target, &st, &err) < 0)
        return report(&err, GST_EXIT_STATS);
    int rc = o->watch_seconds > 0 ? gst_watch(stdout, &st, &vo, o->watch_seconds, &err)
                                  : print_once(o, vo, &st, &err);
    gst_stats_close(&st);
    return rc < 0 ? report(&err, GST_EXIT_STATS) : GST_EXIT_OK;
}

static int run(const struct gst_options *o)
{
    struct gr_error err;
    regex_t filter;
    int status;

    if (!o->target) {
        if (gst_list_dir(stdout, stderr, gst_stats_dir(), &err) < 0)
            return report(&err, GST_EXIT_STATS);
        return GST_EXIT_OK;
    }
    int64_t pid;
    if (gst_parse_pid(o->target, &pid) && pid < 0) {
        gr_fail(&err, "'%s' is not a valid pid (use ./%s for a file)", o->target, o->target);
        return report(&err, GST_EXIT_USAGE);
    }
    if (o->filter && compile_filter(o->filter, &filter, &err) < 0)
        return report(&err, GST_EXIT_USAGE);
    status = show_target(o, o->filter ? &filter : NULL);
    if (o->filter)
        regfree(&filter);
    return status;
}

/* A full disk or closed pipe on stdout is an error, not a silent success. */
static int finish(int status)
{
    if (fflush(stdout) != 0 || ferror(stdout)) {
        perror("gostat: writing output");
        return status ? status : GST_EXIT_STATS;
    }
    return status;
}

int main(int argc, char **argv)
{
    struct gst_options o;
    struct gr_error err;

    const struct gst_command *cmd = argc > 1 ? gst_command_find(argv[1]) : NULL;
    if (cmd)
        return finish(cmd->run(argc - 1, argv + 1));

    if (gst_parse_options(argc, argv, &o, &err) < 0)
        return report(&err, GST_EXIT_USAGE);
    if (o.help) {
        gst_print_usage(stdout);
        return GST_EXIT_OK;
    }
    return finish(run(&o));
}
