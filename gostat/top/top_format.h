/* exported by gostat/top */
/* top_format.h: "gostat top" as lines of text: the header, the column
 * names and one line per row, each made safe and clipped to the screen's
 * width (screen_line.h). The curses screen draws these lines; after the
 * screen is gone, the final frame is printed from the same lines. */
#ifndef GOSTAT_TOP_FORMAT_H
#define GOSTAT_TOP_FORMAT_H

#include "gostat/top/screen_line.h"
#include "gostat/top/top_model.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define TOP_MAX_COLS 1024                     /* wider screens use this many */
#define TOP_LINE_BYTES (4 * TOP_MAX_COLS + 1) /* UTF-8: at most 4 bytes a column */
#define TOP_HEADER_LINES 3

/* Column widths: as wide as the widest cell among all rows, so that
 * scrolling does not move the columns. */
struct top_widths {
    size_t pid, rate, calls, share, mean, p99;
};

struct top_widths top_format_widths(const struct top_model *m);

/* Header line index (0 .. TOP_HEADER_LINES-1). */
void top_format_header(struct gst_line *l, const struct top_model *m, size_t index, bool paused);

void top_format_column_names(struct gst_line *l, const struct top_model *m,
                             const struct top_widths *w);

void top_format_row(struct gst_line *l, const struct top_model *m, const struct top_row *r,
                    const struct top_widths *w);

const char *top_sort_label(enum top_sort sort);

/* The frame as plain text: header, a blank line, column names, then rows
 * first .. first+count-1 (as many as there are), cols columns wide. */
void top_format_print(FILE *out, const struct top_model *m, bool paused, size_t first,
                      size_t count, size_t cols);

#endif
