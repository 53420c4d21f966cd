/* listenaddr.c: parsing HOST:PORT and opening the listening socket. */
#include "gostat/serve/listenaddr.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#define BACKLOG 64

/* Splits spec into host (brackets removed) and port. */
static int split(const char *spec, char *host, size_t host_cap, char *port, size_t port_cap,
                 struct gr_error *err)
{
    const char *colon;
    size_t host_len;
    const char *host_start = spec;

    if (spec[0] == '[') {
        const char *close = strchr(spec, ']');
        if (!close || close[1] != ':')
            return gr_fail(err, "--listen %s: want [IPV6]:PORT", spec);
        host_start = spec + 1;
        host_len = (size_t)(close - host_start);
        colon = close + 1;
    } else {
        colon = strrchr(spec, ':');
        if (!colon)
            return gr_fail(err, "--listen %s: want HOST:PORT", spec);
        host_len = (size_t)(colon - spec);
        if (memchr(spec, ':', host_len))
            return gr_fail(err, "--listen %s: an IPv6 address needs brackets: [ADDRESS]:PORT", spec);
    }
    const char *p = colon + 1;
    char *end;
    errno = 0;
    long n = strtol(p, &end, 10);
    if (*p < '0' || *p > '9' || *end || errno || n > 65535)
        return gr_fail(err, "--listen %s: port '%s' is not a number from 0 to 65535", spec, p);
    if (host_len >= host_cap)
        return gr_fail(err, "--listen %s: host name too long", spec);
    memcpy(host, host_start, host_len);
    host[host_len] = '\0';
    snprintf(port, port_cap, "%ld", n);
    return 0;
}

static int bind_listen(const struct addrinfo *ai, const char *spec, struct gr_error *err)
{
    int fd = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return gr_fail(err, "cannot listen on %s: %s", spec, strerror(errno));
    int on = 1;
    /* lets a restarted server bind while old connections linger in
     * TIME_WAIT; a port another socket listens on stays refused */
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
    if (bind(fd, ai->ai_addr, ai->ai_addrlen) < 0 || listen(fd, BACKLOG) < 0) {
        int e = errno;
        close(fd);
        return gr_fail(err, "cannot listen on %s: %s", spec, strerror(e));
    }
    return fd;
}

/* A unix socket, mode 0600: only our user can connect. A stale socket of
 * ours at the path is replaced; anything else there is an error. */
static int listen_unix(const char *path, const char *spec, struct gr_error *err)
{
    struct sockaddr_un sa = { .sun_family = AF_UNIX };
    struct stat sb;
    if (!*path || strlen(path) >= sizeof sa.sun_path)
        return gr_fail(err, "--listen %s: want unix:PATH, PATH shorter than %zu bytes", spec,
                       sizeof sa.sun_path);
    strcpy(sa.sun_path, path);
    if (lstat(path, &sb) == 0) {
        if (!S_ISSOCK(sb.st_mode) || sb.st_uid != geteuid())
            return gr_fail(err, "--listen %s: %s exists and is not a socket of ours", spec, path);
        unlink(path);
    }
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return gr_fail(err, "cannot listen on %s: %s", spec, strerror(errno));
    mode_t old = umask(0177);
    int rc = bind(fd, (struct sockaddr *)&sa, sizeof sa);
    umask(old);
    if (rc < 0 || listen(fd, BACKLOG) < 0) {
        int e = errno;
        close(fd);
        return gr_fail(err, "cannot listen on %s: %s", spec, strerror(e));
    }
    return fd;
}

int gst_listen(const char *spec, struct gr_error *err)
{
    char host[256], port[24];
    if (strncmp(spec, "unix:", 5) == 0)
        return listen_unix(spec + 5, spec, err);
    if (split(spec, host, sizeof host, port, sizeof port, err) < 0)
        return -1;

    struct addrinfo hints = { .ai_socktype = SOCK_STREAM,
                              .ai_flags = AI_PASSIVE | AI_NUMERICSERV,
                              .ai_family = host[0] ? AF_UNSPEC : AF_INET };
    struct addrinfo *res;
    int rc = getaddrinfo(host[0] ? host : NULL, port, &hints, &res);
    if (rc != 0)
        return gr_fail(err, "--listen %s: %s", spec, gai_strerror(rc));
    int fd = bind_listen(res, spec, err);
    freeaddrinfo(res);
    return fd;
}

bool gst_listen_is_local(int fd)
{
    struct sockaddr_storage ss;
    socklen_t len = sizeof ss;
    if (getsockname(fd, (struct sockaddr *)&ss, &len) < 0)
        return false;
    if (ss.ss_family == AF_UNIX)
        return true;
    if (ss.ss_family == AF_INET)
        return (ntohl(((const struct sockaddr_in *)&ss)->sin_addr.s_addr) >> 24) == 127;
    const struct in6_addr *a = &((const struct sockaddr_in6 *)&ss)->sin6_addr;
    return IN6_IS_ADDR_LOOPBACK(a) ||
           (IN6_IS_ADDR_V4MAPPED(a) && a->s6_addr[12] == 127);
}

void gst_listen_name(int fd, char *buf, size_t cap)
{
    struct sockaddr_storage ss;
    socklen_t len = sizeof ss;
    char host[INET6_ADDRSTRLEN] = "?";
    unsigned port = 0;

    if (getsockname(fd, (struct sockaddr *)&ss, &len) == 0) {
        if (ss.ss_family == AF_UNIX) {
            snprintf(buf, cap, "unix:%s", ((const struct sockaddr_un *)&ss)->sun_path);
            return;
        }
        if (ss.ss_family == AF_INET6) {
            const struct sockaddr_in6 *a = (const struct sockaddr_in6 *)&ss;
            inet_ntop(AF_INET6, &a->sin6_addr, host, sizeof host);
            port = ntohs(a->sin6_port);
            snprintf(buf, cap, "[%s]:%u", host, port);
            return;
        }
        const struct sockaddr_in *a = (const struct sockaddr_in *)&ss;
        inet_ntop(AF_INET, &a->sin_addr, host, sizeof host);
        port = ntohs(a->sin_port);
    }
    snprintf(buf, cap, "%s:%u", host, port);
}
