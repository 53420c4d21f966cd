/* exported by format */
/* text_rule.h: the one rule for which characters of untrusted text may
 * reach a terminal, freestanding (static inline, no libc) so that the
 * stubs, which name the stats file after the executable, use it as well
 * as gostat and gorewrite (common/safe_text.h, which says what is unsafe
 * and why). p points into a NUL-terminated string. */
#ifndef GS_TEXT_RULE_H
#define GS_TEXT_RULE_H

#include <stddef.h>

/* Length of the well-formed UTF-8 sequence at p (RFC 3629: no overlong
 * forms, no surrogates, nothing above U+10FFFF), or 0 if there is none. */
static inline size_t gs_utf8_sequence_length(const unsigned char *p)
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
        if ((p[i] & 0xC0) != 0x80)
            return 0;
    return len;
}

/* The code point of the well-formed sequence at p, of len bytes. */
static inline unsigned gs_utf8_code_point(const unsigned char *p, size_t len)
{
    unsigned cp = p[0] & (len == 1 ? 0x7Fu : len == 2 ? 0x1Fu : len == 3 ? 0x0Fu : 0x07u);
    for (size_t i = 1; i < len && i < 4; i++)
        cp = cp << 6 | (p[i] & 0x3F);
    return cp;
}

/* Is code point cp a C0/C1 control, DEL, or one of the embeddings,
 * overrides, isolates and marks of Unicode's bidirectional algorithm
 * (UAX #9), which reorder the text after them on the screen? */
static inline int gs_code_point_is_control(unsigned cp)
{
    return cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp < 0xA0) || cp == 0x061C || cp == 0x200E ||
           cp == 0x200F || (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069);
}

/* Length (at least 1) of the unit at p, a non-NUL byte: a well-formed
 * sequence or one stray byte; *safe tells whether it may be shown as is. */
static inline size_t gs_text_unit(const unsigned char *p, int *safe)
{
    size_t len = gs_utf8_sequence_length(p);
    if (len == 0) {
        *safe = 0;
        return 1;
    }
    *safe = !gs_code_point_is_control(gs_utf8_code_point(p, len));
    return len;
}

#endif
