/* proc.c: liveness from /proc/PID/stat, or from the writer's lock on its
 * file. */
#include "gostat/read/proc.h"

#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Fields after the command name: field 3 (state) is the first. */
#define FIELD_STATE 3
#define FIELD_STARTTIME 22

static ssize_t read_proc_stat(int64_t pid, char *buf, size_t size)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%" PRId64 "/stat", pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    ssize_t n = read(fd, buf, size - 1);
    close(fd);
    if (n < 0)
        return -1;
    buf[n] = '\0';
    return n;
}

/* The command name (field 2) is in parentheses and may itself contain
 * spaces and ')', so fields are counted from the last ')'. */
static bool parse_state_and_start(const char *stat, char *state, uint64_t *start_ticks)
{
    const char *p = strrchr(stat, ')');
    if (!p)
        return false;
    p++;
    for (int field = FIELD_STATE; field <= FIELD_STARTTIME; field++) {
        while (*p == ' ')
            p++;
        if (*p == '\0')
            return false;
        if (field == FIELD_STATE)
            *state = *p;
        if (field == FIELD_STARTTIME) {
            char *end;
            *start_ticks = strtoull(p, &end, 10);
            return end != p;
        }
        p += strcspn(p, " ");
    }
    return false;
}

bool gst_process_is_live(int64_t pid, uint64_t start_ticks)
{
    char buf[1024], state = '?';
    uint64_t ticks;

    if (pid <= 0 || read_proc_stat(pid, buf, sizeof buf) < 0)
        return false;
    if (!parse_state_and_start(buf, &state, &ticks) || ticks != start_ticks)
        return false;
    /* A zombie has exited: its counters are final, only the parent has not
     * reaped it yet. */
    return state != 'Z' && state != 'X';
}

bool gst_writer_holds_lock(int fd)
{
    struct flock l = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
    return fcntl(fd, F_OFD_GETLK, &l) == 0 && l.l_type != F_UNLCK;
}
