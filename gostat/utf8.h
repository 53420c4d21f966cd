/* utf8.h: recognising well-formed UTF-8 in untrusted strings (function
 * names and paths come from the instrumented binary). */
#ifndef GOSTAT_UTF8_H
#define GOSTAT_UTF8_H

#include <stddef.h>

/* Length of the well-formed UTF-8 sequence at p (RFC 3629: no overlong
 * forms, no surrogates, nothing above U+10FFFF), or 0 if there is none.
 * p points into a NUL-terminated string and *p is not NUL. */
size_t gst_utf8_sequence_length(const unsigned char *p);

#endif
