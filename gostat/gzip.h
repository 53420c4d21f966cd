/* gzip.h: gzip-compressing a reply body (zlib), for HTTP clients that send
 * Accept-Encoding: gzip, as Prometheus does: a large program's metrics
 * shrink about tenfold. */
#ifndef GOSTAT_GZIP_H
#define GOSTAT_GZIP_H

#include <stdbool.h>
#include <stddef.h>

/* Does an Accept-Encoding header (NULL: none) accept gzip? */
bool gst_gzip_accepted(const char *accept_encoding);

/* Compresses len bytes at in into a malloc'd gzip stream. Returns 0, or -1
 * when memory ran out or len is beyond one zlib call (2 GB): the caller
 * then sends the body as it is. */
int gst_gzip(const char *in, size_t len, char **out, size_t *out_len);

#endif
