/* safe_text.c: deciding which characters of untrusted text may reach a
 * terminal (safe_text.h). */
#include "common/safe_text.h"

static bool is_continuation(unsigned char c)
{
    return (c & 0xC0) == 0x80;
}

size_t gr_utf8_sequence_length(const unsigned char *p)
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

unsigned gr_utf8_code_point(const unsigned char *p, size_t len)
{
    static const unsigned char lead_bits[] = {0, 0x7F, 0x1F, 0x0F, 0x07};
    unsigned cp = p[0] & lead_bits[len <= 4 ? len : 0];
    for (size_t i = 1; i < len && i < 4; i++)
        cp = cp << 6 | (p[i] & 0x3F);
    return cp;
}

/* The embeddings, overrides and isolates of Unicode's bidirectional
 * algorithm (UAX #9) and its three marks. */
static bool is_bidi_control(unsigned cp)
{
    return cp == 0x061C || cp == 0x200E || cp == 0x200F || (cp >= 0x202A && cp <= 0x202E) ||
           (cp >= 0x2066 && cp <= 0x2069);
}

bool gr_text_is_control(const unsigned char *p, size_t len)
{
    unsigned cp = gr_utf8_code_point(p, len);
    return cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp < 0xA0) || is_bidi_control(cp);
}

size_t gr_text_unit(const unsigned char *p, bool *safe)
{
    size_t len = gr_utf8_sequence_length(p);
    if (len == 0) {
        *safe = false;
        return 1;
    }
    *safe = !gr_text_is_control(p, len);
    return len;
}

char *gr_text_make_safe(char *s)
{
    unsigned char *in = (unsigned char *)s, *out = in;
    while (*in) {
        bool safe;
        size_t len = gr_text_unit(in, &safe);
        if (!safe) {
            *out++ = '?';
            in += len;
            continue;
        }
        while (len--)
            *out++ = *in++;
    }
    *out = '\0';
    return s;
}
