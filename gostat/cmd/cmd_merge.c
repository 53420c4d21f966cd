/* cmd_merge.c: "gostat merge": one profile from many processes (test
 * shards, subprocesses), summed by function name, written as JSON that
 * gostat diff and gostat coverage read back. */
#include "gostat/cmd/cmdline.h"
#include "common/regex_compile.h"
#include "gostat/cmd/commands.h"
#include "gostat/cmd/exitcode.h"
#include "gostat/render/outfile.h"
#include "gostat/profile/profile.h"
#include "gostat/profile/profile_json.h"
#include "gostat/profile/profile_load.h"
#include "gostat/read/statsdir.h"
#include "gostat/read/statsfile.h"
#include "gostat/render/term.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

struct merge_options {
    const char *output;        /* NULL: stdout */
    const char *dir;           /* NULL: no --dir */
    const char *filter;        /* NULL: no --filter */
    bool force;
};

static const struct gr_opt merge_opts[] = {
    { "output", 'o', "FILE", GR_OPT_STRING, GR_OPT_AT(struct merge_options, output),
      .help = GR_OPT_HELP("write FILE (default: stdout). FILE is written beside",
                          "its name and renamed into place when complete: it is",
                          "never left partly written, also on error"),
      .man =
          "Write\n"
          ".I FILE\n"
          "(default: standard output), complete or not at all (written beside it,\n"
          "then renamed).\n" },
    { "dir", 'd', "DIR", GR_OPT_STRING, GR_OPT_AT(struct merge_options, dir),
      .help = GR_OPT_HELP("also read every stats file in DIR (your own regular",
                          "files named gostat.*); files without a valid header",
                          "(a process killed while starting) are skipped with a",
                          "warning"),
      .man =
          "Also read every stats file in\n"
          ".IR DIR ;\n"
          "files without a valid header are skipped with a warning.\n" },
    { "filter", 0, "REGEX", GR_OPT_STRING, GR_OPT_AT(struct merge_options, filter),
      .help = GR_OPT_HELP("keep only functions whose name matches REGEX (POSIX",
                          "extended, unanchored), e.g. '^example\\.com/app/' for",
                          "a small baseline of your own code to commit; total_calls",
                          "and goroutines then count only what is kept"),
      .man =
          "Keep only functions whose name matches, e.g.\n"
          ".B '^example\\e.com/app/'\n"
          "for a small baseline of your own code.\n" },
    { "force", 'f', NULL, GR_OPT_FLAG, GR_OPT_AT(struct merge_options, force),
      .help = GR_OPT_HELP("merge processes of different builds (build ids)"),
      .man =
          "Merge processes of different builds (build ids); refused otherwise, so a\n"
          "stale file of an earlier build is never summed silently.\n" },
    GST_HELP_OPTION,
};

