/* trace_layout.c: a traced function's argument and result layout
 * (trace_layout.h): its parameters' types from DWARF (trace_types_dwarf.c),
 * their places by the function's ABI (trace_abi.c), then one leaf per
 * scalar word in the order of the descriptor (format/trace_desc.h), each
 * leaf bound to a captured word: a register, or the 8-byte stack slot that
 * holds it (small stack values share a slot, told apart by their shift).
 * Without DWARF for the function: trace_argsinfo.c. */
#include "rewriter/find/trace_layout.h"
#include "rewriter/find/go_version.h"
#include "rewriter/find/trace_abi.h"
#include "rewriter/find/trace_argsinfo.h"
#include "rewriter/find/trace_desc_build.h"
#include "rewriter/find/trace_types.h"
#include "common/vec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_RTYPES = 256, /* about 10 KiB of descriptor */
       MAX_VALUE_LEAVES = GR_TRACE_MAX_WORDS / 2 };

struct done_type {
    const struct gr_tv_type *type;
    uint16_t index;
};

struct emitter {
    struct gr_tdb b;
    struct gr_trace_capture *cap;
    struct gr_abi_place place;
    unsigned ni, nf;            /* registers taken so far by this value */
    struct done_type *done;     /* types already in the descriptor */
    size_t ndone, done_cap;
    int has_iface;
};

/* The capture word for a source, added when new: its index, or GTD_NONE
 * when the capture is full. */
static uint16_t word_for(struct gr_trace_capture *c, uint8_t kind, uint8_t reg, int32_t off, uint8_t deref)
{
    for (uint16_t i = 0; i < c->nwords; i++) {
        const struct gr_trace_src *s = &c->words[i];
        if (s->kind == kind && s->reg == reg && s->stack_off == off && s->deref == deref)
            return i;
    }
    if (c->nwords >= GR_TRACE_MAX_WORDS)
        return GTD_NONE;
    c->words[c->nwords] = (struct gr_trace_src){.kind = kind, .reg = reg, .deref = deref, .stack_off = off};
    return c->nwords++;
}

/* The leaf of one scalar at byte off of the value (float: an XMM register
 * when register-assigned). */
static uint16_t leaf(struct emitter *e, uint64_t off, int is_float, uint8_t deref, uint16_t *word_out)
{
    uint16_t word;
    uint8_t shift = 0;
    if (!e->place.on_stack) {
        if (is_float)
            word = word_for(e->cap, GR_TRACE_SRC_FLOAT_REG, (uint8_t)(e->place.float_reg + e->nf++), 0, deref);
        else
            word = word_for(e->cap, GR_TRACE_SRC_INT_REG, gr_abi_int_reg(e->place.int_reg + e->ni++), 0, deref);
    } else {
        uint64_t at = 8 + e->place.stack_off + off;
        shift = (uint8_t)(at & 7);
        word = at > INT32_MAX ? GTD_NONE : word_for(e->cap, GR_TRACE_SRC_STACK, 0, (int32_t)(at & ~7u), deref);
    }
    if (word_out)
        *word_out = word;
    return gr_tdb_leaf(&e->b, word, shift, GTD_NONE);
}

/* A string's or []byte's data and length leaves, and the byte copy of
 * its contents when both are whole words and the capture has room. */
static void data_len_leaves(struct emitter *e, uint64_t off, int bytes)
{
    uint16_t pw, lw;
    uint16_t pl = leaf(e, off, 0, 0, &pw);
    uint16_t ll = leaf(e, off + 8, 0, 0, &lw);
    (void)ll;
    if (!bytes || pw == GTD_NONE || lw == GTD_NONE || e->cap->nbytes >= GR_TRACE_MAX_BYTES ||
        pl == GTD_NONE || e->b.failed || e->b.leaves[pl].shift)
        return;
    e->cap->bytes[e->cap->nbytes] = (struct gr_trace_bytes){.ptr_word = pw, .len_word = lw};
    e->b.leaves[pl].bytes = e->cap->nbytes++;
}

static int is_byte_elem(const struct gr_tv_type *t)
{
    return t && (t->kind == GTD_K_UINT || t->kind == GTD_K_INT) && t->size == 1;
}

