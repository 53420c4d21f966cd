/* conn_deadline.c: the watchdog that shuts down connections whose request
 * headers are late (conn_deadline.h). The list is shared by the server's
 * thread (add, remove, headers done) and the watchdog (scan), under one
 * mutex; an entry leaves the list before the server closes its fd, so the
 * watchdog never shuts down a reused descriptor. */
#include "gostat/serve/conn_deadline.h"

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

struct gst_deadline_entry {
    int fd;
    bool waiting;              /* headers due */
    struct timespec since;     /* CLOCK_MONOTONIC */
    struct gst_deadline_entry *prev, *next;
};

struct gst_deadlines {
    unsigned seconds;
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

static void reap_late(struct gst_deadlines *d)
{
    struct timespec t = now();
    for (struct gst_deadline_entry *e = d->head.next; e != &d->head; e = e->next) {
        if (e->waiting && t.tv_sec - e->since.tv_sec >= (time_t)d->seconds) {
            e->waiting = false;
            /* the server sees end of file and closes the connection */
            shutdown(e->fd, SHUT_RDWR);
        }
    }
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

struct gst_deadlines *gst_deadlines_new(unsigned seconds, struct gr_error *err)
{
    struct gst_deadlines *d = calloc(1, sizeof *d);
    if (!d) {
        gr_fail(err, "out of memory");
        return NULL;
    }
    d->seconds = seconds;
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

struct gst_deadline_entry *gst_deadlines_add(struct gst_deadlines *d, int fd)
{
    struct gst_deadline_entry *e = calloc(1, sizeof *e);
    if (!e)
        return NULL;
    e->fd = fd;
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

void gst_deadlines_headers_done(struct gst_deadlines *d, struct gst_deadline_entry *e)
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
    e->waiting = true;
    e->since = now();
    pthread_mutex_unlock(&d->lock);
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
