/* exported by common */
/* error.h: errors as values, for gorewrite and gostat. A failing function
 * fills a gr_error with one line that names the input and what is wrong,
 * and returns -1; main() decides how to report it and the exit status. */
#ifndef GR_ERROR_H
#define GR_ERROR_H

struct gr_error {
    char msg[1024];
};

/* Formats the message into err (if non-NULL) and returns -1. */
int gr_fail(struct gr_error *err, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#endif
