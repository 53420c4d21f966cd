/* exported by common */
/* regex_compile.h: compiling a user's POSIX extended regular expression
 * (gostat's --filter, --package, top's '/'), with one wording for a bad
 * one everywhere: "WHAT: bad regular expression 'PATTERN': REASON". */
#ifndef GR_REGEX_COMPILE_H
#define GR_REGEX_COMPILE_H

#include <regex.h>

#include "common/error.h"

/* Compiles pattern into re for matching only (REG_NOSUB). Returns 0, or -1
 * with err (a usage error) naming what (the option) and regerror's reason;
 * re then needs no regfree. */
int gr_regex_compile(regex_t *re, const char *pattern, const char *what, struct gr_error *err);

#endif
