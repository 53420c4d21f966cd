/* exported by gostat/serve */
/* http_access.h: who may read gostat serve's metrics. A Host header check
 * against DNS rebinding (a web page in a local browser naming our port
 * under its own host name), and an optional bearer token read from a
 * private file. */
#ifndef GOSTAT_HTTP_ACCESS_H
#define GOSTAT_HTTP_ACCESS_H

#include "common/error.h"

#include <stdbool.h>
#include <stddef.h>

#define GST_MAX_ALLOWED_HOSTS 16

struct gst_http_access {
    const char *hosts[GST_MAX_ALLOWED_HOSTS]; /* names accepted besides IP literals and localhost */
    size_t nhosts;
    char *token;               /* NULL: no token needed */
};

/* Is a Host header value (NULL: none, HTTP/1.0) acceptable? IP literals
 * (a rebinding page always uses a name), "localhost" and the names in a
 * are; the port is ignored. */
bool gst_http_host_allowed(const struct gst_http_access *a, const char *host);

/* Does an Authorization header (NULL: none) carry the token? Always true
 * without a token. Compares in constant time. */
bool gst_http_token_ok(const struct gst_http_access *a, const char *authorization);

/* Reads the token from path: a regular file owned by the caller, not
 * readable or writable by group or others; the first line, at least 16
 * bytes. Returns 0, or -1 with err. */
int gst_http_read_token(struct gst_http_access *a, const char *path, struct gr_error *err);

void gst_http_access_free(struct gst_http_access *a);

#endif
