/* listenaddr.h: a TCP listening socket from a HOST:PORT argument. */
#ifndef GOSTAT_LISTENADDR_H
#define GOSTAT_LISTENADDR_H

#include "error.h"

#include <stddef.h>

/* Binds and listens on spec: "IPV4:PORT", "[IPV6]:PORT", "NAME:PORT" (the
 * first address NAME resolves to) or ":PORT" (every IPv4 interface). PORT
 * is 0..65535; 0 picks a free port. Returns the socket (close-on-exec), or
 * -1 with err naming spec and the problem (a malformed spec, an unknown
 * host, a port in use). */
int gst_listen(const char *spec, struct gr_error *err);

/* "HOST:PORT" of a listening socket, IPv6 in brackets, into buf. */
void gst_listen_name(int fd, char *buf, size_t cap);

#endif
