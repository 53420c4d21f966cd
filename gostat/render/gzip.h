/* exported by gostat/render */
/* gzip.h: writing a buffer gzip-compressed: pprof reads profiles gzipped,
 * and Prometheus asks for gzipped replies (a large program's metrics
 * shrink about tenfold). */
#ifndef GOSTAT_GZIP_H
#define GOSTAT_GZIP_H

#include "common/error.h"

#include <stddef.h>
#include <stdio.h>

/* Writes data[0..len) to out as one gzip member (RFC 1952), at zlib
 * compression level (Z_DEFAULT_COMPRESSION, or 1 for speed). Returns 0, or
 * -1 with err (a zlib failure or a write error, which names `name`). */
int gst_gzip_write(FILE *out, const void *data, size_t len, int level, const char *name,
                   struct gr_error *err);

#endif
