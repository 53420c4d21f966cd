/* term.c: safe, aligned text cells. */
#include "term.h"

static bool is_utf8_continuation(unsigned char c)
{
    return (c & 0xC0) == 0x80;
}

static bool is_control(unsigned char c)
{
    return c < 0x20 || c == 0x7F;
}

size_t gst_text_width(const char *s)
{
    size_t width = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        if (!is_utf8_continuation(*p))
            width++;
    return width;
}

static void pad(FILE *out, size_t n)
{
    while (n-- > 0)
        fputc(' ', out);
}

void gst_put_cell(FILE *out, const char *s, size_t width, bool align_right)
{
    size_t used = gst_text_width(s);
    size_t fill = used < width ? width - used : 0;

    if (align_right)
        pad(out, fill);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        fputc(is_control(*p) ? '?' : *p, out);
    if (!align_right)
        pad(out, fill);
}

char *gst_safe_text(char *buf, size_t size, const char *s)
{
    size_t n = 0;
    if (size == 0)
        return buf;
    for (const unsigned char *p = (const unsigned char *)s; *p && n + 1 < size; p++)
        buf[n++] = is_control(*p) ? '?' : (char)*p;
    buf[n] = '\0';
    return buf;
}
