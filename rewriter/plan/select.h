/* exported by rewriter/plan */
/* select.h: which functions are instrumented at all (gorewrite --only and
 * --exclude), as one predicate the plan (and --trace, which works within
 * the choice) asks per function name. A function is chosen when it
 * matches some --only pattern (or none is given) and no --exclude
 * pattern, or when it is infrastructure: a function gostat's own results
 * read (runtime.newproc1 and runtime.goexit1, its goroutine counts),
 * kept whatever the patterns say. Patterns are POSIX extended regular
 * expressions matched anywhere in the pclntab name, as gostat's --filter
 * (anchor with ^ and $). */
#ifndef GR_SELECT_H
#define GR_SELECT_H

#include <regex.h>
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"

#define GR_SELECT_MAX 64                /* patterns per option */
#define GR_SELECT_MAX_TEXT "64"

/* The patterns as given on the command line. */
struct gr_select_patterns {
    const char *only[GR_SELECT_MAX];
    size_t nonly;
    const char *exclude[GR_SELECT_MAX];
    size_t nexclude;
};

/* Compiled patterns, matched as a set: a name matches when any does. */
struct gr_regex_set {
    regex_t *re;
    size_t n;
};

struct gr_select {
    struct gr_regex_set only, exclude;
    /* per program function (NULL: none): 1 when the copy engine took it,
     * so that it gets no trampoline (copy_select.h) */
    const uint8_t *copied;
};

/* The skip reason of a function the selection leaves out (gorewrite -v);
 * the plan tells these apart from other skips by this pointer. */
extern const char GR_SELECT_LEFT_OUT[];

/* Compiles patterns[0..n) into set; what names the option in the message
 * of a bad one ("--only: bad regular expression '(': ..."). Returns 0, or
 * -1 with err (set is then empty). */
int gr_regex_set_compile(struct gr_regex_set *set, const char *const *patterns, size_t n,
                         const char *what, struct gr_error *err);
/* Whether any of set's patterns matches name. */
int gr_regex_set_any(const struct gr_regex_set *set, const char *name);
void gr_regex_set_free(struct gr_regex_set *set);

/* Compiles --only and --exclude. Returns 0, or -1 with err. */
int gr_select_compile(struct gr_select *s, const struct gr_select_patterns *p,
                      struct gr_error *err);
/* Whether any --only or --exclude was given. */
int gr_select_active(const struct gr_select *s);
/* Whether the function named name is instrumented (NULL name: kept only
 * without --only). */
int gr_select_chosen(const struct gr_select *s, const char *name);
/* Whether name is infrastructure, kept regardless of the patterns. */
int gr_select_required(const char *name);
void gr_select_free(struct gr_select *s);

#endif
