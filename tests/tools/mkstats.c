/* mkstats.c: writes gostat stats files for tests, so gostat can be tested
 * without an instrumented program: valid files with chosen functions and
 * counts (optionally spread over several rows, to prove that readers sum
 * them), and files broken in one chosen way, to prove readers reject them.
 *
 *   mkstats OUT --pid N [--processes N] [--exe PATH] [--build-id ID] [--go-version V] [--start-ns NS]
 *               [--start-ticks T] [--rows R] [--spread] [--claimed K]
 *               [--stray] [--corrupt KIND]
 *               [--timing] [--no-tsc] [--oncpu-off] [--tsc TSC0:MONO0:TSC1:MONO1] [--boot-id ID]
 *               [--sample-every N]
 *               [--untimed INDEX:REASON]... [--time INDEX:ROW:TOTAL:MIN:MAX:B=N[,B=N...]]...
 *               [--oncpu INDEX:ROW:TICKS]...
 *               [--drops ROW:UNWOUND:TOO_DEEP:NO_SLOT:UNMATCHED:NO_SPACE[:ABANDONED]]...
 *               [--pagemap ROW:PAGE:VALUE]... [--next ROW:N]... [--chain N [--chain-calls C]]
 *               [--path ROW:KEY:PARENT:FUNC:CALLER:CALLS:TOTAL:SELF[:ONCPU]]...
 *               [--gostmt PC:FUNC:FILE:LINE]... [--site-head NO_SITE:NO_LIVE:UNBORN]
 *               [--site GOPC:STARTPC:CREATED:UNTIMED_EXITS:TOTAL:MAX[:B=N[,B=N...]]]...
 *               [--site-path SITE:KEY:FUNC[,FUNC...]]...
 *               [--trace-slots N] [--trace-func INDEX:ARGS:RESULTS[:nodesc]]...
 *               [--trace-event ROW:TFUNC:GOID:START:DUR:CALLER:VALUES[:panicked]]...
 *               --func NAME:ENTRY:CALLS[:FILE:LINE[:inlined]] ...
 *   mkstats --bump FILE INDEX N [ROW]   add N to function INDEX's counter
 *                                       (in ROW, default 0), as a program would
 *
 * --spread puts CALLS across rows 0..R-1 and claims them all; --claimed
 * sets live.rows_claimed explicitly; --stray writes large counts into the
 * rows past the claimed ones, which readers must ignore.
 *
 * Timing: --timing sets GS_HDR_TIMING and gives every function a timing
 * record (in order) except those named by --untimed. --time writes function
 * INDEX's record in ROW (total, min and max ticks, histogram buckets) and
 * marks its page backed in the row's page map; --pagemap then overrides a
 * page map byte (e.g. 2: backing failed, so readers must skip the page).
 * --oncpu (after that record's --time) sets its oncpu_total and the
 * header's GS_HDR_ONCPU; --oncpu-off sets GS_HDR_ONCPU_OFF (gorewrite
 * refused on-CPU time). In a file with call paths (--chain, --path),
 * --time's histogram, min and max stay but its calls and total do not: the
 * paths hold them.
 * --drops fills a row's struct gs_drops (ABANDONED 0 when left out). --sample-every sets the header's
 * sample_every (sampled timing: about 1 call in N timed). --probe
 * TIMED:INSIDE:UNTIMED_Q8 sets the calibration (probe_ticks,
 * probe_inner_ticks, probe_untimed_q8). --next ROW:N sets every timed
 * function's record in ROW to next = N (sampling: the number of the call
 * timed next) and marks its pages backed.
 *
 * Call paths: --chain N (with --timing) writes a --call-graph file whose
 * row 1 holds one chain of N nested calls through the timed functions in
 * turn (N calling contexts, each call's caller the function of the one
 * above it, the first from unknown code), each context 1 call of N - depth
 * ticks, 1 of them its own; a symbol table of the functions (which must be
 * given sorted by entry); tables of the next power of two >= N paths and
 * 64 arcs. --chain-calls C gives each context C calls instead of 1.
 * --path (with --timing) writes one calling context of a call graph in
 * ROW's path table: its KEY (non-zero), its PARENT's key (0: the
 * goroutine's first timed call), function FUNC called from function
 * CALLER's code (return address its entry + 4; '-': from unknown code, 0),
 * with CALLS calls of TOTAL ticks, SELF of them its own (ONCPU on-CPU).
 *
 * Goroutine sites: --gostmt names a go statement (PCs given sorted);
 * --site writes a site entry (the key GOPC << 32 | STARTPC, goroutines
 * created and those ended without a lifetime, the lifetimes' ticks and
 * histogram) and --site-head the counts of the section's head. With call
 * paths, --site-path gives the SITE-th --site a creator's call path: its
 * KEY, and the functions of its open timed calls, innermost first.
 *
 * Tracing: --trace-func traces function INDEX, with a descriptor of its
 * ARGS and RESULTS, each a ','-separated list of NAME=TYPE (TYPE int,
 * uint, bool, string or ptr; empty: none); the order of --trace-func is
 * the trace function table's; "nodesc" leaves the descriptor out, as
 * for a binary without DWARF: readers show the captured words. --trace-event appends a call of trace
 * function TFUNC to ROW's ring (>= 1; --trace-slots N slots, default 8:
 * older events are overwritten as a full ring's are): goroutine GOID,
 * START and DUR ticks, called from function CALLER's code ('-': address
 * 0), VALUES the arguments then the results (','-separated numbers, true
 * or false, text for a string), results left out with "panicked".
 *
 * --chain-oncpu D:T gives context D T ticks of on-CPU time (the others 0)
 * and the header GS_HDR_ONCPU. */
#include "format/gostat_format.h"
#include "format/trace_desc.h"
#include "format/trace_format.h"

#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_FUNCS 4096
#define MAX_EDITS 256
#define MAX_SITES 16            /* the site table's entries */
#define MAX_GLIVE 128           /* the live table's (one page) */
#define MAX_TFUNCS 16
#define MAX_TVALUES 16
#define TRACE_BYTES_MAX 16      /* a string argument's copy */
#define STRAY_CALLS 1000000u

struct func_spec {
    const char *name;
    uint64_t entry;
    uint64_t calls;
    const char *file;
    uint32_t line;
    bool inlined;
    const char *untimed;       /* reason, or NULL: timed (in a timing file) */
    uint32_t timing;           /* record index, or GS_UNTIMED */
};

/* Row edits applied after the counters: --time, --drops, --pagemap,
 * --next, --oncpu, --path, --site, --site-path, --trace-event. */
struct edit {
    char kind;                 /* 't', 'd', 'p', 'n', 'o', 'P', 'S', 'C' or 'E' */
    char *arg;
};

struct gostmt_spec {
    uint64_t pc;
    const char *func, *file;
    uint32_t line;
};

/* A traced function's value: where its words and byte copy are in its
 * capture part (the entry's for arguments, the return's for results). */
struct tvalue {
    const char *name;
    char kind;                 /* 'i' int, 'u' uint, 'b' bool, 's' string, 'p' ptr */
    bool result;
    uint16_t word, copy;
};

struct tfunc {
    uint32_t func;
    struct tvalue v[MAX_TVALUES];
    uint32_t nv;
    uint16_t words[2], copies[2];  /* entry, return */
    uint32_t return_off, used, desc_off, desc_len;
    bool nodesc;
};

