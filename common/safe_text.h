/* exported by common */
/* safe_text.h: the one definition of which characters may reach a
 * terminal. Untrusted text (function and file names from a binary or a
 * stats file, paths in error messages) is walked in units: a well-formed
 * UTF-8 sequence (RFC 3629) or a single stray byte. A unit is unsafe when
 * it is a C0 control, DEL, a C1 control (U+0080..U+009F, encoded C2 80..
 * C2 9F), a bidirectional formatting control (U+061C, U+200E, U+200F,
 * U+202A..U+202E, U+2066..U+2069: they reorder the text after them on the
 * screen, so a name could show as another) or a byte that starts no
 * well-formed sequence (a raw 0x80..0x9F is a C1 control to an 8-bit
 * terminal). Every output path that can reach
 * a terminal (tables, listings, coverage, diff, error messages) replaces
 * unsafe units; formats with their own escaping (JSON, OpenMetrics, pprof)
 * use the same test. */
#ifndef GR_SAFE_TEXT_H
#define GR_SAFE_TEXT_H

#include <stdbool.h>
#include <stddef.h>

/* Length of the well-formed UTF-8 sequence at p (no overlong forms, no
 * surrogates, nothing above U+10FFFF), or 0 if there is none. p points
 * into a NUL-terminated string. */
size_t gr_utf8_sequence_length(const unsigned char *p);

/* The code point of the well-formed sequence at p, of len bytes. */
unsigned gr_utf8_code_point(const unsigned char *p, size_t len);

/* Is the well-formed sequence at p, of len bytes, a C0/C1 control, DEL or
 * a bidirectional formatting control? */
bool gr_text_is_control(const unsigned char *p, size_t len);

/* Length (at least 1) of the unit at p, a non-NUL byte; *safe tells
 * whether it may be printed as is. */
size_t gr_text_unit(const unsigned char *p, bool *safe);

/* Replaces, in place, each unsafe unit of s by one '?'. Returns s. */
char *gr_text_make_safe(char *s);

#endif
