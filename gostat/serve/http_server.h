/* exported by gostat/serve */
/* http_server.h: the HTTP side of gostat serve (libmicrohttpd): GET and
 * HEAD of /metrics answered by a callback (gzip-compressed when the client
 * accepts it), a small index page at /, 405 for other methods there,
 * 413 for a request with a body (never read) and 404 elsewhere. Requests
 * are served one at a time by a single thread, so the callback never runs
 * concurrently. Every request must pass the Host check and, when set, the
 * bearer token (http_access.h), as soon as its headers are in;
 * connections are bounded in number, per client address and in how long
 * a request may take (conn_deadline.h), and at most a few metrics replies
 * are held at once, half of them for one client address (503 beyond). */
#ifndef GOSTAT_HTTP_SERVER_H
#define GOSTAT_HTTP_SERVER_H

#include "common/error.h"
#include "gostat/serve/http_access.h"

#include <stdbool.h>
#include <stddef.h>

struct gst_http_reply {
    unsigned status;           /* 200, or e.g. 500 with a text/plain body */
    char *body;                /* malloc'd; the server frees it */
    size_t len;
    const char *content_type;  /* static */
};

/* Fills reply for a GET or HEAD of /metrics; accept is the request's
 * Accept header, or NULL. Returns 0, or -1 when no reply could be made
 * (the server then answers 500). */
typedef int (*gst_http_metrics_fn)(void *ctx, const char *accept, struct gst_http_reply *reply);

struct gst_http_server;

/* Starts serving on listen_fd (which the server then owns), answering
 * only requests access allows (it must outlive the server). per_ip_limit:
 * bound the connections and metrics replies of one client address (TCP; a
 * unix socket has no addresses). Returns the server, or NULL with err set. */
struct gst_http_server *gst_http_start(int listen_fd, bool per_ip_limit,
                                       const struct gst_http_access *access,
                                       gst_http_metrics_fn metrics, void *ctx, struct gr_error *err);

/* Stops serving (waiting for the reply in progress) and closes the socket. */
void gst_http_stop(struct gst_http_server *srv);

#endif
