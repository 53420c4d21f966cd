/* unit.h: the small harness of the C unit tests (tests/unit/README.md).
 * A test file defines its cases with UNIT_CASES; unit.c's main runs them,
 * prints each failed check (file:line, what was expected, what came out)
 * and ends with "NAME: N passed, N failed"; tests/unit/run.sh adds up the
 * programs. Checks do not stop a case, so one run shows every wrong field. */
#ifndef GR_UNIT_H
#define GR_UNIT_H

#include <stdint.h>

struct unit_case {
    const char *name;
    void (*run)(void);
};

/* The test file's cases, ending with {0}; and its name for the summary. */
extern const struct unit_case unit_cases[];
extern const char unit_name[];

#define UNIT_CASES(name_, ...)                                   \
    const char unit_name[] = name_;                              \
    const struct unit_case unit_cases[] = {__VA_ARGS__, {0, 0}}
#define UNIT_CASE(fn) {#fn, fn}

/* Records a failed check of the running case; the unit_check_* helpers
 * compare, report and return whether the check held. */
void unit_fail(const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Failed checks so far in the running case: a helper that checks many
 * fields compares it before and after to name its fixture once. */
unsigned unit_failures(void);
int unit_check_i(const char *file, int line, const char *expr, long long got, long long want);
int unit_check_u(const char *file, int line, const char *expr, unsigned long long got,
                 unsigned long long want);
int unit_check_str(const char *file, int line, const char *expr, const char *got,
                   const char *want);
int unit_check_dbl(const char *file, int line, const char *expr, double got, double want);

#define CHECK(cond) ((cond) ? 1 : (unit_fail(__FILE__, __LINE__, "%s", #cond), 0))
#define CHECK_INT(got, want) unit_check_i(__FILE__, __LINE__, #got, (long long)(got), (long long)(want))
#define CHECK_U64(got, want) \
    unit_check_u(__FILE__, __LINE__, #got, (unsigned long long)(got), (unsigned long long)(want))
/* NULL compares equal to NULL only. */
#define CHECK_STR(got, want) unit_check_str(__FILE__, __LINE__, #got, (got), (want))
/* Equal to within 1e-12 of want (relative): for values that a few
 * floating-point operations produce. */
#define CHECK_DBL(got, want) unit_check_dbl(__FILE__, __LINE__, #got, (got), (want))

#endif
