/* exported by rewriter/plan */
/* goroutine_sites.h: the runtime functions where goroutines are kept by
 * creation site (part of stage 3, patch planning; docs/goroutines.md). */
#ifndef GR_GOROUTINE_SITES_H
#define GR_GOROUTINE_SITES_H

#include <stddef.h>
#include <stdint.h>

#include "elf/elf_read.h"
#include "rewriter/find/program.h"

enum gr_site_role {
    GR_SITE_NONE,
    GR_SITE_CREATE,   /* runtime.newproc1: each return hands over the new g */
    GR_SITE_END,     /* runtime.goexit1, runtime.coroexit: entered on the ending g */
};

/* What f does for goroutine sites. */
enum gr_site_role gr_site_role(const struct gr_func *f);

/* A go statement: the call of runtime.newproc (or runtime.newcoro) whose
 * return address the runtime keeps as the goroutine's g.gopc. */
struct gr_go_stmt {
    uint64_t pc;             /* link-time return address: g.gopc */
    const struct gr_func *creator;
    const char *file;        /* of the call (pc - 1), NULL when unknown */
    uint32_t line;
};

struct gr_go_stmts {
    struct gr_go_stmt *items;  /* sorted by pc */
    size_t n;
};

/* Every direct call of runtime.newproc or runtime.newcoro in prog's code,
 * found by the bytes of a call rel32 (a false match costs a table entry,
 * never a wrong line: g.gopc is always a real call's return address).
 * Returns -1 when out of memory. */
int gr_go_stmts_find(const struct gr_elf *elf, const struct gr_program *prog,
                     struct gr_go_stmts *out);
void gr_go_stmts_free(struct gr_go_stmts *s);

#endif
