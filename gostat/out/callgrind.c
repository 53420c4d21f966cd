/* callgrind.c: writing the Callgrind format. The format is line-based and
 * a name runs to the end of its line, so every name is cleaned first
 * (gst_utf8_clean: no control characters, valid UTF-8). Names and files
 * are always written compressed ("fn=(ID) name" once, "fl=(ID)" after):
 * with an ID in front, a name that itself starts with "(" and a digit
 * cannot be mistaken for a reference. */
#include "callgrind.h"

#include "intern.h"
#include "times.h"
#include "utf8.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define UNKNOWN_NAME "???"     /* valgrind's own word for an unknown name */

struct costs {
    uint64_t calls, time_ns;
};

/* Readers skip the spaces after "(ID)", so a name of only spaces would
 * read as a reference to an undefined ID. */
static const char *nonblank(const char *s)
{
    return s[strspn(s, " ")] ? s : UNKNOWN_NAME;
}

static struct costs costs_of(const struct gst_stats *st, const struct gst_func *f)
{
    struct gst_times t = gst_times_of(st, f);
    struct costs c = { f->calls, 0 };
    if (t.known && t.total_ns > 0)   /* rounded as --json prints it */
        c.time_ns = t.total_ns >= 0x1p64 ? UINT64_MAX : (uint64_t)nearbyint(t.total_ns);
    return c;
}

static void put_header(FILE *out, const struct gst_stats *st, const char *exe,
                       struct costs total)
{
    fprintf(out, "# callgrind format\nversion: 1\ncreator: gostat\n");
    fprintf(out, "pid: %" PRId64 "\ncmd: %s\n", st->hdr.pid, exe);
    fprintf(out, "desc: Trigger: %s\n", st->live ? "gostat snapshot of a live process"
                                                 : "process exited");
    fprintf(out, "desc: Note: TimeNs is inclusive of callees (shown as self cost); "
                 "0 where a function has no time\n");
    fprintf(out, "positions: line\n");
    fprintf(out, "event: Calls : Calls (exact count)\n");
    fprintf(out, "event: TimeNs : Time in ns, inclusive of callees\n");
    /* callgrind_annotate ends the header at "events:"; it reads summary:
     * and totals: wherever they are. */
    fprintf(out, "events: Calls TimeNs\n");
    fprintf(out, "summary: %" PRIu64 " %" PRIu64 "\n\n", total.calls, total.time_ns);
}

/* fl=(ID) NAME the first time a file is named, fl=(ID) after. */
static int put_file(FILE *out, struct gst_intern *files, const char *file, struct gr_error *err)
{
    bool added;
    long id = gst_intern_add(files, file[0] ? file : UNKNOWN_NAME, &added, err);
    if (id < 0)
        return -1;
    if (added)
        fprintf(out, "fl=(%ld) %s\n", id + 1, nonblank(files->strings[id]));
    else
        fprintf(out, "fl=(%ld)\n", id + 1);
    return 0;
}

static int put_function(FILE *out, struct gst_intern *files, size_t i, const struct gst_func *f,
                        struct costs c, struct gr_error *err)
{
    if (put_file(out, files, f->file, err) < 0)
        return -1;
    char *name = gst_utf8_clean(f->name);
    if (!name)
        return gr_fail(err, "out of memory for a function name");
    fprintf(out, "fn=(%zu) %s\n%" PRIu32 " %" PRIu64 " %" PRIu64 "\n", i + 1, nonblank(name),
            f->line, c.calls, c.time_ns);
    free(name);
    return 0;
}

static struct costs sum_costs(const struct gst_stats *st, const struct gst_view *view)
{
    struct costs total = { 0, 0 };
    for (size_t i = 0; i < view->count; i++) {
        struct costs c = costs_of(st, view->funcs[i]);
        total.calls += c.calls;
        total.time_ns += c.time_ns;
    }
    return total;
}

int gst_callgrind_write(FILE *out, const struct gst_stats *st, const struct gst_view *view,
                        struct gr_error *err)
{
    struct gst_intern files;
    struct costs total = sum_costs(st, view);
    char *exe = gst_utf8_clean(st->hdr.exe);
    int rc = 0;

    if (!exe)
        return gr_fail(err, "out of memory for the exe name");
    if (gst_intern_init(&files, view->count, err) < 0) {
        free(exe);
        return -1;
    }
    put_header(out, st, exe, total);
    fprintf(out, "ob=(1) %s\n", nonblank(exe));
    for (size_t i = 0; i < view->count && rc == 0; i++)
        rc = put_function(out, &files, i, view->funcs[i], costs_of(st, view->funcs[i]), err);
    if (rc == 0)
        fprintf(out, "\ntotals: %" PRIu64 " %" PRIu64 "\n", total.calls, total.time_ns);
    gst_intern_free(&files);
    free(exe);
    return rc;
}
