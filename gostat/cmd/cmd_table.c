/* cmd_table.c: "gostat [options] [PID|FILE]", the command run when no
 * other is named: the table (or JSON, or a --watch loop) of one stats file,
 * or the list of stats files in the dir. Errors from below arrive as
 * values; here they become one stderr line and an exit status. */
#include "gostat/cmd/cmd_arcs.h"
#include "gostat/cmd/commands.h"
#include "common/regex_compile.h"
#include "common/error.h"
#include "gostat/cmd/exitcode.h"
#include "gostat/model/callgraph.h"
#include "gostat/render/json.h"
#include "gostat/render/listing.h"
#include "gostat/cmd/options.h"
#include "gostat/read/statsdir.h"
#include "gostat/read/statsfile.h"
#include "gostat/render/table.h"
#include "gostat/render/term.h"
#include "gostat/read/target.h"
#include "gostat/model/view.h"
#include "gostat/cmd/watch.h"
#include "gostat/profile/profile.h"
#include "gostat/profile/profile_json.h"
#include "gostat/profile/profile_load.h"
#include "gostat/profile/profile_table.h"

#include <regex.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* Reports err; its exit status follows from its kind. */
static int report(const struct gr_error *err)
{
    fprintf(stderr, "gostat: %s\n", err->msg);
    return gr_error_exit_status(err->kind);
}

/* JSON always lists zero-call functions: scripts want every function. */
static int print_once(const struct gst_options *o, struct gst_view_options vo,
                      const struct gst_stats *st, struct gr_error *err)
{
    struct gst_view view;
    struct gst_callgraph cg = { 0 };
    if (o->json) {
        vo.nonzero = false;
        vo.runtime = true;
    }
    if ((!o->json || vo.sort == GST_SORT_CUM) && gst_callgraph_build(st, NULL, &cg, err) < 0)
        return -1;
    vo.cg = &cg;
    if (gst_view_build(st, &vo, &view, err) < 0) {
        gst_callgraph_free(&cg);
        return -1;
    }
    if (o->json)
        gst_json_print(stdout, st, &view);
    else
        gst_table_print(stdout, st, &view, NULL, &cg, o->wide ? 0 : gst_output_columns(stdout));
    if (!o->json && view.idle_left_out)
        printf("--sort oncpu: %zu of the scheduler's idle functions left out (they sleep on an M's own "
               "stack, which reads as on-CPU; --runtime shows them)\n", view.idle_left_out);
    gst_view_free(&view);
    gst_callgraph_free(&cg);
    return 0;
}

/* A profile in JSON (gostat merge's, gostat --json's): its table, or
 * itself normalized with --json. */
static int show_profile(const struct gst_options *o, const regex_t *filter)
{
    struct gr_error err;
    struct gst_profile p;
    if (o->watch_seconds > 0) {
        gr_fail_as(&err, GR_ERR_USAGE, "--watch needs a stats file or PID, not JSON (%s)", o->target);
        return report(&err);
    }
    gst_profile_init(&p);
    int rc = gst_profile_load(o->target, &p, &err);
    if (rc == 0 && o->json) {
        gst_profile_write_json(stdout, &p);
    } else if (rc == 0) {
        struct gst_profile_table_options to = {
            .source = o->target, .sort = o->sort, .filter = filter, .nonzero = o->nonzero,
            .top = o->top, .columns = o->wide ? 0 : gst_output_columns(stdout),
        };
        if (gst_profile_table_print(stdout, &p, &to) < 0)
            rc = gr_fail_as(&err, GR_ERR_INTERNAL, "%s: out of memory", o->target);
    }
    gst_profile_free(&p);
    return rc < 0 ? report(&err) : GST_EXIT_OK;
}

static int show_target(const struct gst_options *o, const regex_t *filter)
{
    struct gr_error err;
    struct gst_stats st;
    int64_t pid;

    if (!gst_parse_pid(o->target, &pid) && gst_profile_is_json(o->target))
        return show_profile(o, filter);
    struct gst_view_options vo = {
        .sort = o->sort, .filter = filter, .nonzero = o->nonzero, .top = o->top, .runtime = o->runtime,
    };

    if (gst_open_target(o->target, &st, &err) < 0)
        return report(&err);
    int rc = o->watch_seconds > 0 ? gst_watch(stdout, &st, &vo, o->watch_seconds, o->wide, &err)
                                  : print_once(o, vo, &st, &err);
    gst_stats_close(&st);
    return rc < 0 ? report(&err) : GST_EXIT_OK;
}

static int run(const struct gst_options *o)
{
    struct gr_error err;
    regex_t filter;
    int status;

    if (!o->target) {
        if (gst_list_dir(stdout, stderr, gst_stats_dir(), &err) < 0)
            return report(&err);
        return GST_EXIT_OK;
    }
    int64_t pid;
    if (gst_parse_pid(o->target, &pid) && pid < 0) {
        gr_fail_as(&err, GR_ERR_USAGE, "'%s' is not a valid pid (use ./%s for a file)", o->target, o->target);
        return report(&err);
    }
    if ((o->callers || o->callees) && gst_profile_is_json(o->target)) {
        gr_fail_as(&err, GR_ERR_USAGE, "%s needs a stats file or PID: %s is JSON, which keeps callers only",
                   o->callers ? "--callers" : "--callees", o->target);
        return report(&err);
    }
    if (o->callers || o->callees)
        return gst_show_arcs(o);
    if (o->filter && gr_regex_compile(&filter, o->filter, "--filter", &err) < 0)
        return report(&err);
    status = show_target(o, o->filter ? &filter : NULL);
    if (o->filter)
        regfree(&filter);
    return status;
}

int gst_cmd_table(int argc, char **argv)
{
    struct gst_options o;
    struct gr_error err;

    if (gst_parse_options(argc, argv, &o, &err) < 0)
        return report(&err);
    if (o.help) {
        gst_print_usage(stdout);
        return GST_EXIT_OK;
    }
    return run(&o);
}
