/* goroutine_sites.h: the runtime functions where goroutines are kept by
 * creation site (part of stage 3, patch planning; docs/goroutines.md). */
#ifndef GR_GOROUTINE_SITES_H
#define GR_GOROUTINE_SITES_H

#include "rewriter/find/program.h"

enum gr_site_role {
    GR_SITE_NONE,
    GR_SITE_CREATE,   /* runtime.newproc1: each return hands over the new g */
    GR_SITE_EXIT,     /* runtime.goexit1, runtime.coroexit: entered on the ending g */
};

/* What f does for goroutine sites. */
enum gr_site_role gr_site_role(const struct gr_func *f);

#endif
