/* test_callgraph.c: gostat/model/callgraph.c, from path and arc entries
 * as the reader hands them over (several rows, unmerged) to nodes and
 * arcs: entries of one key summed over rows, nodes parents first and one
 * per (parent node, caller function, callee), a context whose parent was
 * never recorded as a truncated root, a parent loop (corrupt) left out
 * and counted, callers found from return addresses in the symbol table
 * (an untimed function, or "(unknown)" outside every function), arcs
 * exact from path and arc tables alike, in the documented orders; on-CPU
 * self times within 0 and the self time. */
#include "gostat/model/callgraph.h"
#include "tests/unit/unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Functions (file order): main.a 0x100, main.b 0x200, main.c 0x300. The
 * symbol table adds main.untimed 0x400 (not instrumented); code at 0x500
 * and above is in no function. Calls return into a function at its entry
 * + 0x10 (a first call site) or + 0x20 (a second one). */
enum { A, B, C, NFUNCS };
static struct gst_func funcs[NFUNCS];
static struct gst_sym syms[4];

#define KEY(n) ((1ull << 63) | (n))

static struct gst_path path(uint64_t key, uint64_t parent, uint64_t ret, int callee,
                            uint64_t calls, uint64_t total, uint64_t self)
{
    return (struct gst_path){.key = key, .parent = parent, .ret = ret, .callee = &funcs[callee],
                             .calls = calls, .total_ticks = total, .self_ticks = self};
}

static struct gst_stats stats(struct gst_path *entries, size_t n)
{
    static const char *names[NFUNCS] = {"main.a", "main.b", "main.c"};
    struct gst_stats st;
    memset(&st, 0, sizeof st);
    for (int i = 0; i < NFUNCS; i++)
        funcs[i] = (struct gst_func){.name = names[i], .entry = 0x100 * (uint64_t)(i + 1),
                                     .timed = true};
    syms[0] = (struct gst_sym){0x100, 0x200, "main.a"};
    syms[1] = (struct gst_sym){0x200, 0x300, "main.b"};
    syms[2] = (struct gst_sym){0x300, 0x400, "main.c"};
    syms[3] = (struct gst_sym){0x400, 0x500, "main.untimed"};
    st.timing.mode = GS_MODE_CALL_GRAPH;
    st.hdr.nfuncs = NFUNCS;
    st.hdr.max_paths = 64;
    st.hdr.max_arcs = 1024;
    st.funcs = funcs;
    st.syms = syms;
    st.nsyms = 4;
    st.path_entries = entries;
    st.npaths = n;
    st.clock = (struct gst_clock){.known = true, .ns_per_tick = 2};
    return st;
}

static struct gst_callgraph build(struct gst_stats *st)
{
    struct gst_callgraph cg;
    struct gr_error err;
    CHECK_INT(gst_callgraph_build(st, NULL, &cg, &err), 0);
    return cg;
}

/* The node of callee f whose caller is caller_entry and parent node parent. */
static const struct gst_cg_node *node(const struct gst_callgraph *cg, int f, uint64_t caller_entry,
                                      uint32_t parent)
{
    for (size_t i = 0; i < cg->nnodes; i++)
        if (cg->nodes[i].func == &funcs[f] && cg->nodes[i].caller_entry == caller_entry
            && cg->nodes[i].parent == parent)
            return &cg->nodes[i];
    return NULL;
}

static void no_paths(void)
{
    struct gst_stats st = stats(NULL, 0);
    st.timing.mode = GS_MODE_EVERY_CALL;
    struct gst_callgraph cg = build(&st);
    CHECK(!cg.present);
    CHECK_U64(cg.nnodes, 0);
    CHECK_U64(cg.narcs, 0);
}

/* a (first timed call, called from main.untimed) -> b twice (two call
 * sites), b -> c; thread rows 1 and 2 hold parts of the same keys. */
