/* test_cg_outputs.c: the outputs that read the call-graph model
 * (callgraph.h), on a model built by hand: the frames of a path
 * (model/cgpath.c: an untimed caller between two timed calls is a frame, a
 * goroutine's first call starts with its caller), folded stacks with each
 * --value (render/folded.c: ';' in names, zero lines left out, the overflow
 * line), the --callers/--callees listings (render/arcs.c: counts, totals,
 * shares, the calls in no path) and the Callgrind call lines
 * (render/callgrind.c: self cost, calls= with inclusive time, a block for a
 * caller that is not written otherwise), and the per-function sums every
 * output shares (model/cgsums.c: cum once per path however deep the
 * recursion, self with the time in no path, totals that agree); a chain
 * deeper than a path may hold (the cap's boundary, the leaf kept). */
#include "gostat/render/arcs.h"
#include "gostat/render/callgrind.h"
#include "gostat/model/cgpath.h"
#include "gostat/render/folded.h"
#include "tests/unit/unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The program: main.main calls alpha, beta and g once each; alpha calls
 * busy 3 times; beta calls busy twice through the untimed main.helper; one
 * call of busy did not fit in a path; another goroutine's first timed
 * call is g, from outside Go code. Times in ns = ticks. */
#define G_NAME "main.g[go.shape.struct { a int; b int }]"
enum { F_MAIN, F_ALPHA, F_BETA, F_BUSY, F_G, NF };
static const struct {
    const char *name;
    uint64_t entry, calls, ticks;
    uint32_t line;
} FUNCS[NF] = {
    {"main.main", 0x1000, 1, 1000, 10},
    {"main.alpha", 0x1100, 1, 300, 20},
    {"main.beta", 0x1200, 1, 200, 30},
    {"main.busy", 0x1300, 6, 540, 40},
    {G_NAME, 0x1400, 2, 507, 50},
};
/* self ticks: those of the nodes below */
static const uint64_t SELF[NF] = { 0, 0, 0, 500, 507 };
#define RUNTIME_MAIN 0x500
#define HELPER 0x900

static struct gst_func funcs[NF];
static struct gst_cg_node nodes[7];
static struct gst_cg_arc arcs[7];

static struct gst_stats stats(void)
{
    struct gst_stats st;
    memset(&st, 0, sizeof st);
    memset(funcs, 0, sizeof funcs);
    strcpy(st.path, "/dev/shm/gostat.app.1");
    strcpy(st.hdr.exe, "/usr/bin/app");
    st.hdr.nfuncs = NF;
    st.hdr.pid = 1;
    st.funcs = funcs;
    st.timing.mode = GS_MODE_CALL_GRAPH;
    st.clock = (struct gst_clock){ .known = true, .ns_per_tick = 1, .source = GST_CLOCK_STARTUP };
    for (int i = 0; i < NF; i++) {
        funcs[i] = (struct gst_func){
            .name = FUNCS[i].name, .file = "/src/main.go", .entry = FUNCS[i].entry,
            .calls = FUNCS[i].calls, .line = FUNCS[i].line, .timed = true,
            .timed_calls = FUNCS[i].calls, .samples = FUNCS[i].calls,
            .total_ticks = FUNCS[i].ticks, .self_ticks = SELF[i], .min_ticks = 1,
            .max_ticks = FUNCS[i].ticks,
        };
        funcs[i].hist[0] = FUNCS[i].calls;
    }
    return st;
}

static struct gst_cg_node node(uint32_t parent, int f, uint64_t caller, const char *caller_name,
                               uint64_t calls, double total, double self)
{
    return (struct gst_cg_node){ .parent = parent, .func = &funcs[f], .caller_entry = caller,
                                 .caller_name = caller_name, .calls = calls, .total_ns = total,
                                 .self_ns = self };
}

static struct gst_cg_arc arc(uint64_t caller, const char *name, int callee, uint64_t calls,
                             double total)
{
    return (struct gst_cg_arc){ caller, name, &funcs[callee], calls, total };
}

