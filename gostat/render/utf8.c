/* utf8.c: UTF-8 validation and cleaning of untrusted names. */
#include "gostat/render/utf8.h"

#include "common/safe_text.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static const char replacement[] = "\xEF\xBF\xBD";   /* U+FFFD */

char *gst_utf8_clean(const char *s)
{
    /* Each input byte becomes at most 3 output bytes (U+FFFD). */
    char *out = malloc(strlen(s) * 3 + 1);
    char *o = out;
    const unsigned char *p = (const unsigned char *)s;

    if (!out)
        return NULL;
    while (*p) {
        size_t len = gr_utf8_sequence_length(p);
        if (len == 0) {
            memcpy(o, replacement, 3);
            o += 3;
            p++;
        } else if (gr_text_is_control(p, len)) {
            *o++ = '?';
            p += len;
        } else {
            memcpy(o, p, len);
            o += len;
            p += len;
        }
    }
    *o = '\0';
    return out;
}
