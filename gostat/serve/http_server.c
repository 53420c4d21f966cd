/* http_server.c: routing and replies on top of libmicrohttpd. */
#include "gostat/serve/http_server.h"

#include "gostat/serve/conn_deadline.h"
#include "gostat/render/gzip.h"

#include <microhttpd.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <zlib.h>

/* Bounds that keep one client from holding the server: many connections
 * in all, few per client address, the one waiting longest evicted for a
 * new one (conn_deadline.h); each request answered within a deadline (any
 * byte restarts libmicrohttpd's own idle timeout); a few metrics replies
 * in memory at once, each possibly hundreds of MB, and only half of them
 * for one client address, so a client that reads its replies slowly (or
 * not at all) cannot keep the others' scrapes at 503.
 * libmicrohttpd's own bound leaves room for the connections evicted but
 * not yet closed. */
#define CONNECTION_LIMIT 256
#define PER_IP_CONNECTION_LIMIT 16
#define EVICTED_SLACK 32
#define CONNECTION_TIMEOUT_S 30
#define REQUEST_DEADLINE_S 10
#define MAX_SCRAPES_IN_FLIGHT 4
#define SCRAPES_IN_FLIGHT_PER_ADDRESS 2

static const char index_page[] =
    "<!DOCTYPE html>\n<html><head><title>gostat serve</title></head><body>\n"
    "<h1>gostat serve</h1>\n<p>Call counts and durations of instrumented Go programs: "
    "<a href=\"/metrics\">/metrics</a></p>\n</body></html>\n";

struct gst_http_server {
    struct MHD_Daemon *daemon;
    gst_http_metrics_fn metrics;
    void *ctx;
    const struct gst_http_access *access;
    struct gst_deadlines *deadlines;
    unsigned scrapes_in_flight;  /* only touched by the server's thread */
    bool per_address;            /* client addresses are known (TCP) */
};

/* *req_cls of a request whose metrics reply is queued; any other request
 * has the server there. */
static char metrics_in_flight;

static enum MHD_Result send_static(struct MHD_Connection *c, unsigned status, const char *type,
                                   const char *body, const char *allow)
{
    struct MHD_Response *r =
        MHD_create_response_from_buffer(strlen(body), (void *)body, MHD_RESPMEM_PERSISTENT);
    if (!r)
        return MHD_NO;
    MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
    if (allow)
        MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, allow);
    enum MHD_Result ok = MHD_queue_response(c, status, r);
    MHD_destroy_response(r);
    return ok;
}

/* Does an Accept-Encoding header (NULL: none) accept gzip? "gzip;q=0"
 * refuses it. */
static bool gzip_accepted(const char *accept_encoding)
{
    const char *p = accept_encoding;
    while (p && *p) {
        p += strspn(p, " \t");
        size_t len = strcspn(p, ",");
        size_t token = strcspn(p, ";, \t");
        if (token == 4 && strncasecmp(p, "gzip", 4) == 0) {
            const char *q = memchr(p, '=', len);
            return !q || strtod(q + 1, NULL) > 0;
        }
        p += len;
        if (*p == ',')
            p++;
    }
    return false;
}

/* Replaces the body by its gzip form if the client accepts that; on any
 * failure the body goes as it is. The fastest level: a scrape of a huge
 * program is hundreds of MB. */
static bool compress_for(struct MHD_Connection *c, struct gst_http_reply *reply)
{
    const char *enc = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_ACCEPT_ENCODING);
    struct gr_error err;
    char *gz = NULL;
    size_t gz_len = 0;
    if (!gzip_accepted(enc))
        return false;
    FILE *mem = open_memstream(&gz, &gz_len);
    if (!mem)
        return false;
    int rc = gst_gzip_write(mem, reply->body, reply->len, Z_BEST_SPEED, "reply", &err);
    if (fclose(mem) != 0 || rc < 0) {
        free(gz);
        return false;
    }
    free(reply->body);
    reply->body = gz;
    reply->len = gz_len;
    return true;
}

static struct gst_deadline_entry *deadline_of(struct MHD_Connection *c)
{
    const union MHD_ConnectionInfo *ci =
        MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return ci ? ci->socket_context : NULL;
}

/* Is there a reply slot for this connection: one of all, and one of its
 * address's share (a connection not tracked has no known address)? */
static bool slot_free(struct gst_http_server *srv, struct MHD_Connection *c)
{
    struct gst_deadline_entry *e = deadline_of(c);
    if (srv->scrapes_in_flight >= MAX_SCRAPES_IN_FLIGHT)
        return false;
    return !srv->per_address || !e ||
           gst_deadlines_replying(srv->deadlines, e) < SCRAPES_IN_FLIGHT_PER_ADDRESS;
}

