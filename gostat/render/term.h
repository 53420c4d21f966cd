/* exported by gostat/render */
/* term.h: printing untrusted strings (function names, paths from the file)
 * as aligned text columns. Each unit safe_text.h calls unsafe (C0, DEL,
 * C1 as raw byte or UTF-8, malformed UTF-8) is shown as one '?', so a
 * crafted name cannot send escape sequences to the terminal; widths count
 * printed characters, so non-ASCII names still line up. */
#ifndef GOSTAT_TERM_H
#define GOSTAT_TERM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Columns s occupies when printed by gst_put_cell. */
size_t gst_text_width(const char *s);

/* Prints s, made safe, padded with spaces to width (left or right aligned). */
void gst_put_cell(FILE *out, const char *s, size_t width, bool align_right);

/* Copies s into buf (truncated to size - 1 bytes, never inside a
 * character) with unsafe units as '?', for messages that embed untrusted
 * strings. Returns buf. */
char *gst_safe_text(char *buf, size_t size, const char *s);

#endif
