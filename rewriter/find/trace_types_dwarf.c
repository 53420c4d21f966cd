/* trace_types_dwarf.c: parameter types of traced functions from a Go
 * binary's DWARF (trace_types.h), with libdwarf.
 *
 * What Go emits (checked on 1.15, 1.22, 1.27): a function is a CU-level
 * DW_TAG_subprogram with DW_AT_low_pc; its DW_TAG_formal_parameter
 * children come in declaration order, arguments (the receiver first) then
 * results, a result having DW_AT_variable_parameter 1 (unnamed ones are
 * "~r0", "~r1"...). Types are CU-level DIEs with DW_AT_go_kind (the
 * reflect.Kind): a string is a structure_type of kind 24, a slice one of
 * kind 23 with DW_AT_go_elem, an interface a typedef of kind 20 to
 * runtime.iface or runtime.eface, maps, channels and funcs typedefs of a
 * pointer. DW_AT_go_runtime_type is the runtime type's offset from the
 * start of the section holding the types (R_ADDROFF in cmd/link).
 *
 * One walk over the CU-level DIEs indexes the functions and runtime types;
 * a function's types are then read on demand and kept (shared by DIE).
 * The input is untrusted: nesting is bounded and every call checked. */
#include "rewriter/find/trace_types.h"
#include "format/trace_desc.h"
#include "common/vec.h"

#include <stdlib.h>
#include <string.h>

#include <libdwarf/dwarf.h>
#include <libdwarf/libdwarf.h>

enum { MAX_NESTING = 12, MAX_PARAMS = 256 };

/* reflect.Kind values of DW_AT_go_kind */
enum { GO_ARRAY = 17, GO_CHAN = 18, GO_FUNC = 19, GO_INTERFACE = 20, GO_MAP = 21, GO_PTR = 22,
       GO_SLICE = 23, GO_STRING = 24, GO_STRUCT = 25, GO_UNSAFEPTR = 26 };

struct func_index {
    uint64_t low_pc;
    Dwarf_Off die;
};

struct gr_trace_types {
    Dwarf_Debug dbg;
    const char *path;
    uint64_t types_base;
    struct func_index *funcs;
    size_t nfuncs, funcs_cap;
    struct gr_tv_rtype *rtypes;
    size_t nrtypes, rtypes_cap;
    struct gr_tv_type **types;  /* every type read, for sharing and freeing */
    size_t ntypes, types_cap;
    struct gr_tv_param *params; /* the last function's */
    char *func_name;            /* the last function's name */
    size_t nparams, params_cap;
    struct gr_error *err;
};

static int fail_dwarf(struct gr_trace_types *t, Dwarf_Error derr, const char *doing)
{
    gr_fail(t->err, "%s: corrupt DWARF while %s: %s", t->path, doing,
            derr ? dwarf_errmsg(derr) : "unknown libdwarf error");
    if (derr)
        dwarf_dealloc_error(t->dbg, derr);
    return -1;
}

static int fail_oom(struct gr_trace_types *t)
{
    return gr_fail(t->err, "%s: out of memory reading DWARF types", t->path);
}

/* ---- attributes: 1 present, 0 absent, -1 error ---- */

static int attr_get(struct gr_trace_types *t, Dwarf_Die die, Dwarf_Half at, Dwarf_Attribute *a)
{
    Dwarf_Error derr = NULL;
    int r = dwarf_attr(die, at, a, &derr);
    if (r == DW_DLV_NO_ENTRY)
        return 0;
    return r == DW_DLV_OK ? 1 : fail_dwarf(t, derr, "reading an attribute");
}

static int attr_udata(struct gr_trace_types *t, Dwarf_Die die, Dwarf_Half at, uint64_t *v)
{
    Dwarf_Attribute a;
    int r = attr_get(t, die, at, &a);
    if (r <= 0)
        return r;
    Dwarf_Error derr = NULL;
    Dwarf_Unsigned u = 0;
    Dwarf_Half form = 0;
    if (dwarf_whatform(a, &form, &derr) == DW_DLV_OK && (form == DW_FORM_addr)) {
        Dwarf_Addr addr = 0;
        r = dwarf_formaddr(a, &addr, &derr);
        u = addr;
    } else if (form == DW_FORM_flag || form == DW_FORM_flag_present) {
        Dwarf_Bool b = 0;
        r = dwarf_formflag(a, &b, &derr);
        u = b != 0;
    } else {
        r = dwarf_formudata(a, &u, &derr);
    }
    dwarf_dealloc_attribute(a);
    if (r != DW_DLV_OK)
        return fail_dwarf(t, derr, "reading a constant");
    *v = u;
    return 1;
}

