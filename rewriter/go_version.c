/* go_version.c: reads runtime.buildVersion through the build info blob:
 * "\xff Go buildinf:", pointer size, flags; with flag 2 (Go >= 1.18) the
 * version follows at offset 32 as a varint-prefixed string, before that
 * the blob holds the address of a Go string header. Reference:
 * debug/buildinfo/buildinfo.go. */
#include "go_version.h"

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

void gr_go_version(const struct gr_elf *elf, char *buf, size_t size)
{
    uint64_t avail = 0;
    const uint8_t *blob = find_blob(elf, &avail);
    buf[0] = 0;
    if (!blob || blob[14] != 8)
        return;
    if (blob[15] & FLAG_INLINE_STRINGS)
        inline_version(blob, avail, buf, size);
    else if (blob[15] == 0)
        pointer_version(elf, blob, buf, size);
}

int gr_go_minor(const char *version)
{
    if (strncmp(version, "go1.", 4) != 0)
        return -1;
    char *end;
    long minor = strtol(version + 4, &end, 10);
    return end == version + 4 || minor < 0 || minor > 1000 ? -1 : (int)minor;
}
