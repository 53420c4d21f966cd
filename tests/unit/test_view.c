/* test_view.c: gostat/model/view.c, which functions the table, JSON and
 * watch outputs show and in what order: --filter (an extended regular
 * expression on the name), --nonzero, --sort calls|name|time with their
 * tie-breaks (name, then entry address: names repeat), and --top N applied
 * after sorting; --sort oncpu without the scheduler's idle functions. */
#include "common/regex_compile.h"
#include "tests/unit/unit.h"
#include "gostat/model/view.h"

#include <stdio.h>
#include <string.h>

/* name, entry, calls, total ticks; in file (entry) order */
static const struct {
    const char *name;
    uint64_t entry, calls, ticks;
} FUNCS[] = {
    {"main.a", 0x1000, 5, 700},
    {"main.b", 0x1100, 9, 100},
    {"runtime.x", 0x1200, 0, 0},
    {"main.dup", 0x1300, 5, 700},       /* same calls and time as main.a */
    {"fmt.Println", 0x1400, 5, 900},
    {"main.dup", 0x1380, 3, 50},        /* a second main.dup, lower entry */
    {"main.zero", 0x1500, 0, 0},
};
#define N (sizeof FUNCS / sizeof FUNCS[0])

static struct gst_func funcs[N];

static struct gst_stats stats(void)
{
    struct gst_stats st;
    memset(&st, 0, sizeof st);
    memset(funcs, 0, sizeof funcs);
    strcpy(st.path, "/dev/shm/gostat.app.1");
    for (size_t i = 0; i < N; i++) {
        funcs[i].name = FUNCS[i].name;
        funcs[i].entry = FUNCS[i].entry;
        funcs[i].calls = FUNCS[i].calls;
        funcs[i].total_ticks = FUNCS[i].ticks;
        funcs[i].timed = true;
    }
    st.funcs = funcs;
    st.hdr.nfuncs = N;
    return st;
}

/* The view as "name@entry" joined by spaces. */
static const char *shown(const struct gst_view_options *o)
{
    static char buf[512];
    struct gst_stats st = stats();
    struct gst_view v;
    struct gr_error err = { .msg = "" };
    buf[0] = 0;
    if (!CHECK_INT(gst_view_build(&st, o, &v, &err), 0))
        return "(error)";
    for (size_t i = 0; i < v.count; i++) {
        char one[64];
        snprintf(one, sizeof one, "%s%s@%llx", i ? " " : "", v.funcs[i]->name,
                 (unsigned long long)v.funcs[i]->entry);
        strcat(buf, one);
        CHECK(v.funcs[i] >= funcs && v.funcs[i] < funcs + N);  /* points into st */
    }
    gst_view_free(&v);
    CHECK(v.funcs == NULL && v.count == 0);
    return buf;
}

static void sort_by_calls(void)
{
    struct gst_view_options o = {.sort = GST_SORT_CALLS};
    /* 9; then the 5s by name (fmt < main.a < main.dup); 3; the 0s by name */
    CHECK_STR(shown(&o), "main.b@1100 fmt.Println@1400 main.a@1000 main.dup@1300 main.dup@1380 "
                         "main.zero@1500 runtime.x@1200");
}

static void sort_by_name(void)
{
    struct gst_view_options o = {.sort = GST_SORT_NAME};
    /* the two main.dup by entry: 0x1300 before 0x1380 */
    CHECK_STR(shown(&o), "fmt.Println@1400 main.a@1000 main.b@1100 main.dup@1300 main.dup@1380 "
                         "main.zero@1500 runtime.x@1200");
}

static void sort_by_time(void)
{
    struct gst_view_options o = {.sort = GST_SORT_TIME};
    /* 900; 700 twice (same calls: by name); 100; 50; 0 twice (0 calls: by name) */
    CHECK_STR(shown(&o), "fmt.Println@1400 main.a@1000 main.dup@1300 main.b@1100 main.dup@1380 "
                         "main.zero@1500 runtime.x@1200");
}

/* Equal time, then more calls first. */
static void time_ties_by_calls(void)
{
    struct gst_stats st = stats();
    funcs[1].total_ticks = 700;         /* main.b: 9 calls, now also 700 */
    struct gst_view_options o = {.sort = GST_SORT_TIME, .top = 3};
    struct gst_view v;
    struct gr_error err;
    CHECK_INT(gst_view_build(&st, &o, &v, &err), 0);
    CHECK_U64(v.count, 3);
    CHECK_STR(v.funcs[0]->name, "fmt.Println");
    CHECK_STR(v.funcs[1]->name, "main.b");
    CHECK_STR(v.funcs[2]->name, "main.a");
    gst_view_free(&v);
}

