/* select.c: the --only/--exclude predicate (select.h). */
#include "rewriter/plan/select.h"

#include <stdlib.h>
#include <string.h>

#include "common/regex_compile.h"

const char GR_SELECT_LEFT_OUT[] = "left out by --only/--exclude";

/* gostat reads goroutines created and ended from these functions' call
 * counts (gostat/model/goroutines.h): leaving them out would turn its
 * goroutine figures into "unknown" for a selection that never meant to. */
static const char *const REQUIRED[] = { "runtime.newproc1", "runtime.goexit1" };

int gr_regex_set_compile(struct gr_regex_set *set, const char *const *patterns, size_t n,
                         const char *what, struct gr_error *err)
{
    memset(set, 0, sizeof *set);
    if (n == 0)
        return 0;
    set->re = calloc(n, sizeof *set->re);
    if (!set->re)
        return gr_fail_as(err, GR_ERR_INTERNAL, "%s: out of memory for the regular expressions", what);
    for (; set->n < n; set->n++)
        if (gr_regex_compile(&set->re[set->n], patterns[set->n], what, err) < 0) {
            gr_regex_set_free(set);
            return -1;
        }
    return 0;
}

int gr_regex_set_any(const struct gr_regex_set *set, const char *name)
{
    for (size_t i = 0; i < set->n; i++)
        if (regexec(&set->re[i], name, 0, NULL, 0) == 0)
            return 1;
    return 0;
}

void gr_regex_set_free(struct gr_regex_set *set)
{
    for (size_t i = 0; i < set->n; i++)
        regfree(&set->re[i]);
    free(set->re);
    memset(set, 0, sizeof *set);
}

int gr_select_compile(struct gr_select *s, const struct gr_select_patterns *p,
                      struct gr_error *err)
{
    memset(s, 0, sizeof *s);
    if (gr_regex_set_compile(&s->only, p->only, p->nonly, "--only", err) < 0)
        return -1;
    if (gr_regex_set_compile(&s->exclude, p->exclude, p->nexclude, "--exclude", err) < 0) {
        gr_regex_set_free(&s->only);
        return -1;
    }
    return 0;
}

int gr_select_active(const struct gr_select *s)
{
    return s->only.n + s->exclude.n > 0;
}

int gr_select_required(const char *name)
{
    for (size_t i = 0; name && i < sizeof REQUIRED / sizeof REQUIRED[0]; i++)
        if (strcmp(name, REQUIRED[i]) == 0)
            return 1;
    return 0;
}

int gr_select_chosen(const struct gr_select *s, const char *name)
{
    if (!name)
        return s->only.n == 0;
    if (gr_select_required(name))
        return 1;
    return (s->only.n == 0 || gr_regex_set_any(&s->only, name)) &&
           !gr_regex_set_any(&s->exclude, name);
}

void gr_select_free(struct gr_select *s)
{
    gr_regex_set_free(&s->only);
    gr_regex_set_free(&s->exclude);
}
