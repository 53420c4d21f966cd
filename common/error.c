/* error.c: filling gr_error values, and the exit status of each kind. */
#include "common/error.h"

#include "common/safe_text.h"

#include <stdarg.h>
#include <stdio.h>

static void fill(struct gr_error *err, enum gr_error_kind kind, const char *fmt, va_list ap)
{
    err->kind = kind;
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    /* Messages name paths and names from untrusted files, and end up
       on a terminal: no escape sequence gets through. */
    gr_text_make_safe(err->msg);
}

int gr_fail(struct gr_error *err, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        fill(err, GR_ERR_INPUT, fmt, ap);
        va_end(ap);
    }
    return -1;
}

int gr_fail_as(struct gr_error *err, enum gr_error_kind kind, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        fill(err, kind, fmt, ap);
        va_end(ap);
    }
    return -1;
}

int gr_error_exit_status(enum gr_error_kind kind)
{
    return kind == GR_ERR_USAGE ? GR_EXIT_USAGE : GR_EXIT_FAILED;
}
