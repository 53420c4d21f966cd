/* exported by common */
/* strbuf.h: a small growable NUL-terminated string, for text built piece by
 * piece (the trace values gostat prints). An all-zero gr_strbuf is empty
 * and ready; a failed append (out of memory) leaves it as it was, sets
 * failed and returns -1, so a caller can check once at the end. */
#ifndef GR_STRBUF_H
#define GR_STRBUF_H

#include <stddef.h>

struct gr_strbuf {
    char *s;        /* NULL while nothing was appended; else NUL-terminated */
    size_t len;
    size_t cap;
    int failed;     /* an append ran out of memory */
};

int gr_strbuf_append(struct gr_strbuf *b, const char *s);
int gr_strbuf_append_n(struct gr_strbuf *b, const char *s, size_t n);
int gr_strbuf_appendf(struct gr_strbuf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* The text so far, "" when empty (never NULL). */
const char *gr_strbuf_str(const struct gr_strbuf *b);
void gr_strbuf_reset(struct gr_strbuf *b); /* empty, memory kept */
void gr_strbuf_free(struct gr_strbuf *b);  /* empty, memory released */

#endif
