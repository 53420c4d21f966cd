/* exported by gostat/render */
/* outfile.h: writing an output file all at once or not at all. The data
 * goes to a temporary file in the destination's directory, which replaces
 * the destination (rename) only when everything was written and synced:
 * a reader never sees a partial file, and a failure leaves none behind.
 * The path "-" means standard output; an existing device or FIFO is
 * written in place. */
#ifndef GOSTAT_OUTFILE_H
#define GOSTAT_OUTFILE_H

#include "common/error.h"

#include <stdbool.h>
#include <stdio.h>

struct gst_outfile {
    FILE *fp;                  /* write here */
    const char *path;          /* the destination, as given */
    char *tmp;                 /* the temporary file; NULL when in place */
    char *dest;                /* what tmp replaces when path already
                                  exists (symlinks resolved), else NULL */
};

/* Creates the temporary file: with the mode of the file it will replace,
 * or 0666 minus the umask for a new file. A symlink owned by another user
 * (not root) is refused, never followed. Returns 0, or -1 with err naming
 * path. */
int gst_outfile_open(struct gst_outfile *o, const char *path, struct gr_error *err);

/* Flushes, syncs and renames into place. On failure removes the temporary
 * file and returns -1 with err. o is closed either way. */
int gst_outfile_commit(struct gst_outfile *o, struct gr_error *err);

/* Closes and removes the temporary file (in place: just closes). */
void gst_outfile_abort(struct gst_outfile *o);

#endif
