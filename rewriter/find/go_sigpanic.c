/* go_sigpanic.c: the runtime's signal-to-panic fields per release
 * (go_sigpanic.h), verified from each release's DWARF. The program's own
 * type descriptors (and DWARF when present) state them too, and
 * offsets_decide.c refuses a program where any two disagree. Go 1.16,
 * 1.17, 1.18 and 1.20 have no row (no toolchain of them at hand): their
 * programs use what two sources derived from the binary state (the type
 * descriptors, the runtime's code, DWARF). */
#include "rewriter/find/go_sigpanic.h"

#include <string.h>

static const struct gr_go_sigfields fields[] = {
    /* minor  sig    sigcode0 sigcode1 sigpc */
    {15, 0xe0, 0x100, 0x108, 0x110},
    {19, 0xf0, 0x110, 0x118, 0x120},
    {21, 0xd8, 0xf8, 0x100, 0x108},
    {22, 0xd8, 0xf8, 0x100, 0x108},
    {23, 0xe0, 0x100, 0x108, 0x110},
    {24, 0xe4, 0x100, 0x108, 0x110},
    {25, 0xdc, 0xf8, 0x100, 0x108},   /* go1.25.12 (trixie-backports) */
    {26, 0xe0, 0x100, 0x108, 0x110},
    {27, 0xe0, 0x100, 0x108, 0x110},
};

const struct gr_go_sigfields *gr_go_sigfields(int minor)
{
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
        if (fields[i].minor == minor)
            return &fields[i];
    return NULL;
}

static uint64_t entry_of(const struct gr_program *prog, const char *name)
{
    for (size_t i = 0; i < prog->nfuncs; i++)
        if (strcmp(prog->funcs[i].name, name) == 0 && prog->funcs[i].end > prog->funcs[i].entry)
            return prog->funcs[i].entry;
    return 0;
}

uint64_t gr_go_sigpanic_entry(const struct gr_program *prog, int minor)
{
    return entry_of(prog, minor <= 16 ? "runtime.sigpanic" : "runtime.sigpanic0");
}

uint64_t gr_go_sigpanic_go(const struct gr_program *prog)
{
    return entry_of(prog, "runtime.sigpanic");
}
