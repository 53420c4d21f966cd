/* offsets_moduledata.h: moduledata.text read from the program's own
 * runtime.firstmoduledata, which every Go binary carries (in .go.module
 * since Go 1.26, in .noptrdata before). Its first word points to pclntab
 * (pcHeader, or the pclntable slice in Go 1.15), and in every release
 * 1.15-1.27 (runtime/symtab.go) minpc and maxpc, the first function's
 * entry and the last one's end, are followed by text, so text's offset is
 * where those two values sit, plus 16. */
#ifndef GR_OFFSETS_MODULEDATA_H
#define GR_OFFSETS_MODULEDATA_H

#include "elf/elf_read.h"
#include "rewriter/find/program.h"
#include "rewriter/find/runtime_offsets.h"

/* Sets moduledata.text in *out when the moduledata shows it. */
void gr_offsets_from_moduledata(const struct gr_elf *elf, const struct gr_program *prog,
                                struct gr_go_found *out);

#endif