struct spec {
    const char *out;
    int64_t pid;
    uint64_t processes;        /* --processes: a merged file of that many (0: a process's own) */
    const char *exe;
    const char *build_id;
    const char *go_version;
    uint64_t start_ns;
    uint64_t start_ticks;
    uint32_t rows;
    bool spread;
    bool stray;
    int64_t claimed;           /* -1: derived from --spread */
    const char *corrupt;
    bool timing, no_tsc, oncpu_off;
    uint64_t tsc[4];           /* tsc0, mono0_ns, tsc1, mono1_ns */
    const char *boot_id;
    uint32_t sample_every;
    uint32_t chain;            /* --chain: nested calls in row 1 (0: no paths) */
    uint64_t chain_calls;      /* --chain-calls: each context's calls (1) */
    uint64_t chain_oncpu[2];   /* --chain-oncpu D:T: context D's on-CPU ticks */
    uint64_t probe[3];         /* probe_ticks, probe_inner_ticks, probe_untimed_q8 */
    uint32_t ntimed;
    struct func_spec funcs[MAX_FUNCS];
    uint32_t nfuncs;
    struct edit edits[MAX_EDITS];
    uint32_t nedits;
    char *untimed[MAX_EDITS];
    uint32_t nuntimed;
    uint32_t npaths;           /* --path entries (the largest table needs as many) */
    struct gostmt_spec gostmts[MAX_EDITS];
    uint32_t ngostmts, nsites, nsite_paths;
    uint64_t site_head[3];     /* no_site, no_live, unborn */
    struct tfunc tfuncs[MAX_TFUNCS];
    uint32_t ntfuncs, trace_slots, event_size;
    unsigned char *trace;      /* the trace section, built before the layout */
    uint64_t trace_len;
};

/* Where each part of the file goes. */
struct plan {
    uint64_t strtab_size, functab_off, strtab_off, live_off, rows_off, row_stride, file_size;
    uint64_t counts_off, timing_off;
    uint64_t syms_off, paths_off, arcs_off;    /* --chain, --path */
    uint32_t max_paths, max_arcs;
    uint64_t gostmts_off, trace_off;           /* in the prefix */
    uint64_t ring_off, ring_size;              /* in a row */
    uint64_t sites_off, glive_off, spaths_off, sites_size; /* after the rows */
};

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

static void die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "mkstats: ");
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(2);
}

static uint64_t parse_u64(const char *s, const char *what)
{
    char *end;
    if (!s || !*s)
        die("missing number for %s", what);
    uint64_t v = strtoull(s, &end, 0);
    if (*end)
        die("bad number for %s", what);
    return v;
}

static uint64_t round_up(uint64_t v, uint64_t to)
{
    return (v + to - 1) / to * to;
}

/* NAME:ENTRY:CALLS[:FILE:LINE[:inlined]] */
static void parse_func(char *arg, struct func_spec *f)
{
    char *field[6] = { 0 };
    int n = 0;
    char *rest = arg;
    while (n < 6 && rest)
        field[n++] = strsep(&rest, ":");
    if (rest || (n != 3 && n != 5 && n != 6))
        die("--func wants NAME:ENTRY:CALLS[:FILE:LINE[:inlined]], got '%s'", arg);
    f->name = field[0];
    f->entry = parse_u64(field[1], "ENTRY");
    f->calls = parse_u64(field[2], "CALLS");
    f->file = n >= 5 ? field[3] : "";
    f->line = n >= 5 ? (uint32_t)parse_u64(field[4], "LINE") : 0;
    if (n == 6 && strcmp(field[5], "inlined") != 0)
        die("sixth --func field must be 'inlined', got '%s'", field[5]);
    f->inlined = n == 6;
}

/* A:B:C...: exactly n numbers separated by ':'. */
static void parse_numbers(const char *arg, uint64_t *v, int n, const char *what)
{
    char copy[512], *rest = copy;
    snprintf(copy, sizeof copy, "%s", arg);
    for (int k = 0; k < n; k++)
        v[k] = parse_u64(strsep(&rest, ":"), what);
    if (rest)
        die("%s: too many fields in '%s'", what, arg);
}

/* The ':'-separated fields of arg. */
static int count_fields(const char *arg)
{
    int n = 1;
    for (; *arg; arg++)
        n += *arg == ':';
    return n;
}

/* Timing record indexes in function order; reasons of --untimed INDEX:REASON. */
static void assign_timing(struct spec *s)
{
    for (uint32_t k = 0; k < s->nuntimed; k++) {
        char *rest = s->untimed[k];
        uint64_t index = parse_u64(strsep(&rest, ":"), "--untimed INDEX");
        if (index >= s->nfuncs || !rest)
            die("--untimed wants INDEX:REASON with INDEX < %u", s->nfuncs);
        s->funcs[index].untimed = rest;
    }
    for (uint32_t i = 0; i < s->nfuncs; i++) {
        struct func_spec *f = &s->funcs[i];
        f->timing = s->timing && !f->untimed ? s->ntimed++ : GS_UNTIMED;
    }
}

static char *next_arg(int argc, char **argv, int *i)
{
    if (*i + 1 >= argc)
        die("%s needs a value", argv[*i]);
    return argv[++*i];
}

/* PC:FUNC:FILE:LINE */
static void parse_gostmt(char *arg, struct spec *s)
{
    if (s->ngostmts == MAX_EDITS)
        die("more than %d go statements", MAX_EDITS);
    struct gostmt_spec *g = &s->gostmts[s->ngostmts++];
    char *rest = arg;
    g->pc = parse_u64(strsep(&rest, ":"), "--gostmt PC");
    g->func = strsep(&rest, ":");
    g->file = strsep(&rest, ":");
    if (!g->func || !g->file || !rest)
        die("--gostmt wants PC:FUNC:FILE:LINE, got '%s'", arg);
    g->line = (uint32_t)parse_u64(rest, "--gostmt LINE");
}

/* One NAME=TYPE of a --trace-func list, at the next word (and copy) of
 * its capture part. */
static void parse_tvalue(char *item, bool result, struct tfunc *f)
{
    static const char *const kinds[] = { "int", "uint", "bool", "string", "ptr" };
    char *eq = strchr(item, '=');
    if (!eq || f->nv == MAX_TVALUES)
        die("--trace-func: bad value '%s' (NAME=TYPE, at most %d)", item, MAX_TVALUES);
    *eq = '\0';
    struct tvalue *v = &f->v[f->nv++];
    *v = (struct tvalue){ .name = item, .result = result, .word = f->words[result], .copy = 0xffff };
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
        if (strcmp(eq + 1, kinds[k]) == 0)
            v->kind = "iubsp"[k];
    if (!v->kind)
        die("--trace-func: unknown type '%s' (int, uint, bool, string, ptr)", eq + 1);
    f->words[result] += v->kind == 's' ? 2 : 1;
    if (v->kind == 's')
        v->copy = f->copies[result]++;
}

/* INDEX:ARGS:RESULTS[:nodesc] */
static void parse_tfunc(char *arg, struct spec *s)
{
    if (s->ntfuncs == MAX_TFUNCS)
        die("more than %d traced functions", MAX_TFUNCS);
    struct tfunc *f = &s->tfuncs[s->ntfuncs++];
    char *rest = arg;
    f->func = (uint32_t)parse_u64(strsep(&rest, ":"), "--trace-func INDEX");
    char *args = strsep(&rest, ":");
    char *results = strsep(&rest, ":");
    f->nodesc = rest && strcmp(rest, "nodesc") == 0;
    if (!args || !results || (rest && !f->nodesc))
        die("--trace-func wants INDEX:ARGS:RESULTS[:nodesc], got '%s'", arg);
    rest = results;
    for (char *item; (item = strsep(&args, ",")) != NULL;)
        if (*item)
            parse_tvalue(item, false, f);
    for (char *item; (item = strsep(&rest, ",")) != NULL;)
        if (*item)
            parse_tvalue(item, true, f);
}