static int attr_ref(struct gr_trace_types *t, Dwarf_Die die, Dwarf_Half at, Dwarf_Off *off)
{
    Dwarf_Attribute a;
    int r = attr_get(t, die, at, &a);
    if (r <= 0)
        return r;
    Dwarf_Error derr = NULL;
    r = dwarf_global_formref(a, off, &derr);
    dwarf_dealloc_attribute(a);
    return r == DW_DLV_OK ? 1 : fail_dwarf(t, derr, "reading a reference");
}

/* The DIE's name, malloc'd (NULL when it has none); -1 on error. */
static int die_name(struct gr_trace_types *t, Dwarf_Die die, char **out)
{
    char *name = NULL;
    Dwarf_Error derr = NULL;
    *out = NULL;
    int r = dwarf_diename(die, &name, &derr);
    if (r == DW_DLV_NO_ENTRY)
        return 0;
    if (r != DW_DLV_OK)
        return fail_dwarf(t, derr, "reading a name");
    *out = strdup(name);
    return *out ? 0 : fail_oom(t);
}

static int die_tag(struct gr_trace_types *t, Dwarf_Die die, Dwarf_Half *tag)
{
    Dwarf_Error derr = NULL;
    return dwarf_tag(die, tag, &derr) == DW_DLV_OK ? 0 : fail_dwarf(t, derr, "reading a tag");
}

/* ---- DIE iteration: first child / next sibling; 0 with *next NULL at the end ---- */

static int first_child(struct gr_trace_types *t, Dwarf_Die die, Dwarf_Die *child)
{
    Dwarf_Error derr = NULL;
    int r = dwarf_child(die, child, &derr);
    if (r == DW_DLV_NO_ENTRY) {
        *child = NULL;
        return 0;
    }
    return r == DW_DLV_OK ? 0 : fail_dwarf(t, derr, "reading a child DIE");
}

/* Replaces *die by its next sibling (NULL at the end), freeing it. */
static int next_sibling(struct gr_trace_types *t, Dwarf_Die *die)
{
    Dwarf_Die next = NULL;
    Dwarf_Error derr = NULL;
    Dwarf_Off here = 0, there = 0;
    int r = dwarf_siblingof_b(t->dbg, *die, 1, &next, &derr);
    if (r == DW_DLV_OK && (dwarf_dieoffset(*die, &here, &derr) != DW_DLV_OK ||
                           dwarf_dieoffset(next, &there, &derr) != DW_DLV_OK || there <= here)) {
        dwarf_dealloc_die(next);
        r = DW_DLV_ERROR; /* a sibling link that does not move forward could loop */
    }
    dwarf_dealloc_die(*die);
    *die = r == DW_DLV_OK ? next : NULL;
    if (r == DW_DLV_ERROR)
        return fail_dwarf(t, derr, "reading a sibling DIE");
    return 0;
}

/* ---- the index: CU-level subprograms and runtime types ---- */

static int index_die(struct gr_trace_types *t, Dwarf_Die die)
{
    Dwarf_Half tag;
    if (die_tag(t, die, &tag) < 0)
        return -1;
    if (tag == DW_TAG_subprogram) {
        struct func_index fi = {0};
        Dwarf_Error derr = NULL;
        Dwarf_Addr low = 0;
        if (dwarf_lowpc(die, &low, &derr) != DW_DLV_OK) {
            if (derr)
                dwarf_dealloc_error(t->dbg, derr);
            return 0;
        }
        fi.low_pc = low;
        if (dwarf_dieoffset(die, &fi.die, &derr) != DW_DLV_OK)
            return fail_dwarf(t, derr, "reading a DIE offset");
        return gr_vec_append(&t->funcs, &t->nfuncs, &t->funcs_cap, &fi, sizeof fi) < 0 ? fail_oom(t) : 0;
    }
    uint64_t rt = 0;
    int r = attr_udata(t, die, DW_AT_go_runtime_type, &rt);
    if (r <= 0 || rt == 0)
        return r < 0 ? -1 : 0;
    struct gr_tv_rtype e = {.addr = rt < t->types_base ? t->types_base + rt : rt};
    if (die_name(t, die, &e.name) < 0)
        return -1;
    if (!e.name)
        return 0;
    if (gr_vec_append(&t->rtypes, &t->nrtypes, &t->rtypes_cap, &e, sizeof e) < 0) {
        free(e.name);
        return fail_oom(t);
    }
    return 0;
}

