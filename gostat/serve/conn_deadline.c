/* conn_deadline.c: the open connections of gostat serve, the watchdog that
 * shuts down those whose request is late, and eviction under pressure
 * (conn_deadline.h). The list is shared by the server's thread (admit,
 * add, remove, answered) and the watchdog (scan), under one mutex; an
 * entry leaves the list before the server closes its fd, so nothing here
 * ever shuts down a reused descriptor. */
#include "gostat/serve/conn_deadline.h"

#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

struct gst_deadline_entry {
    int fd;
    bool waiting;              /* a request is due */
    bool closing;              /* shut down here; the server has yet to see it */
    bool replying;             /* a reply is being sent */
    struct timespec since;     /* CLOCK_MONOTONIC */
    struct sockaddr_storage addr;
    socklen_t addrlen;         /* 0: unknown */
    struct gst_deadline_entry *prev, *next;
};

struct gst_deadlines {
    unsigned seconds;
    struct gst_conn_limits limits;
    pthread_mutex_t lock;
    pthread_cond_t wake;
    bool stop;
    pthread_t thread;
    struct gst_deadline_entry head;   /* sentinel of a circular list */
};

static struct timespec now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t;
}

/* The server sees end of file and closes the connection. */
static void shut(struct gst_deadline_entry *e)
{
    e->waiting = false;
    e->closing = true;
    shutdown(e->fd, SHUT_RDWR);
}

static void reap_late(struct gst_deadlines *d)
{
    struct timespec t = now();
    for (struct gst_deadline_entry *e = d->head.next; e != &d->head; e = e->next)
        if (e->waiting && t.tv_sec - e->since.tv_sec >= (time_t)d->seconds)
            shut(e);
}

/* The same client address (the port aside)? Unknown addresses and unix
 * sockets all count as one. */
static bool same_address(const struct sockaddr_storage *a, socklen_t alen,
                         const struct sockaddr *b, socklen_t blen)
{
    if (alen == 0 || blen == 0 || a->ss_family != b->sa_family)
        return alen == blen;
    if (b->sa_family == AF_INET)
        return ((const struct sockaddr_in *)a)->sin_addr.s_addr ==
               ((const struct sockaddr_in *)(const void *)b)->sin_addr.s_addr;
    if (b->sa_family == AF_INET6)
        return memcmp(&((const struct sockaddr_in6 *)a)->sin6_addr,
                      &((const struct sockaddr_in6 *)(const void *)b)->sin6_addr,
                      sizeof(struct in6_addr)) == 0;
    return true;
}

static bool earlier(struct timespec a, struct timespec b)
{
    return a.tv_sec < b.tv_sec || (a.tv_sec == b.tv_sec && a.tv_nsec < b.tv_nsec);
}

/* Among the open connections (from addr only, unless addr is NULL): how
 * many there are, and the one waiting longest for its request (NULL when
 * none waits). */
static struct gst_deadline_entry *oldest_waiting(struct gst_deadlines *d, const struct sockaddr *addr,
                                                 socklen_t addrlen, unsigned *count)
{
    struct gst_deadline_entry *oldest = NULL;
    *count = 0;
    for (struct gst_deadline_entry *e = d->head.next; e != &d->head; e = e->next) {
        if (e->closing || (addr && !same_address(&e->addr, e->addrlen, addr, addrlen)))
            continue;
        ++*count;
        if (e->waiting && (!oldest || earlier(e->since, oldest->since)))
            oldest = e;
    }
    return oldest;
}

/* Room for one more connection (from addr only, unless NULL) under limit
 * (0: none), shutting one down if need be. */
static bool make_room(struct gst_deadlines *d, const struct sockaddr *addr, socklen_t addrlen,
                      unsigned limit)
{
    unsigned count;
    if (limit == 0)
        return true;
    struct gst_deadline_entry *victim = oldest_waiting(d, addr, addrlen, &count);
    if (count < limit)
        return true;
    if (!victim)
        return false;
    shut(victim);
    return true;
}

bool gst_deadlines_admit(struct gst_deadlines *d, const struct sockaddr *addr, socklen_t addrlen)
{
    pthread_mutex_lock(&d->lock);
    bool ok = make_room(d, addr, addrlen, d->limits.per_address) &&
              make_room(d, NULL, 0, d->limits.total);
    pthread_mutex_unlock(&d->lock);
    return ok;
}

