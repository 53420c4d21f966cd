/* goroutine_end.c: runtime functions that end their goroutine and never
 * return: runtime.goexit1 (every goroutine that ends, runtime.Goexit too)
 * and runtime.coroexit (Go >= 1.22, iter.Pull) switch to g0 with mcall for
 * good. They run on the goroutine's own stack, not g0, so the timing
 * routines' rule for the scheduler (stubs/stub_macros.h, COUNT_STALE)
 * does not see them: a timed call would stay open on the goroutine's
 * timing stack until the g is reused, and then be dropped as if a panic
 * had unwound it. So they are counted, not timed (docs/timing.md). Their
 * `ret`, which the compiler keeps after the mcall, is never reached. */
#include "rewriter/plan/goroutine_end.h"

#include <string.h>

static const char ENDS[] =
    "never returns: ends its goroutine (mcall to the scheduler): counted at entry, not timed";

const char *gr_goroutine_end_reason(const struct gr_func *f)
{
    static const char *const names[] = { "runtime.goexit1", "runtime.coroexit" };
    for (size_t i = 0; f->name && i < sizeof names / sizeof names[0]; i++)
        if (strcmp(f->name, names[i]) == 0)
            return ENDS;
    return NULL;
}