/* The call-graph, goroutine-site and trace options; false: not one. */
static bool parse_graph_arg(int argc, char **argv, int *i, struct spec *s)
{
    const char *a = argv[*i];
    char kind = strcmp(a, "--path") == 0 ? 'P' : strcmp(a, "--site") == 0 ? 'S'
              : strcmp(a, "--site-path") == 0 ? 'C' : strcmp(a, "--trace-event") == 0 ? 'E' : 0;
    if (kind) {
        if (s->nedits == MAX_EDITS)
            die("more than %d row edits", MAX_EDITS);
        s->edits[s->nedits++] = (struct edit){ kind, next_arg(argc, argv, i) };
        s->npaths += kind == 'P';
        s->nsites += kind == 'S';
        s->nsite_paths += kind == 'C';
    } else if (strcmp(a, "--gostmt") == 0) {
        parse_gostmt(next_arg(argc, argv, i), s);
    } else if (strcmp(a, "--site-head") == 0) {
        parse_numbers(next_arg(argc, argv, i), s->site_head, 3, a);
    } else if (strcmp(a, "--trace-func") == 0) {
        parse_tfunc(next_arg(argc, argv, i), s);
    } else if (strcmp(a, "--trace-slots") == 0) {
        s->trace_slots = (uint32_t)parse_u64(next_arg(argc, argv, i), a);
    } else {
        return false;
    }
    if (s->nsites > MAX_SITES)
        die("more than %d --site", MAX_SITES);
    return true;
}


/* Bytes appended to a growing buffer. */
struct bytes {
    unsigned char *p;
    uint64_t len;
};

static void put_bytes(struct bytes *b, const void *data, uint64_t n)
{
    if (!n)
        return;
    b->p = realloc(b->p, b->len + n + 8);
    if (!b->p)
        die("out of memory");
    memcpy(b->p + b->len, data, n);
    b->len += n;
}

static void put_zeros(struct bytes *b, uint64_t n)
{
    b->p = realloc(b->p, b->len + n + 8);
    if (!b->p)
        die("out of memory");
    memset(b->p + b->len, 0, n);
    b->len += n;
}

/* A traced function's descriptor (format/trace_desc.h): its values of the
 * five types, each type named as Go spells it. */
static void put_descriptor(struct bytes *b, const struct tfunc *f)
{
    static const char type_names[] = "int\0uint\0bool\0string\0*int";
    static const struct gtd_type types[] = {
        { 0, GTD_K_INT, 8, 0, 0, 0 }, { 4, GTD_K_UINT, 8, 0, 0, 0 }, { 9, GTD_K_BOOL, 1, 0, 0, 0 },
        { 14, GTD_K_STRING, 0, 0, 0, 0 }, { 21, GTD_K_POINTER, 8, 0, 0, 0 },
    };
    struct bytes strings = { 0 }, leaves = { 0 };
    struct gtd_value values[MAX_TVALUES];
    put_bytes(&strings, type_names, sizeof type_names);
    for (uint32_t k = 0; k < f->nv; k++) {
        const struct tvalue *v = &f->v[k];
        uint16_t type = (uint16_t)(strchr("iubsp", v->kind) - "iubsp");
        values[k] = (struct gtd_value){ .name = (uint32_t)strings.len, .type = type,
                                        .first_leaf = (uint16_t)(leaves.len / sizeof(struct gtd_leaf)),
                                        .nleaves = v->kind == 's' ? 2 : 1,
                                        .flags = v->result ? GTD_V_RESULT : 0 };
        put_bytes(&strings, v->name, strlen(v->name) + 1);
        struct gtd_leaf word = { .word = v->word, .bytes = v->kind == 's' ? v->copy : GTD_NONE };
        put_bytes(&leaves, &word, sizeof word);
        struct gtd_leaf len = { .word = (uint16_t)(v->word + 1), .bytes = GTD_NONE };
        if (v->kind == 's')
            put_bytes(&leaves, &len, sizeof len);
    }
    struct gtd_header h = { .magic = GTD_MAGIC, .version = GTD_VERSION, .flags = GTD_F_REGABI,
                            .nvalues = (uint16_t)f->nv, .ntypes = 5,
                            .nleaves = (uint16_t)(leaves.len / sizeof(struct gtd_leaf)),
                            .strings_len = (uint32_t)strings.len };
    put_bytes(b, &h, sizeof h);
    put_bytes(b, values, f->nv * sizeof values[0]);
    put_bytes(b, types, sizeof types);
    put_bytes(b, leaves.p, leaves.len);
    put_bytes(b, strings.p, strings.len);
    free(strings.p);
    free(leaves.p);
}

/* The trace section: its head (ring_off and ring_size are filled in once
 * the row is planned), the function table, the descriptors; and where
 * each function's captures lie in an event. */
static void build_trace(struct spec *s)
{
    struct bytes b = { 0 };
    struct gs_trace_section sec = { .magic = GS_TRACE_MAGIC, .nfuncs = s->ntfuncs,
                                    .funcs_off = sizeof sec, .bytes_max = TRACE_BYTES_MAX };
    s->event_size = GS_EV_DATA;
    for (uint32_t k = 0; k < s->ntfuncs; k++) {
        struct tfunc *f = &s->tfuncs[k];
        f->return_off = gs_trace_part_end(GS_EV_DATA, f->words[0], f->copies[0], TRACE_BYTES_MAX);
        f->used = gs_trace_part_end(f->return_off, f->words[1], f->copies[1], TRACE_BYTES_MAX);
        if (f->used > s->event_size)
            s->event_size = f->used;
    }
    sec.event_size = s->event_size;
    put_bytes(&b, &sec, sizeof sec);
    uint64_t funcs_at = b.len;
    put_zeros(&b, s->ntfuncs * sizeof(struct gs_trace_func));
    for (uint32_t k = 0; k < s->ntfuncs; k++) {
        struct tfunc *f = &s->tfuncs[k];
        f->desc_off = f->nodesc ? 0 : (uint32_t)b.len;
        if (!f->nodesc)
            put_descriptor(&b, f);
        f->desc_len = f->nodesc ? 0 : (uint32_t)(b.len - f->desc_off);
        put_zeros(&b, (8 - b.len % 8) % 8);
        struct gs_trace_func t = { .func = f->func, .desc_off = f->desc_off, .desc_len = f->desc_len,
                                   .entry_nwords = f->words[0], .entry_nbytes = f->copies[0],
                                   .return_nwords = f->words[1], .return_nbytes = f->copies[1],
                                   .entry_off = GS_EV_DATA, .return_off = f->return_off, .used = f->used };
        memcpy(b.p + funcs_at + k * sizeof t, &t, sizeof t);
    }
    s->trace = b.p;
    s->trace_len = b.len;
}

