/* conn_deadline.h: the open connections of gostat serve, each with one
 * deadline for its whole request (headers and any body, until our reply
 * is queued). libmicrohttpd's own timeout restarts at every byte, so a
 * client that sends one byte now and then (or many that connect and say
 * nothing) could hold connections forever. Each connection is tracked
 * from the moment it opens, and again after each reply (keep-alive); one
 * that has not been answered within the deadline is shut down by a
 * watchdog thread. Under connection pressure a new connection makes room
 * by shutting down the one waiting longest for its request (from its own
 * address when that address is at its limit), so clients that half-open
 * connections cannot lock out a scrape from the same address. It also
 * knows which connections have a reply being sent, by client address, so
 * the server can bound the replies one address holds. */
#ifndef GOSTAT_CONN_DEADLINE_H
#define GOSTAT_CONN_DEADLINE_H

#include "common/error.h"

#include <stdbool.h>
#include <sys/socket.h>

struct gst_deadlines;
struct gst_deadline_entry;

/* Bounds on the connections kept open: per_address for one client address
 * (0: none; a unix socket has no addresses), total in all. */
struct gst_conn_limits {
    unsigned per_address, total;
};

/* Starts the watchdog. Returns NULL with err on failure. */
struct gst_deadlines *gst_deadlines_new(unsigned seconds, struct gst_conn_limits limits,
                                        struct gr_error *err);

/* May a new connection from addr open? Makes room (see above) when a
 * limit is reached; false when nothing can be shut down for it. */
bool gst_deadlines_admit(struct gst_deadlines *d, const struct sockaddr *addr, socklen_t addrlen);

/* A new connection on fd from addr (NULL: unknown); its request is due
 * within the deadline. Returns its entry, or NULL when out of memory (then
 * it is not watched). */
struct gst_deadline_entry *gst_deadlines_add(struct gst_deadlines *d, int fd,
                                             const struct sockaddr *addr, socklen_t addrlen);

/* The connection's request is answered: no deadline now. */
void gst_deadlines_answered(struct gst_deadlines *d, struct gst_deadline_entry *e);

/* A reply was sent; the next request is due within the deadline. */
void gst_deadlines_restart(struct gst_deadlines *d, struct gst_deadline_entry *e);

/* The connection's reply is being sent (replying) or done. */
void gst_deadlines_set_replying(struct gst_deadlines *d, struct gst_deadline_entry *e, bool replying);

/* How many connections from e's client address have a reply being sent. */
unsigned gst_deadlines_replying(struct gst_deadlines *d, const struct gst_deadline_entry *e);

/* The connection is closing: forget it (e may be NULL). */
void gst_deadlines_remove(struct gst_deadlines *d, struct gst_deadline_entry *e);

/* Stops the watchdog and frees everything. */
void gst_deadlines_free(struct gst_deadlines *d);

#endif