static enum MHD_Result send_metrics(struct gst_http_server *srv, struct MHD_Connection *c,
                                    void **req_cls)
{
    const char *accept = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_ACCEPT);
    if (!slot_free(srv, c))
        return send_static(c, MHD_HTTP_SERVICE_UNAVAILABLE, "text/plain; charset=utf-8",
                           "gostat serve: busy (too many scrapes being sent)\n", NULL);
    struct gst_http_reply reply = { 0 };
    if (srv->metrics(srv->ctx, accept, &reply) < 0)
        return send_static(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "text/plain; charset=utf-8",
                           "gostat serve: out of memory\n", NULL);
    bool gzipped = compress_for(c, &reply);
    struct MHD_Response *r =
        MHD_create_response_from_buffer(reply.len, reply.body, MHD_RESPMEM_MUST_FREE);
    if (!r) {
        free(reply.body);
        return MHD_NO;
    }
    MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, reply.content_type);
    MHD_add_response_header(r, MHD_HTTP_HEADER_VARY, "Accept, Accept-Encoding");
    if (gzipped)
        MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_ENCODING, "gzip");
    enum MHD_Result ok = MHD_queue_response(c, reply.status, r);
    MHD_destroy_response(r);
    if (ok == MHD_YES) {
        srv->scrapes_in_flight++;
        gst_deadlines_set_replying(srv->deadlines, deadline_of(c), true);
        *req_cls = &metrics_in_flight;
    }
    return ok;
}

static enum MHD_Result count_host(void *cls, enum MHD_ValueKind kind, const char *key,
                                  const char *value)
{
    (void)kind;
    (void)value;
    if (strcasecmp(key, MHD_HTTP_HEADER_HOST) == 0)
        (*(unsigned *)cls)++;
    return MHD_YES;
}

/* Host check (DNS rebinding: one Host header, allowed), then the token
 * when one is set. */
static enum MHD_Result refuse(struct gst_http_server *srv, struct MHD_Connection *c, bool *refused)
{
    *refused = true;
    unsigned hosts = 0;
    MHD_get_connection_values(c, MHD_HEADER_KIND, count_host, &hosts);
    if (hosts > 1)
        return send_static(c, MHD_HTTP_BAD_REQUEST, "text/plain; charset=utf-8",
                           "gostat serve: more than one Host header\n", NULL);
    const char *host = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_HOST);
    if (!gst_http_host_allowed(srv->access, host))
        return send_static(c, MHD_HTTP_FORBIDDEN, "text/plain; charset=utf-8",
                           "gostat serve: Host not allowed: use an IP address, localhost, "
                           "or a name given with --allow-host\n", NULL);
    const char *auth = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_AUTHORIZATION);
    if (!gst_http_token_ok(srv->access, auth)) {
        struct MHD_Response *r = MHD_create_response_from_buffer(
            strlen("unauthorized\n"), (void *)"unauthorized\n", MHD_RESPMEM_PERSISTENT);
        if (!r)
            return MHD_NO;
        MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, "text/plain; charset=utf-8");
        MHD_add_response_header(r, MHD_HTTP_HEADER_WWW_AUTHENTICATE, "Bearer realm=\"gostat\"");
        enum MHD_Result ok = MHD_queue_response(c, MHD_HTTP_UNAUTHORIZED, r);
        MHD_destroy_response(r);
        return ok;
    }
    *refused = false;
    return MHD_YES;
}

/* Does the request announce a body? We never read one. */
static bool has_body(struct MHD_Connection *c)
{
    const char *len = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
    return MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_TRANSFER_ENCODING) ||
           (len && strspn(len, "0") != strlen(len));
}

/* The reply to a request whose headers are complete: Host and token
 * first, then the route; a body is refused unread. */
static enum MHD_Result answer(struct gst_http_server *srv, struct MHD_Connection *c, const char *url,
                              const char *method, void **req_cls)
{
    bool refused;
    enum MHD_Result denied = refuse(srv, c, &refused);
    if (refused)
        return denied;
    bool is_metrics = strcmp(url, "/metrics") == 0, is_index = strcmp(url, "/") == 0;
    if (!is_metrics && !is_index)
        return send_static(c, MHD_HTTP_NOT_FOUND, "text/plain; charset=utf-8", "not found\n", NULL);
    if (strcmp(method, MHD_HTTP_METHOD_GET) != 0 && strcmp(method, MHD_HTTP_METHOD_HEAD) != 0)
        return send_static(c, MHD_HTTP_METHOD_NOT_ALLOWED, "text/plain; charset=utf-8",
                           "method not allowed\n", "GET, HEAD");
    if (has_body(c))
        return send_static(c, MHD_HTTP_CONTENT_TOO_LARGE, "text/plain; charset=utf-8",
                           "gostat serve: requests with a body are refused\n", NULL);
    if (is_index)
        return send_static(c, MHD_HTTP_OK, "text/html; charset=utf-8", index_page, NULL);
    return send_metrics(srv, c, req_cls);
}