static struct gst_callgraph graph(void)
{
    nodes[0] = node(GST_CG_ROOT, F_MAIN, RUNTIME_MAIN, "runtime.main", 1, 1000, 0);
    nodes[1] = node(0, F_ALPHA, 0x1000, "main.main", 1, 300, 0);
    nodes[2] = node(1, F_BUSY, 0x1100, "main.alpha", 3, 300, 300);
    nodes[3] = node(0, F_BETA, 0x1000, "main.main", 1, 200, 0);
    nodes[4] = node(3, F_BUSY, HELPER, "main.helper", 2, 200, 200);
    nodes[5] = node(0, F_G, 0x1000, "main.main", 1, 500, 500);
    nodes[6] = node(GST_CG_ROOT, F_G, 0, GST_CG_UNKNOWN_NAME, 1, 7, 7.4);
    /* by callee in file order, then calls descending, then caller name */
    arcs[0] = arc(RUNTIME_MAIN, "runtime.main", F_MAIN, 1, 1000);
    arcs[1] = arc(0x1000, "main.main", F_ALPHA, 1, 300);
    arcs[2] = arc(0x1000, "main.main", F_BETA, 1, 200);
    arcs[3] = arc(0x1100, "main.alpha", F_BUSY, 3, 300);
    arcs[4] = arc(HELPER, "main.helper", F_BUSY, 2, 200);
    arcs[5] = arc(0, GST_CG_UNKNOWN_NAME, F_G, 1, 7);
    arcs[6] = arc(0x1000, "main.main", F_G, 1, 500);
    return (struct gst_callgraph){
        .present = true, .nodes = nodes, .nnodes = 7, .arcs = arcs, .narcs = 7,
        .path_overflow_calls = 2, .overflow_calls = 1, .max_paths = 64,
    };
}

/* The per-function sums of a graph built here (its nodes are static). */
static void free_sums(struct gst_callgraph *cg)
{
    free(cg->self_ns);
    free(cg->unplaced_ns);
    free(cg->cum_ns);
    free(cg->cum_over);
}

/* What fn wrote, as one malloc'ed string. */
#define CAPTURE(buf, call)                                \
    do {                                                  \
        size_t len_;                                      \
        FILE *f_ = open_memstream(&(buf), &len_);         \
        FILE *out = f_;                                   \
        (void)out;                                        \
        CHECK_INT((call), 0);                             \
        fclose(f_);                                       \
    } while (0)

static void path_frames(void)
{
    struct gst_stats st = stats();
    struct gst_callgraph cg = graph();
    struct gst_cg_path p = { 0 };
    struct gr_error err;
    (void)st;
    CHECK_INT(gst_cg_path_of(&cg, 4, &p, &err), 0);
    CHECK_U64(p.count, 5);
    const char *want[] = { "runtime.main", "main.main", "main.beta", "main.helper", "main.busy" };
    for (size_t k = 0; k < p.count && k < 5; k++)
        CHECK_STR(p.frames[k].name, want[k]);
    CHECK(p.count == 5 && p.frames[3].func == NULL && p.frames[3].entry == HELPER);
    CHECK(p.count == 5 && p.frames[4].func == &funcs[F_BUSY]);
    CHECK(!gst_cg_caller_is_frame(&cg, 2));
    CHECK(gst_cg_caller_is_frame(&cg, 4));
    CHECK(gst_cg_caller_is_frame(&cg, 6));
    CHECK_INT(gst_cg_path_of(&cg, 6, &p, &err), 0);
    CHECK_U64(p.count, 2);
    CHECK_STR(p.frames[0].name, GST_CG_UNKNOWN_NAME);
    gst_cg_path_free(&p);
}