static void parse_args(int argc, char **argv, struct spec *s)
{
    memset(s, 0, sizeof *s);
    s->exe = "/usr/bin/fake";
    s->build_id = "";
    s->go_version = "";
    s->start_ns = 1700000000000000000ull;
    s->rows = 4;
    s->claimed = -1;
    s->pid = -1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--pid") == 0)
            s->pid = (int64_t)parse_u64(next_arg(argc, argv, &i), a);
        else if (strcmp(a, "--processes") == 0)
            s->processes = parse_u64(next_arg(argc, argv, &i), a);
        else if (strcmp(a, "--exe") == 0)
            s->exe = next_arg(argc, argv, &i);
        else if (strcmp(a, "--build-id") == 0)
            s->build_id = next_arg(argc, argv, &i);
        else if (strcmp(a, "--go-version") == 0)
            s->go_version = next_arg(argc, argv, &i);
        else if (strcmp(a, "--start-ns") == 0)
            s->start_ns = parse_u64(next_arg(argc, argv, &i), a);
        else if (strcmp(a, "--start-ticks") == 0)
            s->start_ticks = parse_u64(next_arg(argc, argv, &i), a);
        else if (strcmp(a, "--rows") == 0)
            s->rows = (uint32_t)parse_u64(next_arg(argc, argv, &i), a);
        else if (strcmp(a, "--claimed") == 0)
            s->claimed = (int64_t)parse_u64(next_arg(argc, argv, &i), a);
        else if (strcmp(a, "--spread") == 0)
            s->spread = true;
        else if (strcmp(a, "--stray") == 0)
            s->stray = true;
        else if (strcmp(a, "--corrupt") == 0)
            s->corrupt = next_arg(argc, argv, &i);
        else if (strcmp(a, "--timing") == 0)
            s->timing = true;
        else if (strcmp(a, "--no-tsc") == 0)
            s->no_tsc = true;
        else if (strcmp(a, "--oncpu-off") == 0)
            s->oncpu_off = true;
        else if (strcmp(a, "--tsc") == 0)
            parse_numbers(next_arg(argc, argv, &i), s->tsc, 4, a);
        else if (strcmp(a, "--boot-id") == 0)
            s->boot_id = next_arg(argc, argv, &i);
        else if (strcmp(a, "--sample-every") == 0)
            s->sample_every = (uint32_t)parse_u64(next_arg(argc, argv, &i), a);
        else if (strcmp(a, "--probe") == 0)
            parse_numbers(next_arg(argc, argv, &i), s->probe, 3, a);
        else if (strcmp(a, "--untimed") == 0 && s->nuntimed < MAX_EDITS)
            s->untimed[s->nuntimed++] = next_arg(argc, argv, &i);
        else if (strcmp(a, "--chain") == 0)
            s->chain = (uint32_t)parse_u64(next_arg(argc, argv, &i), a);
        else if (strcmp(a, "--chain-calls") == 0)
            s->chain_calls = parse_u64(next_arg(argc, argv, &i), a);
        else if (strcmp(a, "--chain-oncpu") == 0) {
            parse_numbers(next_arg(argc, argv, &i), s->chain_oncpu, 2, a);
        }
        else if ((strcmp(a, "--time") == 0 || strcmp(a, "--drops") == 0 || strcmp(a, "--pagemap") == 0
                  || strcmp(a, "--next") == 0 || strcmp(a, "--oncpu") == 0) && s->nedits < MAX_EDITS)
            s->edits[s->nedits++] = (struct edit){ a[2], next_arg(argc, argv, &i) };
        else if (parse_graph_arg(argc, argv, &i, s))
            ;
        else if (strcmp(a, "--func") == 0) {
            if (s->nfuncs == MAX_FUNCS)
                die("more than %d functions", MAX_FUNCS);
            parse_func(next_arg(argc, argv, &i), &s->funcs[s->nfuncs++]);
        } else if (a[0] == '-')
            die("unknown option %s", a);
        else if (!s->out)
            s->out = a;
        else
            die("unexpected argument %s", a);
    }
    if (!s->out || s->pid < 0 || s->rows == 0)
        die("usage: mkstats OUT --pid N [--rows R>=1] [--func NAME:ENTRY:CALLS[:FILE:LINE[:inlined]]]...");
    assign_timing(s);
    if (s->chain && (s->ntimed == 0 || s->rows < 2 || s->chain > GS_MAX_PATHS))
        die("--chain wants --timing, timed functions, --rows >= 2 and N <= %u", GS_MAX_PATHS);
    if (s->npaths && s->ntimed == 0)
        die("--path wants --timing and timed functions");
    if (s->nsite_paths && (!s->nsites || !(s->chain || s->npaths)))
        die("--site-path wants --site and call paths (--path or --chain)");
    for (uint32_t k = 0; k < s->ntfuncs; k++)
        if (s->tfuncs[k].func >= s->nfuncs)
            die("--trace-func: function %u out of range", s->tfuncs[k].func);
    if (s->ntfuncs)
        build_trace(s);
}

static uint64_t string_size(const char *str)
{
    return str && str[0] ? strlen(str) + 1 : 0;
}

/* A row as gorewrite lays it out: drops and the page map, the counters
 * (64-byte aligned), then whole timing pages; the map's size depends on the
 * row's, hence the loop. */
static void plan_row(const struct spec *s, struct plan *p)
{
    uint64_t timing_pages = (s->ntimed + GS_TIMING_PER_PAGE - 1) / GS_TIMING_PER_PAGE;
    uint64_t path_pages = 0;
    if (s->chain || s->npaths) {
        uint32_t need = s->chain > s->npaths ? s->chain : s->npaths;
        for (p->max_paths = GS_PATHS_PER_PAGE; p->max_paths < need; p->max_paths *= 2)
            ;
        p->max_arcs = GS_PATHS_PER_PAGE;
        path_pages = ((uint64_t)p->max_paths + p->max_arcs) / GS_PATHS_PER_PAGE;
    }
    uint64_t head_pages = 1;
    for (;;) {
        p->counts_off = round_up(GS_ROW_PAGEMAP + head_pages + timing_pages + path_pages, 64);
        uint64_t counts_end = p->counts_off + sizeof(struct gs_counter) * (s->nfuncs ? s->nfuncs : 1);
        p->ring_off = s->ntfuncs ? round_up(counts_end, GS_PAGE) : 0;
        uint64_t need = round_up(s->ntfuncs ? p->ring_off + p->ring_size : counts_end, GS_PAGE) / GS_PAGE;
        if (need <= head_pages)
            break;
        head_pages = need;
    }
    p->timing_off = head_pages * GS_PAGE;
    p->paths_off = (head_pages + timing_pages) * GS_PAGE;
    p->arcs_off = p->paths_off + (uint64_t)p->max_paths * sizeof(struct gs_path);
    p->row_stride = (head_pages + timing_pages + path_pages) * GS_PAGE;
}

static bool has_sites(const struct spec *s)
{
    return s->nsites || s->ngostmts;
}

/* The goroutine sites after the rows: the head page, the site table, the
 * live table from a page boundary, then (--site-path) the creators' paths
 * from the next one. */
static void plan_sites(const struct spec *s, struct plan *p)
{
    if (!has_sites(s))
        return;
    p->sites_off = p->rows_off + p->row_stride * s->rows;
    p->glive_off = round_up(GS_PAGE + MAX_SITES * sizeof(struct gs_site), GS_PAGE);
    p->sites_size = round_up(p->glive_off + MAX_GLIVE * sizeof(struct gs_glive), GS_PAGE);
    if (!s->nsite_paths)
        return;
    p->spaths_off = p->sites_size;
    p->sites_size = round_up(p->spaths_off + MAX_SITES * sizeof(struct gs_spath), GS_PAGE);
}