static void rows_merged_by_key(void)
{
    struct gst_path e[] = {
        path(KEY(1), 0, 0x410, A, 1, 100, 10),               /* row 1 */
        path(KEY(2), KEY(1), 0x110, B, 3, 30, 20),
        path(KEY(3), KEY(1), 0x120, B, 2, 20, 20),           /* b's second call site in a */
        path(KEY(4), KEY(2), 0x210, C, 4, 8, 8),
        path(KEY(2), KEY(1), 0x110, B, 5, 50, 40),           /* row 2: same keys */
        path(KEY(4), KEY(2), 0x210, C, 1, 2, 2),
    };
    struct gst_stats st = stats(e, sizeof e / sizeof e[0]);
    struct gst_callgraph cg = build(&st);
    CHECK(cg.present);
    CHECK_U64(cg.nnodes, 3);   /* a; b (both call sites); c */
    CHECK_U64(cg.path_overflow_calls, 0);
    const struct gst_cg_node *a = node(&cg, A, 0x400, GST_CG_ROOT);
    CHECK(a != NULL);
    if (!a)
        return;
    CHECK_STR(a->caller_name, "main.untimed");
    CHECK(!a->truncated);
    CHECK_U64(a->calls, 1);
    CHECK_DBL(a->total_ns, 200);
    CHECK_DBL(a->self_ns, 20);
    uint32_t ia = (uint32_t)(a - cg.nodes);
    const struct gst_cg_node *b = node(&cg, B, 0x100, ia);
    CHECK(b != NULL);
    if (!b)
        return;
    CHECK(b > a);              /* parents first */
    CHECK_U64(b->calls, 10);
    CHECK_DBL(b->total_ns, 200);
    CHECK_DBL(b->self_ns, 160);
    const struct gst_cg_node *c = node(&cg, C, 0x200, (uint32_t)(b - cg.nodes));
    CHECK(c != NULL && c > b);
    CHECK(c && c->calls == 5);
    /* arcs by callee in file order: main.untimed -> a, a -> b, b -> c */
    CHECK_U64(cg.narcs, 3);
    CHECK(cg.arcs[0].callee == &funcs[A] && cg.arcs[1].callee == &funcs[B] && cg.arcs[2].callee == &funcs[C]);
    CHECK_STR(cg.arcs[0].caller_name, "main.untimed");
    CHECK_U64(cg.arcs[1].calls, 10);
    CHECK_DBL(cg.arcs[1].total_ns, 200);
    CHECK_U64(cg.arcs[2].caller_entry, 0x200);
    CHECK_U64(cg.arcs[2].calls, 5);
    gst_callgraph_free(&cg);
}

/* Path overflow: b's calls from a through the arc table only, c's parent
 * never recorded (truncated), a parent loop (corrupt), a return address
 * in no function. */
static void overflow_and_orphans(void)
{
    struct gst_path e[] = {
        path(KEY(1), 0, 0x410, A, 1, 100, 50),
        path(KEY(9), KEY(77), 0x210, C, 2, 6, 6),            /* parent not recorded */
        path(KEY(5), KEY(6), 0x110, B, 7, 7, 7),             /* a loop: 5 <- 6 <- 5 */
        path(KEY(6), KEY(5), 0x110, B, 1, 1, 1),
        path(KEY(8), 0, 0x900, C, 3, 3, 3),                  /* returns outside every function */
        path(KEY(10), 0, 0x120, B, 4, 40, 40),               /* arc table */
    };
    e[5].arc = true;
    e[5].parent = 0;
    struct gst_stats st = stats(e, sizeof e / sizeof e[0]);
    st.drops.path_overflow = 4;
    st.drops.arc_overflow = 2;
    struct gst_callgraph cg = build(&st);
    CHECK_U64(cg.overflow_calls, 2);
    CHECK_U64(cg.path_overflow_calls, 4 + 8);   /* the arc table's, and the loop's */
    const struct gst_cg_node *c = node(&cg, C, 0x200, GST_CG_ROOT);
    CHECK(c != NULL && c->truncated && c->calls == 2);
    const struct gst_cg_node *u = node(&cg, C, 0, GST_CG_ROOT);
    CHECK(u != NULL && !u->truncated);
    CHECK(u && strcmp(u->caller_name, GST_CG_UNKNOWN_NAME) == 0);
    CHECK(node(&cg, B, 0x100, GST_CG_ROOT) == NULL);         /* the loop: no node */
    /* b's callers: a 8 (the loop's entries, which are still calls) and a 4
       through the arc table: one arc a -> b of 12 calls */
    const struct gst_cg_arc *arcs;
    size_t k = gst_callgraph_callers(&cg, &funcs[B], &arcs);
    CHECK_U64(k, 1);
    if (k == 1) {
        CHECK_U64(arcs[0].calls, 12);
        CHECK_U64(arcs[0].caller_entry, 0x100);
    }
    /* c's callers, by calls descending: (unknown) 3, b 2 */
    k = gst_callgraph_callers(&cg, &funcs[C], &arcs);
    CHECK_U64(k, 2);
    if (k == 2) {
        CHECK_STR(arcs[0].caller_name, GST_CG_UNKNOWN_NAME);
        CHECK_U64(arcs[0].caller_entry, 0);
        CHECK_STR(arcs[1].caller_name, "main.b");
    }
    const struct gst_cg_arc **v;
    struct gr_error err;
    long n;
    /* a's callees: b 12 */
    n = gst_callgraph_callees(&cg, 0x100, &v, &err);
    CHECK_INT(n, 1);
    free(v);
    gst_callgraph_free(&cg);
}

