/* dwarfdump_funcs.c: test driver for rewriter/find/dwarf_info.c. Prints what
 * gr_dwarf_read found in BINARY, one function a line:
 *     0x<low_pc> <decl_line> <inlined 0|1> <decl_file or ->
 * or "no dwarf". Exit status: 0 on success, 1 (with a message on stderr)
 * when the DWARF cannot be read, 2 on bad usage.
 * It links libdwarf, so tests/rewriter/t_dwarf_info.sh builds it (the Makefile's
 * tests/tools rule links no libraries). */
#include <inttypes.h>
#include <stdio.h>

#include "rewriter/find/dwarf_info.h"

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s BINARY\n", argv[0]);
        return 2;
    }
    struct gr_dwarf_info info;
    struct gr_error err = { .msg = "" };
    if (gr_dwarf_read(argv[1], &info, &err) < 0) {
        fprintf(stderr, "dwarfdump_funcs: %s\n", err.msg);
        return 1;
    }
    if (!info.present)
        printf("no dwarf\n");
    for (size_t i = 0; i < info.nfuncs; i++) {
        const struct gr_dwarf_func *f = &info.funcs[i];
        printf("0x%" PRIx64 " %" PRIu32 " %d %s\n", f->low_pc, f->decl_line,
               f->inlined_elsewhere, f->decl_file ? f->decl_file : "-");
    }
    gr_dwarf_free(&info);
    return 0;
}
