/* test_regex_compile.c: common/regex_compile.c: a good pattern compiles
 * as an extended expression that matches; a bad one gives the one wording
 * "WHAT: bad regular expression 'PATTERN': REASON", REASON from glibc's
 * regerror (Debian 12), a usage error (exit status 1). */
#include "common/regex_compile.h"
#include "tests/unit/unit.h"

#include <string.h>

static void compiles_extended(void)
{
    regex_t re;
    struct gr_error err = { .msg = "" };
    if (!CHECK_INT(gr_regex_compile(&re, "^main\\.(fib|sum)+$", "--filter", &err), 0))
        return;
    CHECK_STR(err.msg, "");
    CHECK_INT(regexec(&re, "main.fib", 0, NULL, 0), 0);
    CHECK_INT(regexec(&re, "main.fibsum", 0, NULL, 0), 0);
    CHECK_INT(regexec(&re, "main.fob", 0, NULL, 0), REG_NOMATCH);
    CHECK_INT(regexec(&re, "xmain.fib", 0, NULL, 0), REG_NOMATCH);
    regfree(&re);
}

static void bad_pattern_message(void)
{
    regex_t re;
    struct gr_error err = { .msg = "" };
    CHECK_INT(gr_regex_compile(&re, "(", "--filter", &err), -1);
    CHECK_STR(err.msg, "--filter: bad regular expression '(': Unmatched ( or \\(");
    CHECK_INT(err.kind, GR_ERR_USAGE);
    CHECK_INT(gr_error_exit_status(err.kind), 1);
    CHECK_INT(gr_regex_compile(&re, "a{1", "--package", &err), -1);
    CHECK_STR(err.msg, "--package: bad regular expression 'a{1': Unmatched \\{");
    CHECK_INT(gr_regex_compile(&re, "x\\", "top filter", &err), -1);
    CHECK_STR(err.msg, "top filter: bad regular expression 'x\\': Trailing backslash");
}

/* The other kinds exit 2 (common/error.h), the status both manuals give
 * an input refused or an output not written. */
static void other_kinds_exit_2(void)
{
    struct gr_error err = { .msg = "" };
    CHECK_INT(gr_fail(&err, "%s: not a Go program", "x"), -1);
    CHECK_INT(err.kind, GR_ERR_INPUT);
    CHECK_INT(gr_error_exit_status(err.kind), 2);
    CHECK_INT(gr_fail_as(&err, GR_ERR_OUTPUT, "%s: cannot write", "y"), -1);
    CHECK_STR(err.msg, "y: cannot write");
    CHECK_INT(gr_error_exit_status(err.kind), 2);
    CHECK_INT(gr_error_exit_status(GR_ERR_INTERNAL), 2);
}

static void null_error_allowed(void)
{
    regex_t re;
    CHECK_INT(gr_regex_compile(&re, "*a", "--filter", NULL), -1);
}

UNIT_CASES("regex_compile",
           UNIT_CASE(compiles_extended),
           UNIT_CASE(bad_pattern_message),
           UNIT_CASE(other_kinds_exit_2),
           UNIT_CASE(null_error_allowed));
