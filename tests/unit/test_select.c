/* test_select.c: rewriter/plan/select.c: the --only/--exclude rule (some
 * --only or none, and no --exclude), the infrastructure functions kept
 * whatever the patterns say, unanchored matching, and a bad pattern's
 * message naming its option. */
#include "rewriter/plan/select.h"
#include "tests/unit/unit.h"

static int chosen(const char *const *only, size_t nonly, const char *const *exclude,
                  size_t nexclude, const char *name)
{
    struct gr_select_patterns p = {.nonly = nonly, .nexclude = nexclude};
    for (size_t i = 0; i < nonly; i++)
        p.only[i] = only[i];
    for (size_t i = 0; i < nexclude; i++)
        p.exclude[i] = exclude[i];
    struct gr_select s;
    struct gr_error err = { .msg = "" };
    if (!CHECK_INT(gr_select_compile(&s, &p, &err), 0))
        return -1;
    int yes = gr_select_chosen(&s, name);
    gr_select_free(&s);
    return yes;
}

static void rule(void)
{
    const char *only[] = {"^main\\.", "^fmt\\.Sprint"};
    const char *exclude[] = {"Scale$", "^main\\.rare$"};
    CHECK_INT(chosen(NULL, 0, NULL, 0, "strings.Index"), 1);
    CHECK_INT(chosen(only, 2, NULL, 0, "main.fib"), 1);
    CHECK_INT(chosen(only, 2, NULL, 0, "fmt.Sprintf"), 1);
    CHECK_INT(chosen(only, 2, NULL, 0, "fmt.Fprintf"), 0);
    CHECK_INT(chosen(NULL, 0, exclude, 2, "main.(*Rect).Scale"), 0);
    CHECK_INT(chosen(NULL, 0, exclude, 2, "strings.Index"), 1);
    CHECK_INT(chosen(only, 2, exclude, 2, "main.(*Rect).Scale"), 0);   /* --exclude wins */
    CHECK_INT(chosen(only, 2, exclude, 2, "main.rare"), 0);
    CHECK_INT(chosen(only, 2, exclude, 2, "main.rarely"), 1);
}

static void unanchored(void)
{
    const char *only[] = {"main\\."};
    CHECK_INT(chosen(only, 1, NULL, 0, "runtime.main.func1"), 1);
    CHECK_INT(chosen(only, 1, NULL, 0, "runtime.main"), 0);
}

static void infrastructure_kept(void)
{
    const char *only[] = {"^main\\."};
    const char *exclude[] = {"^runtime\\."};
    CHECK_INT(chosen(only, 1, exclude, 1, "runtime.newproc1"), 1);
    CHECK_INT(chosen(only, 1, exclude, 1, "runtime.goexit1"), 1);
    CHECK_INT(chosen(only, 1, exclude, 1, "runtime.newproc"), 0);
    CHECK_INT(gr_select_required("runtime.goexit1.abi0"), 0);
}

static void active(void)
{
    struct gr_select_patterns none = {0}, one = {.exclude = {"x"}, .nexclude = 1};
    struct gr_select s;
    CHECK_INT(gr_select_compile(&s, &none, NULL), 0);
    CHECK_INT(gr_select_active(&s), 0);
    gr_select_free(&s);
    CHECK_INT(gr_select_compile(&s, &one, NULL), 0);
    CHECK_INT(gr_select_active(&s), 1);
    gr_select_free(&s);
}

static void bad_pattern(void)
{
    struct gr_select_patterns p = {.only = {"^main\\."}, .nonly = 1,
                                   .exclude = {"ok", "a["}, .nexclude = 2};
    struct gr_select s;
    struct gr_error err = { .msg = "" };
    CHECK_INT(gr_select_compile(&s, &p, &err), -1);
    CHECK_STR(err.msg, "--exclude: bad regular expression 'a[': Invalid regular expression");
    p.only[0] = "(";
    CHECK_INT(gr_select_compile(&s, &p, &err), -1);
    CHECK_STR(err.msg, "--only: bad regular expression '(': Unmatched ( or \\(");
}

UNIT_CASES("select",
           UNIT_CASE(rule),
           UNIT_CASE(unanchored),
           UNIT_CASE(infrastructure_kept),
           UNIT_CASE(active),
           UNIT_CASE(bad_pattern));
