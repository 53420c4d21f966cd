/* gzip.h: writing a buffer gzip-compressed (pprof reads profiles gzipped). */
#ifndef GOSTAT_GZIP_H
#define GOSTAT_GZIP_H

#include "error.h"

#include <stddef.h>
#include <stdio.h>

/* Writes data[0..len) to out as one gzip member (RFC 1952). Returns 0, or
 * -1 with err (a zlib failure or a write error, which names `name`). */
int gst_gzip_write(FILE *out, const void *data, size_t len, const char *name,
                   struct gr_error *err);

#endif