const struct gr_opt_table gst_merge_options = {
    .program = "gostat merge",
    .intro =
        "usage: gostat merge [-o FILE] [--dir DIR] [--filter REGEX] [--force] [PID|FILE...]\n"
        "\n"
        "Sums the counts of several processes (test shards, subprocesses) by\n"
        "function name and writes one JSON profile, which gostat diff and gostat\n"
        "coverage read like a stats file. Inputs are PIDs (their stats file in\n"
        "$GOSTAT_DIR), stats files, or JSON from gostat --json or gostat merge (so\n"
        "merges can be merged again).\n"
        "\n",
    .outro =
        "\n"
        "Per function: calls, timed calls (the calls actually timed: with sampled\n"
        "timing, the samples) and their durations add up (total_ns and oncpu_ns\n"
        "are the sums of the processes' totals, estimated for the calls not timed\n"
        "where time_estimated), min_ns and max_ns are the smallest and largest of\n"
        "any process, mean_ns is over all calls the timed ones stand for.\n"
        "p50/p90/p99 come from the processes' duration histograms added up (stats\n"
        "files of one clock, and gostat merge output, which keeps them as\n"
        "\"histogram\"); gostat --json keeps none, so they are null there, except\n"
        "p50 of a single such input.\n"
        "Functions of the same name in one or several programs are one entry.\n"
        "\n"
        "Output: {\"processes\":[{\"pid\",\"exe\",\"live\",\"build_id\",\"go_version\",\n"
        "\"source\"}..],\"total_calls\":N,\"goroutines\":{\"created\",\"exited\",\"live\"}\n"
        "(null unless runtime.newproc1 and runtime.goexit1 are instrumented),\n"
        "\"functions\":[{\"name\",\"file\",\"line\",\"calls\",\"timed\",\"timed_calls\",\n"
        "\"time_estimated\",\"total_ns\",\"oncpu_ns\"(with on-CPU time),\"mean_ns\",\"p50_ns\",\n"
        "\"p90_ns\",\"p99_ns\",\"min_ns\",\"max_ns\",\"histogram\":{\"ns_per_tick\",\"min_ticks\",\n"
        "\"max_ticks\",\"buckets\"}(when known)}..]}, functions sorted by name, one per\n"
        "line; buckets are the weighted calls per duration bucket of the stats\n"
        "format (docs/stats-format.md). With -o, one summary line goes to stdout.\n"
        "\n"
        "Processes of different builds are refused without --force: a stale stats\n"
        "file of an earlier build in a reused $GOSTAT_DIR would otherwise be summed\n"
        "silently. Inputs without a build id are not checked. A process still\n"
        "running is merged as it is now, with a warning.\n"
        "\n"
        "exit status: 0 written, 1 usage error, 2 an input is missing or invalid,\n"
        "builds differ, no input was found, or the output could not be written\n",
    GR_OPT_TABLE_OPTS(merge_opts),
    .min_operands = 0, .max_operands = -1,
    .column = 21,
    .long_indent = 6,
};

static int parse(int argc, char **argv, struct merge_options *o, int *next)
{
    int status = gst_parse_command(&gst_merge_options, argc, argv, o, next);
    if (status < 0 && *next == argc && !o->dir) {
        return gst_usage_error("merge", "nothing to merge: name stats files, PIDs, JSON files "
                                        "or --dir DIR");
    }
    return status;
}

/* The result so far; each input is read on its own, filtered and folded
 * in, then released, so memory is bounded by the result and one input. */
struct merging {
    struct gst_profile result;
    const regex_t *filter;     /* NULL: keep all */
};

/* Folds one (sorted) input into the result; one is left empty. */
static int fold_in(struct merging *m, struct gst_profile *one, struct gr_error *err)
{
    if (m->filter)
        gst_profile_keep_matching(one, m->filter);
    return gst_profile_absorb(&m->result, one, err);
}

struct dir_scan {
    struct merging *merging;
    unsigned found;
    struct gr_error err;
};

static int visit(void *ctx, const char *name, const char *path, int fd,
                 const struct gr_error *open_err)
{
    struct dir_scan *d = ctx;
    struct gst_stats st;
    struct gst_profile one;
    struct gr_error why;
    (void)name;
    if (fd < 0) {
        d->err = *open_err;
        return -1;
    }
    if (gst_stats_open_fd(&st, fd, path, &why) < 0) {
        fprintf(stderr, "gostat: merge: warning: skipped %s\n", why.msg);
        return 0;
    }
    gst_profile_init(&one);
    int rc = gst_profile_add_stats(&one, &st, &d->err);
    gst_stats_close(&st);
    d->found++;
    if (rc == 0) {
        gst_profile_sort(&one);
        return fold_in(d->merging, &one, &d->err);
    }
    gst_profile_free(&one);
    return rc;
}

static int load_dir(const char *dir, struct merging *m, struct gr_error *err)
{
    struct dir_scan d = { .merging = m };
    int rc = gst_dir_scan(dir, visit, &d, err);
    if (rc > 0 || (rc < 0 && d.err.msg[0])) /* the visitor's error */
        *err = d.err;
    if (rc != 0)
        return -1;
    if (d.found == 0)
        return gr_fail(err, "no valid stats files in %s", dir);
    return 0;
}

static int load_all(const struct merge_options *o, char **targets, int n, struct merging *m,
                    struct gr_error *err)
{
    if (o->dir && load_dir(o->dir, m, err) < 0)
        return -1;
    for (int i = 0; i < n; i++) {
        struct gst_profile one;
        gst_profile_init(&one);
        if (gst_profile_load(targets[i], &one, err) < 0) {
            gst_profile_free(&one);
            return -1;
        }
        if (fold_in(m, &one, err) < 0)
            return -1;
    }
    return 0;
}

