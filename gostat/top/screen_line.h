/* screen_line.h: building one line of a text screen (gostat top) from
 * untrusted cells. Text is made safe as it is added: bytes that do not
 * decode in the current locale, control characters (C0, DEL, C1) and
 * other non-printing or zero-width characters become '?', so a crafted
 * function name can neither send escape sequences to the terminal nor
 * make curses draw it wider than counted. Widths are display columns
 * (wcwidth), so CJK names still line up; the line never grows past its
 * column limit or its buffer. */
#ifndef GOSTAT_SCREEN_LINE_H
#define GOSTAT_SCREEN_LINE_H

#include <stdbool.h>
#include <stddef.h>

struct gst_line {
    char *buf;                 /* NUL-terminated, always */
    size_t size;               /* of buf, NUL included */
    size_t len;                /* bytes used */
    size_t cols;               /* columns used */
    size_t max_cols;           /* columns allowed */
};

/* An empty line in buf (size >= 1), at most max_cols columns wide. */
void gst_line_init(struct gst_line *l, char *buf, size_t size, size_t max_cols);

/* Columns s takes once made safe. */
size_t gst_screen_width(const char *s);

/* Appends s, made safe, clipped at the column limit. */
void gst_line_put(struct gst_line *l, const char *s);

/* Appends s padded with spaces to width columns, left or right aligned. */
void gst_line_cell(struct gst_line *l, const char *s, size_t width, bool align_right);

/* Appends spaces until the line is col columns wide (or full). */
void gst_line_pad_to(struct gst_line *l, size_t col);

#endif
