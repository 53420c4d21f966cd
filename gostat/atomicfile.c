/* atomicfile.c: temporary file, fsync, rename. */
#include "atomicfile.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int gst_atomic_open(struct gst_atomic_file *a, const char *path, struct gr_error *err)
{
    memset(a, 0, sizeof *a);
    a->path = strdup(path);
    if (!a->path || asprintf(&a->tmp_path, "%s.tmp.XXXXXX", path) < 0) {
        a->tmp_path = NULL;
        gst_atomic_abort(a);
        return gr_fail(err, "out of memory");
    }
    int fd = mkstemp(a->tmp_path);
    if (fd < 0) {
        int e = errno;
        free(a->tmp_path);
        a->tmp_path = NULL;
        gst_atomic_abort(a);
        return gr_fail(err, "cannot create a file beside %s: %s", path, strerror(e));
    }
    a->out = fdopen(fd, "w");
    if (!a->out) {
        close(fd);
        gst_atomic_abort(a);
        return gr_fail(err, "cannot write %s: out of memory", path);
    }
    return 0;
}

static mode_t default_mode(void)
{
    mode_t mask = umask(0);
    umask(mask);
    return 0666 & ~mask;
}

int gst_atomic_commit(struct gst_atomic_file *a, struct gr_error *err)
{
    int fd = fileno(a->out);
    errno = 0;
    if (fflush(a->out) != 0 || ferror(a->out) || fchmod(fd, default_mode()) < 0 || fsync(fd) < 0) {
        int e = errno ? errno : EIO;
        gst_atomic_abort(a);
        return gr_fail(err, "cannot write %s: %s", a->path, strerror(e));
    }
    errno = 0;
    int closed = fclose(a->out);
    a->out = NULL;
    if (closed != 0 || rename(a->tmp_path, a->path) < 0) {
        int e = errno ? errno : EIO;
        gst_atomic_abort(a);
        return gr_fail(err, "cannot write %s: %s", a->path, strerror(e));
    }
    free(a->tmp_path);
    free(a->path);
    memset(a, 0, sizeof *a);
    return 0;
}

void gst_atomic_abort(struct gst_atomic_file *a)
{
    if (a->out)
        fclose(a->out);
    if (a->tmp_path)
        unlink(a->tmp_path);
    free(a->tmp_path);
    free(a->path);
    memset(a, 0, sizeof *a);
}
