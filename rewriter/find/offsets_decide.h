/* exported by rewriter/find */
/* offsets_decide.h: the program's runtime offsets, decided from every
 * source at hand: the verified table row of its release
 * (runtime_offsets.c), its DWARF (dwarf_offsets.c), the runtime's type
 * descriptors (offsets_types.c), runtime.rt0_go's code (offsets_code.c),
 * the signal handler's (offsets_sigcode.c) and the runtime's moduledata
 * (offsets_moduledata.c). Sources that state an offset must all agree, or
 * the program is refused with both values named. A release newer than
 * every row, or a development build, is accepted, marked unverified, when
 * each core offset was derived (g.m, g.stack.hi and m.tls by two sources
 * at least), unless strict; else it is refused with the offset named.
 * The signal fields are used when the release's row or two sources
 * derived from the binary state them. */
#ifndef GR_OFFSETS_DECIDE_H
#define GR_OFFSETS_DECIDE_H

#include "elf/elf_read.h"
#include "common/error.h"
#include "rewriter/find/program.h"
#include "rewriter/find/runtime_offsets.h"

enum gr_offsets_source { GR_SRC_TABLE, GR_SRC_DWARF, GR_SRC_TYPES, GR_SRC_CODE, GR_SRC_SIGCODE,
                         GR_SRC_MODULEDATA, GR_NSOURCES };

struct gr_offsets_evidence {
    int minor;                          /* Go 1.<minor>; -1 unknown */
    int devel;                          /* a development build: no row */
    uint32_t md_text_used;              /* moduledata.text pclntab was read with; 0 none */
    struct gr_go_found src[GR_NSOURCES];
};

/* "table row", "DWARF", "type descriptors", "runtime.rt0_go",
 * "runtime.sigpanic" (with runtime.sighandler: offsets_sigcode.h),
 * "runtime.firstmoduledata". */
const char *gr_offsets_source_name(int source);

/* Collects what every source says about prog. */
void gr_offsets_gather(const struct gr_elf *elf, const struct gr_program *prog,
                      struct gr_offsets_evidence *ev);

/* Decides the offsets: 0 with *out set (and *unverified 1 when no row
 * vouches for it), or -1 with the reason, naming path and version. */
int gr_offsets_decide(const char *path, const char *version, const struct gr_offsets_evidence *ev,
                     int strict, struct gr_runtime_offsets *out, int *unverified, struct gr_error *err);

#endif
