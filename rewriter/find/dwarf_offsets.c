/* dwarf_offsets.c: see dwarf_offsets.h. Go writes each member's
 * DW_AT_data_member_location as a constant (checked with Go 1.15 to
 * 1.27). */
#include "rewriter/find/dwarf_offsets.h"

#include <string.h>

struct wanted {
    const char *type, *member;
    int slot;
};

static const struct wanted wanted[] = {
    {"runtime.g", "m", GR_DW_G_M},
    {"runtime.g", "stack", GR_DW_G_STACK},
    {"runtime.g", "racectx", GR_DW_G_RACECTX},
    {"runtime.m", "tls", GR_DW_M_TLS},
    {"runtime.stack", "hi", GR_DW_STACK_HI},
    {"runtime.g", "sig", GR_DW_G_SIG},
    {"runtime.g", "sigcode0", GR_DW_G_SIGCODE0},
    {"runtime.g", "sigcode1", GR_DW_G_SIGCODE1},
    {"runtime.g", "sigpc", GR_DW_G_SIGPC},
    {"runtime.g", "gopc", GR_DW_G_GOPC},
    {"runtime.g", "startpc", GR_DW_G_STARTPC},
};

static int note_member(Dwarf_Die die, const char *type, struct gr_dwarf_members *m,
                       Dwarf_Error *derr)
{
    char *name = NULL;
    Dwarf_Attribute attr = NULL;
    Dwarf_Unsigned off = 0;
    Dwarf_Half tag = 0;
    int r = dwarf_tag(die, &tag, derr);
    if (r != DW_DLV_OK || tag != DW_TAG_member)
        return r;
    r = dwarf_diename(die, &name, derr);
    if (r != DW_DLV_OK)
        return r == DW_DLV_NO_ENTRY ? DW_DLV_OK : r;
    for (size_t i = 0; i < sizeof wanted / sizeof wanted[0]; i++) {
        if (strcmp(wanted[i].type, type) != 0 || strcmp(wanted[i].member, name) != 0)
            continue;
        r = dwarf_attr(die, DW_AT_data_member_location, &attr, derr);
        if (r != DW_DLV_OK)
            return r == DW_DLV_NO_ENTRY ? DW_DLV_OK : r;
        r = dwarf_formudata(attr, &off, derr);
        dwarf_dealloc_attribute(attr);
        if (r == DW_DLV_OK && off < 0x10000) {
            m->off[wanted[i].slot] = off;
            m->have |= 1u << wanted[i].slot;
        }
        return r == DW_DLV_ERROR ? r : DW_DLV_OK;
    }
    return DW_DLV_OK;
}

int gr_dwarf_offsets_note(Dwarf_Debug dbg, Dwarf_Die die, struct gr_dwarf_members *m,
                         Dwarf_Error *derr)
{
    char *type = NULL;
    int r = dwarf_diename(die, &type, derr);
    if (r != DW_DLV_OK)
        return r == DW_DLV_NO_ENTRY ? DW_DLV_OK : r;
    if (strcmp(type, "runtime.g") != 0 && strcmp(type, "runtime.m") != 0 &&
        strcmp(type, "runtime.stack") != 0)
        return DW_DLV_OK;
    Dwarf_Die child = NULL;
    r = dwarf_child(die, &child, derr);
    while (r == DW_DLV_OK) {
        Dwarf_Die next = NULL;
        r = note_member(child, type, m, derr);
        if (r == DW_DLV_OK)
            r = dwarf_siblingof_b(dbg, child, 1, &next, derr);
        dwarf_dealloc_die(child);
        child = next;
    }
    return r == DW_DLV_NO_ENTRY ? DW_DLV_OK : r;
}

struct gr_go_found gr_dwarf_offsets_found(const struct gr_dwarf_members *m)
{
    struct gr_go_found f = {0};
    unsigned stack = (1u << GR_DW_G_STACK) | (1u << GR_DW_STACK_HI);
    if (m->have & (1u << GR_DW_G_M))
        gr_go_found_set(&f, GR_G_M, (uint32_t)m->off[GR_DW_G_M]);
    if ((m->have & stack) == stack)
        gr_go_found_set(&f, GR_G_STACK_HI, (uint32_t)(m->off[GR_DW_G_STACK] + m->off[GR_DW_STACK_HI]));
    if (m->have & (1u << GR_DW_G_RACECTX))
        gr_go_found_set(&f, GR_G_RACECTX, (uint32_t)m->off[GR_DW_G_RACECTX]);
    if (m->have & (1u << GR_DW_M_TLS))
        gr_go_found_set(&f, GR_M_TLS, (uint32_t)m->off[GR_DW_M_TLS]);
    for (int i = 0; i < 6; i++)   /* sig .. sigpc, gopc, startpc: in the same order */
        if (m->have & (1u << (GR_DW_G_SIG + i)))
            gr_go_found_set(&f, GR_G_SIG + i, (uint32_t)m->off[GR_DW_G_SIG + i]);
    return f;
}