static void leaves_of(struct emitter *e, const struct gr_tv_type *t, uint64_t off, unsigned depth)
{
    if (depth > GTD_MAX_DEPTH)
        return;
    switch (t->kind) {
    case GTD_K_STRING:
        data_len_leaves(e, off, 1);
        break;
    case GTD_K_SLICE:
        data_len_leaves(e, off, is_byte_elem(t->elem));
        leaf(e, off + 16, 0, 0, NULL);
        break;
    case GTD_K_IFACE: case GTD_K_EFACE:
        e->has_iface = 1;
        leaf(e, off, 0, t->kind == GTD_K_IFACE, NULL);
        leaf(e, off + 8, 0, 0, NULL);
        break;
    case GTD_K_COMPLEX:
        leaf(e, off, 1, 0, NULL);
        leaf(e, off + t->size / 2, 1, 0, NULL);
        break;
    case GTD_K_STRUCT:
        for (size_t i = 0; i < t->nfields; i++)
            leaves_of(e, t->fields[i].type, off + t->fields[i].offset, depth + 1);
        break;
    case GTD_K_ARRAY:
        for (uint64_t i = 0; i < t->len; i++)
            leaves_of(e, t->elem, off + i * t->elem->byte_size, depth + 1);
        break;
    default:
        leaf(e, off, t->kind == GTD_K_FLOAT, 0, NULL);
        break;
    }
}

static const char *kind_name(uint8_t kind)
{
    return kind == GTD_K_EFACE ? "interface {}" : kind == GTD_K_POINTER ? "unsafe.Pointer" : "?";
}

/* The descriptor index of t, its children emitted first. */
static uint16_t type_index(struct emitter *e, const struct gr_tv_type *t, unsigned depth)
{
    for (size_t i = 0; i < e->ndone; i++)
        if (e->done[i].type == t)
            return e->done[i].index;
    if (depth > GTD_MAX_DEPTH || t->len > 0xffff || t->nfields > 0xffff) {
        e->b.failed = 1;
        return 0;
    }
    uint16_t n = 0, first = 0;
    if (t->kind == GTD_K_STRUCT) {
        uint16_t *ft = calloc(t->nfields + 1, sizeof *ft);
        if (!ft) {
            e->b.failed = 1;
            return 0;
        }
        for (size_t i = 0; i < t->nfields; i++)
            ft[i] = type_index(e, t->fields[i].type, depth + 1);
        first = (uint16_t)e->b.nfields;
        for (size_t i = 0; i < t->nfields; i++)
            gr_tdb_field(&e->b, t->fields[i].name, ft[i]);
        n = (uint16_t)t->nfields;
        free(ft);
    } else if (t->kind == GTD_K_ARRAY || t->kind == GTD_K_SLICE) {
        first = type_index(e, t->elem, depth + 1);
        n = (uint16_t)t->len;
    }
    uint16_t idx = gr_tdb_type(&e->b, t->kind, t->size, t->name ? t->name : kind_name(t->kind), n, first);
    struct done_type d = {.type = t, .index = idx};
    if (gr_vec_append(&e->done, &e->ndone, &e->done_cap, &d, sizeof d) < 0)
        e->b.failed = 1;
    return idx;
}

/* Leaves of t (saturating at limit), or limit when it nests deeper than
 * a descriptor may. */
static uint64_t leaf_count(const struct gr_tv_type *t, unsigned depth, uint64_t limit)
{
    if (depth > GTD_MAX_DEPTH)
        return limit;
    uint64_t n = 0;
    switch (t->kind) {
    case GTD_K_STRING: case GTD_K_IFACE: case GTD_K_EFACE: case GTD_K_COMPLEX: return 2;
    case GTD_K_SLICE: return 3;
    case GTD_K_STRUCT:
        for (size_t i = 0; i < t->nfields && n < limit; i++)
            n += leaf_count(t->fields[i].type, depth + 1, limit);
        return n < limit ? n : limit;
    case GTD_K_ARRAY:
        if (t->len > 0xffff)
            return limit;
        n = t->len ? leaf_count(t->elem, depth + 1, limit) : 0;
        return n && t->len >= limit / n ? limit : n * t->len;
    default: return 1;
    }
}

