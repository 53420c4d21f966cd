/* exported by gostat/serve */
/* listenaddr.h: a listening socket from a HOST:PORT or unix:PATH argument. */
#ifndef GOSTAT_LISTENADDR_H
#define GOSTAT_LISTENADDR_H

#include "common/error.h"

#include <stdbool.h>
#include <stddef.h>

/* Binds and listens on spec: "IPV4:PORT", "[IPV6]:PORT", "NAME:PORT" (the
 * first address NAME resolves to), ":PORT" (every IPv4 interface) or
 * "unix:PATH" (a unix socket of mode 0600, only our user connects). PORT
 * is 0..65535; 0 picks a free port. Returns the socket (close-on-exec), or
 * -1 with err naming spec and the problem (a malformed spec, an unknown
 * host, a port in use). */
int gst_listen(const char *spec, struct gr_error *err);

/* Only this machine can connect: loopback, or a unix socket. */
bool gst_listen_is_local(int fd);

/* "HOST:PORT" of a listening socket, IPv6 in brackets, or "unix:PATH". */
void gst_listen_name(int fd, char *buf, size_t cap);

#endif