static struct plan plan_layout(const struct spec *s)
{
    struct plan p = { .strtab_size = 1 };
    for (uint32_t i = 0; i < s->nfuncs; i++)
        p.strtab_size += string_size(s->funcs[i].name) + string_size(s->funcs[i].file)
                         + string_size(s->funcs[i].untimed);
    for (uint32_t i = 0; i < s->ngostmts; i++)
        p.strtab_size += string_size(s->gostmts[i].func) + string_size(s->gostmts[i].file);
    p.functab_off = sizeof(struct gs_header);
    p.strtab_off = p.functab_off + (uint64_t)s->nfuncs * sizeof(struct gs_func);
    p.syms_off = round_up(p.strtab_off + p.strtab_size, 8);
    uint64_t syms_len = s->chain || s->npaths ? (uint64_t)s->nfuncs * sizeof(struct gs_sym) : 0;
    p.gostmts_off = p.syms_off + syms_len;
    p.trace_off = p.gostmts_off + (uint64_t)s->ngostmts * sizeof(struct gs_gostmt);
    p.live_off = round_up(p.trace_off + s->trace_len, GS_PAGE);
    p.rows_off = p.live_off + GS_PAGE;
    p.ring_size = GS_RING_SLOTS + (uint64_t)(s->trace_slots ? s->trace_slots : 8) * s->event_size;
    plan_row(s, &p);
    plan_sites(s, &p);
    p.file_size = p.rows_off + p.row_stride * s->rows + p.sites_size;
    return p;
}

static uint32_t add_string(unsigned char *strtab, uint64_t *used, const char *str)
{
    if (!*str)
        return 0;
    uint32_t off = (uint32_t)*used;
    memcpy(strtab + off, str, strlen(str) + 1);
    *used += strlen(str) + 1;
    return off;
}

static void fill_timing_header(struct gs_header *h, const struct spec *s, const struct plan *p)
{
    h->flags |= GS_HDR_TIMING | (s->no_tsc ? GS_HDR_NO_TSC : 0) | (s->oncpu_off ? GS_HDR_ONCPU_OFF : 0);
    h->ntimed = s->ntimed;
    h->timing_size = sizeof(struct gs_timing);
    h->timing_off = p->timing_off;
    h->tsc0 = s->tsc[0];
    h->mono0_ns = s->tsc[1];
    h->tsc1 = s->tsc[2];
    h->mono1_ns = s->tsc[3];
    snprintf(h->boot_id, sizeof h->boot_id, "%s", s->boot_id ? s->boot_id : "");
    h->sample_every = s->sample_every;
    h->probe_ticks = (uint32_t)s->probe[0];
    h->probe_inner_ticks = (uint32_t)s->probe[1];
    h->probe_untimed_q8 = (uint32_t)s->probe[2];
}

static void fill_sites_header(struct gs_header *h, const struct spec *s, const struct plan *p)
{
    h->flags |= GS_HDR_SITES;
    h->sites_off = p->sites_off;
    h->glive_off = p->glive_off;
    h->max_sites = MAX_SITES;
    h->max_glive = MAX_GLIVE;
    h->site_size = sizeof(struct gs_site);
    h->glive_size = sizeof(struct gs_glive);
    h->gostmts_off = s->ngostmts ? p->gostmts_off : 0;
    if (s->nsite_paths) {
        h->flags |= GS_HDR_SITE_PATHS;
        h->spaths_off = p->spaths_off;
        h->spath_size = sizeof(struct gs_spath);
    }
    h->ngostmts = s->ngostmts;
    h->gostmt_size = sizeof(struct gs_gostmt);
}

static void fill_header(unsigned char *buf, const struct spec *s, const struct plan *p)
{
    struct gs_header h;
    memset(&h, 0, sizeof h);
    memcpy(h.magic, GS_MAGIC, GS_MAGIC_LEN);
    h.version = GS_VERSION;
    h.header_size = sizeof h;
    h.file_size = p->file_size;
    h.pid = s->pid;
    h.processes = s->processes;
    h.start_time_ns = s->start_ns;
    h.proc_start_ticks = s->start_ticks;
    h.nfuncs = s->nfuncs;
    h.flags = GS_HDR_SHARED;
    h.functab_off = p->functab_off;
    h.strtab_off = p->strtab_off;
    h.strtab_size = p->strtab_size;
    h.live_off = p->live_off;
    h.rows_off = p->rows_off;
    h.row_stride = p->row_stride;
    h.max_rows = s->rows;
    h.counter_size = sizeof(struct gs_counter);
    h.counts_off = p->counts_off;
    if (s->timing)
        fill_timing_header(&h, s, p);
    if (s->ntfuncs) {
        h.trace_off = p->trace_off;
        h.trace_size = s->trace_len;
    }
    if (has_sites(s))
        fill_sites_header(&h, s, p);
    if (s->chain || s->npaths) {
        h.flags |= GS_HDR_PATHS | GS_HDR_PATH_TOTALS;
        h.syms_off = p->syms_off;
        h.nsyms = s->nfuncs;
        h.path_size = sizeof(struct gs_path);
        h.paths_off = p->paths_off;
        h.arcs_off = p->arcs_off;
        h.max_paths = p->max_paths;
        h.max_arcs = p->max_arcs;
    }
    snprintf(h.exe, sizeof h.exe, "%s", s->exe);
    snprintf(h.build_id, sizeof h.build_id, "%s", s->build_id);
    snprintf(h.go_version, sizeof h.go_version, "%s", s->go_version);
    memcpy(buf, &h, sizeof h);
}

static void fill_tables(unsigned char *buf, const struct spec *s, const struct plan *p)
{
    uint64_t used = 1; /* offset 0: the empty string */
    for (uint32_t i = 0; i < s->nfuncs; i++) {
        const struct func_spec *f = &s->funcs[i];
        struct gs_func g = {
            .entry = f->entry,
            .size = 16,
            .name_off = add_string(buf + p->strtab_off, &used, f->name),
            .file_off = add_string(buf + p->strtab_off, &used, f->file),
            .line = f->line,
            .flags = f->inlined ? GS_FUNC_INLINED : 0,
            .timing = f->timing,
            .untimed_off = f->untimed ? add_string(buf + p->strtab_off, &used, f->untimed) : 0,
        };
        memcpy(buf + p->functab_off + i * sizeof g, &g, sizeof g);
        struct gs_sym sym = { .entry = g.entry, .size = g.size, .name_off = g.name_off };
        if (s->chain || s->npaths)
            memcpy(buf + p->syms_off + i * sizeof sym, &sym, sizeof sym);
    }
    for (uint32_t i = 0; i < s->ngostmts; i++) {
        const struct gostmt_spec *g = &s->gostmts[i];
        struct gs_gostmt e = { .pc = g->pc, .func_off = add_string(buf + p->strtab_off, &used, g->func),
                               .file_off = add_string(buf + p->strtab_off, &used, g->file), .line = g->line };
        memcpy(buf + p->gostmts_off + i * sizeof e, &e, sizeof e);
    }
    if (has_sites(s))
        memcpy(buf + p->sites_off, s->site_head, sizeof s->site_head);
    if (s->ntfuncs) {
        struct gs_trace_section *sec = (struct gs_trace_section *)(void *)s->trace;
        sec->ring_off = p->ring_off;
        sec->ring_size = p->ring_size;
        memcpy(buf + p->trace_off, s->trace, s->trace_len);
    }
}

/* --chain: row 1's path table holds nested calls 0 .. chain-1, call d of
 * the d-th timed function (in turn), made from call d-1's function. */