/* A value of more than MAX_VALUE_LEAVES words (an array of 4096 bytes)
 * is not captured, so that one value cannot take the whole capture and
 * the call's cost: shown as omitted, under its type's name. */
static int emit_too_big(struct emitter *e, const struct gr_tv_param *p)
{
    if (leaf_count(p->type, 0, MAX_VALUE_LEAVES + 1) <= MAX_VALUE_LEAVES)
        return 0;
    uint16_t raw = gr_tdb_type(&e->b, GTD_K_RAW, 8, p->type->name ? p->type->name : "?", 0, 0);
    gr_tdb_value(&e->b, p->name, raw, gr_tdb_leaf(&e->b, GTD_NONE, 0, GTD_NONE), 1,
                 p->result ? GTD_V_RESULT : 0);
    return 1;
}

static void emit_value(struct emitter *e, const struct gr_tv_param *p, const struct gr_abi_place *place,
                       struct gr_trace_layout *out)
{
    if (p->hidden || (p->name && strcmp(p->name, ".dict") == 0) || emit_too_big(e, p))
        return;
    uint16_t type = type_index(e, p->type, 0);
    e->cap = p->result ? &out->ret : &out->entry;
    e->place = *place;
    e->ni = e->nf = 0;
    size_t first = e->b.nleaves;
    leaves_of(e, p->type, 0, 0);
    size_t n = e->b.nleaves - first;
    if (first > 0xffff || n > 0xffff) {
        e->b.failed = 1;
        return;
    }
    gr_tdb_value(&e->b, p->name, type, (uint16_t)first, (uint16_t)n, p->result ? GTD_V_RESULT : 0);
}

/* How likely an interface value's dynamic type is name: 0 for the traced
 * function's own package, 1 for predeclared types and types built of them
 * ("int", "[]string": no package) and error types, 2 for the rest. */
static int rtype_rank(const char *name, const char *func, size_t pkg_len)
{
    const char *n = name + (name[0] == '*');
    if (pkg_len && strncmp(n, func, pkg_len) == 0 && n[pkg_len] == '.')
        return 0;
    return !strchr(n, '.') || strstr(n, "rror") ? 1 : 2;
}

/* Which runtime types an interface value may name: as many as fit, the
 * likeliest first (rtype_rank), by address within a rank. */
static void emit_rtypes(struct emitter *e, const struct gr_program *prog, const char *func)
{
    size_t n;
    const struct gr_tv_rtype *rt = gr_trace_types_rtypes(prog->trace_types, &n);
    const char *slash = strrchr(func, '/');
    const char *dot = strchr(slash ? slash : func, '.');
    size_t pkg_len = dot ? (size_t)(dot - func) : 0;
    size_t kept = 0;
    for (int rank = 0; rank < 3; rank++)
        for (size_t i = 0; i < n && kept < MAX_RTYPES; i++)
            if (rtype_rank(rt[i].name, func, pkg_len) == rank) {
                gr_tdb_rtype(&e->b, rt[i].addr, rt[i].name);
                kept++;
            }
}

static int uses_regabi(const struct gr_program *prog, const struct gr_func *f)
{
    size_t n = strlen(f->name);
    if (n > 5 && strcmp(f->name + n - 5, ".abi0") == 0)
        return 0;
    int minor = gr_go_release(prog->go_version).minor;
    return minor < 0 || !gr_go_stack_abi(minor); /* unknown: the newest rules */
}

/* The section DWARF's runtime type offsets count from: .go.type since
 * Go 1.26 put the types there, .rodata before. */
static uint64_t types_base(const struct gr_elf *elf)
{
    const struct gr_section *s = gr_elf_section(elf, ".go.type");
    if (!s)
        s = gr_elf_section(elf, ".rodata");
    return s ? s->addr : 0;
}

static int open_types(const struct gr_program *prog, struct gr_error *err)
{
    struct gr_program *p = (struct gr_program *)prog; /* the cache only */
    if (p->trace_types_tried)
        return 0;
    p->trace_types_tried = 1;
    if (!p->elf || p->elf->fd < 0 || !p->dwarf.present)
        return 0;
    return gr_trace_types_open(p->elf->path, p->elf->fd, types_base(p->elf), &p->trace_types, err);
}

