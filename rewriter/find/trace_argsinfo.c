/* trace_argsinfo.c: layouts without types (trace_argsinfo.h).
 *
 * Stack ABI (Go 1.15/1.16, ABI0 assembly): pclntab's _func.args is the
 * size of the argument area, results included, at [RSP+8] at entry and
 * at a ret; its first ARGS_SHOWN words are shown raw at both points, as
 * the tracebacks of those releases print them (runtime/traceback.go of
 * Go 1.15: at most 10 words). The results are the last words at the ret.
 *
 * Register ABI: _func.args is the spill area, sized by the types of the
 * register arguments (an int8 takes 1 byte), so it does not tell which
 * registers hold arguments. From Go 1.18 (funcdata relative to
 * moduledata.gofunc) FUNCDATA_ArgInfo, what tracebacks print (cmd/compile
 * ssagen.EmitArgInfo, runtime.printArgs), lists the arguments' scalar
 * pieces in order with their sizes (at most 10; aggregates flattened
 * here); piece k is read from the k-th integer argument register (after a
 * generic function's dictionary; see arginfo_values for a method's
 * receiver), which is right while no float and no
 * stack-assigned argument comes first. The result shown is RAX, the first
 * integer result register, raw. Go 1.17 (absolute funcdata pointers):
 * no arguments. */
#include "rewriter/find/trace_argsinfo.h"
#include "rewriter/find/trace_abi.h"
#include "rewriter/find/trace_desc_build.h"
#include "rewriter/find/go_version.h"

#include <elf.h>
#include <string.h>

enum { ARGS_SHOWN = 10, ARGINFO_MAX = 171 /* runtime.printArgs' maxLen */ };

#define FUNCDATA_ARGINFO 5

/* Where Go 1.18+ keep what ArgInfo needs (runtime/runtime2.go _func of
 * each release): funcdata offsets count from moduledata.gofunc since 1.18,
 * whose offset, with moduledata.text's, is the release's
 * (gr_runtime_offsets). */
struct argsinfo_format {
    uint32_t magic;
    unsigned nfuncdata_off;      /* _func.nfuncdata; pcdata follows it */
};

static const struct argsinfo_format formats[] = {
    {0xfffffff0u, 39}, /* Go 1.18-1.19 */
    {0xfffffff1u, 43}, /* 1.20 on */
};

static int u32_at(const struct gr_elf *elf, uint64_t addr, uint32_t *v)
{
    const uint8_t *p = gr_elf_bytes_at(elf, addr, 4);
    return p ? (memcpy(v, p, 4), 0) : -1;
}

/* The word the program sees at addr (a PIE's relocated words included). */
static int u64_at(const struct gr_elf *elf, uint64_t addr, uint64_t *v)
{
    return gr_elf_read_addr(elf, addr, v);
}

static const struct argsinfo_format *format_of(const struct gr_program *prog)
{
    uint32_t magic;
    if (u32_at(prog->elf, prog->pcln.addr, &magic) < 0)
        return NULL;
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++)
        if (formats[i].magic == magic)
            return &formats[i];
    return NULL;
}

/* Address of f's _func (Go 1.18+ pclntab), 0 when not found. */
static uint64_t func_record(const struct gr_program *prog, const struct gr_func *f, uint64_t *text)
{
    const struct gr_elf *elf = prog->elf;
    uint64_t hdr = prog->pcln.addr, nfunc, pcln_off;
    if (u64_at(elf, hdr + 8, &nfunc) < 0 || u64_at(elf, hdr + 64, &pcln_off) < 0 || nfunc > (1u << 24))
        return 0;
    *text = prog->pcln.text_start;
    uint64_t want = f->entry - *text, lo = 0, hi = nfunc, tab = hdr + pcln_off;
    while (lo < hi) { /* functab: (entryoff, funcoff) u32 pairs sorted by entry */
        uint64_t mid = lo + (hi - lo) / 2;
        uint32_t e, off;
        if (u32_at(elf, tab + mid * 8, &e) < 0 || u32_at(elf, tab + mid * 8 + 4, &off) < 0)
            return 0;
        if (e == want)
            return tab + off;
        if (e < want)
            lo = mid + 1;
        else
            hi = mid;
    }
    return 0;
}

/* moduledata.gofunc, the base of funcdata offsets, found through
 * runtime.firstmoduledata: the data word that points to pclntab with the
 * text start at moduledata.text. 0 when the release's offsets do not
 * include moduledata.gofunc. */
