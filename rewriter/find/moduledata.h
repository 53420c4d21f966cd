/* exported by rewriter/find */
/* moduledata.h: runtime.moduledata, the runtime's record of a module (its
 * function tables, text and data ranges, the link to the next module), in
 * the layout of the program's release, and the program's own first module
 * (runtime.firstmoduledata), found by its contents in stripped programs
 * too. The copy engine builds a second module in this layout. */
#ifndef GR_MODULEDATA_H
#define GR_MODULEDATA_H

#include <stdint.h>

#include "common/error.h"
#include "rewriter/find/program.h"

/* Byte offsets of the fields the copy engine fills or checks (Go's
 * runtime/symtab.go, type moduledata); a slice is {ptr, len, cap}. */
struct gr_moduledata_layout {
    int minor_lo, minor_hi;   /* the releases Go 1.<lo>..1.<hi> */
    int go12;                 /* Go <= 1.15: no pcHeader; pclntable first, and
                                 every table offset is from pclntab's start */
    uint32_t size;
    uint32_t pcheader;        /* Go >= 1.16 */
    uint32_t funcnametab, cutab, filetab, pctab;  /* 1.15: filetab only */
    uint32_t pclntable, ftab, findfunctab, minpc, maxpc, text, etext;
    uint32_t gcdata, gcbss;
    uint32_t gofunc;          /* 0: absent (funcdata are addresses) */
    uint32_t epclntab;        /* Go >= 1.26, the end of pclntab; 0: absent */
    uint32_t hasmain, next;
};

/* The verified layout of Go 1.<minor>, or NULL when there is none. */
const struct gr_moduledata_layout *gr_moduledata_layout(int minor);

/* "1.15, 1.19, 1.21-1.27": the releases with a layout, for messages. */
const char *gr_moduledata_known(void);

struct gr_moduledata {
    const struct gr_moduledata_layout *layout;
    uint64_t addr;            /* runtime.firstmoduledata's link-time address */
    const uint8_t *bytes;     /* its initial contents in the input's bytes */
};

/* The word the program holds at addr once loaded (a PIE's relocation
 * applied, as a link-time address); 0 when the file does not back it. */
uint64_t gr_moduledata_addr(const struct gr_program *prog, uint64_t addr);

/* Finds runtime.firstmoduledata: the data word that points at pclntab
 * with the text start (Go >= 1.16; 1.15: pclntab's own length) where the
 * layout puts it, in .go.module, .noptrdata or .data; then checks every
 * field the layout names that the program states (minpc, maxpc, text,
 * ftab, hasmain, next; 1.26 on, epclntab) and refuses, naming both
 * values, where one disagrees. Returns 0, or -1 with err. */
int gr_moduledata_find(const struct gr_program *prog, struct gr_moduledata *md, struct gr_error *err);

#endif