static void filter_regex(void)
{
    regex_t re;
    struct gr_error err;
    if (!CHECK_INT(gr_regex_compile(&re, "^main\\.(a|dup)$", "--filter", &err), 0))
        return;
    struct gst_view_options o = {.sort = GST_SORT_CALLS, .filter = &re};
    CHECK_STR(shown(&o), "main.a@1000 main.dup@1300 main.dup@1380");
    regfree(&re);
    CHECK_INT(gr_regex_compile(&re, "Print", "--filter", &err), 0);   /* unanchored */
    o.filter = &re;
    CHECK_STR(shown(&o), "fmt.Println@1400");
    regfree(&re);
    CHECK_INT(gr_regex_compile(&re, "^nothing$", "--filter", &err), 0);
    o.filter = &re;
    CHECK_STR(shown(&o), "");
    regfree(&re);
}

static void nonzero(void)
{
    struct gst_view_options o = {.sort = GST_SORT_NAME, .nonzero = true};
    CHECK_STR(shown(&o), "fmt.Println@1400 main.a@1000 main.b@1100 main.dup@1300 main.dup@1380");
}

/* --top keeps the first N after sorting; 0 or more than there are: all. */
static void top_n(void)
{
    struct gst_view_options o = {.sort = GST_SORT_CALLS, .top = 2};
    CHECK_STR(shown(&o), "main.b@1100 fmt.Println@1400");
    o.top = 1;
    o.sort = GST_SORT_NAME;
    CHECK_STR(shown(&o), "fmt.Println@1400");
    o.top = N;
    CHECK_STR(shown(&o), "fmt.Println@1400 main.a@1000 main.b@1100 main.dup@1300 main.dup@1380 "
                         "main.zero@1500 runtime.x@1200");
    o.top = 100;
    o.nonzero = true;
    CHECK_STR(shown(&o), "fmt.Println@1400 main.a@1000 main.b@1100 main.dup@1300 main.dup@1380");
    o.top = 0;
    CHECK_STR(shown(&o), "fmt.Println@1400 main.a@1000 main.b@1100 main.dup@1300 main.dup@1380");
}

static void all_options_together(void)
{
    regex_t re;
    struct gr_error err;
    CHECK_INT(gr_regex_compile(&re, "^main\\.", "--filter", &err), 0);
    struct gst_view_options o = {.sort = GST_SORT_TIME, .filter = &re, .nonzero = true, .top = 3};
    CHECK_STR(shown(&o), "main.a@1000 main.dup@1300 main.b@1100");
    regfree(&re);
}

static void no_functions(void)
{
    struct gst_stats st = stats();
    st.hdr.nfuncs = 0;
    struct gst_view_options o = {.sort = GST_SORT_CALLS};
    struct gst_view v;
    struct gr_error err;
    CHECK_INT(gst_view_build(&st, &o, &v, &err), 0);
    CHECK_U64(v.count, 0);
    CHECK(v.funcs != NULL);
    gst_view_free(&v);
}

/* --sort oncpu leaves the scheduler's idle functions out, counting the
 * called ones, unless runtime is set; other sorts keep them. */
static void oncpu_idle(void)
{
    struct gst_stats st = stats();
    funcs[0].name = "runtime.findRunnable";   /* called */
    funcs[2].name = "runtime.notesleep";      /* never called */
    funcs[4].oncpu_ticks = 50;
    funcs[3].oncpu_ticks = 60;
    struct gst_view_options o = {.sort = GST_SORT_ONCPU, .top = 2};
    struct gst_view v;
    struct gr_error err;
    if (CHECK_INT(gst_view_build(&st, &o, &v, &err), 0) && CHECK_U64(v.count, 2)) {
        CHECK_STR(v.funcs[0]->name, "main.dup");
        CHECK_STR(v.funcs[1]->name, "fmt.Println");
        CHECK_U64(v.idle_left_out, 1);
    }
    gst_view_free(&v);
    o.runtime = true;
    o.top = 0;
    if (CHECK_INT(gst_view_build(&st, &o, &v, &err), 0)) {
        CHECK_U64(v.count, N);
        CHECK_U64(v.idle_left_out, 0);
    }
    gst_view_free(&v);
    o = (struct gst_view_options){.sort = GST_SORT_CALLS};
    if (CHECK_INT(gst_view_build(&st, &o, &v, &err), 0))
        CHECK_U64(v.count, N);
    gst_view_free(&v);
    CHECK(gst_view_sched_idle("runtime.stopm") && !gst_view_sched_idle("runtime.stopTheWorld"));
}

UNIT_CASES("view",
           UNIT_CASE(sort_by_calls),
           UNIT_CASE(sort_by_name),
           UNIT_CASE(sort_by_time),
           UNIT_CASE(time_ties_by_calls),
           UNIT_CASE(filter_regex),
           UNIT_CASE(nonzero),
           UNIT_CASE(top_n),
           UNIT_CASE(all_options_together),
           UNIT_CASE(no_functions),
           UNIT_CASE(oncpu_idle));
