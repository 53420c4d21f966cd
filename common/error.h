/* exported by common */
/* error.h: errors as values, for gorewrite and gostat. A failing function
 * fills a gr_error with one line that names the input and what is wrong,
 * and its kind, and returns -1; main() decides how to report it, and the
 * kind decides the exit status (gr_error_exit_status). */
#ifndef GR_ERROR_H
#define GR_ERROR_H

/* What went wrong: who can fix it. */
enum gr_error_kind {
    GR_ERR_INPUT,       /* an input missing, unreadable or refused (gr_fail's kind) */
    GR_ERR_USAGE,       /* the command line: an option, a value, a pattern */
    GR_ERR_OUTPUT,      /* an output that could not be written */
    GR_ERR_INTERNAL,    /* out of memory, or the program's own fault */
};

struct gr_error {
    enum gr_error_kind kind;
    char msg[1024];
};

/* Formats the message into err (if non-NULL), of kind GR_ERR_INPUT, and
 * returns -1. */
int gr_fail(struct gr_error *err, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* As gr_fail, of the given kind. */
int gr_fail_as(struct gr_error *err, enum gr_error_kind kind, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The exit statuses of gorewrite and gostat for an error, as their
 * manuals document them. */
#define GR_EXIT_USAGE 1         /* a usage error */
#define GR_EXIT_FAILED 2        /* any other: no output written */

/* The exit status for an error of this kind. */
int gr_error_exit_status(enum gr_error_kind kind);

#endif
