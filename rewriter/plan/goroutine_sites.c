/* goroutine_sites.c: newproc1 returns every new goroutine (Go 1.15-1.27:
 * in RAX with the register ABI, in the result slot after its five stack
 * arguments before), complete and not yet runnable; every goroutine ends
 * by entering goexit1 (a return from its function, or runtime.Goexit) or,
 * for iter.Pull's coroutines (Go >= 1.22), coroexit, on its own stack. */
#include "rewriter/plan/goroutine_sites.h"

#include <string.h>

enum gr_site_role gr_site_role(const struct gr_func *f)
{
    if (!f->name)
        return GR_SITE_NONE;
    if (strcmp(f->name, "runtime.newproc1") == 0)
        return GR_SITE_CREATE;
    if (strcmp(f->name, "runtime.goexit1") == 0 || strcmp(f->name, "runtime.coroexit") == 0)
        return GR_SITE_EXIT;
    return GR_SITE_NONE;
}
