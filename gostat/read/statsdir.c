/* statsdir.c: scanning the stats directory safely. */
#include "gostat/read/statsdir.h"

#include "format/gostat_format.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *gst_stats_dir(void)
{
    const char *dir = getenv("GOSTAT_DIR");
    return dir && *dir ? dir : GST_DEFAULT_DIR;
}

static bool is_ours(const struct stat *sb)
{
    return S_ISREG(sb->st_mode) && sb->st_uid == geteuid();
}

/* Checked twice: lstat skips symlinks and strangers cheaply, and fstat on
 * the opened fd closes the race where the name is swapped in between. */
static int open_candidate(int dirfd, const char *name, const char *path, struct gr_error *err)
{
    struct stat sb;
    if (fstatat(dirfd, name, &sb, AT_SYMLINK_NOFOLLOW) < 0 || !is_ours(&sb))
        return -2;
    int fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        if (errno == ELOOP)
            return -2; /* became a symlink */
        return gr_fail(err, "%s: cannot open: %s", path, strerror(errno));
    }
    if (fstat(fd, &sb) < 0 || !is_ours(&sb)) {
        close(fd);
        return -2;
    }
    return fd;
}

int gst_dir_scan(const char *dir, gst_dir_visit_fn visit, void *ctx, struct gr_error *err)
{
    DIR *d = opendir(dir);
    if (!d)
        return gr_fail(err, "%s: cannot open directory: %s", dir, strerror(errno));

    int rc = 0;
    struct dirent *de;
    while (rc == 0 && (de = readdir(d)) != NULL) {
        char path[PATH_MAX];
        struct gr_error open_err = { .msg = "" };

        if (strncmp(de->d_name, GS_FILE_PREFIX, strlen(GS_FILE_PREFIX)) != 0)
            continue;
        if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, de->d_name) >= sizeof path)
            continue;
        int fd = open_candidate(dirfd(d), de->d_name, path, &open_err);
        if (fd == -2)
            continue;
        rc = visit(ctx, de->d_name, path, fd, &open_err);
    }
    closedir(d);
    return rc;
}
