/* listing.c: the directory listing. Rows are collected first so columns
 * can be aligned and sorted. */
#include "gostat/render/listing.h"
#include "common/vec.h"

#include "gostat/read/statsdir.h"
#include "gostat/read/statsfile.h"
#include "gostat/render/term.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NUM 24 /* a uint64 in decimal, with room to spare */

struct list_row {
    int64_t pid;               /* 0 for an invalid file */
    char pid_text[NUM];
    const char *status;
    char funcs[NUM];
    char calls[NUM];
    char *exe;
    char *path;
};

struct list_rows {
    struct list_row *rows;
    size_t count, cap;
    FILE *errout;
    bool out_of_memory;
};

static struct list_row *add_row(struct list_rows *l)
{
    struct list_row *grown = gr_vec_grow(l->rows, &l->cap, l->count + 1, sizeof *grown);
    if (!grown)
        return NULL;
    l->rows = grown;
    struct list_row *row = &l->rows[l->count++];
    memset(row, 0, sizeof *row);
    return row;
}

static void fill_valid(struct list_row *row, const struct gst_stats *st)
{
    row->pid = st->hdr.pid;
    snprintf(row->pid_text, sizeof row->pid_text, "%" PRId64, st->hdr.pid);
    row->status = st->hdr.processes ? "MERGED" : st->live ? "LIVE" : "EXITED";
    snprintf(row->funcs, sizeof row->funcs, "%" PRIu32, st->hdr.nfuncs);
    snprintf(row->calls, sizeof row->calls, "%" PRIu64, st->total_calls);
    row->exe = strdup(st->hdr.exe);
}

static void fill_invalid(struct list_row *row)
{
    row->status = "INVALID";
    strcpy(row->pid_text, "-");
    strcpy(row->funcs, "-");
    strcpy(row->calls, "-");
    row->exe = strdup("-");
}

static int visit_file(void *ctx, const char *name, const char *path, int fd,
                      const struct gr_error *open_err)
{
    struct list_rows *l = ctx;
    struct gst_stats st;
    struct gr_error err;
    struct list_row *row = add_row(l);

    (void)name;
    if (!row) {
        if (fd >= 0)
            close(fd);
        l->out_of_memory = true;
        return 1;
    }
    row->path = strdup(path);
    if (fd < 0) {
        fill_invalid(row);
        fprintf(l->errout, "gostat: %s\n", open_err->msg);
    } else if (gst_stats_open_fd(&st, fd, path, &err) < 0) {
        fill_invalid(row);
        fprintf(l->errout, "gostat: %s\n", err.msg);
    } else {
        fill_valid(row, &st);
        gst_stats_close(&st);
    }
    if (!row->path || !row->exe)
        l->out_of_memory = true;
    return l->out_of_memory;
}

/* Invalid files (pid 0) go last; then by pid, then path. */
static int by_pid(const void *pa, const void *pb)
{
    const struct list_row *a = pa, *b = pb;
    if (a->pid != b->pid) {
        if (a->pid == 0 || b->pid == 0)
            return a->pid == 0 ? 1 : -1;
        return a->pid < b->pid ? -1 : 1;
    }
    return strcmp(a->path, b->path);
}

static void widen(size_t *w, const char *s)
{
    size_t n = gst_text_width(s);
    if (n > *w)
        *w = n;
}

static void print_rows(FILE *out, const struct list_rows *l)
{
    size_t wpid = 3, wstatus = 6, wfuncs = 5, wcalls = 5, wexe = 3;

    for (size_t i = 0; i < l->count; i++) {
        widen(&wpid, l->rows[i].pid_text);
        widen(&wstatus, l->rows[i].status);
        widen(&wfuncs, l->rows[i].funcs);
        widen(&wcalls, l->rows[i].calls);
        widen(&wexe, l->rows[i].exe);
    }
    gst_put_cell(out, "PID", wpid, true);
    fputs("  ", out);
    gst_put_cell(out, "STATUS", wstatus, false);
    fputs("  ", out);
    gst_put_cell(out, "FUNCS", wfuncs, true);
    fputs("  ", out);
    gst_put_cell(out, "CALLS", wcalls, true);
    fputs("  ", out);
    gst_put_cell(out, "EXE", wexe, false);
    fputs("  FILE\n", out);
    for (size_t i = 0; i < l->count; i++) {
        const struct list_row *r = &l->rows[i];
        gst_put_cell(out, r->pid_text, wpid, true);
        fputs("  ", out);
        gst_put_cell(out, r->status, wstatus, false);
        fputs("  ", out);
        gst_put_cell(out, r->funcs, wfuncs, true);
        fputs("  ", out);
        gst_put_cell(out, r->calls, wcalls, true);
        fputs("  ", out);
        gst_put_cell(out, r->exe, wexe, false);
        fputs("  ", out);
        gst_put_cell(out, r->path, 0, false);
        fputc('\n', out);
    }
}

static void free_rows(struct list_rows *l)
{
    for (size_t i = 0; i < l->count; i++) {
        free(l->rows[i].exe);
        free(l->rows[i].path);
    }
    free(l->rows);
}

int gst_list_dir(FILE *out, FILE *errout, const char *dir, struct gr_error *err)
{
    struct list_rows l = { .errout = errout };
    int rc = gst_dir_scan(dir, visit_file, &l, err);

    if (rc < 0) {
        free_rows(&l);
        return -1;
    }
    if (l.out_of_memory) {
        free_rows(&l);
        return gr_fail(err, "%s: out of memory while listing", dir);
    }
    if (l.count == 0) {
        fputs("no stats files in ", out);
        gst_put_cell(out, dir, 0, false);
        fputc('\n', out);
    } else {
        qsort(l.rows, l.count, sizeof *l.rows, by_pid);
        print_rows(out, &l);
    }
    free_rows(&l);
    return 0;
}