static void fill_chain(unsigned char *buf, const struct spec *s, const struct plan *p)
{
    uint32_t timed[MAX_FUNCS], ntimed = 0;
    for (uint32_t i = 0; i < s->nfuncs; i++)
        if (s->funcs[i].timing != GS_UNTIMED)
            timed[ntimed++] = i;
    unsigned char *row = buf + p->rows_off + p->row_stride;
    struct gs_live *live = (struct gs_live *)(void *)(buf + p->live_off);
    if (live->rows_claimed < 1)
        live->rows_claimed = 1;   /* row 1 is in use */
    for (uint32_t d = 0; d < s->chain; d++) {
        const struct func_spec *f = &s->funcs[timed[d % ntimed]];
        const struct func_spec *up = d ? &s->funcs[timed[(d - 1) % ntimed]] : NULL;
        struct gs_path e = {
            .key = d + 1, .parent = d, .ret = up ? up->entry + 4 : 0,
            .rec = (uint32_t)gs_timing_offset(p->timing_off, f->timing),
            .calls = s->chain_calls ? s->chain_calls : 1, .total = s->chain - d, .self = 1,
            .oncpu = s->chain_oncpu[0] == d ? s->chain_oncpu[1] : 0,
        };
        memcpy(row + p->paths_off + (uint64_t)d * sizeof e, &e, sizeof e);
    }
    for (uint64_t off = p->paths_off; off < p->row_stride; off += GS_PAGE)
        row[GS_ROW_PAGEMAP + off / GS_PAGE] = 1;
    if (s->chain_oncpu[1])
        ((struct gs_header *)(void *)buf)->flags |= GS_HDR_ONCPU;
}

static void put_counter(unsigned char *buf, const struct plan *p, uint32_t row, uint32_t i, uint64_t v)
{
    memcpy(buf + p->rows_off + row * p->row_stride + p->counts_off + i * sizeof(struct gs_counter),
           &v, sizeof v);
}

static void fill_counters(unsigned char *buf, const struct spec *s, const struct plan *p)
{
    uint32_t used_rows = s->spread ? s->rows : 1;
    uint64_t claimed = s->claimed >= 0 ? (uint64_t)s->claimed : used_rows - 1;
    struct gs_live live = { .rows_claimed = claimed };
    for (uint64_t r = 1; r < s->rows && r < 64 * 64; r++)   /* every row is backed */
        live.rows_backed[r / 64] |= 1ull << (r % 64);
    memcpy(buf + p->live_off, &live, sizeof live);

    for (uint32_t i = 0; i < s->nfuncs; i++) {
        uint64_t c = s->funcs[i].calls;
        for (uint32_t r = 0; r < used_rows; r++)
            put_counter(buf, p, r, i, c / used_rows + (r < c % used_rows));
        for (uint64_t r = claimed + 1; s->stray && r < s->rows; r++)
            put_counter(buf, p, (uint32_t)r, i, STRAY_CALLS);
    }
}

static unsigned char *row_at(unsigned char *buf, const struct spec *s, const struct plan *p, uint64_t row)
{
    if (row >= s->rows)
        die("row %" PRIu64 " out of range", row);
    return buf + p->rows_off + row * p->row_stride;
}

/* B=N[,B=N...] into hist; returns the sum of the N. */
static uint64_t parse_hist(char *list, uint64_t *hist, const char *what)
{
    uint64_t sum = 0;
    for (char *item; (item = strsep(&list, ",")) != NULL;) {
        char *eq = strchr(item, '=');
        if (!eq)
            die("%s: bad bucket '%s'", what, item);
        *eq = '\0';
        uint64_t b = parse_u64(item, "bucket");
        if (b >= GS_HIST_BUCKETS)
            die("%s: bucket %" PRIu64 " out of range", what, b);
        hist[b] = parse_u64(eq + 1, "bucket count");
        sum += hist[b];
    }
    return sum;
}

/* INDEX:ROW:TOTAL:MIN:MAX:B=N[,B=N...] */
static void edit_time(unsigned char *buf, const struct spec *s, const struct plan *p, char *arg)
{
    char *hist = arg;
    for (int k = 0; k < 5 && hist; k++)
        hist = strchr(hist, ':') ? strchr(hist, ':') + 1 : NULL;
    if (!hist)
        die("--time wants INDEX:ROW:TOTAL:MIN:MAX:B=N[,B=N...], got '%s'", arg);
    hist[-1] = '\0';
    uint64_t v[5];
    parse_numbers(arg, v, 5, "--time");
    if (v[0] >= s->nfuncs || s->funcs[v[0]].timing == GS_UNTIMED)
        die("--time: function %" PRIu64 " is not timed", v[0]);
    struct gs_timing t = { .total = v[2], .min_inverted = ~v[3], .max = v[4] };
    t.samples = parse_hist(hist, t.hist, "--time");   /* every timed call stands for itself */
    if (s->chain || s->npaths)
        t.samples = t.total = 0;   /* GS_HDR_PATH_TOTALS: the paths hold the timed calls */
    uint64_t off = gs_timing_offset(p->timing_off, s->funcs[v[0]].timing);
    unsigned char *row = row_at(buf, s, p, v[1]);
    memcpy(row + off, &t, sizeof t);
    row[GS_ROW_PAGEMAP + off / GS_PAGE] = 1;
}

/* ROW:N: next = N in every timed function's record of ROW. */
static void edit_next(unsigned char *buf, const struct spec *s, const struct plan *p, const char *arg)
{
    uint64_t v[2];
    parse_numbers(arg, v, 2, "--next");
    unsigned char *row = row_at(buf, s, p, v[0]);
    for (uint32_t i = 0; i < s->nfuncs; i++) {
        if (s->funcs[i].timing == GS_UNTIMED)
            continue;
        uint64_t off = gs_timing_offset(p->timing_off, s->funcs[i].timing);
        memcpy(row + off + offsetof(struct gs_timing, next), &v[1], sizeof v[1]);
        row[GS_ROW_PAGEMAP + off / GS_PAGE] = 1;
    }
}

/* The return address of a call from function INDEX's code ('-': 0). */
static uint64_t return_address(const struct spec *s, const char *index)
{
    if (index && strcmp(index, "-") == 0)
        return 0;
    uint64_t i = parse_u64(index, "CALLER");
    if (i >= s->nfuncs)
        die("CALLER %" PRIu64 " out of range", i);
    return s->funcs[i].entry + 4;
}

/* The ':'-separated fields of arg, at most max; returns how many. */
static int split_fields(char *arg, char **field, int max)
{
    int n = 0;
    for (char *rest = arg; rest && n < max;)
        field[n++] = strsep(&rest, ":");
    return n;
}

/* ROW:KEY:PARENT:FUNC:CALLER:CALLS:TOTAL:SELF[:ONCPU], in the first free
 * entry of ROW's path table. */
static void edit_path(unsigned char *buf, const struct spec *s, const struct plan *p, char *arg)
{
    char *f[10];
    int n = split_fields(arg, f, 10);
    if (n != 8 && n != 9)
        die("--path wants ROW:KEY:PARENT:FUNC:CALLER:CALLS:TOTAL:SELF[:ONCPU], got '%s'", arg);
    uint64_t row = parse_u64(f[0], "--path ROW"), func = parse_u64(f[3], "--path FUNC");
    if (row == 0 || func >= s->nfuncs || s->funcs[func].timing == GS_UNTIMED)
        die("--path: row %" PRIu64 " (must be >= 1) or function %" PRIu64 " (must be timed)", row, func);
    struct gs_path e = { .key = parse_u64(f[1], "KEY"), .parent = parse_u64(f[2], "PARENT"),
                         .ret = return_address(s, f[4]),
                         .rec = (uint32_t)gs_timing_offset(p->timing_off, s->funcs[func].timing),
                         .calls = parse_u64(f[5], "CALLS"), .total = parse_u64(f[6], "TOTAL"),
                         .self = parse_u64(f[7], "SELF"), .oncpu = n == 9 ? parse_u64(f[8], "ONCPU") : 0 };
    if (n == 9)
        ((struct gs_header *)(void *)buf)->flags |= GS_HDR_ONCPU;
    unsigned char *r = row_at(buf, s, p, row);
    uint32_t k = 0;
    while (k < p->max_paths && ((const struct gs_path *)(const void *)(r + p->paths_off))[k].key)
        k++;
    if (e.key == 0 || k == p->max_paths)
        die("--path: key 0 or row %" PRIu64 "'s table full", row);
    memcpy(r + p->paths_off + (uint64_t)k * sizeof e, &e, sizeof e);
    for (uint64_t off = p->paths_off; off < p->row_stride; off += GS_PAGE)
        r[GS_ROW_PAGEMAP + off / GS_PAGE] = 1;
    struct gs_live *live = (struct gs_live *)(void *)(buf + p->live_off);
    if (live->rows_claimed < row)
        live->rows_claimed = row;
}

