/* screen_line.c: safe, clipped screen lines. */
#include "gostat/top/screen_line.h"

#include <limits.h>
#include <string.h>
#include <wchar.h>
#include <wctype.h>

/* One character of s as it will be shown: its bytes (or "?") and width.
 * Returns the number of bytes of s consumed, 0 at the end. */
static size_t next_glyph(const char *s, mbstate_t *state, const char **bytes,
                         size_t *nbytes, size_t *width)
{
    wchar_t wc;

    if (*s == '\0')
        return 0;
    size_t n = mbrtowc(&wc, s, strnlen(s, MB_LEN_MAX), state);
    if (n == (size_t)-1 || n == (size_t)-2) {
        memset(state, 0, sizeof *state); /* resynchronise after a bad byte */
        n = 1;
    } else if (iswprint((wint_t)wc) && wcwidth(wc) > 0) {
        *bytes = s;
        *nbytes = n;
        *width = (size_t)wcwidth(wc);
        return n;
    }
    *bytes = "?";
    *nbytes = 1;
    *width = 1;
    return n;
}

void gst_line_init(struct gst_line *l, char *buf, size_t size, size_t max_cols)
{
    *l = (struct gst_line){ .buf = buf, .size = size, .max_cols = max_cols };
    buf[0] = '\0';
}

size_t gst_screen_width(const char *s)
{
    mbstate_t state;
    const char *bytes;
    size_t used, nbytes, width, total = 0;

    memset(&state, 0, sizeof state);
    while ((used = next_glyph(s, &state, &bytes, &nbytes, &width)) > 0) {
        total += width;
        s += used;
    }
    return total;
}

static bool append(struct gst_line *l, const char *bytes, size_t nbytes, size_t width)
{
    if (l->cols + width > l->max_cols || l->len + nbytes >= l->size)
        return false;
    memcpy(l->buf + l->len, bytes, nbytes);
    l->len += nbytes;
    l->cols += width;
    l->buf[l->len] = '\0';
    return true;
}

void gst_line_put(struct gst_line *l, const char *s)
{
    mbstate_t state;
    const char *bytes;
    size_t used, nbytes, width;

    memset(&state, 0, sizeof state);
    while ((used = next_glyph(s, &state, &bytes, &nbytes, &width)) > 0) {
        if (!append(l, bytes, nbytes, width))
            return;
        s += used;
    }
}

void gst_line_pad_to(struct gst_line *l, size_t col)
{
    while (l->cols < col && append(l, " ", 1, 1))
        ;
}

void gst_line_cell(struct gst_line *l, const char *s, size_t width, bool align_right)
{
    size_t used = gst_screen_width(s);
    size_t start = l->cols;

    if (align_right && used < width)
        gst_line_pad_to(l, start + width - used);
    gst_line_put(l, s);
    gst_line_pad_to(l, start + width);
}
