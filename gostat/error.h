/* error.h: errors as values for gostat. A failing function fills a gst_error
 * with one line that names the file and the problem, and returns -1; main()
 * decides how to report it and which exit status it means. */
#ifndef GOSTAT_ERROR_H
#define GOSTAT_ERROR_H

struct gst_error {
    char msg[1024];
};

/* Formats the message into err (if non-NULL) and returns -1. */
int gst_fail(struct gst_error *err, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#endif
