/* cmdline.c: gostat's commands parse their arguments by their option
 * tables, and word their usage errors here, one way. */
#include "gostat/cmd/cmdline.h"

#include "gostat/cmd/exitcode.h"
#include "gostat/render/term.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int gst_usage_error(const char *cmd, const char *fmt, ...)
{
    char what[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    fprintf(stderr, "gostat: %s: ", cmd);
    gst_put_cell(stderr, what, 0, false);   /* arguments may hold escapes */
    fprintf(stderr, " (see gostat %s --help)\n", cmd);
    return GST_EXIT_USAGE;
}

static int parse_error(const char *cmd, const struct gr_opt_result *r)
{
    char bad[512];
    switch (r->status) {
    case GR_OPT_MISSING:
        return gst_usage_error(cmd, "%s needs a value", r->word);
    case GR_OPT_UNKNOWN:
        /* an unknown letter inside a cluster such as -nx: name the letter */
        if (r->letter && strncmp(r->word, "--", 2) != 0)
            return gst_usage_error(cmd, "unknown option '-%c'", r->letter);
        return gst_usage_error(cmd, "unknown option '%s'", r->word);
    default:
        gr_opt_bad_message(r, bad, sizeof bad);
        return gst_usage_error(cmd, "%s", bad);
    }
}

static int count_operands(const struct gr_opt_table *t, int argc, char **argv, int next)
{
    char what[512];
    if (argc - next < t->min_operands)
        return gst_usage_error(argv[0], "%s", t->too_few);
    if (t->max_operands >= 0 && argc - next > t->max_operands) {
        snprintf(what, sizeof what, t->too_many, argv[next + t->max_operands]);
        return gst_usage_error(argv[0], "%s", what);
    }
    return -1;
}

int gst_parse_command(const struct gr_opt_table *t, int argc, char **argv, void *dest, int *next)
{
    struct gr_opt_result r;
    switch (gr_opt_parse(t, argc, argv, dest, &r)) {
    case GR_OPT_DONE:
        *next = r.next;
        return count_operands(t, argc, argv, r.next);
    case GR_OPT_STOPPED:
        gr_opt_print_help(stdout, t);
        return GST_EXIT_OK;
    default:
        return parse_error(argv[0], &r);
    }
}
