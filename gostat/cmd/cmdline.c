/* cmdline.c: one wording for gostat's usage errors. */
#include "gostat/cmd/cmdline.h"

#include "gostat/cmd/exitcode.h"
#include "gostat/render/term.h"

#include <getopt.h>
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

int gst_bad_option(const char *cmd, int opt, char **argv)
{
    const char *arg = argv[optind - 1];
    if (opt == ':')
        return gst_usage_error(cmd, "%s needs a value", arg);
    /* an unknown letter inside a cluster such as -nx: name the letter */
    if (optopt && strncmp(arg, "--", 2) != 0)
        return gst_usage_error(cmd, "unknown option '-%c'", optopt);
    return gst_usage_error(cmd, "unknown option '%s'", arg);
}
