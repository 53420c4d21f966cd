/* dwarf_offsets.h: the runtime offsets as the program's DWARF states them:
 * the members of runtime.g (m, stack, racectx, goid, sched, sig, sigcode0,
 * sigcode1, sigpc, gopc, startpc), runtime.m (tls, g0, curg), runtime.stack
 * (hi), runtime.gobuf (sp) and runtime.moduledata (text, gofunc),
 * top-level DW_TAG_structure_type DIEs that dwarf_info.c hands over during
 * its walk. */
#ifndef GR_DWARF_OFFSETS_H
#define GR_DWARF_OFFSETS_H

#include <libdwarf/dwarf.h>
#include <libdwarf/libdwarf.h>

#include "rewriter/find/runtime_offsets.h"

enum {
    GR_DW_G_M, GR_DW_G_STACK, GR_DW_G_RACECTX, GR_DW_M_TLS, GR_DW_STACK_HI,
    GR_DW_G_SIG, GR_DW_G_SIGCODE0, GR_DW_G_SIGCODE1, GR_DW_G_SIGPC, GR_DW_G_GOPC, GR_DW_G_STARTPC,
    GR_DW_G_GOID, GR_DW_G_SCHED, GR_DW_GOBUF_SP, GR_DW_M_G0, GR_DW_M_CURG, GR_DW_MD_TEXT,
    GR_DW_MD_GOFUNC, GR_DW_NMEMBERS
};

struct gr_dwarf_members {
    uint64_t off[GR_DW_NMEMBERS];
    unsigned have;
};

/* Reads the members of die when it is one of the five structures.
 * DW_DLV_OK, or DW_DLV_ERROR with *derr set by libdwarf. */
int gr_dwarf_offsets_note(Dwarf_Debug dbg, Dwarf_Die die, struct gr_dwarf_members *m,
                         Dwarf_Error *derr);

/* The offsets the members give (g.stack.hi = g.stack + stack.hi,
 * g.sched.sp = g.sched + gobuf.sp). */
struct gr_go_found gr_dwarf_offsets_found(const struct gr_dwarf_members *m);

#endif