/* GOPC:STARTPC:CREATED:UNTIMED_EXITS:TOTAL:MAX[:B=N,...], in the site
 * table's first free entry. */
static void edit_site(unsigned char *buf, const struct plan *p, char *arg)
{
    char *f[8];
    int n = split_fields(arg, f, 7);
    if (n != 6 && n != 7)
        die("--site wants GOPC:STARTPC:CREATED:UNTIMED_EXITS:TOTAL:MAX[:B=N,...], got '%s'", arg);
    struct gs_site e = { .key = parse_u64(f[0], "GOPC") << 32 | parse_u64(f[1], "STARTPC"),
                         .created = parse_u64(f[2], "CREATED"), .untimed_exits = parse_u64(f[3], "EXITS"),
                         .total = parse_u64(f[4], "TOTAL"), .max = parse_u64(f[5], "MAX") };
    if (n == 7)
        parse_hist(f[6], e.hist, "--site");
    struct gs_site *tab = (struct gs_site *)(void *)(buf + p->sites_off + GS_PAGE);
    uint32_t k = 0;
    while (tab[k].key)
        k++;
    memcpy(&tab[k], &e, sizeof e);
}

/* SITE:KEY:FUNC[,FUNC...]: the SITE-th site's creator path, written as
 * its claim is (the key again in claim). */
static void edit_site_path(unsigned char *buf, const struct spec *s, const struct plan *p, char *arg)
{
    char *f[4];
    if (split_fields(arg, f, 3) != 3)
        die("--site-path wants SITE:KEY:FUNC[,FUNC...], got '%s'", arg);
    uint64_t site = parse_u64(f[0], "--site-path SITE");
    struct gs_site *e = (struct gs_site *)(void *)(buf + p->sites_off + GS_PAGE) + site;
    if (site >= MAX_SITES || !e->key)
        die("--site-path: no site %" PRIu64 " (give its --site first)", site);
    e->path = parse_u64(f[1], "--site-path KEY");
    e->claim = e->key;
    struct gs_spath sp = { 0 };
    for (char *fn; (fn = strsep(&f[2], ",")) != NULL; sp.depth++) {
        uint64_t i = parse_u64(fn, "--site-path FUNC");
        if (i >= s->nfuncs || s->funcs[i].timing == GS_UNTIMED || sp.depth == GS_SPATH_MAX)
            die("--site-path: function %" PRIu64 " untimed, or more than %u", i, GS_SPATH_MAX);
        sp.rec[sp.depth] = (uint32_t)gs_timing_offset(p->timing_off, s->funcs[i].timing);
    }
    memcpy(buf + p->sites_off + p->spaths_off + site * sizeof sp, &sp, sizeof sp);
}

/* One value of a --trace-event in its capture part (words at part,
 * lengths and copies after them). */
static void put_tvalue(unsigned char *part, const struct tfunc *f, const struct tvalue *v, const char *text)
{
    uint16_t nwords = f->words[v->result];
    uint64_t word = 0;
    if (v->kind == 'b')
        word = strcmp(text, "true") == 0;
    else if (v->kind == 'i')
        word = (uint64_t)strtoll(text, NULL, 0);
    else if (v->kind != 's')
        word = parse_u64(text, "a trace value");
    if (v->kind == 's') {
        uint32_t len = (uint32_t)strlen(text), copied = len < TRACE_BYTES_MAX ? len : TRACE_BYTES_MAX;
        uint64_t data = 0xc000010000ull + 0x100u * v->copy, full = len;
        memcpy(part + 8u * v->word, &data, 8);
        memcpy(part + 8u * (v->word + 1u), &full, 8);
        memcpy(part + gs_trace_lens_off(0, nwords) + 4u * v->copy, &copied, 4);
        memcpy(part + gs_trace_data_off(0, nwords, f->copies[v->result])
                    + v->copy * gs_trace_copy_size(TRACE_BYTES_MAX), text, copied);
        return;
    }
    memcpy(part + 8u * v->word, &word, 8);
}

/* ROW:TFUNC:GOID:START:DUR:CALLER:VALUES[:panicked]: the ring's next event. */
static void edit_event(unsigned char *buf, const struct spec *s, const struct plan *p, char *arg)
{
    char *f[9];
    int n = split_fields(arg, f, 8);
    uint64_t row = n >= 7 ? parse_u64(f[0], "--trace-event ROW") : 0;
    uint64_t tfunc = n >= 7 ? parse_u64(f[1], "TFUNC") : s->ntfuncs;
    bool panicked = n == 8 && strcmp(f[7], "panicked") == 0;
    if ((n != 7 && !panicked) || row == 0 || tfunc >= s->ntfuncs)
        die("--trace-event wants ROW(>=1):TFUNC:GOID:START:DUR:CALLER:VALUES[:panicked], got '%s'", arg);
    const struct tfunc *t = &s->tfuncs[tfunc];
    unsigned char *ring = row_at(buf, s, p, row) + p->ring_off;
    uint64_t nslots = (p->ring_size - GS_RING_SLOTS) / s->event_size, seq, tid = 100 + row;
    memcpy(&seq, ring + GS_RING_HEAD, 8);
    seq++;
    unsigned char *slot = ring + GS_RING_SLOTS + ((seq - 1) % nslots) * s->event_size;
    uint64_t words[5] = { seq, parse_u64(f[2], "GOID"), parse_u64(f[3], "START"),
                          return_address(s, f[5]), parse_u64(f[4], "DUR") };
    uint32_t tail[4] = { (uint32_t)tfunc, t->used, panicked ? GS_EVF_PANICKED : 0,
                         s->funcs[t->func].timing == GS_UNTIMED ? 0
                         : (uint32_t)gs_timing_offset(p->timing_off, s->funcs[t->func].timing) };
    memset(slot, 0, s->event_size);
    memcpy(slot, words, sizeof words);
    memcpy(slot + GS_EV_TFUNC, tail, sizeof tail);
    char *values = f[6];
    for (uint32_t k = 0; k < t->nv && !(panicked && t->v[k].result); k++) {
        char *text = strsep(&values, ",");
        if (!text)
            die("--trace-event: %u values wanted, got '%s'", t->nv, f[6]);
        put_tvalue(slot + (t->v[k].result ? t->return_off : GS_EV_DATA), t, &t->v[k], text);
    }
    memcpy(ring + GS_RING_HEAD, &seq, 8);
    memcpy(ring + GS_RING_TID, &tid, 8);
    struct gs_live *live = (struct gs_live *)(void *)(buf + p->live_off);
    if (live->rows_claimed < row)
        live->rows_claimed = row;
}

