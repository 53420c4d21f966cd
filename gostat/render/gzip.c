/* gzip.c: gzip compression through zlib. */
#include "gostat/render/gzip.h"

#include <errno.h>
#include <string.h>
#include <zlib.h>

#define GZIP_WINDOW_BITS (15 + 16)  /* 32 KiB window, gzip header and trailer */
#define CHUNK 65536

/* Feeds everything left in z through deflate with `flush`, writing out what
 * comes out. */
static int pump(z_stream *z, int flush, FILE *out, const char *name, struct gr_error *err)
{
    unsigned char buf[CHUNK];
    int rc;
    do {
        z->next_out = buf;
        z->avail_out = sizeof buf;
        rc = deflate(z, flush);
        if (rc == Z_STREAM_ERROR)
            return gr_fail(err, "%s: zlib deflate failed", name);
        size_t have = sizeof buf - z->avail_out;
        if (fwrite(buf, 1, have, out) != have)
            return gr_fail(err, "%s: write error: %s", name, strerror(errno));
    } while (z->avail_out == 0 || (flush == Z_FINISH && rc != Z_STREAM_END));
    return 0;
}

int gst_gzip_write(FILE *out, const void *data, size_t len, int level, const char *name,
                   struct gr_error *err)
{
    z_stream z;
    const unsigned char *p = data;
    int rc = 0;

    memset(&z, 0, sizeof z);
    if (deflateInit2(&z, level, Z_DEFLATED, GZIP_WINDOW_BITS, 8,
                     Z_DEFAULT_STRATEGY) != Z_OK)
        return gr_fail(err, "%s: zlib deflateInit2 failed", name);
    /* avail_in is a uInt: feed huge buffers in pieces. */
    while (rc == 0 && len > 0) {
        uInt piece = len > (1u << 30) ? (1u << 30) : (uInt)len;
        z.next_in = (Bytef *)p;
        z.avail_in = piece;
        rc = pump(&z, Z_NO_FLUSH, out, name, err);
        p += piece;
        len -= piece;
    }
    if (rc == 0)
        rc = pump(&z, Z_FINISH, out, name, err);
    deflateEnd(&z);
    return rc;
}