static void folded_values(void)
{
    struct gst_stats st = stats();
    struct gst_callgraph cg = graph();
    struct gr_error err;
    char *self, *calls, *time;
    (void)st;
    CAPTURE(self, gst_folded_write(out, &cg, GST_FOLDED_SELF, &err));
    CHECK_STR(self, "runtime.main;main.main;main.alpha;main.busy 300\n"
                    "runtime.main;main.main;main.beta;main.helper;main.busy 200\n"
                    "runtime.main;main.main;main.g[go.shape.struct { a int, b int }] 500\n"
                    "(unknown);main.g[go.shape.struct { a int, b int }] 7\n");
    CAPTURE(calls, gst_folded_write(out, &cg, GST_FOLDED_CALLS, &err));
    CHECK_STR(calls, "runtime.main;main.main 1\n"
                     "runtime.main;main.main;main.alpha 1\n"
                     "runtime.main;main.main;main.alpha;main.busy 3\n"
                     "runtime.main;main.main;main.beta 1\n"
                     "runtime.main;main.main;main.beta;main.helper;main.busy 2\n"
                     "runtime.main;main.main;main.g[go.shape.struct { a int, b int }] 1\n"
                     "(unknown);main.g[go.shape.struct { a int, b int }] 1\n"
                     "(path overflow) 2\n");   /* path_overflow_calls, which hold overflow_calls */
    CAPTURE(time, gst_folded_write(out, &cg, GST_FOLDED_TIME, &err));
    CHECK_STR(time, "runtime.main;main.main 1000\n"
                    "runtime.main;main.main;main.alpha 300\n"
                    "runtime.main;main.main;main.alpha;main.busy 300\n"
                    "runtime.main;main.main;main.beta 200\n"
                    "runtime.main;main.main;main.beta;main.helper;main.busy 200\n"
                    "runtime.main;main.main;main.g[go.shape.struct { a int, b int }] 500\n"
                    "(unknown);main.g[go.shape.struct { a int, b int }] 7\n");
    free(self);
    free(calls);
    free(time);
    char *name = gst_folded_frame_name("a;b\nc");
    CHECK_STR(name, "a,b?c");
    free(name);
}

static void callers_listing(void)
{
    struct gst_stats st = stats();
    struct gst_callgraph cg = graph();
    struct gr_error err;
    char *text;
    CAPTURE(text, gst_arcs_print(out, &st, &cg, &funcs[F_BUSY], GST_ARCS_CALLERS, &err));
    CHECK_STR(text, "callers of main.busy: 6 calls, 540ns total\n"
                    "       CALLS  %CALLS     TOTAL   %TIME  CALLER\n"
                    "           3   50.0%     300ns   55.6%  main.alpha\n"
                    "           2   33.3%     200ns   37.0%  main.helper\n"
                    "           1   16.7%         -       -  (no arc recorded)\n");
    free(text);
}

static void callees_listing(void)
{
    struct gst_stats st = stats();
    struct gst_callgraph cg = graph();
    struct gr_error err;
    char *text, *none;
    CAPTURE(text, gst_arcs_print(out, &st, &cg, &funcs[F_MAIN], GST_ARCS_CALLEES, &err));
    CHECK_STR(text, "callees of main.main: 1 call, 1.00us total\n"
                    "       CALLS  %CALLS     TOTAL   %TIME  CALLEE\n"
                    "           1   33.3%     300ns   30.0%  main.alpha\n"
                    "           1   33.3%     200ns   20.0%  main.beta\n"
                    "           1   33.3%     500ns   50.0%  " G_NAME "\n");
    CAPTURE(none, gst_arcs_print(out, &st, &cg, &funcs[F_BUSY], GST_ARCS_CALLEES, &err));
    CHECK_STR(none, "callees of main.busy: 6 calls, 540ns total\n"
                    "       CALLS  %CALLS     TOTAL   %TIME  CALLEE\n"
                    "  (none: it made no timed call)\n");
    free(text);
    free(none);
}

/* Every function written, busy's two callers among them: main.helper
 * only as a caller. */
