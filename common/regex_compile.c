/* regex_compile.c: user regular expressions (regex_compile.h). */
#include "common/regex_compile.h"

int gr_regex_compile(regex_t *re, const char *pattern, const char *what, struct gr_error *err)
{
    int rc = regcomp(re, pattern, REG_EXTENDED | REG_NOSUB);
    if (rc == 0)
        return 0;
    char why[256];
    regerror(rc, re, why, sizeof why);
    return gr_fail_as(err, GR_ERR_USAGE, "%s: bad regular expression '%s': %s", what, pattern, why);
}
