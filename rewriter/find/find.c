/* find.c: see find.h. */
#include "rewriter/find/find.h"

#include "rewriter/find/go_version.h"
#include "rewriter/find/offsets_decide.h"
#include "rewriter/find/runtime_offsets.h"

int gr_find_program(const struct gr_elf *elf, int strict, struct gr_program *prog,
                    struct gr_error *err)
{
    struct gr_offsets_evidence ev;
    if (gr_program_read(elf, prog, err) < 0)
        return -1;
    if (!prog->go_version[0])
        return gr_fail(err, "%s: cannot tell which Go release built it (no readable .go.buildinfo)",
                       elf->path);
    gr_offsets_gather(elf, prog, &ev);
    return gr_offsets_decide(elf->path, prog->go_version, &ev, strict, &prog->offsets,
                             &prog->offsets_unverified, err);
}

void gr_find_warn(FILE *log, const struct gr_elf *elf, const struct gr_program *prog)
{
    if (prog->offsets_unverified)
        fprintf(log, "gorewrite: warning: %s: %s is %s (Go %s); "
                "its runtime layout was derived from the binary and is unverified "
                "(--strict-release refuses it)\n", elf->path, prog->go_version,
                gr_go_release(prog->go_version).devel ? "a development build, not one of the releases verified"
                                                      : "newer than the releases verified",
                gr_offsets_known());
    if (prog->dwarf_ignored)
        fprintf(log, "gorewrite: warning: DWARF ignored (no declaration lines): %s\n",
                prog->dwarf_error.msg);
}