/* Every request is answered at the first call, when its headers are
 * complete, before any body arrives: a body can neither bypass the
 * deadline nor come before Host and token are checked. libmicrohttpd
 * then closes a connection whose body it has not read. */
static enum MHD_Result on_request(void *cls, struct MHD_Connection *c, const char *url,
                                  const char *method, const char *version, const char *upload_data,
                                  size_t *upload_data_size, void **req_cls)
{
    struct gst_http_server *srv = cls;
    (void)version;
    (void)upload_data;
    (void)upload_data_size;
    if (*req_cls != NULL)
        return MHD_NO;    /* only after a reply failed to queue: close */
    *req_cls = srv;
    enum MHD_Result ok = answer(srv, c, url, method, req_cls);
    gst_deadlines_answered(srv->deadlines, deadline_of(c));
    return ok;
}

static void on_completed(void *cls, struct MHD_Connection *c, void **req_cls,
                         enum MHD_RequestTerminationCode toe)
{
    struct gst_http_server *srv = cls;
    (void)toe;
    if (*req_cls == &metrics_in_flight) {
        srv->scrapes_in_flight--;
        gst_deadlines_set_replying(srv->deadlines, deadline_of(c), false);
    }
    *req_cls = NULL;
    gst_deadlines_restart(srv->deadlines, deadline_of(c));
}

static socklen_t peer_len(const struct sockaddr *addr)
{
    switch (addr->sa_family) {
    case AF_INET: return sizeof(struct sockaddr_in);
    case AF_INET6: return sizeof(struct sockaddr_in6);
    default: return sizeof(sa_family_t);
    }
}

/* libmicrohttpd's accept policy: room for a new connection, by eviction
 * if need be (conn_deadline.h). */
static enum MHD_Result on_accept(void *cls, const struct sockaddr *addr, socklen_t addrlen)
{
    struct gst_http_server *srv = cls;
    return gst_deadlines_admit(srv->deadlines, addr, addrlen) ? MHD_YES : MHD_NO;
}

static void on_connection(void *cls, struct MHD_Connection *c, void **socket_context,
                          enum MHD_ConnectionNotificationCode toe)
{
    struct gst_http_server *srv = cls;
    if (toe == MHD_CONNECTION_NOTIFY_STARTED) {
        const union MHD_ConnectionInfo *fd = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
        const union MHD_ConnectionInfo *peer =
            MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
        const struct sockaddr *addr = peer ? peer->client_addr : NULL;
        *socket_context = fd ? gst_deadlines_add(srv->deadlines, fd->connect_fd, addr,
                                                 addr ? peer_len(addr) : 0)
                             : NULL;
    } else {
        gst_deadlines_remove(srv->deadlines, *socket_context);
        *socket_context = NULL;
    }
}

struct gst_http_server *gst_http_start(int listen_fd, bool per_ip_limit,
                                       const struct gst_http_access *access,
                                       gst_http_metrics_fn metrics, void *ctx, struct gr_error *err)
{
    struct gst_http_server *srv = calloc(1, sizeof *srv);
    if (!srv) {
        close(listen_fd);
        gr_fail(err, "out of memory");
        return NULL;
    }
    srv->metrics = metrics;
    srv->ctx = ctx;
    srv->access = access;
    srv->per_address = per_ip_limit;
    struct gst_conn_limits limits = { per_ip_limit ? PER_IP_CONNECTION_LIMIT : 0, CONNECTION_LIMIT };
    srv->deadlines = gst_deadlines_new(REQUEST_DEADLINE_S, limits, err);
    if (!srv->deadlines) {
        close(listen_fd);
        free(srv);
        return NULL;
    }
    /* Single thread: the metrics callback never runs concurrently. poll,
     * not select: no FD_SETSIZE bound on descriptors. No library error
     * log: it would print a line for each connection over a limit. */
    srv->daemon = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_POLL, 0, on_accept, srv,
                                   on_request, srv,
                                   MHD_OPTION_LISTEN_SOCKET, listen_fd,
                                   MHD_OPTION_CONNECTION_LIMIT,
                                   (unsigned)(CONNECTION_LIMIT + EVICTED_SLACK),
                                   MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)CONNECTION_TIMEOUT_S,
                                   MHD_OPTION_NOTIFY_COMPLETED, on_completed, srv,
                                   MHD_OPTION_NOTIFY_CONNECTION, on_connection, srv,
                                   MHD_OPTION_END);
    if (!srv->daemon) {
        close(listen_fd);
        gst_deadlines_free(srv->deadlines);
        free(srv);
        gr_fail(err, "cannot start the HTTP server (libmicrohttpd)");
        return NULL;
    }
    return srv;
}

void gst_http_stop(struct gst_http_server *srv)
{
    if (!srv)
        return;
    MHD_stop_daemon(srv->daemon);   /* closes the listening socket */
    gst_deadlines_free(srv->deadlines);
    free(srv);
}