static void callgrind_calls(void)
{
    struct gst_stats st = stats();
    struct gst_callgraph cg = graph();
    struct gr_error err;
    const struct gst_func *all[NF] = { &funcs[0], &funcs[1], &funcs[2], &funcs[3], &funcs[4] };
    struct gst_view v = { .funcs = all, .count = NF };
    char *text;
    CHECK_INT(gst_callgraph_sum_functions(&cg, &st, &err), 0);
    CAPTURE(text, gst_callgrind_write(out, &st, &v, &cg, &err));
    /* main.main: 1 call, self 0; its three calls, inclusive times */
    CHECK(strstr(text, "fn=(1) main.main\n10 1 0\n"
                       "cfl=(1)\ncfn=(2) main.alpha\ncalls=1 20\n10 1 300\n"
                       "cfl=(1)\ncfn=(3) main.beta\ncalls=1 30\n10 1 200\n"
                       "cfl=(1)\ncfn=(4) " G_NAME "\ncalls=1 50\n10 1 500\n") != NULL);
    /* alpha calls busy (named first here); busy's self time */
    CHECK(strstr(text, "fn=(2)\n20 1 0\ncfl=(1)\ncfn=(5) main.busy\ncalls=3 40\n20 3 300\n") != NULL);
    CHECK(strstr(text, "fn=(5)\n40 6 500\n") != NULL);
    /* callers not written as functions, by entry: (unknown), runtime.main, main.helper */
    CHECK(strstr(text, "fl=(2) ???\nfn=(6) (unknown)\n0 0 0\ncfl=(1)\ncfn=(4)\ncalls=1 50\n0 1 7\n") != NULL);
    CHECK(strstr(text, "fn=(7) runtime.main\n0 0 0\ncfl=(1)\ncfn=(1)\ncalls=1 10\n0 1 1000\n") != NULL);
    CHECK(strstr(text, "fn=(8) main.helper\n0 0 0\ncfl=(1)\ncfn=(5)\ncalls=2 40\n0 2 200\n") != NULL);
    /* totals: every call once, self times once: 1+1+1+6+2, 0+0+0+500+507 */
    CHECK(strstr(text, "\ntotals: 11 1007\n") != NULL);
    if (unit_failures())
        fprintf(stderr, "%s", text);
    free(text);
    free_sums(&cg);
}

/* A recursive main.alpha: its outer call (self 100) and, collapsed into one
 * node, its 4 inner ones (self 50, total counting each level again), which
 * call busy; a truncated busy whose caller, alpha, is a frame; beta, whose
 * 2.4 ns round to 2; 40 ns of alpha's self time in calls beyond the paths. */
static struct gst_callgraph recursive_graph(struct gst_stats *st)
{
    static const uint64_t self[NF] = { 10, 190, 2, 14, 0 };
    for (int i = 0; i < NF; i++)
        funcs[i].self_ticks = self[i];
    nodes[0] = node(GST_CG_ROOT, F_MAIN, RUNTIME_MAIN, "runtime.main", 1, 1000, 10);
    nodes[1] = node(0, F_ALPHA, 0x1000, "main.main", 1, 900, 100);
    nodes[2] = node(1, F_ALPHA, 0x1100, "main.alpha", 4, 2000, 50);
    nodes[3] = node(2, F_BUSY, 0x1100, "main.alpha", 2, 5, 5);
    nodes[4] = node(GST_CG_ROOT, F_BUSY, 0x1100, "main.alpha", 1, 9, 9);
    nodes[5] = node(GST_CG_ROOT, F_BETA, HELPER, "main.helper", 1, 3, 2.4);
    struct gst_callgraph cg = { .present = true, .nodes = nodes, .nnodes = 6, .path_overflow_calls = 3 };
    struct gr_error err;
    CHECK_INT(gst_callgraph_sum_functions(&cg, st, &err), 0);
    return cg;
}

/* cum counts a node's self time once for each function of its path, a
 * recursive function once however many of its frames the path holds;
 * self time is its nodes' (each rounded) plus what no path holds. */
static void cum_and_self(void)
{
    struct gst_stats st = stats();
    struct gst_callgraph cg = recursive_graph(&st);
    static const uint64_t cum[NF] = { 10 + 100 + 50 + 5, 100 + 50 + 5 + 9, 2, 5 + 9, 0 };
    static const uint64_t self[NF] = { 10, 100 + 50 + 40, 2, 5 + 9, 0 };
    for (int i = 0; i < NF; i++) {
        CHECK_U64(gst_callgraph_cum_ns(&cg, &funcs[i]), cum[i]);
        CHECK_U64(gst_callgraph_self_ns(&cg, &funcs[i]), self[i]);
        CHECK_U64(gst_callgraph_unplaced_ns(&cg, &funcs[i]), i == F_ALPHA ? 40 : 0);
    }
    CHECK_U64(cg.unplaced_total_ns, 40);
    free_sums(&cg);
}

/* folded --value self adds up to the self times callgrind writes: the
 * unplaced self time is a line of its own. */