/* A request that requires paths fails on a file without them, naming
 * it; one with a view selects only the view's functions (pprof's and
 * callgrind's --filter), none the whole file. */
static void request(void)
{
    struct gst_path e[] = {
        path(KEY(1), 0, 0x410, A, 1, 100, 10),
        path(KEY(2), KEY(1), 0x110, B, 3, 30, 20),
    };
    struct gst_stats st = stats(e, sizeof e / sizeof e[0]);
    struct gst_callgraph cg;
    struct gr_error err;
    const struct gst_func *chosen[] = { &funcs[B] };
    struct gst_view view = { .funcs = chosen, .count = 1 };
    struct gst_cg_request req = { .required = true, .view = &view };
    CHECK_INT(gst_callgraph_build(&st, &req, &cg, &err), 0);
    CHECK(cg.present);
    CHECK(!gst_callgraph_selected(&cg, &funcs[A]));
    CHECK(gst_callgraph_selected(&cg, &funcs[B]));
    CHECK(!gst_callgraph_selected(&cg, &funcs[C]));
    CHECK_U64(cg.nnodes, 2);   /* the model itself is whole */
    gst_callgraph_free(&cg);
    cg = build(&st);
    CHECK(gst_callgraph_selected(&cg, &funcs[A]) && gst_callgraph_selected(&cg, &funcs[C]));
    gst_callgraph_free(&cg);
    st.timing.mode = GS_MODE_EVERY_CALL;
    snprintf(st.path, sizeof st.path, "gostat.42");
    CHECK_INT(gst_callgraph_build(&st, &req, &cg, &err), -1);
    CHECK_STR(err.msg, "gostat.42: built without --call-graph: no call graph; rebuild with "
                       "gorewrite --call-graph");
    CHECK(!cg.present && cg.selected == NULL);
}

/* On-CPU self: a's on-CPU less b's, within 0 and a's self time; b's
 * callee c overflowed (in no path), so b's on-CPU holds c's but its self
 * time does not: capped at b's self. */
static void oncpu_self(void)
{
    struct gst_path e[] = {
        path(KEY(1), 0, 0x410, A, 1, 100, 40),
        path(KEY(2), KEY(1), 0x110, B, 1, 60, 5),
    };
    e[0].oncpu_ticks = 90;
    e[1].oncpu_ticks = 55;
    struct gst_stats st = stats(e, sizeof e / sizeof e[0]);
    st.oncpu = true;
    struct gst_callgraph cg = build(&st);
    const struct gst_cg_node *a = node(&cg, A, 0x400, GST_CG_ROOT);
    const struct gst_cg_node *b = a ? node(&cg, B, 0x100, (uint32_t)(a - cg.nodes)) : NULL;
    if (CHECK(a && b)) {
        CHECK_DBL(a->oncpu_self_ns, 70);    /* (90 - 55) ticks, under a's self 80 ns */
        CHECK_DBL(b->oncpu_self_ns, 10);    /* 110 ns, capped at b's self */
    }
    gst_callgraph_free(&cg);
}

UNIT_CASES("callgraph",
           UNIT_CASE(no_paths),
           UNIT_CASE(request),
           UNIT_CASE(rows_merged_by_key),
           UNIT_CASE(overflow_and_orphans),
           UNIT_CASE(oncpu_self));