static uint64_t gofunc_base(const struct gr_program *prog, uint64_t text)
{
    const struct gr_elf *elf = prog->elf;
    const struct gr_runtime_offsets *rt = &prog->offsets;
    const struct gr_section *s;
    static const char *homes[] = {".go.module", ".noptrdata", ".data"};
    if (!rt->have_gofunc)
        return 0;
    for (size_t h = 0; h < sizeof homes / sizeof homes[0]; h++) {
        if (!(s = gr_elf_section(elf, homes[h])) || s->type == SHT_NOBITS)
            continue;
        for (uint64_t a = s->addr; a + rt->md_gofunc + 8 <= s->addr + s->size; a += 8) {
            uint64_t v, t, gofunc;
            if (u64_at(elf, a, &v) < 0 || v != prog->pcln.addr || u64_at(elf, a + rt->md_text, &t) < 0 ||
                t != text)
                continue;
            if (u64_at(elf, a + rt->md_gofunc, &gofunc) == 0 && gr_elf_bytes_at(elf, gofunc, 1))
                return gofunc;
        }
    }
    return 0;
}

/* gofunc_base, found once per input (keyed by its bytes in memory): a
 * PIE's scan reads relocations for each word. */
static uint64_t gofunc_cached(const struct gr_program *prog, uint64_t text)
{
    static const uint8_t *data;
    static size_t size;
    static uint64_t gofunc;
    if (data != prog->elf->data || size != prog->elf->size) {
        gofunc = gofunc_base(prog, text);
        data = prog->elf->data;
        size = prog->elf->size;
    }
    return gofunc;
}

/* f's FUNCDATA_ArgInfo bytes into buf; their count, 0 when absent. */
static size_t arginfo(const struct gr_program *prog, const struct gr_func *f, uint8_t *buf)
{
    const struct argsinfo_format *fmt = prog->elf ? format_of(prog) : NULL;
    uint64_t text = 0, fn = fmt ? func_record(prog, f, &text) : 0, gofunc;
    uint32_t npcdata, off;
    const uint8_t *nfd = fn ? gr_elf_bytes_at(prog->elf, fn + fmt->nfuncdata_off, 1) : NULL;
    uint64_t funcdata = fn ? fn + fmt->nfuncdata_off + 1 : 0;
    if (!nfd || *nfd <= FUNCDATA_ARGINFO || u32_at(prog->elf, fn + 28, &npcdata) < 0 || npcdata > 1024 ||
        u32_at(prog->elf, funcdata + 4ull * npcdata + 4 * FUNCDATA_ARGINFO, &off) < 0 || off == 0xffffffffu ||
        !(gofunc = gofunc_cached(prog, text)))
        return 0;
    size_t n = 0;
    for (const uint8_t *b; n < ARGINFO_MAX && (b = gr_elf_bytes_at(prog->elf, gofunc + off + n, 1)); n++) {
        buf[n] = *b;
        if (*b == 0xff)
            return n + 1;
    }
    return 0; /* no end mark: not ArgInfo */
}

int32_t gr_trace_args_size(const struct gr_program *prog, const struct gr_func *f)
{
    if (f < prog->funcs || f >= prog->funcs + prog->nfuncs || prog->pcln.nfuncs != prog->nfuncs)
        return 0;
    int32_t args = prog->pcln.funcs[f - prog->funcs].args;
    return args > 0 ? args : 0;
}

/* Does .symtab name the code at entry "….abi0"? pclntab names the ABI0
 * body of an assembly function without the suffix the linker gives its
 * symbol since Go 1.17; a stripped binary cannot tell (0). */
int gr_trace_is_abi0(const struct gr_program *prog, uint64_t entry)
{
    const struct gr_elf *elf = prog->elf;
    const struct gr_section *sym = elf ? gr_elf_section(elf, ".symtab") : NULL;
    const struct gr_section *str = elf ? gr_elf_section(elf, ".strtab") : NULL;
    if (!sym || !str || sym->offset > elf->size || sym->size > elf->size - sym->offset ||
        str->offset > elf->size || str->size > elf->size - str->offset)
        return 0;
    const char *names = (const char *)elf->data + str->offset;
    for (uint64_t off = 0; off + sizeof(Elf64_Sym) <= sym->size; off += sizeof(Elf64_Sym)) {
        Elf64_Sym s;
        memcpy(&s, elf->data + sym->offset + off, sizeof s);
        if (s.st_value != entry || s.st_name >= str->size)
            continue;
        const char *n = names + s.st_name;
        size_t len = strnlen(n, str->size - s.st_name);
        if (len > 5 && len < str->size - s.st_name && memcmp(n + len - 5, ".abi0", 5) == 0)
            return 1;
    }
    return 0;
}

