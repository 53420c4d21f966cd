/* sigbus_guard.c: see sigbus_guard.h. The handler jumps back only while
 * a guarded read runs; any other SIGBUS keeps its default action. */
#include "gostat/read/sigbus_guard.h"

#include <setjmp.h>
#include <signal.h>
#include <string.h>

static sigjmp_buf sigbus_jump;
static volatile sig_atomic_t sigbus_guard_armed;

static void on_sigbus(int sig)
{
    if (sigbus_guard_armed)
        siglongjmp(sigbus_jump, 1);
    signal(sig, SIG_DFL);
    raise(sig);
}

int gst_sigbus_guarded(int (*fn)(void *arg), void *arg)
{
    struct sigaction guard, saved;
    volatile int rc = 1;

    memset(&guard, 0, sizeof guard);
    guard.sa_handler = on_sigbus;
    sigemptyset(&guard.sa_mask);
    sigaction(SIGBUS, &guard, &saved);
    if (sigsetjmp(sigbus_jump, 1) == 0) {
        sigbus_guard_armed = 1;
        rc = fn(arg);
    }
    sigbus_guard_armed = 0;
    sigaction(SIGBUS, &saved, NULL);
    return rc;
}
