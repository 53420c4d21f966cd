/* exported by rewriter/find */
/* go_layout_check.h: the program's g/m layout, decided from every source
 * at hand: the verified table row of its release (go_runtime.c), its
 * DWARF (dwarf_layout.c), the runtime's type descriptors
 * (layout_types.c) and runtime.rt0_go's code (layout_code.c). Sources
 * that state an offset must all agree, or the program is refused with
 * both values named. A release newer than every row is accepted, marked
 * unverified, when each offset was derived (g.m, g.stack.hi and m.tls
 * by two sources at least), unless strict. */
#ifndef GR_GO_LAYOUT_CHECK_H
#define GR_GO_LAYOUT_CHECK_H

#include "elf/elf_read.h"
#include "common/error.h"
#include "rewriter/find/functions.h"
#include "rewriter/find/go_runtime.h"

enum gr_layout_source { GR_SRC_TABLE, GR_SRC_DWARF, GR_SRC_TYPES, GR_SRC_CODE, GR_NSOURCES };

struct gr_layout_evidence {
    int minor;                          /* Go 1.<minor>; -1 unknown */
    struct gr_go_found src[GR_NSOURCES];
};

/* "table row", "DWARF", "type descriptors", "runtime.rt0_go". */
const char *gr_layout_source_name(int source);

/* Collects what every source says about prog. */
void gr_layout_gather(const struct gr_elf *elf, const struct gr_program *prog,
                      struct gr_layout_evidence *ev);

/* Decides the layout: 0 with *out set (and *unverified 1 when no row
 * vouches for it), or -1 with the reason, naming path and version. */
int gr_layout_decide(const char *path, const char *version, const struct gr_layout_evidence *ev,
                     int strict, struct gr_go_layout *out, int *unverified, struct gr_error *err);

#endif
