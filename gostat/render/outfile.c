/* outfile.c: atomic output files (temporary file, fsync, rename). */
#include "gostat/render/outfile.h"

#include <errno.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static bool is_stdout(const char *path)
{
    return strcmp(path, "-") == 0;
}

/* "DIR/.BASE.XXXXXX": in the same directory, so rename() stays within one
 * file system and is atomic; hidden, so a half-written file is not mistaken
 * for a result. */
static char *temp_template(const char *path)
{
    char *copy_dir = strdup(path), *copy_base = strdup(path);
    char *tmp = NULL;

    if (copy_dir && copy_base &&
        asprintf(&tmp, "%s/.%s.XXXXXX", dirname(copy_dir), basename(copy_base)) < 0)
        tmp = NULL;
    free(copy_dir);
    free(copy_base);
    return tmp;
}

static mode_t creation_mode(void)
{
    mode_t mask = umask(0);
    umask(mask);
    return 0666 & ~mask;
}

/* A symlink in a shared directory (/tmp) may have been planted by another
 * user to make us replace a file of our choosing: only our own links, or
 * root's, are followed. */
static int check_symlink_owner(const char *path, struct gr_error *err)
{
    struct stat lsb;
    if (lstat(path, &lsb) < 0 || !S_ISLNK(lsb.st_mode))
        return 0;
    if (lsb.st_uid == geteuid() || lsb.st_uid == 0)
        return 0;
    return gr_fail_as(err, GR_ERR_OUTPUT, "%s: is a symlink owned by another user (uid %u); not following it",
                      path, (unsigned)lsb.st_uid);
}

/* A device or FIFO (/dev/null, a pipe) is written in place: it cannot be
 * replaced, and must not be (renaming over /dev/null as root would). */
static int open_in_place(struct gst_outfile *o, struct gr_error *err)
{
    o->fp = fopen(o->path, "w");
    if (!o->fp)
        return gr_fail_as(err, GR_ERR_OUTPUT, "%s: %s", o->path, strerror(errno));
    return 0;
}

/* mode: the permission bits of the file being replaced, or of a new file. */
static int open_temp(struct gst_outfile *o, const char *dest, mode_t mode, struct gr_error *err)
{
    o->tmp = temp_template(dest);
    if (!o->tmp)
        return gr_fail_as(err, GR_ERR_INTERNAL, "%s: out of memory", o->path);
    int fd = mkstemp(o->tmp);
    if (fd < 0) {
        int e = errno;
        free(o->tmp);
        o->tmp = NULL;
        return gr_fail_as(err, GR_ERR_OUTPUT, "%s: cannot create a file in its directory: %s", o->path, strerror(e));
    }
    if (fchmod(fd, mode) < 0 || !(o->fp = fdopen(fd, "w"))) {
        int e = errno;
        close(fd);
        gst_outfile_abort(o);
        return gr_fail_as(err, GR_ERR_OUTPUT, "%s: %s", o->path, strerror(e));
    }
    return 0;
}

int gst_outfile_open(struct gst_outfile *o, const char *path, struct gr_error *err)
{
    struct stat sb;

    memset(o, 0, sizeof *o);
    o->path = path;
    if (is_stdout(path)) {
        o->fp = stdout;
        return 0;
    }
    if (!*path)
        return gr_fail_as(err, GR_ERR_OUTPUT, "-o: empty file name");
    if (check_symlink_owner(path, err) < 0)
        return -1;
    if (stat(path, &sb) < 0)
        return open_temp(o, path, creation_mode(), err);
    if (S_ISDIR(sb.st_mode))
        return gr_fail_as(err, GR_ERR_OUTPUT, "%s: is a directory", path);
    if (!S_ISREG(sb.st_mode))
        return open_in_place(o, err);
    /* Through a symlink, replace the file it points to, not the link. */
    o->dest = realpath(path, NULL);
    if (!o->dest)
        return gr_fail_as(err, GR_ERR_OUTPUT, "%s: %s", path, strerror(errno));
    /* The replacement keeps the mode a private file was given. */
    return open_temp(o, o->dest, sb.st_mode & 0777, err);
}

/* Standard output, or a device written in place. */
static int finish_in_place(struct gst_outfile *o, struct gr_error *err)
{
    bool ok = fflush(o->fp) == 0 && !ferror(o->fp);
    int e = errno;
    if (o->fp != stdout && fclose(o->fp) != 0 && ok) {
        ok = false;
        e = errno;
    }
    o->fp = NULL;
    if (!ok)
        return gr_fail_as(err, GR_ERR_OUTPUT, "%s: write error: %s",
                          is_stdout(o->path) ? "standard output" : o->path, strerror(e));
    return 0;
}

int gst_outfile_commit(struct gst_outfile *o, struct gr_error *err)
{
    if (!o->tmp)
        return finish_in_place(o, err);
    bool written = fflush(o->fp) == 0 && !ferror(o->fp) && fsync(fileno(o->fp)) == 0;
    int e = errno;
    if (fclose(o->fp) != 0 && written) {
        written = false;
        e = errno;
    }
    o->fp = NULL;
    if (written && rename(o->tmp, o->dest ? o->dest : o->path) < 0) {
        written = false;
        e = errno;
    }
    if (!written) {
        gst_outfile_abort(o);
        return gr_fail_as(err, GR_ERR_OUTPUT, "%s: cannot write: %s", o->path, strerror(e));
    }
    free(o->tmp);
    free(o->dest);
    o->tmp = o->dest = NULL;
    return 0;
}

void gst_outfile_abort(struct gst_outfile *o)
{
    if (o->fp && o->fp != stdout)
        fclose(o->fp);
    o->fp = NULL;
    if (o->tmp)
        unlink(o->tmp);
    free(o->tmp);
    free(o->dest);
    o->tmp = o->dest = NULL;
}