static void *watchdog(void *arg)
{
    struct gst_deadlines *d = arg;
    pthread_mutex_lock(&d->lock);
    while (!d->stop) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_sec += 1;
        pthread_cond_timedwait(&d->wake, &d->lock, &until);
        reap_late(d);
    }
    pthread_mutex_unlock(&d->lock);
    return NULL;
}

struct gst_deadlines *gst_deadlines_new(unsigned seconds, struct gst_conn_limits limits,
                                        struct gr_error *err)
{
    struct gst_deadlines *d = calloc(1, sizeof *d);
    if (!d) {
        gr_fail(err, "out of memory");
        return NULL;
    }
    d->seconds = seconds;
    d->limits = limits;
    d->head.next = d->head.prev = &d->head;
    pthread_mutex_init(&d->lock, NULL);
    pthread_cond_init(&d->wake, NULL);
    int rc = pthread_create(&d->thread, NULL, watchdog, d);
    if (rc != 0) {
        pthread_mutex_destroy(&d->lock);
        pthread_cond_destroy(&d->wake);
        free(d);
        gr_fail(err, "cannot start the connection watchdog: %s", strerror(rc));
        return NULL;
    }
    return d;
}

struct gst_deadline_entry *gst_deadlines_add(struct gst_deadlines *d, int fd,
                                             const struct sockaddr *addr, socklen_t addrlen)
{
    struct gst_deadline_entry *e = calloc(1, sizeof *e);
    if (!e)
        return NULL;
    e->fd = fd;
    if (addr && addrlen <= sizeof e->addr) {
        memcpy(&e->addr, addr, addrlen);
        e->addrlen = addrlen;
    }
    e->waiting = true;
    e->since = now();
    pthread_mutex_lock(&d->lock);
    e->next = d->head.next;
    e->prev = &d->head;
    d->head.next->prev = e;
    d->head.next = e;
    pthread_mutex_unlock(&d->lock);
    return e;
}

void gst_deadlines_answered(struct gst_deadlines *d, struct gst_deadline_entry *e)
{
    if (!e)
        return;
    pthread_mutex_lock(&d->lock);
    e->waiting = false;
    pthread_mutex_unlock(&d->lock);
}

void gst_deadlines_restart(struct gst_deadlines *d, struct gst_deadline_entry *e)
{
    if (!e)
        return;
    pthread_mutex_lock(&d->lock);
    e->waiting = !e->closing;
    e->since = now();
    pthread_mutex_unlock(&d->lock);
}

void gst_deadlines_set_replying(struct gst_deadlines *d, struct gst_deadline_entry *e, bool replying)
{
    if (!e)
        return;
    pthread_mutex_lock(&d->lock);
    e->replying = replying;
    pthread_mutex_unlock(&d->lock);
}

unsigned gst_deadlines_replying(struct gst_deadlines *d, const struct gst_deadline_entry *e)
{
    unsigned n = 0;
    pthread_mutex_lock(&d->lock);
    for (const struct gst_deadline_entry *o = d->head.next; o != &d->head; o = o->next)
        if (o->replying &&
            same_address(&o->addr, o->addrlen, (const struct sockaddr *)&e->addr, e->addrlen))
            n++;
    pthread_mutex_unlock(&d->lock);
    return n;
}

void gst_deadlines_remove(struct gst_deadlines *d, struct gst_deadline_entry *e)
{
    if (!e)
        return;
    pthread_mutex_lock(&d->lock);
    e->prev->next = e->next;
    e->next->prev = e->prev;
    pthread_mutex_unlock(&d->lock);
    free(e);
}

void gst_deadlines_free(struct gst_deadlines *d)
{
    if (!d)
        return;
    pthread_mutex_lock(&d->lock);
    d->stop = true;
    pthread_cond_signal(&d->wake);
    pthread_mutex_unlock(&d->lock);
    pthread_join(d->thread, NULL);
    while (d->head.next != &d->head)
        gst_deadlines_remove(d, d->head.next);
    pthread_mutex_destroy(&d->lock);
    pthread_cond_destroy(&d->wake);
    free(d);
}
