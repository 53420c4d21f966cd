/* findpid.c: choosing the stats file of a pid among those in the dir. */
#include "gostat/read/findpid.h"

#include "gostat/read/statsdir.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

struct pid_search {
    int64_t pid;
    bool found;
    struct gst_stats best;
    struct gr_error first_error; /* from a candidate we could not read */
    bool have_error;
};

static bool all_digits(const char *s, size_t len)
{
    if (len == 0)
        return false;
    for (size_t i = 0; i < len; i++)
        if (s[i] < '0' || s[i] > '9')
            return false;
    return true;
}

/* The start-up code's suffix after a name collision: 16 hex digits. */
static bool is_random_suffix(const char *s, size_t len)
{
    if (len != 16)
        return false;
    for (size_t i = 0; i < len; i++)
        if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
            return false;
    return true;
}

/* Does name end in ".<pid>" with a non-empty exe part before it? */
static bool ends_with_pid(const char *name, size_t len, const char *pid_text)
{
    size_t plen = strlen(pid_text);
    size_t prefix = strlen(GS_FILE_PREFIX);
    if (len < prefix + 2 + plen)
        return false;
    return name[len - plen - 1] == '.' && memcmp(name + len - plen, pid_text, plen) == 0;
}

bool gst_name_matches_pid(const char *name, int64_t pid)
{
    char pid_text[24];
    size_t len = strlen(name);

    snprintf(pid_text, sizeof pid_text, "%" PRId64, pid);
    if (strncmp(name, GS_FILE_PREFIX, strlen(GS_FILE_PREFIX)) != 0)
        return false;
    if (ends_with_pid(name, len, pid_text))
        return true;
    /* gostat.<exe>.<pid>.<n> (older writers) or .<16 hex digits>: drop
     * the suffix and try again. */
    const char *last_dot = strrchr(name, '.');
    size_t stem = (size_t)(last_dot - name);
    const char *suffix = last_dot + 1;
    size_t slen = len - stem - 1;
    return (all_digits(suffix, slen) || is_random_suffix(suffix, slen)) &&
           ends_with_pid(name, stem, pid_text);
}

/* Live beats exited; then the later start; then the later name, which
 * makes the choice stable when start times tie. */
static bool is_better(const struct gst_stats *a, const struct gst_stats *b)
{
    if (a->live != b->live)
        return a->live;
    if (a->hdr.start_time_ns != b->hdr.start_time_ns)
        return a->hdr.start_time_ns > b->hdr.start_time_ns;
    return strcmp(a->path, b->path) > 0;
}

static void remember_error(struct pid_search *s, const struct gr_error *err)
{
    if (!s->have_error) {
        s->first_error = *err;
        s->have_error = true;
    }
}

static int visit_candidate(void *ctx, const char *name, const char *path, int fd,
                           const struct gr_error *open_err)
{
    struct pid_search *s = ctx;
    struct gst_stats st;
    struct gr_error err;

    if (!gst_name_matches_pid(name, s->pid)) {
        if (fd >= 0)
            close(fd);
        return 0;
    }
    if (fd < 0) {
        remember_error(s, open_err);
        return 0;
    }
    if (gst_stats_open_fd(&st, fd, path, &err) < 0) {
        remember_error(s, &err);
        return 0;
    }
    if (st.hdr.pid != s->pid || (s->found && !is_better(&st, &s->best))) {
        gst_stats_close(&st);
        return 0;
    }
    if (s->found)
        gst_stats_close(&s->best);
    s->best = st;
    s->found = true;
    return 0;
}

int gst_find_pid_file(const char *dir, int64_t pid, struct gst_stats *st, struct gr_error *err)
{
    struct pid_search s;
    memset(&s, 0, sizeof s);
    s.pid = pid;

    if (gst_dir_scan(dir, visit_candidate, &s, err) < 0) {
        if (s.found)
            gst_stats_close(&s.best);
        return -1;
    }
    if (s.found) {
        *st = s.best;
        return 0;
    }
    if (s.have_error)
        return gr_fail(err, "%s", s.first_error.msg);
    return gr_fail(err, "%s: no stats file for pid %" PRId64, dir, pid);
}
