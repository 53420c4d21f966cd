/* strbuf.c: the growable string of strbuf.h. */
#include "common/strbuf.h"
#include "common/vec.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int gr_strbuf_append_n(struct gr_strbuf *b, const char *s, size_t n)
{
    if (n >= (size_t)-1 - b->len) {
        b->failed = 1;
        return -1;
    }
    char *grown = gr_vec_grow(b->s, &b->cap, b->len + n + 1, 1);
    if (!grown) {
        b->failed = 1;
        return -1;
    }
    b->s = grown;
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = 0;
    return 0;
}

int gr_strbuf_append(struct gr_strbuf *b, const char *s)
{
    return gr_strbuf_append_n(b, s, strlen(s));
}

int gr_strbuf_appendf(struct gr_strbuf *b, const char *fmt, ...)
{
    char small[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0) {
        b->failed = 1;
        return -1;
    }
    if ((size_t)n < sizeof small)
        return gr_strbuf_append_n(b, small, (size_t)n);
    char *big = malloc((size_t)n + 1);
    if (!big) {
        b->failed = 1;
        return -1;
    }
    va_start(ap, fmt);
    vsnprintf(big, (size_t)n + 1, fmt, ap);
    va_end(ap);
    int rc = gr_strbuf_append_n(b, big, (size_t)n);
    free(big);
    return rc;
}

const char *gr_strbuf_str(const struct gr_strbuf *b)
{
    return b->s ? b->s : "";
}

void gr_strbuf_reset(struct gr_strbuf *b)
{
    b->len = 0;
    b->failed = 0;
    if (b->s)
        b->s[0] = 0;
}

void gr_strbuf_free(struct gr_strbuf *b)
{
    free(b->s);
    b->s = NULL;
    b->len = b->cap = 0;
    b->failed = 0;
}
