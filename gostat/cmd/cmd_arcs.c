/* cmd_arcs.c: the --callers/--callees listing of the functions whose name
 * matches FUNC (a regex, like --filter), in --sort order (--top limits
 * them), each with its arcs (out/arcs.c). Functions never called have no
 * arcs: they are left out, and counted once at the end. */
#include "gostat/cmd/cmd_arcs.h"

#include "gostat/render/arcs.h"
#include "gostat/model/callgraph.h"
#include "gostat/cmd/exitcode.h"
#include "common/regex_compile.h"
#include "gostat/read/target.h"
#include "gostat/model/view.h"

#include <regex.h>
#include <stdint.h>
#include <stdio.h>

/* Reports err; its exit status follows from its kind. */
static int report(const struct gr_error *err)
{
    fprintf(stderr, "gostat: %s\n", err->msg);
    return gr_error_exit_status(err->kind);
}

static int print_all(const struct gst_options *o, const struct gst_stats *st,
                     const struct gst_callgraph *cg, const struct gst_view *v, struct gr_error *err)
{
    for (size_t i = 0; i < v->count; i++) {
        if (i)
            putchar('\n');
        if (o->callers && gst_arcs_print(stdout, st, cg, v->funcs[i], GST_ARCS_CALLERS, err) < 0)
            return -1;
        if (o->callers && o->callees)
            putchar('\n');
        if (o->callees && gst_arcs_print(stdout, st, cg, v->funcs[i], GST_ARCS_CALLEES, err) < 0)
            return -1;
    }
    return 0;
}

static size_t uncalled_matches(const struct gst_stats *st, const regex_t *re)
{
    size_t n = 0;
    for (uint32_t i = 0; i < st->hdr.nfuncs; i++)
        n += st->funcs[i].calls == 0 && regexec(re, st->funcs[i].name, 0, NULL, 0) == 0;
    return n;
}

static void say_uncalled(size_t n, size_t shown, const char *func)
{
    if (n == 0)
        return;
    if (shown)
        putchar('\n');
    printf("%zu function%s matching '%s' never called: not shown\n", n, n == 1 ? "" : "s", func);
}

static int show(const struct gst_options *o, const char *func, const struct gst_stats *st,
                const regex_t *re, struct gr_error *err)
{
    /* the functions FUNC names are shown, the scheduler's idle ones too */
    struct gst_view_options vo = { .sort = o->sort, .filter = re, .top = o->top, .nonzero = true,
                                   .runtime = true };
    struct gst_callgraph cg;
    struct gst_view v;
    if (gst_callgraph_build(st, &(struct gst_cg_request){ .required = true }, &cg, err) < 0)
        return -1;
    int rc = -1;
    size_t uncalled = uncalled_matches(st, re);
    if (gst_view_build(st, &vo, &v, err) == 0) {
        if (v.count == 0 && uncalled == 0) {
            gr_fail(err, "%s: no function matches '%s'", st->path, func);
        } else if (print_all(o, st, &cg, &v, err) == 0) {
            say_uncalled(uncalled, v.count, func);
            rc = 0;
        }
        gst_view_free(&v);
    }
    gst_callgraph_free(&cg);
    return rc;
}

int gst_show_arcs(const struct gst_options *o)
{
    const char *func = o->callers ? o->callers : o->callees;
    const char *opt = o->callers ? "--callers" : "--callees";
    struct gr_error err;
    struct gst_stats st;
    regex_t re;
    if (gr_regex_compile(&re, func, opt, &err) < 0)
        return report(&err);
    int rc = gst_open_target(o->target, &st, &err);
    if (rc == 0) {
        rc = show(o, func, &st, &re, &err);
        gst_stats_close(&st);
    }
    regfree(&re);
    return rc == 0 ? GST_EXIT_OK : report(&err);
}
