/* atomicfile.h: writing a file so that readers see the old content or the
 * complete new one, never a part: the data goes to a temporary file beside
 * the final name, which is renamed into place only once it is all written. */
#ifndef GOSTAT_ATOMICFILE_H
#define GOSTAT_ATOMICFILE_H

#include "error.h"

#include <stdio.h>

struct gst_atomic_file {
    FILE *out;                 /* write here */
    char *path, *tmp_path;
};

/* Creates the temporary file for path. Returns 0, or -1 with err. */
int gst_atomic_open(struct gst_atomic_file *a, const char *path, struct gr_error *err);

/* Flushes, syncs and renames into place (mode 0666 minus the umask).
 * On any error the temporary file is removed. Returns 0, or -1 with err. */
int gst_atomic_commit(struct gst_atomic_file *a, struct gr_error *err);

/* Removes the temporary file; nothing appears at path. */
void gst_atomic_abort(struct gst_atomic_file *a);

#endif
