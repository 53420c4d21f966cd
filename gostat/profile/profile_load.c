/* profile_load.c: a profile from a PID, a stats file or a JSON file. */
#include "gostat/profile/profile_load.h"

#include "gostat/model/callgraph.h"
#include "gostat/profile/profile_json.h"
#include "gostat/read/target.h"
#include "gostat/model/gsites.h"
#include "gostat/model/times.h"
#include "gostat/profile/psites.h"
#include "gostat/read/sites.h"

#include <ctype.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static struct gst_pfunc func_of(const struct gst_stats *st, const struct gst_func *f)
{
    struct gst_times t = gst_times_of(st, f);
    double k = st->clock.ns_per_tick;
    struct gst_pfunc pf = {
        .name = (char *)f->name, .file = (char *)f->file, .line = f->line, .calls = f->calls,
        .timed = f->timed, .timed_calls = f->timed ? f->timed_calls : 0,
        .timed_ns = t.any ? (double)f->total_ticks * st->clock.ns_per_tick : 0,
        .time_known = t.known, .total_ns = t.total_ns, .estimated = t.estimated,
        .oncpu_known = t.oncpu_known, .oncpu_ns = t.oncpu_ns,
        .any_time = t.any, .min_ns = t.min_ns, .max_ns = t.max_ns,
        .self_known = t.self_known, .self_ns = t.self_ns,
        .samples = t.any ? f->samples : 0, .hist_known = t.any,
        .min_ticks = f->min_ticks, .max_ticks = f->max_ticks, .ns_per_tick = k,
    };
    if (t.any)
        memcpy(pf.hist, f->hist, sizeof pf.hist);
    return pf;
}

/* f's arcs in (the names point into cg and st, copied by
 * gst_profile_add_func). pf->callers is malloc'ed. */
static int add_callers(struct gst_pfunc *pf, const struct gst_callgraph *cg,
                       const struct gst_func *f, struct gr_error *err)
{
    const struct gst_cg_arc *arcs;
    size_t n = gst_callgraph_callers(cg, f, &arcs);
    pf->has_callers = true;
    pf->callers = calloc(n ? n : 1, sizeof *pf->callers);
    if (!pf->callers)
        return gr_fail(err, "out of memory for %zu callers", n);
    for (size_t i = 0; i < n; i++)
        pf->callers[i] = (struct gst_parc){ .caller = (char *)arcs[i].caller_name,
                                            .calls = arcs[i].calls, .time_known = true,
                                            .total_ns = arcs[i].total_ns };
    pf->ncallers = n;
    return 0;
}

static int add_funcs(struct gst_profile *p, const struct gst_stats *st,
                     const struct gst_callgraph *cg, struct gr_error *err)
{
    for (uint32_t i = 0; i < st->hdr.nfuncs; i++) {
        const struct gst_func *f = &st->funcs[i];
        struct gst_pfunc pf = func_of(st, f);
        if (cg->present && f->timed && add_callers(&pf, cg, f, err) < 0)
            return -1;
        int rc = gst_profile_add_func(p, &pf, err);
        free(pf.callers);
        if (rc < 0)
            return -1;
    }
    return 0;
}

/* The file's goroutine sites, when it keeps them. */
static int add_sites(struct gst_profile *p, const struct gst_stats *st, struct gr_error *err)
{
    struct gst_sites sites;
    struct gst_gsites g;
    if (gst_sites_read(st, &sites, err) < 0)
        return -1;
    int rc = 0;
    if (sites.present && gst_gsites_build(st, &sites, &g) < 0)
        rc = gr_fail(err, "%s: out of memory for the goroutine sites", st->path);
    else if (sites.present) {
        p->sites_known = true;
        for (size_t i = 0; i < g.n && rc == 0; i++) {
            const struct gst_gsite *s = &g.items[i];
            struct gst_psite ps = {.creator = (char *)s->creator, .file = (char *)s->file, .line = s->line,
                                   .start = (char *)s->start, .created = s->created, .ended = s->ended,
                                   .live = s->live};
            rc = gst_profile_add_site(p, &ps, err);
        }
        gst_gsites_free(&g);
    }
    gst_sites_free(&sites);
    return rc;
}

int gst_profile_add_stats(struct gst_profile *p, const struct gst_stats *st, struct gr_error *err)
{
    struct gst_process proc = {
        .pid = st->hdr.pid, .live = st->live, .exe = (char *)st->hdr.exe,
        .ended_ns = !st->live && st->hdr.end_tsc ? st->hdr.end_time_ns : 0,
        .build_id = (char *)st->hdr.build_id, .go_version = (char *)st->hdr.go_version,
        .source = (char *)st->path,
    };
    struct gst_callgraph cg;
    if (gst_profile_add_process(p, &proc, err) < 0 || gst_callgraph_build(st, NULL, &cg, err) < 0)
        return -1;
    int rc = add_funcs(p, st, &cg, err);
    gst_callgraph_free(&cg);
    return rc < 0 ? rc : add_sites(p, st, err);
}

static int load_stats(const char *target, struct gst_profile *p, struct gr_error *err)
{
    struct gst_stats st;
    if (gst_open_target(target, &st, err) < 0)
        return -1;
    int rc = gst_profile_add_stats(p, &st, err);
    gst_stats_close(&st);
    return rc;
}

/* JSON starts with '{' (after blanks); a stats file starts with its magic,
 * or with zeros while its program is starting up. Errors opening the file,
 * and what is no regular file, are left to the stats reader, which words
 * them best. */
bool gst_profile_is_json(const char *path)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);   /* a FIFO must not block */
    struct stat sb;
    if (fd < 0)
        return false;
    FILE *f = fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) ? fdopen(fd, "rb") : NULL;
    if (!f) {
        close(fd);
        return false;
    }
    int c;
    do
        c = getc(f);
    while (c != EOF && isspace(c));
    fclose(f);
    return c == '{';
}

int gst_profile_load(const char *target, struct gst_profile *p, struct gr_error *err)
{
    int64_t pid;
    int rc;
    if (!gst_parse_pid(target, &pid) && gst_profile_is_json(target))
        rc = gst_profile_read_json(target, p, err);
    else
        rc = load_stats(target, p, err);
    if (rc == 0)
        gst_profile_sort(p);
    return rc;
}
