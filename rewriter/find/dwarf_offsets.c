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
    {"runtime.g", "goid", GR_DW_G_GOID},
    {"runtime.g", "sched", GR_DW_G_SCHED},
    {"runtime.gobuf", "sp", GR_DW_GOBUF_SP},
    {"runtime.m", "g0", GR_DW_M_G0},
    {"runtime.m", "curg", GR_DW_M_CURG},
    {"runtime.moduledata", "text", GR_DW_MD_TEXT},
    {"runtime.moduledata", "gofunc", GR_DW_MD_GOFUNC},
};

static int wanted_type(const char *type)
{
    for (size_t i = 0; i < sizeof wanted / sizeof wanted[0]; i++)
        if (strcmp(wanted[i].type, type) == 0)
            return 1;
    return 0;
}

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
    if (!wanted_type(type))
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

/* field = member, or outer + inner when both are given (inner >= 0). */
static void found_from(struct gr_go_found *f, const struct gr_dwarf_members *m, int field,
                       int outer, int inner)
{
    unsigned need = (1u << outer) | (inner >= 0 ? 1u << inner : 0);
    if ((m->have & need) == need)
        gr_go_found_set(f, field, (uint32_t)(m->off[outer] + (inner >= 0 ? m->off[inner] : 0)));
}

struct gr_go_found gr_dwarf_offsets_found(const struct gr_dwarf_members *m)
{
    static const struct {
        int field, outer, inner;
    } map[] = {
        {GR_G_M, GR_DW_G_M, -1},           {GR_G_STACK_HI, GR_DW_G_STACK, GR_DW_STACK_HI},
        {GR_G_RACECTX, GR_DW_G_RACECTX, -1}, {GR_M_TLS, GR_DW_M_TLS, -1},
        {GR_G_GOID, GR_DW_G_GOID, -1},     {GR_G_SCHED_SP, GR_DW_G_SCHED, GR_DW_GOBUF_SP},
        {GR_M_G0, GR_DW_M_G0, -1},         {GR_M_CURG, GR_DW_M_CURG, -1},
        {GR_MD_TEXT, GR_DW_MD_TEXT, -1},   {GR_MD_GOFUNC, GR_DW_MD_GOFUNC, -1},
        {GR_G_SIG, GR_DW_G_SIG, -1},       {GR_G_SIGCODE0, GR_DW_G_SIGCODE0, -1},
        {GR_G_SIGCODE1, GR_DW_G_SIGCODE1, -1}, {GR_G_SIGPC, GR_DW_G_SIGPC, -1},
        {GR_G_GOPC, GR_DW_G_GOPC, -1},     {GR_G_STARTPC, GR_DW_G_STARTPC, -1},
    };
    struct gr_go_found f = {0};
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        found_from(&f, m, map[i].field, map[i].outer, map[i].inner);
    return f;
}
