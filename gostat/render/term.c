/* term.c: safe, aligned text cells. */
#include "gostat/render/term.h"

#include "common/safe_text.h"

size_t gst_text_width(const char *s)
{
    size_t width = 0;
    bool safe;
    for (const unsigned char *p = (const unsigned char *)s; *p; p += gr_text_unit(p, &safe))
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
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        bool safe;
        size_t len = gr_text_unit(p, &safe);
        if (safe)
            fwrite(p, 1, len, out);
        else
            fputc('?', out);
        p += len;
    }
    if (!align_right)
        pad(out, fill);
}

char *gst_safe_text(char *buf, size_t size, const char *s)
{
    size_t n = 0;
    if (size == 0)
        return buf;
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        bool safe;
        size_t len = gr_text_unit(p, &safe);
        size_t put = safe ? len : 1;
        if (n + put + 1 > size)
            break;              /* never half a character */
        if (safe)
            for (size_t i = 0; i < len; i++)
                buf[n++] = (char)p[i];
        else
            buf[n++] = '?';
        p += len;
    }
    buf[n] = '\0';
    return buf;
}
