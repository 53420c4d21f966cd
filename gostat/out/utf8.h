/* utf8.h: checking UTF-8, and cleaning untrusted strings (function and
 * file names come from the instrumented binary) for output formats that
 * must stay well-formed: pprof's protobuf strings are UTF-8 by definition,
 * and the callgrind format is line-based. */
#ifndef GOSTAT_UTF8_H
#define GOSTAT_UTF8_H

#include <stddef.h>

/* Length of the well-formed UTF-8 sequence at p (RFC 3629: no overlong
 * forms, no surrogates, nothing above U+10FFFF), or 0 if there is none.
 * p must point into a NUL-terminated string. */
size_t gst_utf8_sequence_length(const unsigned char *p);

/* A malloc'd copy of s that is valid UTF-8 and holds no control character:
 * each byte that starts no well-formed sequence becomes U+FFFD, each C0 or
 * C1 control character and DEL becomes '?' (so no newline, no terminal
 * escape). NULL when out of memory. */
char *gst_utf8_clean(const char *s);

#endif
