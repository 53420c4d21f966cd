/* gzip.c: one-shot gzip compression and Accept-Encoding's gzip token. */
#include "gzip.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <zlib.h>

#define GZIP_WINDOW_BITS (15 + 16)  /* 15: the largest window; +16: gzip, not zlib, framing */
#define MEM_LEVEL 8                 /* zlib's default */

bool gst_gzip_accepted(const char *accept_encoding)
{
    const char *p = accept_encoding;
    while (p && *p) {
        p += strspn(p, " \t");
        size_t len = strcspn(p, ",");
        size_t token = strcspn(p, ";, \t");
        if (token == 4 && strncasecmp(p, "gzip", 4) == 0) {
            /* "gzip;q=0" refuses it */
            const char *q = memchr(p, '=', len);
            return !q || strtod(q + 1, NULL) > 0;
        }
        p += len;
        if (*p == ',')
            p++;
    }
    return false;
}

int gst_gzip(const char *in, size_t len, char **out, size_t *out_len)
{
    z_stream z;
    if (len > UINT_MAX / 2)
        return -1;   /* zlib counts in uInt: one call cannot take more */
    memset(&z, 0, sizeof z);
    /* fastest level: a scrape of a huge program is hundreds of MB */
    if (deflateInit2(&z, Z_BEST_SPEED, Z_DEFLATED, GZIP_WINDOW_BITS, MEM_LEVEL, Z_DEFAULT_STRATEGY) != Z_OK)
        return -1;
    size_t cap = deflateBound(&z, (uLong)len);
    char *buf = malloc(cap ? cap : 1);
    if (!buf) {
        deflateEnd(&z);
        return -1;
    }
    z.next_in = (Bytef *)in;
    z.avail_in = (uInt)len;
    z.next_out = (Bytef *)buf;
    z.avail_out = (uInt)cap;
    int rc = deflate(&z, Z_FINISH);
    *out_len = z.total_out;
    deflateEnd(&z);
    if (rc != Z_STREAM_END) {
        free(buf);
        return -1;
    }
    *out = buf;
    return 0;
}
