/* export.c: the shared driver of the commands that write a profile file. */
#include "gostat/cmd/export.h"
#include "common/regex_compile.h"

#include "gostat/cmd/cmdline.h"
#include "gostat/cmd/exitcode.h"
#include "gostat/render/outfile.h"
#include "gostat/read/target.h"
#include "gostat/render/term.h"

#include <ctype.h>
#include <limits.h>
#include <regex.h>
#include <stdbool.h>
#include <string.h>

/* 0, or the exit status of a bad --filter, after its message. */
static int compile_filter(const struct gst_exporter *x, const char *pattern, regex_t *re)
{
    struct gr_error err;
    if (gr_regex_compile(re, pattern, "--filter", &err) == 0)
        return 0;
    fprintf(stderr, "gostat: %s: %s\n", x->name, err.msg);
    return gr_error_exit_status(err.kind);
}

void gst_export_exe_base(const struct gst_stats *st, char *buf, size_t len)
{
    const char *slash = strrchr(st->hdr.exe, '/');
    const char *base = slash ? slash + 1 : st->hdr.exe;
    size_t n = 0;

    if (!*base || strcmp(base, "..") == 0)
        base = "unknown";
    for (; *base && n + 1 < len; base++, n++)
        buf[n] = isalnum((unsigned char)*base) || strchr("._+-", *base) ? *base : '_';
    if (len)
        buf[n] = '\0';
}

static int write_output(const struct gst_exporter *x, const char *path, const struct gst_stats *st,
                        const struct gst_view *view, struct gr_error *err)
{
    struct gst_outfile o;
    struct gst_callgraph cg;
    if (gst_callgraph_build(st, &(struct gst_cg_request){ .view = view }, &cg, err) < 0)
        return -1;
    int rc = gst_outfile_open(&o, path, err);
    if (rc == 0 && x->write(o.fp, path, st, view, &cg, err) < 0) {
        gst_outfile_abort(&o);
        rc = -1;
    } else if (rc == 0) {
        rc = gst_outfile_commit(&o, err);
    }
    gst_callgraph_free(&cg);
    return rc;
}

static int export(const struct gst_exporter *x, const struct gst_export_args *a, const regex_t *filter)
{
    struct gst_stats st;
    struct gst_view view;
    struct gr_error err;
    char default_path[PATH_MAX];
    struct gst_view_options vo = { .sort = GST_SORT_CALLS, .filter = filter, .nonzero = true };

    if (gst_open_target(a->target, &st, &err) < 0) {
        fprintf(stderr, "gostat: %s\n", err.msg);
        return gr_error_exit_status(err.kind);
    }
    const char *path = a->output;
    if (!path) {
        x->default_path(&st, default_path, sizeof default_path);
        path = default_path;
    }
    size_t written = 0;
    int rc = gst_view_build(&st, &vo, &view, &err);
    if (rc == 0) {
        rc = write_output(x, path, &st, &view, &err);
        written = view.count;
        gst_view_free(&view);
    }
    if (rc == 0 && strcmp(path, "-") != 0) {
        printf("wrote %zu function%s to ", written, written == 1 ? "" : "s");
        gst_put_cell(stdout, path, 0, false);
        printf("\n");
    }
    gst_stats_close(&st);
    if (rc < 0) {
        fprintf(stderr, "gostat: %s\n", err.msg);
        return gr_error_exit_status(err.kind);
    }
    return GST_EXIT_OK;
}

int gst_export_main(int argc, char **argv, const struct gst_exporter *x)
{
    struct gst_export_args a = { 0 };
    regex_t filter;
    int next;
    int status = gst_parse_command(x->options, argc, argv, &a, &next);
    if (status >= 0)
        return status;
    a.target = argv[next];
    if (a.filter && (status = compile_filter(x, a.filter, &filter)) != 0)
        return status;
    status = export(x, &a, a.filter ? &filter : NULL);
    if (a.filter)
        regfree(&filter);
    return status;
}
