/* conn_deadline.h: a deadline for each request's headers. libmicrohttpd's
 * own timeout restarts at every byte, so a client that sends one byte now
 * and then (or many that connect and say nothing) could hold connections
 * forever. Each connection is tracked from the moment it opens, and again
 * after each reply (keep-alive); one that has not delivered complete
 * headers within the deadline is shut down by a watchdog thread. */
#ifndef GOSTAT_CONN_DEADLINE_H
#define GOSTAT_CONN_DEADLINE_H

#include "common/error.h"

struct gst_deadlines;
struct gst_deadline_entry;

/* Starts the watchdog. Returns NULL with err on failure. */
struct gst_deadlines *gst_deadlines_new(unsigned seconds, struct gr_error *err);

/* A new connection on fd; its headers are due within the deadline.
 * Returns its entry, or NULL when out of memory (then it is not watched). */
struct gst_deadline_entry *gst_deadlines_add(struct gst_deadlines *d, int fd);

/* The connection's request headers are complete: no deadline now. */
void gst_deadlines_headers_done(struct gst_deadlines *d, struct gst_deadline_entry *e);

/* A reply was sent; the next request's headers are due within the deadline. */
void gst_deadlines_restart(struct gst_deadlines *d, struct gst_deadline_entry *e);

/* The connection is closing: forget it (e may be NULL). */
void gst_deadlines_remove(struct gst_deadlines *d, struct gst_deadline_entry *e);

/* Stops the watchdog and frees everything. */
void gst_deadlines_free(struct gst_deadlines *d);

#endif
