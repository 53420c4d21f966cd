/* http_access.c: Host header check and bearer token (http_access.h). */
#include "gostat/serve/http_access.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#define TOKEN_MIN 16
#define TOKEN_MAX 4096

/* A port after the host: up to five digits (RFC 3986 allows none). */
static bool port_ok(const char *p)
{
    size_t n = strspn(p, "0123456789");
    return n <= 5 && p[n] == '\0';
}

/* The host part of a Host header: "[v6]:port", "[v6]", "name:port" or
 * "name"; anything after the closing bracket but a port refuses it. */
static bool host_part(const char *host, char *out, size_t cap)
{
    size_t len;
    if (host[0] == '[') {
        const char *close = strchr(host, ']');
        if (!close || (close[1] && (close[1] != ':' || !port_ok(close + 2))))
            return false;
        host++;
        len = (size_t)(close - host);
    } else {
        const char *colon = strrchr(host, ':');
        if (colon && !port_ok(colon + 1))
            return false;
        len = colon ? (size_t)(colon - host) : strlen(host);
    }
    if (len == 0 || len >= cap)
        return false;
    memcpy(out, host, len);
    out[len] = '\0';
    return true;
}

static bool is_ip_literal(const char *h)
{
    unsigned char buf[16];
    return inet_pton(AF_INET, h, buf) == 1 || inet_pton(AF_INET6, h, buf) == 1;
}

bool gst_http_host_allowed(const struct gst_http_access *a, const char *host)
{
    char h[256];
    if (!host)
        return true;
    if (!host_part(host, h, sizeof h))
        return false;
    if (is_ip_literal(h) || strcasecmp(h, "localhost") == 0)
        return true;
    for (size_t i = 0; i < a->nhosts; i++)
        if (strcasecmp(h, a->hosts[i]) == 0)
            return true;
    return false;
}

/* Constant time in the length of the expected token. */
static bool same_secret(const char *given, size_t given_len, const char *want)
{
    size_t want_len = strlen(want);
    unsigned char diff = given_len != want_len;
    for (size_t i = 0; i < want_len; i++)
        diff |= (unsigned char)(want[i] ^ (i < given_len ? given[i] : 0));
    return diff == 0;
}

bool gst_http_token_ok(const struct gst_http_access *a, const char *authorization)
{
    if (!a->token)
        return true;
    if (!authorization || strncasecmp(authorization, "Bearer ", 7) != 0)
        return false;
    const char *t = authorization + 7;
    while (*t == ' ')
        t++;
    size_t len = strlen(t);
    while (len && (t[len - 1] == ' ' || t[len - 1] == '\t'))
        len--;
    return same_secret(t, len, a->token);
}

static int check_token_file(int fd, const char *path, struct gr_error *err)
{
    struct stat sb;
    if (fstat(fd, &sb) < 0)
        return gr_fail(err, "--token-file %s: %s", path, strerror(errno));
    if (!S_ISREG(sb.st_mode))
        return gr_fail(err, "--token-file %s: not a regular file", path);
    if (sb.st_uid != geteuid())
        return gr_fail(err, "--token-file %s: owned by uid %u, not by the user gostat runs as",
                       path, (unsigned)sb.st_uid);
    if (sb.st_mode & 077)
        return gr_fail(err, "--token-file %s: mode %03o lets others read or change it; chmod 600 it",
                       path, (unsigned)(sb.st_mode & 0777));
    return 0;
}

int gst_http_read_token(struct gst_http_access *a, const char *path, struct gr_error *err)
{
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return gr_fail(err, "--token-file %s: %s", path, strerror(errno));
    char buf[TOKEN_MAX + 1];
    ssize_t n = check_token_file(fd, path, err) < 0 ? -2 : read(fd, buf, TOKEN_MAX);
    int e = errno;
    close(fd);
    if (n == -2)
        return -1;
    if (n < 0)
        return gr_fail(err, "--token-file %s: %s", path, strerror(e));
    buf[n] = '\0';
    buf[strcspn(buf, "\r\n")] = '\0';
    if (strlen(buf) < TOKEN_MIN)
        return gr_fail(err, "--token-file %s: the token (first line) must have at least %d characters",
                       path, TOKEN_MIN);
    a->token = strdup(buf);
    explicit_bzero(buf, sizeof buf);
    if (!a->token)
        return gr_fail(err, "out of memory");
    return 0;
}

void gst_http_access_free(struct gst_http_access *a)
{
    if (a->token) {
        explicit_bzero(a->token, strlen(a->token));
        free(a->token);
    }
    a->token = NULL;
}
