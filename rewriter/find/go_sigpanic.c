/* go_sigpanic.c: the functions the runtime's signal-to-panic path
 * continues at (go_sigpanic.h). */
#include "rewriter/find/go_sigpanic.h"

#include <string.h>

static uint64_t entry_of(const struct gr_program *prog, const char *name)
{
    for (size_t i = 0; i < prog->nfuncs; i++)
        if (strcmp(prog->funcs[i].name, name) == 0 && prog->funcs[i].end > prog->funcs[i].entry)
            return prog->funcs[i].entry;
    return 0;
}

uint64_t gr_go_sigpanic_entry(const struct gr_program *prog, int minor)
{
    return entry_of(prog, gr_go_stack_abi(minor) ? "runtime.sigpanic" : "runtime.sigpanic0");
}

uint64_t gr_go_sigpanic_go(const struct gr_program *prog)
{
    return entry_of(prog, "runtime.sigpanic");
}