/* Did DWARF leave parameters out? Go 1.15 and 1.16 omit blank (_) ones:
 * then a located parameter is not where the assignment put it, or an
 * unnamed result's index (~rN counts the parameters before it but a
 * receiver) is too high. */
static int params_missing(const struct gr_tv_param *params, size_t n, const struct gr_abi_place *places)
{
    for (size_t i = 0; i < n; i++) {
        unsigned k;
        char end;
        if (params[i].has_frame_off && (uint64_t)params[i].frame_off != places[i].stack_off)
            return 1;
        if (params[i].result && params[i].name && sscanf(params[i].name, "~r%u%c", &k, &end) == 1 && k > i)
            return 1;
    }
    return 0;
}

/* DWARF's own offsets when every parameter has one; 0 if some has none. */
static int use_frame_offsets(const struct gr_tv_param *params, size_t n, struct gr_abi_place *places)
{
    for (size_t i = 0; i < n; i++)
        if (!params[i].has_frame_off)
            return 0;
    for (size_t i = 0; i < n; i++)
        places[i].stack_off = (uint32_t)params[i].frame_off;
    return 1;
}

/* A generic function compiled for a shape ("pkg.F[go.shape.int]") takes a
 * dictionary pointer; closures inside get it otherwise. Go 1.18-1.20 name
 * every instance "pkg.F[...]" in pclntab, so the shape is read from DWARF's
 * name of the function. *method: it has a receiver. */
static int has_dictionary(const char *name, int *method)
{
    const char *shape = strstr(name, "[go.shape.");
    const char *close = strrchr(name, ']');
    const char *last_dot = strrchr(name, '.');
    *method = close && last_dot > close && strncmp(last_dot, ".func", 5) != 0;
    return shape && !(close && last_dot > close && !*method);
}

static struct gr_tv_type dict_type = {.kind = GTD_K_POINTER, .size = 8, .align = 8, .byte_size = 8,
                                      .name = (char *)"uintptr"};

/* params with the hidden dictionary inserted at index at: a malloc'd copy. */
static struct gr_tv_param *with_dictionary(const struct gr_tv_param *params, size_t n, size_t at)
{
    struct gr_tv_param *with = calloc(n + 1, sizeof *with);
    if (!with)
        return NULL;
    memcpy(with, params, at * sizeof *params);
    with[at] = (struct gr_tv_param){.name = (char *)".dict", .type = &dict_type, .hidden = 1};
    memcpy(with + at + 1, params + at, (n - at) * sizeof *params);
    return with;
}

/* The DWARF number of the register a place starts in. */
static uint8_t dwarf_reg(const struct gr_abi_place *pl, int is_float)
{
    static const uint8_t ints[GR_ABI_INT_REGS] = {0, 3, 2, 5, 4, 8, 9, 10, 11}; /* RAX RBX RCX RDI RSI R8.. */
    if (is_float)
        return (uint8_t)(17 + pl->float_reg);
    return pl->int_reg < GR_ABI_INT_REGS ? ints[pl->int_reg] : 0xff;
}

static int starts_float(const struct gr_tv_type *t)
{
    while (t && (t->kind == GTD_K_STRUCT || t->kind == GTD_K_ARRAY))
        t = t->kind == GTD_K_STRUCT ? (t->nfields ? t->fields[0].type : NULL) : (t->len ? t->elem : NULL);
    return t && (t->kind == GTD_K_FLOAT || t->kind == GTD_K_COMPLEX);
}

/* Does DWARF place a parameter at the function's entry in another register
 * than the register assignment of params does (or on the stack)? */
static int registers_contradict(const struct gr_tv_param *params, size_t n)
{
    struct gr_abi_place *places = calloc(n + 1, sizeof *places);
    if (!places)
        return 1; /* then the raw words */
    gr_abi_assign(params, n, 1, places);
    int contradict = 0;
    for (size_t i = 0; i < n && !contradict; i++)
        if (params[i].has_entry_reg && !params[i].result)
            contradict = places[i].on_stack ||
                         dwarf_reg(&places[i], starts_float(params[i].type)) != params[i].entry_reg;
    free(places);
    return contradict;
}

/* params with the dictionary inserted first (Go 1.18-1.19's stenciling puts
 * it before a method's receiver) or right after the receiver (Go 1.20 on):
 * the place the parameters' entry registers in DWARF do not contradict,
 * the release's first. NULL: out of memory, or *refused when both are. */