/* Sorted by source, so that --dir's order (the directory's) does not show. */
static int by_source(const void *a, const void *b)
{
    const struct gst_process *x = a, *y = b;
    int c = strcmp(x->source, y->source);
    return c ? c : (x->pid > y->pid) - (x->pid < y->pid);
}

static void warn_about(const char *what, const struct gst_process *proc)
{
    fprintf(stderr, "gostat: merge: warning: %s ", what);
    gst_put_cell(stderr, proc->source, 0, false);
    fprintf(stderr, " (pid %" PRId64 ")\n", proc->pid);
}

/* Refuses (or, with --force, warns about) processes of another build than
 * the first one with a build id; warns about live ones. */
static int check_processes(const struct gst_profile *p, bool force, struct gr_error *err)
{
    const struct gst_process *first = NULL;
    for (size_t i = 0; i < p->nprocs; i++) {
        const struct gst_process *proc = &p->procs[i];
        if (proc->live)
            warn_about("counts still changing: process running for", proc);
        if (!proc->build_id[0])
            continue;
        if (!first) {
            first = proc;
        } else if (strcmp(first->build_id, proc->build_id) != 0) {
            char a[256], b[256], ida[96], idb[96];
            if (!force)
                return gr_fail(err, "%s and %s come from different builds (build ids %s and %s); "
                               "--force sums them by function name",
                               gst_safe_text(a, sizeof a, first->source),
                               gst_safe_text(b, sizeof b, proc->source),
                               gst_safe_text(ida, sizeof ida, first->build_id),
                               gst_safe_text(idb, sizeof idb, proc->build_id));
            warn_about("summing a different build by function name:", proc);
        }
    }
    return 0;
}

static int write_output(const char *path, const struct gst_profile *p, struct gr_error *err)
{
    struct gst_outfile o;
    if (!path) {
        gst_profile_write_json(stdout, p);
        return 0;
    }
    if (gst_outfile_open(&o, path, err) < 0)
        return -1;
    gst_profile_write_json(o.fp, p);
    return gst_outfile_commit(&o, err);
}

static size_t called_functions(const struct gst_profile *p)
{
    size_t n = 0;
    for (size_t i = 0; i < p->nfuncs; i++)
        n += p->funcs[i].calls > 0;
    return n;
}

static int merge(const struct merge_options *o, char **targets, int n, const regex_t *filter)
{
    struct merging m = { .filter = filter };
    struct gst_profile *p = &m.result;
    struct gr_error err;
    int status = GST_EXIT_OK;

    gst_profile_init(p);
    int rc = load_all(o, targets, n, &m, &err);
    if (rc == 0)
        rc = check_processes(p, o->force, &err);
    if (rc == 0) {
        qsort(p->procs, p->nprocs, sizeof *p->procs, by_source);
        rc = write_output(o->output, p, &err);
    }
    if (rc < 0) {
        fprintf(stderr, "gostat: merge: %s\n", err.msg);
        status = gr_error_exit_status(err.kind);
    } else if (o->output) {
        printf("merged %zu process%s: %" PRIu64 " calls, %zu of %zu functions called, into ",
               p->nprocs, p->nprocs == 1 ? "" : "es", gst_profile_total_calls(p),
               called_functions(p), p->nfuncs);
        gst_put_cell(stdout, o->output, 0, false);
        putchar('\n');
    }
    gst_profile_free(p);
    return status;
}

int gst_cmd_merge(int argc, char **argv)
{
    struct merge_options o = { 0 };
    struct gr_error err;
    regex_t filter;
    int next;
    int status = parse(argc, argv, &o, &next);
    if (status >= 0)
        return status;
    if (o.filter && gr_regex_compile(&filter, o.filter, "--filter", &err) < 0) {
        fprintf(stderr, "gostat: merge: %s\n", err.msg);
        return gr_error_exit_status(err.kind);
    }
    status = merge(&o, argv + next, argc - next, o.filter ? &filter : NULL);
    if (o.filter)
        regfree(&filter);
    return status;
}
