/* error.c: filling gr_error values. */
#include "common/error.h"

#include "common/safe_text.h"

#include <stdarg.h>
#include <stdio.h>

int gr_fail(struct gr_error *err, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
        /* Messages name paths and names from untrusted files, and end up
           on a terminal: no escape sequence gets through. */
        gr_text_make_safe(err->msg);
    }
    return -1;
}
