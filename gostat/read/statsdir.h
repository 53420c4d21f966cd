/* exported by gostat/read */
/* statsdir.h: finding stats files in $GOSTAT_DIR. The directory is shared
 * (/dev/shm by default), so only our own regular files are considered:
 * symlinks are never followed and other users' files are skipped, which
 * keeps a planted file from posing as one of our processes. */
#ifndef GOSTAT_STATSDIR_H
#define GOSTAT_STATSDIR_H

#include "common/error.h"

#define GST_DEFAULT_DIR "/dev/shm"

/* $GOSTAT_DIR, or GST_DEFAULT_DIR when unset or empty. */
const char *gst_stats_dir(void);

/* Called once per candidate file, with its name (in dir) and full path.
 * fd is open read-only on that regular file, owned by the caller; if it is
 * -1 the file could not be opened and open_err says why. A non-zero return
 * stops the scan and is returned by gst_dir_scan. */
typedef int (*gst_dir_visit_fn)(void *ctx, const char *name, const char *path,
                                int fd, const struct gr_error *open_err);

/* Visits every regular file in dir whose name starts with GS_FILE_PREFIX
 * and that belongs to the effective user. Returns the visitor's non-zero
 * result, 0 when all were visited, or -1 with err if dir cannot be read. */
int gst_dir_scan(const char *dir, gst_dir_visit_fn visit, void *ctx, struct gr_error *err);

#endif
