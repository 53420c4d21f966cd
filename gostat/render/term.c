/* term.c: safe, aligned text cells. */
#include "gostat/render/term.h"

#include "common/safe_text.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

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

/* Prints the units [from, to) of s (counted as gst_text_width counts),
 * each unsafe one as '?'. */
static void put_units(FILE *out, const char *s, size_t from, size_t to)
{
    size_t i = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p && i < to; i++) {
        bool safe;
        size_t len = gr_text_unit(p, &safe);
        if (i >= from && safe)
            fwrite(p, 1, len, out);
        else if (i >= from)
            fputc('?', out);
        p += len;
    }
}

void gst_put_cell(FILE *out, const char *s, size_t width, bool align_right)
{
    size_t used = gst_text_width(s);
    size_t fill = used < width ? width - used : 0;

    if (align_right)
        pad(out, fill);
    put_units(out, s, 0, used);
    if (!align_right)
        pad(out, fill);
}

void gst_put_cut_cell(FILE *out, const char *s, size_t width, bool align_right, bool keep_end)
{
    size_t used = gst_text_width(s);
    if (width == 0 || used <= width) {
        gst_put_cell(out, s, width, align_right);
        return;
    }
    size_t head = keep_end ? (width - 1) / 4 : width / 2, tail = width - 1 - head;
    put_units(out, s, 0, head);
    fputs(GST_CUT_MARK, out);
    put_units(out, s, used - tail, used);
}

static size_t at_most(size_t a, size_t b)
{
    return a < b ? a : b;
}

static size_t at_least(size_t a, size_t b)
{
    return a > b ? a : b;
}

void gst_fit_columns(size_t *name, size_t *location, size_t fixed, size_t columns,
                     size_t name_min, size_t location_min)
{
    if (columns == 0 || fixed + *name + *location <= columns)
        return;
    size_t room = columns > fixed ? columns - fixed : 0;
    size_t loc = at_most(*location, at_least(location_min, room / 3));
    *name = at_most(*name, at_least(name_min, room - at_most(room, loc)));
    *location = at_most(*location, at_least(loc, room - at_most(room, *name)));
}

void gst_format_location(char *buf, size_t size, const char *file, uint32_t line)
{
    if (file[0] == '\0')
        snprintf(buf, size, "-");
    else if (line)
        snprintf(buf, size, "%s:%" PRIu32, file, line);
    else
        snprintf(buf, size, "%s", file);
}

size_t gst_output_columns(FILE *out)
{
    struct winsize ws;
    if (isatty(fileno(out)) && ioctl(fileno(out), TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
        return ws.ws_col;
    const char *env = getenv("COLUMNS");
    char *end;
    unsigned long n = env ? strtoul(env, &end, 10) : 0;
    return env && *env && *end == '\0' && n < 100000 ? (size_t)n : 0;
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

/* The width of the first n bytes of s. */
static size_t prefix_width(const char *s, size_t n)
{
    size_t width = 0;
    bool safe;
    for (const unsigned char *p = (const unsigned char *)s; p < (const unsigned char *)s + n;
         p += gr_text_unit(p, &safe))
        width++;
    return width;
}

void gst_put_wrapped(FILE *out, const char *text, const char *sep, size_t columns)
{
    size_t seplen = strlen(sep), used = 0;
    if (columns == 0) {   /* verbatim: even runs of separators */
        fputs(text, out);
        fputc('\n', out);
        return;
    }
    for (const char *part = text; *part;) {
        const char *end = strstr(part, sep);
        size_t len = end ? (size_t)(end - part) : strlen(part);
        size_t width = prefix_width(part, len);
        if (used > 0 && used + seplen + width > columns) {
            fputs("\n  ", out);
            used = 2;
        } else if (used > 0) {
            fputs(sep, out);
            used += seplen;
        }
        fwrite(part, 1, len, out);
        used += width;
        part += len;
        while (strncmp(part, sep, seplen) == 0)
            part += seplen;
    }
    fputc('\n', out);
}
