/* stop_signals.h: the signals that end a repeating command (--watch, top),
 * blocked except while it waits: the wait (ppoll with wait_mask) unblocks
 * them atomically, so a signal that lands while the command prints ends
 * the next wait at once instead of being lost or cutting the output. */
#ifndef GOSTAT_STOP_SIGNALS_H
#define GOSTAT_STOP_SIGNALS_H

#include <signal.h>

#define GST_STOP_SIGNALS_MAX 2

struct gst_stop_signals {
    int sigs[GST_STOP_SIGNALS_MAX];
    int count;
    struct sigaction saved[GST_STOP_SIGNALS_MAX];
    sigset_t saved_mask;
    sigset_t wait_mask;        /* the mask to wait with */
};

/* Blocks sigs[0..count) (count <= GST_STOP_SIGNALS_MAX), caught by
 * handler, and also (0: none; SIGWINCH for top: blocked and delivered
 * while waiting, its action left alone). */
void gst_stop_signals_catch(struct gst_stop_signals *s, const int *sigs, int count, int also,
                            void (*handler)(int));

/* Unblocks, then restores the actions: a signal still pending lands in
 * the handler rather than killing the process before it reports. */
void gst_stop_signals_restore(const struct gst_stop_signals *s);

#endif
