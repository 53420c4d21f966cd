/* utf8.h: checking UTF-8, and cleaning untrusted strings (function and
 * file names come from the instrumented binary) for output formats that
 * must stay well-formed: pprof's protobuf strings are UTF-8 by definition,
 * and the callgrind format is line-based. */
/* Which characters are unsafe is defined once, in common/safe_text.h. */
#ifndef GOSTAT_UTF8_H
#define GOSTAT_UTF8_H

#include <stddef.h>

/* A malloc'd copy of s that is valid UTF-8 and holds no control character:
 * each byte that starts no well-formed sequence becomes U+FFFD, each C0 or
 * C1 control character, DEL and bidirectional formatting control becomes
 * '?' (so no newline, no terminal escape, no reordered text). NULL when
 * out of memory. */
char *gst_utf8_clean(const char *s);

#endif
