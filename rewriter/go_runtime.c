/* go_runtime.c: the table of verified g/m layouts (see go_runtime.h). To
 * add a release: build any program with it, read the member offsets of
 * runtime.g and runtime.m from its DWARF, add a row, and run make check. */
#include "go_runtime.h"

#include <stddef.h>

static const struct gr_go_layout layouts[] = {
    /* minor  g.m   stack.hi racectx m.tls */
    {19, 0x30, 0x08, 0x140, 0x88},
    {21, 0x30, 0x08, 0x130, 0x88},
    {22, 0x30, 0x08, 0x130, 0x88},
    {23, 0x30, 0x08, 0x138, 0x88},
    {24, 0x30, 0x08, 0x138, 0x88},
};

const struct gr_go_layout *gr_go_layout(int minor)
{
    for (size_t i = 0; i < sizeof layouts / sizeof layouts[0]; i++)
        if (layouts[i].minor == minor)
            return &layouts[i];
    return NULL;
}

const char *gr_go_layouts_known(void)
{
    return "1.19, 1.21-1.24";
}
