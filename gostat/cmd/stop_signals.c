/* stop_signals.c: blocking, catching and restoring the stop signals. */
#include "gostat/cmd/stop_signals.h"

#include <string.h>

void gst_stop_signals_catch(struct gst_stop_signals *s, const int *sigs, int count, int also,
                            void (*handler)(int))
{
    struct sigaction on_stop;
    sigset_t block;

    memset(&on_stop, 0, sizeof on_stop);
    on_stop.sa_handler = handler;
    sigemptyset(&on_stop.sa_mask);
    sigemptyset(&block);
    s->count = count;
    for (int i = 0; i < count; i++) {
        s->sigs[i] = sigs[i];
        sigaddset(&block, sigs[i]);
    }
    if (also)
        sigaddset(&block, also);
    sigprocmask(SIG_BLOCK, &block, &s->saved_mask);
    for (int i = 0; i < count; i++)
        sigaction(sigs[i], &on_stop, &s->saved[i]);
    s->wait_mask = s->saved_mask;
    for (int i = 0; i < count; i++)
        sigdelset(&s->wait_mask, sigs[i]);
    if (also)
        sigdelset(&s->wait_mask, also);
}

void gst_stop_signals_restore(const struct gst_stop_signals *s)
{
    sigprocmask(SIG_SETMASK, &s->saved_mask, NULL);
    for (int i = 0; i < s->count; i++)
        sigaction(s->sigs[i], &s->saved[i], NULL);
}
