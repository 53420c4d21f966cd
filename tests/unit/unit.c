/* unit.c: main of every unit test program (unit.h). Runs the cases named
 * on the command line, or all; prints "FAIL case" with its failed checks,
 * then "NAME: N passed, N failed" (cases); exit status 1 if any failed. */
#include "tests/unit/unit.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const char *current;
static unsigned failed_checks;

void unit_fail(const char *file, int line, const char *fmt, ...)
{
    if (failed_checks++ == 0)
        printf("FAIL %s.%s\n", unit_name, current);
    printf("    %s:%d: ", file, line);
    va_list ap;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
}

unsigned unit_failures(void)
{
    return failed_checks;
}

int unit_check_i(const char *file, int line, const char *expr, long long got, long long want)
{
    if (got == want)
        return 1;
    unit_fail(file, line, "%s is %lld, expected %lld", expr, got, want);
    return 0;
}

int unit_check_u(const char *file, int line, const char *expr, unsigned long long got,
                 unsigned long long want)
{
    if (got == want)
        return 1;
    unit_fail(file, line, "%s is %llu (%#llx), expected %llu (%#llx)", expr, got, got, want, want);
    return 0;
}

int unit_check_str(const char *file, int line, const char *expr, const char *got, const char *want)
{
    if (got == want || (got && want && strcmp(got, want) == 0))
        return 1;
    unit_fail(file, line, "%s is %s%s%s, expected %s%s%s", expr, got ? "\"" : "",
              got ? got : "NULL", got ? "\"" : "", want ? "\"" : "", want ? want : "NULL",
              want ? "\"" : "");
    return 0;
}

int unit_check_dbl(const char *file, int line, const char *expr, double got, double want)
{
    double diff = got > want ? got - want : want - got;
    double scale = want < 0 ? -want : want;
    if (got == want || diff <= 1e-12 * scale)
        return 1;
    unit_fail(file, line, "%s is %.17g, expected %.17g", expr, got, want);
    return 0;
}

static int selected(const char *name, int argc, char **argv)
{
    if (argc < 2)
        return 1;
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], name) == 0)
            return 1;
    return 0;
}

int main(int argc, char **argv)
{
    unsigned passed = 0, failed = 0;
    setvbuf(stdout, NULL, _IOLBF, 0);   /* lines in order with a sanitizer's stderr */
    for (const struct unit_case *c = unit_cases; c->name; c++) {
        if (!selected(c->name, argc, argv))
            continue;
        current = c->name;
        failed_checks = 0;
        c->run();
        if (failed_checks)
            failed++;
        else
            passed++;
    }
    printf("%s: %u passed, %u failed\n", unit_name, passed, failed);
    return failed || passed == 0;
}
