/* error.c: filling gr_error values. */
#include "error.h"

#include <stdarg.h>
#include <stdio.h>

int gr_fail(struct gr_error *err, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
    }
    return -1;
}