/* The raw word at src as one unnamed value of capture c. */
static void raw_value(struct gr_tdb *b, uint16_t raw, struct gr_trace_capture *c, struct gr_trace_src src,
                      uint16_t flags)
{
    uint16_t word = c->nwords < GR_TRACE_MAX_WORDS ? c->nwords++ : GTD_NONE;
    if (word != GTD_NONE)
        c->words[word] = src;
    uint16_t l = gr_tdb_leaf(b, word, 0, GTD_NONE);
    gr_tdb_value(b, NULL, raw, l, 1, flags);
}

/* Is f a shaped method with a pointer receiver, "pkg.(*T[go.shape.…]).M"? */
static int shaped_pointer_method(const char *name)
{
    const char *open = strstr(name, ".(*");
    const char *shape = strstr(name, "[go.shape.");
    const char *close = strstr(name, "]).");
    return open && shape && close && open < shape && shape < close && !strstr(close, ".func");
}

/* The arguments from ArgInfo: each scalar piece (offset, size) in the
 * next integer argument register, raw, of its size. EmitArgInfo skips the
 * first parameter of a name with '[', meant as the dictionary: from Go
 * 1.20 a method's dictionary follows its receiver, so the first piece is
 * the dictionary and the receiver is left out; a pointer receiver is then
 * shown from RAX in the dictionary's stead. */
static void arginfo_values(struct gr_tdb *b, const struct gr_program *prog, const struct gr_func *f,
                           struct gr_trace_layout *out)
{
    uint8_t info[ARGINFO_MAX];
    size_t n = arginfo(prog, f, info);
    unsigned reg = strchr(f->name, '[') ? 1 : 0; /* ArgInfo skips the dictionary */
    int receiver_first = gr_go_release(prog->go_version).minor >= 20 && shaped_pointer_method(f->name);
    uint16_t sized[9] = {0};
    for (size_t i = 0; i + 1 < n && info[i] != 0xff && info[i] != 0xfc; i++) {
        if (info[i] == 0xfe || info[i] == 0xfd)
            continue;
        uint8_t size = info[i] == 0xfb ? 8 : info[++i];
        size = size == 1 || size == 2 || size == 4 ? size : 8;
        if (!sized[size])
            sized[size] = gr_tdb_type(b, GTD_K_RAW, size, NULL, 0, 0);
        struct gr_trace_src src = {.kind = GR_TRACE_SRC_INT_REG, .reg = gr_abi_int_reg(receiver_first ? 0 : reg)};
        receiver_first = 0;
        if (reg++ < GR_ABI_INT_REGS)
            raw_value(b, sized[size], &out->entry, src, 0);
        else
            gr_tdb_value(b, NULL, sized[size], gr_tdb_leaf(b, GTD_NONE, 0, GTD_NONE), 1, 0);
    }
}

int gr_trace_argsinfo_layout(const struct gr_program *prog, const struct gr_func *f, int regabi,
                             struct gr_trace_layout *out, struct gr_error *err)
{
    struct gr_tdb b = {.flags = GTD_F_STRIPPED | GTD_F_RESULTS_RAW | (regabi ? GTD_F_REGABI : 0)};
    uint16_t raw = gr_tdb_type(&b, GTD_K_RAW, 8, NULL, 0, 0);
    if (regabi) {
        arginfo_values(&b, prog, f, out);
        raw_value(&b, raw, &out->ret, (struct gr_trace_src){.kind = GR_TRACE_SRC_INT_REG, .reg = 0},
                  GTD_V_RESULT);
    } else {
        int32_t words = (gr_trace_args_size(prog, f) + 7) / 8;
        for (int32_t i = 0; i < words && i < ARGS_SHOWN; i++) {
            struct gr_trace_src src = {.kind = GR_TRACE_SRC_STACK, .stack_off = 8 + 8 * i};
            raw_value(&b, raw, &out->entry, src, 0);
            raw_value(&b, raw, &out->ret, src, GTD_V_RESULT);
        }
    }
    if (gr_tdb_finish(&b, &out->desc, &out->desc_len) < 0)
        return gr_fail(err, "%s: out of memory building its trace layout", f->name);
    return 0;
}