static int index_unit(struct gr_trace_types *t)
{
    Dwarf_Die cu = NULL, die = NULL;
    Dwarf_Error derr = NULL;
    int r = dwarf_siblingof_b(t->dbg, NULL, 1, &cu, &derr);
    if (r == DW_DLV_NO_ENTRY)
        return 0;
    if (r != DW_DLV_OK)
        return fail_dwarf(t, derr, "reading a unit DIE");
    r = first_child(t, cu, &die);
    while (r == 0 && die) {
        r = index_die(t, die);
        if (r == 0)
            r = next_sibling(t, &die);
    }
    if (die)
        dwarf_dealloc_die(die);
    dwarf_dealloc_die(cu);
    return r;
}

static int by_low_pc(const void *a, const void *b)
{
    const struct func_index *x = a, *y = b;
    return x->low_pc < y->low_pc ? -1 : x->low_pc > y->low_pc;
}

static int by_addr(const void *a, const void *b)
{
    const struct gr_tv_rtype *x = a, *y = b;
    return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static int index_units(struct gr_trace_types *t)
{
    Dwarf_Unsigned prev = 0;
    for (int first = 1;; first = 0) {
        Dwarf_Unsigned next = 0;
        Dwarf_Half version = 0, unit_type = 0;
        Dwarf_Error derr = NULL;
        int r = dwarf_next_cu_header_d(t->dbg, 1, NULL, &version, NULL, NULL, NULL, NULL, NULL, NULL,
                                       &next, &unit_type, &derr);
        if (r == DW_DLV_NO_ENTRY)
            break;
        if (r != DW_DLV_OK)
            return fail_dwarf(t, derr, "reading a unit header");
        if (!first && next <= prev)
            return gr_fail(t->err, "%s: corrupt DWARF: unit headers do not advance", t->path);
        prev = next;
        if (index_unit(t) < 0)
            return -1;
    }
    if (t->nfuncs)                      /* no DWARF functions: funcs is NULL */
        qsort(t->funcs, t->nfuncs, sizeof *t->funcs, by_low_pc);
    if (t->nrtypes)
        qsort(t->rtypes, t->nrtypes, sizeof *t->rtypes, by_addr);
    return 0;
}

int gr_trace_types_open(const char *path, int fd, uint64_t types_base, struct gr_trace_types **out,
                        struct gr_error *err)
{
    *out = NULL;
    struct gr_trace_types *t = calloc(1, sizeof *t);
    if (!t)
        return gr_fail(err, "%s: out of memory", path);
    t->path = path;
    t->types_base = types_base;
    t->err = err;
    Dwarf_Error derr = NULL;
    int r = dwarf_init_b(fd, DW_DLC_READ, DW_GROUPNUMBER_ANY, NULL, NULL, &t->dbg, &derr);
    if (r == DW_DLV_NO_ENTRY) {
        free(t);
        return 0;
    }
    if (r != DW_DLV_OK) {
        gr_fail(err, "%s: cannot read DWARF: %s", path, derr ? dwarf_errmsg(derr) : "unknown error");
        if (derr)
            dwarf_dealloc_error(NULL, derr);
        free(t);
        return -1;
    }
    if (index_units(t) < 0) {
        gr_trace_types_close(t);
        return -1;
    }
    *out = t;
    return 0;
}

static void free_type(struct gr_tv_type *ty)
{
    for (size_t i = 0; i < ty->nfields; i++)
        free(ty->fields[i].name);
    free(ty->fields);
    free(ty->name);
    free(ty);
}

static void free_params(struct gr_trace_types *t)
{
    for (size_t i = 0; i < t->nparams; i++)
        free(t->params[i].name);
    t->nparams = 0;
    free(t->func_name);
    t->func_name = NULL;
}

void gr_trace_types_close(struct gr_trace_types *t)
{
    if (!t)
        return;
    for (size_t i = 0; i < t->ntypes; i++)
        free_type(t->types[i]);
    free(t->types);
    for (size_t i = 0; i < t->nrtypes; i++)
        free(t->rtypes[i].name);
    free(t->rtypes);
    free_params(t);
    free(t->params);
    free(t->funcs);
    Dwarf_Error derr = NULL;
    if (t->dbg && dwarf_finish(t->dbg, &derr) == DW_DLV_ERROR)
        dwarf_dealloc_error(NULL, derr);
    free(t);
}

const struct gr_tv_rtype *gr_trace_types_rtypes(const struct gr_trace_types *t, size_t *n)
{
    *n = t ? t->nrtypes : 0;
    return t ? t->rtypes : NULL;
}

/* ---- types ---- */

static int read_type(struct gr_trace_types *t, Dwarf_Off off, unsigned depth, struct gr_tv_type **out);

static struct gr_tv_type *known_type(struct gr_trace_types *t, Dwarf_Off off)
{
    for (size_t i = 0; i < t->ntypes; i++)
        if (t->types[i]->die == off)
            return t->types[i];
    return NULL;
}

static void set_scalar(struct gr_tv_type *ty, uint8_t kind, uint64_t size)
{
    ty->kind = kind;
    ty->byte_size = size;
    ty->size = (uint8_t)size;
    ty->align = (uint8_t)(kind == GTD_K_COMPLEX ? size / 2 : size);
}

static void set_word_kind(struct gr_tv_type *ty, uint8_t kind)
{
    static const uint8_t words[] = {[GTD_K_STRING] = 2, [GTD_K_SLICE] = 3, [GTD_K_IFACE] = 2,
                                    [GTD_K_EFACE] = 2, [GTD_K_POINTER] = 1};
    ty->kind = kind;
    ty->byte_size = 8u * words[kind];
    ty->size = 8;
    ty->align = 8;
}

static int read_base(struct gr_trace_types *t, Dwarf_Die die, struct gr_tv_type *ty)
{
    uint64_t enc = 0, size = 0;
    if (attr_udata(t, die, DW_AT_encoding, &enc) < 0 || attr_udata(t, die, DW_AT_byte_size, &size) < 0)
        return -1;
    uint8_t kind = enc == DW_ATE_signed ? GTD_K_INT : enc == DW_ATE_unsigned ? GTD_K_UINT
                 : enc == DW_ATE_float ? GTD_K_FLOAT : enc == DW_ATE_boolean ? GTD_K_BOOL
                 : enc == DW_ATE_complex_float ? GTD_K_COMPLEX : GTD_K_RAW;
    int ok = size == 1 || size == 2 || size == 4 || size == 8 || (kind == GTD_K_COMPLEX && size == 16);
    if (kind == GTD_K_BOOL && size != 1)
        ok = 0;
    if (kind == GTD_K_FLOAT && size < 4)
        ok = 0;
    if (!ok)
        return gr_fail(t->err, "%s: DWARF base type of %llu bytes", t->path, (unsigned long long)size);
    set_scalar(ty, kind, size);
    return 0;
}

static int read_fields(struct gr_trace_types *t, Dwarf_Die die, unsigned depth, struct gr_tv_type *ty)
{
    Dwarf_Die m = NULL;
    size_t cap = 0;
    int r = first_child(t, die, &m);
    ty->align = 1;
    while (r == 0 && m) {
        Dwarf_Half tag;
        r = die_tag(t, m, &tag);
        if (r == 0 && tag == DW_TAG_member) {
            struct gr_tv_field f = {0};
            Dwarf_Off toff = 0;
            if (attr_udata(t, m, DW_AT_data_member_location, &f.offset) < 0 ||
                attr_ref(t, m, DW_AT_type, &toff) <= 0 || read_type(t, toff, depth + 1, &f.type) < 0 ||
                die_name(t, m, &f.name) < 0)
                r = -1;
            else if (gr_vec_append(&ty->fields, &ty->nfields, &cap, &f, sizeof f) < 0)
                r = fail_oom(t);
            if (r == 0 && f.type->align > ty->align)
                ty->align = f.type->align;
            if (r < 0)
                free(f.name);
        }
        if (r == 0)
            r = next_sibling(t, &m);
    }
    if (m)
        dwarf_dealloc_die(m);
    return r;
}

static int read_array(struct gr_trace_types *t, Dwarf_Die die, unsigned depth, struct gr_tv_type *ty)
{
    Dwarf_Off eoff;
    if (attr_ref(t, die, DW_AT_type, &eoff) <= 0 || read_type(t, eoff, depth + 1, &ty->elem) < 0)
        return -1;
    Dwarf_Die sub = NULL;
    if (first_child(t, die, &sub) < 0)
        return -1;
    uint64_t count = 0, upper = 0;
    int r = 0;
    if (sub) {
        r = attr_udata(t, sub, DW_AT_count, &count);
        if (r == 0 && (r = attr_udata(t, sub, DW_AT_upper_bound, &upper)) > 0)
            count = upper + 1;
        dwarf_dealloc_die(sub);
    }
    if (r < 0)
        return -1;
    ty->kind = GTD_K_ARRAY;
    ty->len = count;
    ty->align = ty->elem->align;
    ty->byte_size = count * ty->elem->byte_size;
    return 0;
}

/* A typedef: an interface (kind 20) by the struct it names, a map, chan
 * or func as a pointer, anything else as the type it names. */
static int read_typedef(struct gr_trace_types *t, Dwarf_Die die, unsigned depth, uint64_t go_kind,
                        struct gr_tv_type *ty)
{
    if (go_kind == GO_MAP || go_kind == GO_CHAN || go_kind == GO_FUNC) {
        set_word_kind(ty, GTD_K_POINTER);
        return 0;
    }
    Dwarf_Off toff;
    struct gr_tv_type *target;
    if (attr_ref(t, die, DW_AT_type, &toff) <= 0 || read_type(t, toff, depth + 1, &target) < 0)
        return -1;
    if (go_kind == GO_INTERFACE || target->kind == GTD_K_IFACE || target->kind == GTD_K_EFACE) {
        int eface = target->kind == GTD_K_EFACE ||
                    (target->name && strcmp(target->name, "runtime.eface") == 0);
        set_word_kind(ty, eface ? GTD_K_EFACE : GTD_K_IFACE);
        return 0;
    }
    char *name = ty->name;
    if (name && name[0] == '.' && target->name) {
        /* a generic shape's local name (.param0): show the shape,
         * go.shape.int (go.shape.int_0 in Go 1.18-1.19) as int */
        const char *shape = target->name;
        size_t len = strlen(shape);
        if (strncmp(shape, "go.shape.", 9) == 0) {
            shape += 9;
            len -= 9;
            size_t digits = strspn(shape + strcspn(shape, "_"), "_0123456789");
            if (strcspn(shape, "_") + digits == len && digits > 1)
                len = strcspn(shape, "_");
        }
        free(name);
        if (!(name = strndup(shape, len)))
            return fail_oom(t);
    }
    uint64_t die_off = ty->die;
    *ty = *target;
    ty->die = die_off;
    ty->name = name;
    ty->fields = NULL;
    ty->nfields = 0;
    if (target->nfields) {
        ty->fields = calloc(target->nfields, sizeof *ty->fields);
        if (!ty->fields)
            return fail_oom(t);
        ty->nfields = target->nfields;
        for (size_t i = 0; i < target->nfields; i++) {
            ty->fields[i] = target->fields[i];
            ty->fields[i].name = target->fields[i].name ? strdup(target->fields[i].name) : NULL;
        }
    }
    return 0;
}

static int read_struct(struct gr_trace_types *t, Dwarf_Die die, unsigned depth, uint64_t go_kind,
                       struct gr_tv_type *ty)
{
    if (go_kind == GO_STRING) {
        set_word_kind(ty, GTD_K_STRING);
        return 0;
    }
    if (go_kind == GO_SLICE) {
        Dwarf_Off eoff;
        set_word_kind(ty, GTD_K_SLICE);
        if (attr_ref(t, die, DW_AT_go_elem, &eoff) <= 0)
            return gr_fail(t->err, "%s: DWARF slice type without its element", t->path);
        return read_type(t, eoff, depth + 1, &ty->elem);
    }
    uint64_t size = 0;
    if (attr_udata(t, die, DW_AT_byte_size, &size) < 0)
        return -1;
    ty->kind = GTD_K_STRUCT;
    ty->byte_size = size;
    return read_fields(t, die, depth, ty);
}

static int fill_type(struct gr_trace_types *t, Dwarf_Die die, unsigned depth, struct gr_tv_type *ty)
{
    Dwarf_Half tag;
    uint64_t go_kind = 0;
    if (die_tag(t, die, &tag) < 0 || die_name(t, die, &ty->name) < 0 ||
        attr_udata(t, die, DW_AT_go_kind, &go_kind) < 0)
        return -1;
    switch (tag) {
    case DW_TAG_base_type:
        return read_base(t, die, ty);
    case DW_TAG_pointer_type:
        set_word_kind(ty, GTD_K_POINTER);
        if (!ty->name && !(ty->name = strdup("unsafe.Pointer")))
            return fail_oom(t);
        return 0;
    case DW_TAG_typedef:
        return read_typedef(t, die, depth, go_kind, ty);
    case DW_TAG_structure_type:
        return read_struct(t, die, depth, go_kind, ty);
    case DW_TAG_array_type:
        return read_array(t, die, depth, ty);
    default:
        set_word_kind(ty, GTD_K_POINTER); /* subroutine types: a func value is a pointer */
        ty->kind = GTD_K_RAW;
        return 0;
    }
}

static int read_type(struct gr_trace_types *t, Dwarf_Off off, unsigned depth, struct gr_tv_type **out)
{
    if ((*out = known_type(t, off)))
        return 0;
    if (depth > MAX_NESTING)
        return gr_fail(t->err, "%s: DWARF types nest deeper than %d", t->path, MAX_NESTING);
    Dwarf_Die die;
    Dwarf_Error derr = NULL;
    if (dwarf_offdie_b(t->dbg, off, 1, &die, &derr) != DW_DLV_OK)
        return fail_dwarf(t, derr, "reading a type DIE");
    struct gr_tv_type *ty = calloc(1, sizeof *ty);
    if (!ty) {
        dwarf_dealloc_die(die);
        return fail_oom(t);
    }
    ty->die = off;
    int r = fill_type(t, die, depth, ty);
    dwarf_dealloc_die(die);
    if (r == 0 && gr_vec_append(&t->types, &t->ntypes, &t->types_cap, &ty, sizeof ty) < 0)
        r = fail_oom(t);
    if (r < 0) {
        free_type(ty);
        return -1;
    }
    *out = ty;
    return 0;
}

/* ---- parameters ---- */

/* Where the parameter is at the function's entry (pc): on the stack when
 * the first location's expression is DW_OP_call_frame_cfa (Go's frame
 * base, the first argument's address) or DW_OP_fbreg N. Go 1.15 and 1.16
 * leave blank (_) parameters out of DWARF, so only these offsets place the
 * others right. In a register when the location covering pc starts with
 * DW_OP_regN (a string's pieces: its first), which places a generic
 * function's dictionary. 0, or -1 on error. */
static int param_location(struct gr_trace_types *t, Dwarf_Die die, uint64_t pc, struct gr_tv_param *p)
{
    Dwarf_Attribute a;
    int r = attr_get(t, die, DW_AT_location, &a);
    if (r <= 0)
        return r;
    Dwarf_Loc_Head_c head = NULL;
    Dwarf_Unsigned count = 0;
    Dwarf_Error derr = NULL;
    if (dwarf_get_loclist_c(a, &head, &count, &derr) == DW_DLV_OK)
        for (Dwarf_Unsigned i = 0; i < count && i < 64; i++) {
            Dwarf_Unsigned nops = 0, op1 = 0, op2 = 0, op3 = 0, branch = 0, raw_lo = 0, raw_hi = 0;
            Dwarf_Unsigned expr_off = 0, desc_off = 0;
            Dwarf_Small lle = 0, source = 0, atom = 0;
            Dwarf_Bool no_addr = 0;
            Dwarf_Addr lo = 0, hi = 0;
            Dwarf_Locdesc_c desc = NULL;
            if (dwarf_get_locdesc_entry_d(head, i, &lle, &raw_lo, &raw_hi, &no_addr, &lo, &hi, &nops, &desc,
                                          &source, &expr_off, &desc_off, &derr) != DW_DLV_OK)
                break;
            if (nops == 0) /* a base address entry, or nothing */
                continue;
            if (dwarf_get_location_op_value_c(desc, 0, &atom, &op1, &op2, &op3, &branch, &derr) != DW_DLV_OK)
                break;
            if (i == 0 && nops == 1 && (atom == DW_OP_call_frame_cfa || atom == DW_OP_fbreg)) {
                p->frame_off = atom == DW_OP_fbreg ? (int64_t)op1 : 0;
                p->has_frame_off = p->frame_off >= 0 && p->frame_off < (1 << 20);
            }
            int covers = source == 0 /* an expression, not a list */ || (lo <= pc && pc < hi);
            if (covers && atom >= DW_OP_reg0 && atom <= DW_OP_reg31) {
                p->has_entry_reg = 1;
                p->entry_reg = (uint8_t)(atom - DW_OP_reg0);
            }
            if (covers)
                break;
        }
    if (derr)
        dwarf_dealloc_error(t->dbg, derr);
    if (head)
        dwarf_loc_head_c_dealloc(head);
    dwarf_dealloc_attribute(a);
    return 0;
}

static int read_param(struct gr_trace_types *t, Dwarf_Die die, uint64_t pc)
{
    struct gr_tv_param p = {0};
    Dwarf_Off toff;
    uint64_t var = 0;
    if (t->nparams >= MAX_PARAMS)
        return gr_fail(t->err, "%s: a function with over %d parameters", t->path, MAX_PARAMS);
    if (attr_ref(t, die, DW_AT_type, &toff) <= 0 || read_type(t, toff, 0, &p.type) < 0 ||
        attr_udata(t, die, DW_AT_variable_parameter, &var) < 0 || die_name(t, die, &p.name) < 0)
        return -1;
    p.result = var != 0;
    if (param_location(t, die, pc, &p) < 0) {
        free(p.name);
        return -1;
    }
    if (gr_vec_append(&t->params, &t->nparams, &t->params_cap, &p, sizeof p) < 0) {
        free(p.name);
        return fail_oom(t);
    }
    return 0;
}

int gr_trace_types_params(struct gr_trace_types *t, uint64_t entry, int *found, const char **name,
                          struct gr_tv_param **params, size_t *n, struct gr_error *err)
{
    *found = 0;
    *name = NULL;
    *params = NULL;
    *n = 0;
    t->err = err;
    free_params(t);
    struct func_index key = {.low_pc = entry};
    const struct func_index *fi =
        t->nfuncs ? bsearch(&key, t->funcs, t->nfuncs, sizeof key, by_low_pc) : NULL;
    if (!fi)
        return 0;
    Dwarf_Die fdie, die = NULL;
    Dwarf_Error derr = NULL;
    if (dwarf_offdie_b(t->dbg, fi->die, 1, &fdie, &derr) != DW_DLV_OK)
        return fail_dwarf(t, derr, "reading a function DIE");
    int r = die_name(t, fdie, &t->func_name);
    if (r == 0)
        r = first_child(t, fdie, &die);
    while (r == 0 && die) {
        Dwarf_Half tag;
        r = die_tag(t, die, &tag);
        if (r == 0 && tag == DW_TAG_formal_parameter)
            r = read_param(t, die, entry);
        if (r == 0)
            r = next_sibling(t, &die);
    }
    if (die)
        dwarf_dealloc_die(die);
    dwarf_dealloc_die(fdie);
    if (r < 0)
        return -1;
    *found = 1;
    *name = t->func_name;
    *params = t->params;
    *n = t->nparams;
    return 0;
}
