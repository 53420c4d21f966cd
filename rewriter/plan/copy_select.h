/* exported by rewriter/plan */
/* copy_select.h: which functions the copy engine (gorewrite --engine copy)
 * takes into its module, and why it leaves the others: a function is
 * copied when the selection (--only, --exclude) chooses it, it is compiled
 * Go outside the runtime (funcID normal, no assembly) and its code can be
 * moved as it is: every instruction decodes, no short branch leaves it and
 * it jumps through no register or table (a switch's jump table holds
 * addresses inside the original). */
#ifndef GR_COPY_SELECT_H
#define GR_COPY_SELECT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common/error.h"
#include "rewriter/find/moduledata.h"
#include "rewriter/find/program.h"
#include "rewriter/plan/select.h"

/* RW bytes the module needs beyond its moduledata: its pcHeader, copied
 * next to it (gen/copy_module.c). */
#define GR_COPY_RW_EXTRA 128u

struct gr_copy_set {
    uint32_t *funcs;          /* indexes into prog->funcs, ascending */
    size_t n;
    const char **skip;        /* per prog->funcs: NULL copied or not chosen,
                                 else why a chosen function is not copied */
    size_t nskipped;
    struct gr_moduledata first;  /* the program's own module: its layout */
};

/* Chooses the copies among prog's functions (select NULL: every one),
 * once the program's first module is found and checked (moduledata.h).
 * Returns 0, or -1 with err. */
int gr_copy_select(const struct gr_program *prog, const struct gr_select *select,
                   struct gr_copy_set *set, struct gr_error *err);

/* The index in set->funcs of the copy of the function at entry, or -1. */
long gr_copy_index(const struct gr_program *prog, const struct gr_copy_set *set, uint64_t entry);

/* gorewrite -v: the chosen functions left without a copy, with why. */
void gr_copy_report(FILE *log, const struct gr_program *prog, const struct gr_copy_set *set);

void gr_copy_set_free(struct gr_copy_set *set);

#endif
