/* utf8.c: UTF-8 validation and cleaning of untrusted names. */
#include "utf8.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static const char replacement[] = "\xEF\xBF\xBD";   /* U+FFFD */

static bool is_continuation(unsigned char c)
{
    return (c & 0xC0) == 0x80;
}

size_t gst_utf8_sequence_length(const unsigned char *p)
{
    unsigned char lo = 0x80, hi = 0xBF; /* allowed range of the second byte */
    size_t len;

    if (p[0] < 0x80)
        return 1;
    if (p[0] >= 0xC2 && p[0] <= 0xDF)
        len = 2;
    else if (p[0] >= 0xE0 && p[0] <= 0xEF)
        len = 3;
    else if (p[0] >= 0xF0 && p[0] <= 0xF4)
        len = 4;
    else
        return 0;
    if (p[0] == 0xE0)
        lo = 0xA0;
    else if (p[0] == 0xED)
        hi = 0x9F;
    else if (p[0] == 0xF0)
        lo = 0x90;
    else if (p[0] == 0xF4)
        hi = 0x8F;
    if (p[1] < lo || p[1] > hi)
        return 0;
    /* p[1] is not NUL here, so reading on stops at the string's end. */
    for (size_t i = 2; i < len; i++)
        if (!is_continuation(p[i]))
            return 0;
    return len;
}

/* C0 controls and DEL (one byte), C1 controls (U+0080..U+009F, encoded
 * C2 80..C2 9F): some terminals act on either. */
static bool is_control(const unsigned char *p, size_t len)
{
    if (len == 1)
        return p[0] < 0x20 || p[0] == 0x7F;
    return len == 2 && p[0] == 0xC2 && p[1] < 0xA0;
}

char *gst_utf8_clean(const char *s)
{
    /* Each input byte becomes at most 3 output bytes (U+FFFD). */
    char *out = malloc(strlen(s) * 3 + 1);
    char *o = out;
    const unsigned char *p = (const unsigned char *)s;

    if (!out)
        return NULL;
    while (*p) {
        size_t len = gst_utf8_sequence_length(p);
        if (len == 0) {
            memcpy(o, replacement, 3);
            o += 3;
            p++;
        } else if (is_control(p, len)) {
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
