/* freestanding.c: string, memory and file helpers for the stubs, which
 * run without libc (freestanding.h). */
#include "stubs/freestanding.h"

#include "format/text_rule.h"
#include "stubs/sys.h"

size_t gs_str_len(const char *s)
{
    size_t n = 0;
    while (s[n])
        n++;
    return n;
}

int gs_starts_with(const char *s, const char *prefix)
{
    while (*prefix)
        if (*s++ != *prefix++)
            return 0;
    return 1;
}

void gs_mem_copy(void *dst, const void *src, size_t n)
{
    uint8_t *d = dst;
    const uint8_t *s = src;
    while (n--)
        *d++ = *s++;
}

void gs_zero(void *p, uint64_t n)
{
    volatile uint8_t *d = p;         /* volatile: no memset call */
    for (; n && ((uintptr_t)d & 7); n--)
        *d++ = 0;
    volatile uint64_t *w = (volatile uint64_t *)d;
    for (; n >= 8; n -= 8)
        *w++ = 0;
    for (d = (volatile uint8_t *)w; n; n--)
        *d++ = 0;
}

int gs_bytes_equal(const uint8_t *a, const uint8_t *b, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++)
        if (a[i] != b[i])
            return 0;
    return 1;
}

int gs_append(char *buf, size_t *len, size_t cap, const char *src, size_t n)
{
    size_t i = 0;
    for (; i < n && *len + 1 < cap; i++)
        buf[(*len)++] = src[i];
    buf[*len] = 0;
    return i < n ? -1 : 0;
}

int gs_append_str(char *buf, size_t *len, size_t cap, const char *src)
{
    return gs_append(buf, len, cap, src, gs_str_len(src));
}

int gs_append_u64(char *buf, size_t *len, size_t cap, uint64_t v)
{
    char digits[20];
    int n = 0;
    do {
        digits[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    char out[20];
    for (int i = 0; i < n; i++)
        out[i] = digits[n - 1 - i];
    return gs_append(buf, len, cap, out, (size_t)n);
}

int gs_append_hex64(char *buf, size_t *len, size_t cap, uint64_t v)
{
    char out[16];
    for (int i = 0; i < 16; i++)
        out[i] = "0123456789abcdef"[(v >> (60 - 4 * i)) & 15];
    return gs_append(buf, len, cap, out, sizeof out);
}

int gs_append_safe_name(char *buf, size_t *len, size_t cap, const char *name)
{
    const unsigned char *p = (const unsigned char *)name;
    while (*p) {
        int safe;
        size_t n = gs_text_unit(p, &safe);
        if (*len + n + 1 > cap)
            return -1;
        for (; n; n--, p++)
            buf[(*len)++] = safe ? (char)*p : '_';
    }
    buf[*len] = 0;
    return 0;
}

long gs_write_all(long fd, const void *buf, uint64_t len, uint64_t off)
{
    const uint8_t *p = buf;
    while (len) {
        long n = gs_syscall6(GS_SYS_pwrite64, fd, (long)p, (long)len, (long)off, 0, 0);
        if (n <= 0)
            return n ? n : -1;
        p += n;
        len -= (uint64_t)n;
        off += (uint64_t)n;
    }
    return 0;
}

long gs_read_all(long fd, void *buf, uint64_t len, uint64_t off)
{
    uint8_t *p = buf;
    while (len) {
        long n = gs_syscall6(GS_SYS_pread64, fd, (long)p, (long)len, (long)off, 0, 0);
        if (n < 0)
            return n;
        if (n == 0) {                /* past the end: zeros */
            gs_zero(p, len);
            return 0;
        }
        p += n;
        len -= (uint64_t)n;
        off += (uint64_t)n;
    }
    return 0;
}