static void totals_agree(void)
{
    struct gst_stats st = stats();
    struct gst_callgraph cg = recursive_graph(&st);
    struct gr_error err;
    const struct gst_func *all[NF] = { &funcs[0], &funcs[1], &funcs[2], &funcs[3], &funcs[4] };
    struct gst_view v = { .funcs = all, .count = NF };
    char *folded, *callgrind;
    CAPTURE(folded, gst_folded_write(out, &cg, GST_FOLDED_SELF, &err));
    CHECK_STR(folded, "runtime.main;main.main 10\n"
                      "runtime.main;main.main;main.alpha 100\n"
                      "runtime.main;main.main;main.alpha;main.alpha 50\n"
                      "runtime.main;main.main;main.alpha;main.alpha;main.busy 5\n"
                      "main.alpha;main.busy 9\n"
                      "main.helper;main.beta 2\n"
                      "(path overflow) 40\n");
    CAPTURE(callgrind, gst_callgrind_write(out, &st, &v, &cg, &err));
    CHECK(strstr(callgrind, "\ntotals: 11 216\n") != NULL);   /* self: 10+100+50+5+9+2+40 */
    free(folded);
    free(callgrind);
    free_sums(&cg);
}

/* A chain of 200 nested calls alternating main.alpha and main.beta (each
 * called from the one above, the first from runtime.main), 1 ns of self
 * time each: paths keep their GST_CG_MAX_FRAMES innermost frames, the
 * boundary exactly; cum counts each function once per path. */
#define CHAIN 200
static void deep_chain(void)
{
    static struct gst_cg_node chain[CHAIN];
    struct gst_stats st = stats();
    struct gr_error err;
    for (uint32_t d = 0; d < CHAIN; d++) {
        int f = d % 2 ? F_BETA : F_ALPHA;
        const struct gst_func *up = d ? &funcs[d % 2 ? F_ALPHA : F_BETA] : NULL;
        chain[d] = (struct gst_cg_node){ .parent = d ? d - 1 : GST_CG_ROOT, .func = &funcs[f],
                                         .caller_entry = up ? up->entry : RUNTIME_MAIN,
                                         .caller_name = up ? up->name : "runtime.main",
                                         .calls = 1, .total_ns = CHAIN - d, .self_ns = 1 };
    }
    struct gst_callgraph cg = { .present = true, .nodes = chain, .nnodes = CHAIN };
    struct gst_cg_path p = { 0 };
    /* node d has d + 2 frames: runtime.main, then d + 1 calls */
    CHECK_INT(gst_cg_path_of(&cg, GST_CG_MAX_FRAMES - 2, &p, &err), 0);
    CHECK_U64(p.count, GST_CG_MAX_FRAMES);
    CHECK(!p.truncated && strcmp(p.frames[0].name, "runtime.main") == 0);
    CHECK_INT(gst_cg_path_of(&cg, GST_CG_MAX_FRAMES - 1, &p, &err), 0);
    CHECK_U64(p.count, GST_CG_MAX_FRAMES + 1);
    CHECK(p.truncated && strcmp(p.frames[0].name, GST_CG_TRUNCATED_FRAME) == 0 && p.frames[0].func == NULL);
    CHECK(strcmp(p.frames[1].name, "main.alpha") == 0);   /* node 0's call, runtime.main cut */
    CHECK_INT(gst_cg_path_of(&cg, CHAIN - 1, &p, &err), 0);
    CHECK_U64(p.count, GST_CG_MAX_FRAMES + 1);
    CHECK(p.frames[GST_CG_MAX_FRAMES].func == &funcs[F_BETA]);   /* the leaf is kept */
    gst_cg_path_free(&p);
    CHECK_INT(gst_callgraph_sum_functions(&cg, &st, &err), 0);
    CHECK_U64(gst_callgraph_cum_ns(&cg, &funcs[F_ALPHA]), CHAIN);       /* on every path */
    CHECK_U64(gst_callgraph_cum_ns(&cg, &funcs[F_BETA]), CHAIN - 1);    /* from depth 1 */
    CHECK_U64(gst_callgraph_self_ns(&cg, &funcs[F_ALPHA]), CHAIN / 2);
    free_sums(&cg);
}

UNIT_CASES("cg_outputs", UNIT_CASE(path_frames), UNIT_CASE(folded_values), UNIT_CASE(callers_listing),
           UNIT_CASE(callees_listing), UNIT_CASE(callgrind_calls), UNIT_CASE(cum_and_self),
           UNIT_CASE(totals_agree), UNIT_CASE(deep_chain));
