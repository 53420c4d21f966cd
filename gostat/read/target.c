/* target.c: resolving a PID|FILE argument to an open stats file. */
#include "gostat/read/target.h"

#include "gostat/read/findpid.h"
#include "gostat/read/statsdir.h"

bool gst_parse_pid(const char *s, int64_t *pid)
{
    int64_t n = 0;
    if (!*s)
        return false;
    for (const char *p = s; *p; p++) {
        if (*p < '0' || *p > '9')
            return false;
        if (n <= INT32_MAX)
            n = n * 10 + (*p - '0');
    }
    *pid = n >= 1 && n <= INT32_MAX ? n : -1;
    return true;
}

int gst_open_target(const char *target, struct gst_stats *st, struct gr_error *err)
{
    int64_t pid;
    if (!gst_parse_pid(target, &pid))
        return gst_stats_open(st, target, err);
    if (pid < 0)
        return gr_fail(err, "'%s' is not a valid pid (use ./%s for a file)", target, target);
    return gst_find_pid_file(gst_stats_dir(), pid, st, err);
}