static struct gr_tv_param *place_dictionary(const struct gr_program *prog, int method,
                                            const struct gr_tv_param *params, size_t n, int *refused)
{
    size_t rule = method && gr_go_release(prog->go_version).minor >= 20 ? 1 : 0;
    size_t places[2] = {rule, method ? 1 - rule : rule};
    *refused = 0;
    for (int k = 0; k < 2; k++) {
        struct gr_tv_param *with = with_dictionary(params, n, places[k] <= n ? places[k] : n);
        if (!with || !registers_contradict(with, n + 1))
            return with;
        free(with);
    }
    *refused = 1;
    return NULL;
}

static int layout_from_dwarf(const struct gr_program *prog, const struct gr_func *f,
                             const struct gr_tv_param *params, size_t n, struct gr_trace_layout *out,
                             struct gr_error *err)
{
    struct gr_abi_place *places = calloc(n + 1, sizeof *places);
    if (!places)
        return gr_fail(err, "%s: out of memory", f->name);
    int regabi = uses_regabi(prog, f);
    gr_abi_assign(params, n, regabi, places);
    if (!regabi && params_missing(params, n, places) && !use_frame_offsets(params, n, places)) {
        free(places); /* the argument area's raw words are exact */
        return gr_trace_argsinfo_layout(prog, f, 0, out, err);
    }
    struct emitter e = {.b = {.flags = regabi ? GTD_F_REGABI : 0}};
    for (size_t i = 0; i < n; i++)
        emit_value(&e, &params[i], &places[i], out);
    if (e.has_iface)
        emit_rtypes(&e, prog, f->name);
    free(places);
    free(e.done);
    if (gr_tdb_finish(&e.b, &out->desc, &out->desc_len) < 0)
        return gr_fail(err, "%s: its parameters do not fit a trace descriptor", f->name);
    return 0;
}

static int layout_with_dictionary(const struct gr_program *prog, const struct gr_func *f, const char *dwarf_name,
                                  const struct gr_tv_param *params, size_t n, struct gr_trace_layout *out,
                                  struct gr_error *err)
{
    int method, refused;
    const char *name = dwarf_name && strstr(dwarf_name, "[go.shape.") ? dwarf_name : f->name;
    for (size_t i = 0; i < n; i++)
        if (params[i].name && strcmp(params[i].name, ".dict") == 0)
            return layout_from_dwarf(prog, f, params, n, out, err); /* listed: placed like the others */
    if (!uses_regabi(prog, f) || !has_dictionary(name, &method))
        return layout_from_dwarf(prog, f, params, n, out, err);
    struct gr_tv_param *with = place_dictionary(prog, method, params, n, &refused);
    if (refused) /* the raw words are exact */
        return gr_trace_argsinfo_layout(prog, f, 1, out, err);
    if (!with)
        return gr_fail(err, "%s: out of memory", f->name);
    int rc = layout_from_dwarf(prog, f, with, n + 1, out, err);
    free(with);
    return rc;
}

int gr_trace_layout_of(const struct gr_program *prog, const struct gr_func *f,
                       struct gr_trace_layout *out, struct gr_error *err)
{
    memset(out, 0, sizeof *out);
    if (open_types(prog, err) < 0)
        return -1;
    int found = 0;
    const char *dwarf_name = NULL;
    struct gr_tv_param *params = NULL;
    size_t n = 0;
    if (prog->trace_types &&
        gr_trace_types_params(prog->trace_types, f->entry, &found, &dwarf_name, &params, &n, err) < 0)
        return -1;
    if (found && (n > 0 || gr_trace_args_size(prog, f) == 0))
        return layout_with_dictionary(prog, f, dwarf_name, params, n, out, err);
    /* no DWARF, or DWARF without the parameters it takes: assembly, whose
     * ABI the name tells (".abi0" since Go 1.17) */
    return gr_trace_argsinfo_layout(prog, f, uses_regabi(prog, f) && !gr_trace_is_abi0(prog, f->entry),
                                    out, err);
}

void gr_trace_layout_free(struct gr_trace_layout *l)
{
    free(l->desc);
    memset(l, 0, sizeof *l);
}