static void apply_edit(unsigned char *buf, const struct spec *s, const struct plan *p, const struct edit *e)
{
    uint64_t v[7] = { 0 };
    if (e->kind == 'P') {
        edit_path(buf, s, p, e->arg);
    } else if (e->kind == 'S') {
        edit_site(buf, p, e->arg);
    } else if (e->kind == 'C') {
        edit_site_path(buf, s, p, e->arg);
    } else if (e->kind == 'E') {
        edit_event(buf, s, p, e->arg);
    } else if (e->kind == 'n') {
        edit_next(buf, s, p, e->arg);
    } else if (e->kind == 't') {
        edit_time(buf, s, p, e->arg);
    } else if (e->kind == 'o') {
        parse_numbers(e->arg, v, 3, "--oncpu");
        if (v[0] >= s->nfuncs || s->funcs[v[0]].timing == GS_UNTIMED)
            die("--oncpu: function %" PRIu64 " is not timed", v[0]);
        uint64_t off = gs_timing_offset(p->timing_off, s->funcs[v[0]].timing);
        memcpy(row_at(buf, s, p, v[1]) + off + offsetof(struct gs_timing, oncpu_total), &v[2], 8);
        ((struct gs_header *)buf)->flags |= GS_HDR_ONCPU;
    } else if (e->kind == 'd') {
        parse_numbers(e->arg, v, count_fields(e->arg) == 7 ? 7 : 6, "--drops");
        struct gs_drops d = { .unwound = v[1], .too_deep = v[2], .no_slot = v[3],
                              .unmatched = v[4], .no_space = v[5], .abandoned = v[6] };
        memcpy(row_at(buf, s, p, v[0]), &d, sizeof d);
    } else {
        parse_numbers(e->arg, v, 3, "--pagemap");
        if (v[1] >= p->row_stride / GS_PAGE)
            die("--pagemap: page %" PRIu64 " out of range", v[1]);
        row_at(buf, s, p, v[0])[GS_ROW_PAGEMAP + v[1]] = (unsigned char)v[2];
    }
}

/* Breaks the file in one way; returns how many bytes to write. */
static uint64_t corrupt(unsigned char *buf, const char *kind, const struct plan *p)
{
    struct gs_header *h = (struct gs_header *)buf;
    if (!kind)
        return p->file_size;
    if (strcmp(kind, "truncate") == 0)
        return p->file_size - GS_PAGE;
    if (strcmp(kind, "short") == 0)
        return 100;
    if (strcmp(kind, "empty") == 0)
        return 0;
    if (strcmp(kind, "bad-magic") == 0)
        memcpy(h->magic, "NOTSTATS", GS_MAGIC_LEN);
    else if (strcmp(kind, "no-magic") == 0)
        memset(h->magic, 0, GS_MAGIC_LEN);
    else if (strcmp(kind, "bad-version") == 0)
        h->version = 99;
    else if (strcmp(kind, "header-size") == 0)
        h->header_size = 8;
    else if (strcmp(kind, "bad-pid") == 0)
        h->pid = -5;
    else if (strcmp(kind, "huge-nfuncs") == 0)
        h->nfuncs = UINT32_MAX;
    else if (strcmp(kind, "strtab-oob") == 0)
        h->strtab_size = p->file_size;
    else if (strcmp(kind, "name-oob") == 0)
        ((struct gs_func *)(buf + p->functab_off))->name_off = (uint32_t)p->strtab_size + 100;
    else if (strcmp(kind, "no-nul") == 0)
        buf[p->strtab_off + p->strtab_size - 1] = 'X';
    else if (strcmp(kind, "rows-oob") == 0)
        h->max_rows = 1000000;
    else if (strcmp(kind, "zero-rows") == 0)
        h->max_rows = 0;
    else if (strcmp(kind, "small-counter") == 0)
        h->counter_size = 4;
    else if (strcmp(kind, "bad-stride") == 0)
        h->row_stride = 100;
    else if (strcmp(kind, "live-oob") == 0)
        h->live_off = p->file_size;
    else if (strcmp(kind, "exe-no-nul") == 0)
        memset(h->exe, 'A', sizeof h->exe);
    else if (strcmp(kind, "counts-oob") == 0)
        h->counts_off = h->row_stride - 8 * h->nfuncs + 8;
    else if (strcmp(kind, "timing-size") == 0)
        h->timing_size = 64;
    else if (strcmp(kind, "timing-index") == 0)
        ((struct gs_func *)(buf + p->functab_off))->timing = h->ntimed;
    else if (strcmp(kind, "timing-oob") == 0)
        h->ntimed = (uint32_t)(h->row_stride / GS_PAGE * GS_TIMING_PER_PAGE);
    else if (strcmp(kind, "pagemap-overlap") == 0)
        h->counts_off = GS_ROW_PAGEMAP;
    else if (strcmp(kind, "untimed-oob") == 0)
        ((struct gs_func *)(buf + p->functab_off))->untimed_off = (uint32_t)p->strtab_size;
    else
        die("unknown --corrupt kind '%s'", kind);
    return p->file_size;
}

static void write_file(const char *path, const unsigned char *buf, uint64_t len)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0)
        die("cannot create %s", path);
    for (uint64_t done = 0; done < len;) {
        ssize_t n = write(fd, buf + done, len - done);
        if (n <= 0)
            die("cannot write %s", path);
        done += (uint64_t)n;
    }
    close(fd);
}

/* Adds to a counter through a shared mapping with an atomic add, the way
 * an instrumented program's shared row 0 is updated. */
static int bump(int argc, char **argv)
{
    if (argc < 5)
        die("usage: mkstats --bump FILE INDEX N [ROW]");
    uint64_t index = parse_u64(argv[3], "INDEX"), n = parse_u64(argv[4], "N");
    uint64_t row = argc > 5 ? parse_u64(argv[5], "ROW") : 0;
    int fd = open(argv[2], O_RDWR);
    struct stat sb;
    if (fd < 0 || fstat(fd, &sb) < 0)
        die("cannot open %s", argv[2]);
    unsigned char *m = mmap(NULL, (size_t)sb.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (m == MAP_FAILED)
        die("cannot map %s", argv[2]);
    struct gs_header h;
    memcpy(&h, m, sizeof h);
    if (index >= h.nfuncs || row >= h.max_rows)
        die("INDEX or ROW out of range in %s", argv[2]);
    __atomic_fetch_add((uint64_t *)(void *)(m + h.rows_off + row * h.row_stride + h.counts_off
                                            + index * h.counter_size),
                       n, __ATOMIC_RELAXED);
    munmap(m, (size_t)sb.st_size);
    close(fd);
    return 0;
}

int main(int argc, char **argv)
{
    static struct spec s; /* large: keep it off the stack */

    if (argc > 1 && strcmp(argv[1], "--bump") == 0)
        return bump(argc, argv);
    parse_args(argc, argv, &s);
    struct plan p = plan_layout(&s);
    unsigned char *buf = calloc(1, p.file_size);
    if (!buf)
        die("out of memory");
    fill_header(buf, &s, &p);
    fill_tables(buf, &s, &p);
    fill_counters(buf, &s, &p);
    if (s.chain)
        fill_chain(buf, &s, &p);
    for (uint32_t k = 0; k < s.nedits; k++)
        apply_edit(buf, &s, &p, &s.edits[k]);
    write_file(s.out, buf, corrupt(buf, s.corrupt, &p));
    free(buf);
    free(s.trace);
    return 0;
}
