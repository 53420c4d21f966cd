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
#include <stdint.h>
#include <stdio.h>

/* Columns s occupies when printed by gst_put_cell. */
size_t gst_text_width(const char *s);

/* Prints s, made safe, padded with spaces to width (left or right aligned). */
void gst_put_cell(FILE *out, const char *s, size_t width, bool align_right);

/* Marks where gst_put_cut_cell took text out: one column wide. */
#define GST_CUT_MARK "\u2026"

/* Prints s like gst_put_cell, but in at most width columns (0: no limit):
 * a longer s loses its middle, replaced by GST_CUT_MARK, so that both its
 * start (a package) and its end (a method) show; with keep_end, most of
 * what shows is the end (a path's file name and line). */
void gst_put_cut_cell(FILE *out, const char *s, size_t width, bool align_right, bool keep_end);

/* Prints text (already safe: as gst_put_cell printed it) in lines of at
 * most columns (0: one line), broken where sep separates its parts;
 * continuation lines are indented by two spaces. A part longer than a line
 * stays whole. Ends with a newline. */
void gst_put_wrapped(FILE *out, const char *text, const char *sep, size_t columns);

/* Narrows a row's two unbounded columns, a name and a location, to fit
 * columns (0: no limit) beside fixed others: the location gets up to a
 * third of the room, the name the rest (it tells rows apart); neither
 * goes below its minimum, nor above its own width. */
void gst_fit_columns(size_t *name, size_t *location, size_t fixed, size_t columns,
                     size_t name_min, size_t location_min);

/* "file:line" into buf ("file" when line is 0, "-" when file is ""), the
 * FILE:LINE cell of the tables. */
void gst_format_location(char *buf, size_t size, const char *file, uint32_t line);

/* The columns output on out may use: the terminal's width when out is
 * one, else $COLUMNS when it is a number (for pipes and tests), else 0:
 * no limit. */
size_t gst_output_columns(FILE *out);

/* Copies s into buf (truncated to size - 1 bytes, never inside a
 * character) with unsafe units as '?', for messages that embed untrusted
 * strings. Returns buf. */
char *gst_safe_text(char *buf, size_t size, const char *s);

#endif
