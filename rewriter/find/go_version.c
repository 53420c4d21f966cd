/* go_version.c: reads runtime.buildVersion through the build info blob:
 * "\xff Go buildinf:", pointer size, flags; with flag 2 (Go >= 1.18) the
 * version follows at offset 32 as a varint-prefixed string, before that
 * the blob holds the address of a Go string header. Reference:
 * debug/buildinfo/buildinfo.go. Without .go.buildinfo, the string
 * runtime.buildVersion is searched for instead. */
#include "rewriter/find/go_version.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAGIC "\xff Go buildinf:"
#define MAGIC_LEN 14
#define BLOB_LEN 32
#define FLAG_INLINE_STRINGS 2

static void copy_version(char *buf, size_t size, const uint8_t *s, uint64_t len)
{
    if (len == 0 || len >= size || len > 64)
        return;
    memcpy(buf, s, len);
    buf[len] = 0;
}

static void inline_version(const uint8_t *blob, uint64_t avail, char *buf, size_t size)
{
    uint64_t len = 0;
    unsigned shift = 0, i = BLOB_LEN;
    for (; i < avail && shift < 63; i++, shift += 7) {
        len |= (uint64_t)(blob[i] & 0x7f) << shift;
        if (!(blob[i] & 0x80))
            break;
    }
    i++;
    if (i <= avail && len <= avail - i)
        copy_version(buf, size, blob + i, len);
}

static void pointer_version(const struct gr_elf *elf, const uint8_t *blob, char *buf, size_t size)
{
    uint64_t hdr_addr, str_addr, len;
    memcpy(&hdr_addr, blob + 16, 8);
    const uint8_t *hdr = gr_elf_bytes_at(elf, hdr_addr, 16);
    if (!hdr)
        return;   /* e.g. PIE: the pointer is filled in by a relocation */
    memcpy(&str_addr, hdr, 8);
    memcpy(&len, hdr + 8, 8);
    const uint8_t *s = len <= 64 ? gr_elf_bytes_at(elf, str_addr, len) : NULL;
    if (s)
        copy_version(buf, size, s, len);
}

static const uint8_t *find_blob(const struct gr_elf *elf, uint64_t *avail)
{
    const struct gr_section *s = gr_elf_section(elf, ".go.buildinfo");
    if (!s || s->type == 8 /* SHT_NOBITS */ || s->size < BLOB_LEN ||
        memcmp(elf->data + s->offset, MAGIC, MAGIC_LEN) != 0)
        return NULL;
    *avail = s->size;
    return elf->data + s->offset;
}

/* "go1.N" or "go1.N.M", optionally followed by a pre-release suffix
 * ("rc1", "beta2") or " X:experiment": what runtime.buildVersion holds. */
static int looks_like_version(const uint8_t *s, uint64_t len)
{
    if (len < 5 || len > 64 || memcmp(s, "go1.", 4) != 0 || s[4] < '0' || s[4] > '9')
        return 0;
    for (uint64_t i = 4; i < len; i++)
        if (s[i] < 0x20 || s[i] > 0x7e)
            return 0;
    return 1;
}

/* Some stripped programs (esbuild) drop .go.buildinfo. runtime.buildVersion
 * is still there: a Go string header (pointer, length) in .noptrdata or
 * .data pointing at the version in .rodata. Every such header must agree. */
static void scan_build_version(const struct gr_elf *elf, char *buf, size_t size)
{
    static const char *secs[] = {".noptrdata", ".data"};
    char found[65] = "";
    for (size_t k = 0; k < 2; k++) {
        const struct gr_section *s = gr_elf_section(elf, secs[k]);
        if (!s || s->type == 8 /* SHT_NOBITS */)
            continue;
        for (uint64_t off = 0; off + 16 <= s->size; off += 8) {
            uint64_t ptr, len;
            memcpy(&ptr, elf->data + s->offset + off, 8);
            memcpy(&len, elf->data + s->offset + off + 8, 8);
            if (len < 5 || len > 64)
                continue;
            const uint8_t *str = gr_elf_bytes_at(elf, ptr, len);
            if (!str || !looks_like_version(str, len))
                continue;
            if (found[0] && (strlen(found) != len || memcmp(found, str, len) != 0))
                return;   /* two different candidates: do not guess */
            memcpy(found, str, len);
            found[len] = 0;
        }
    }
    copy_version(buf, size, (const uint8_t *)found, strlen(found));
}

void gr_go_version(const struct gr_elf *elf, char *buf, size_t size)
{
    uint64_t avail = 0;
    const uint8_t *blob = find_blob(elf, &avail);
    buf[0] = 0;
    if (!blob) {
        scan_build_version(elf, buf, size);
        return;
    }
    if (blob[14] != 8)
        return;
    if (blob[15] & FLAG_INLINE_STRINGS)
        inline_version(blob, avail, buf, size);
    else if (blob[15] == 0)
        pointer_version(elf, blob, buf, size);
}

/* N of "go1.N...", or -1. */
static int minor_of(const char *v)
{
    if (strncmp(v, "go1.", 4) != 0)
        return -1;
    char *end;
    long minor = strtol(v + 4, &end, 10);
    return end == v + 4 || minor < 0 || minor > GR_GO_DEVEL_MINOR ? -1 : (int)minor;
}

struct gr_go_release gr_go_release(const char *version)
{
    static const char devel[] = "devel ";
    if (strncmp(version, devel, sizeof devel - 1) != 0)
        return (struct gr_go_release){.minor = minor_of(version)};
    int minor = minor_of(version + sizeof devel - 1);
    return (struct gr_go_release){.minor = minor < 0 ? GR_GO_DEVEL_MINOR : minor, .devel = 1};
}
