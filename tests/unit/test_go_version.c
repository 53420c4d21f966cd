/* test_go_version.c: rewriter/find/go_version.c on synthetic build info
 * (debug/buildinfo's two formats: the version inline after the 32-byte
 * header, Go >= 1.18, or through the address of a Go string header,
 * before), on malformed blobs, on the runtime.buildVersion scan used when
 * .go.buildinfo is missing, and gr_go_release. */
#include "rewriter/find/go_version.h"
#include "tests/unit/fake_elf.h"
#include "tests/unit/unit.h"

#include <string.h>

#define BASE 0x600000u   /* the fake ELF is loaded here */

enum { MAPPED = 512 };   /* bytes of the fake ELF loaded at BASE */

static void init(struct fake_elf *im)
{
    fake_elf_clear(im);
    fake_elf_map(im, BASE, MAPPED);
}

enum { BLOB = 64 };  /* .go.buildinfo's offset in the file */

/* The 32-byte header: magic, pointer size, flags. */
static void put_header(struct fake_elf *im, uint8_t ptr_size, uint8_t flags, size_t section_size)
{
    memcpy(im->bytes + BLOB, "\xff Go buildinf:", 14);
    im->bytes[BLOB + 14] = ptr_size;
    im->bytes[BLOB + 15] = flags;
    fake_elf_section(im, ".go.buildinfo", BLOB, section_size);
}

/* Go >= 1.18: varint length and the version right after the header, then
 * the module info the same way. */
static void put_inline(struct fake_elf *im, const char *version, size_t section_size)
{
    put_header(im, 8, 2, section_size);
    size_t n = strlen(version);
    im->bytes[BLOB + 32] = (uint8_t)n;
    memcpy(im->bytes + BLOB + 33, version, n);
    im->bytes[BLOB + 33 + n] = 4;
    memcpy(im->bytes + BLOB + 34 + n, "path", 4);
}

static const char *version_of(struct fake_elf *im, char *buf, size_t size)
{
    memset(buf, 'x', size);
    gr_go_version(&im->elf, buf, size);
    return buf;
}

static void inline_version(void)
{
    struct fake_elf im;
    char buf[80];
    init(&im);
    put_inline(&im, "go1.22.12", 64);
    CHECK_STR(version_of(&im, buf, sizeof buf), "go1.22.12");
    init(&im);
    put_inline(&im, "go1.25rc1 X:nocoverageredesign", 128);
    CHECK_STR(version_of(&im, buf, sizeof buf), "go1.25rc1 X:nocoverageredesign");
}

enum { HDR = 128, STR = 160 };

/* runtime.buildVersion "go1.15.15" as a Go string header at HDR, and the
 * blob's word at 16 pointing to it (the pre-1.18 format). */
static void put_build_version(struct fake_elf *im)
{
    fake_elf_put64(im, BLOB + 16, BASE + HDR);
    fake_elf_put64(im, HDR, BASE + STR);
    fake_elf_put64(im, HDR + 8, 9);
    memcpy(im->bytes + STR, "go1.15.15", 9);
}

/* The flags' other bit (big-endian) is not ignored: only 2 and 0 are read. */
static void inline_flag_with_endianness_bit(void)
{
    struct fake_elf im;
    char buf[80];
    init(&im);
    put_inline(&im, "go1.21.0", 64);
    put_build_version(&im);
    im.bytes[BLOB + 15] = 3;
    CHECK_STR(version_of(&im, buf, sizeof buf), "go1.21.0");
    im.bytes[BLOB + 15] = 1;
    CHECK_STR(version_of(&im, buf, sizeof buf), "");
}

/* Before Go 1.18: the header's word at 16 is the address of runtime.
 * buildVersion, a Go string header (pointer, length). */
static void pointer_version(void)
{
    struct fake_elf im;
    char buf[80];
    init(&im);
    put_header(&im, 8, 0, 32);
    put_build_version(&im);
    CHECK_STR(version_of(&im, buf, sizeof buf), "go1.15.15");
    im.secs[0].size = 31;      /* shorter than the header: not read */
    CHECK_STR(version_of(&im, buf, sizeof buf), "");
    im.secs[0].size = 32;
    /* PIE: the header's address is filled in by a relocation */
    fake_elf_put64(&im, BLOB + 16, 0x1000);
    CHECK_STR(version_of(&im, buf, sizeof buf), "");
    fake_elf_put64(&im, BLOB + 16, BASE + HDR);
    fake_elf_put64(&im, HDR + 8, 65);   /* longer than any version */
    CHECK_STR(version_of(&im, buf, sizeof buf), "");
    fake_elf_put64(&im, HDR + 8, 9);
    fake_elf_put64(&im, HDR, BASE + MAPPED - 4);  /* string past the mapping */
    CHECK_STR(version_of(&im, buf, sizeof buf), "");
}

static void malformed_blobs(void)
{
    struct fake_elf im;
    char buf[80];
    init(&im);
    put_inline(&im, "go1.22.1", 64);
    im.bytes[BLOB + 14] = 4;   /* a 32-bit program */
    CHECK_STR(version_of(&im, buf, sizeof buf), "");
    init(&im);
    put_inline(&im, "go1.22.1", 40);   /* the string runs past the section */
    CHECK_STR(version_of(&im, buf, sizeof buf), "");
    init(&im);
    put_inline(&im, "go1.22.1", 41);   /* it just fits */
    CHECK_STR(version_of(&im, buf, sizeof buf), "go1.22.1");
    init(&im);
    put_inline(&im, "go1.22.1", 64);
    im.bytes[BLOB + 32] = 0;           /* empty */
    CHECK_STR(version_of(&im, buf, sizeof buf), "");
    im.bytes[BLOB + 32] = 0x88;        /* varint 136: longer than 64 */
    im.bytes[BLOB + 33] = 0x01;
    CHECK_STR(version_of(&im, buf, sizeof buf), "");
    init(&im);
    put_inline(&im, "go1.22.1", 31);   /* shorter than the header */
    CHECK_STR(version_of(&im, buf, sizeof buf), "");
    init(&im);
    put_inline(&im, "go1.22.1", 64);
    im.bytes[BLOB + 3] = 'g';          /* not the magic */
    CHECK_STR(version_of(&im, buf, sizeof buf), "");
}

static void buffer_too_small(void)
{
    struct fake_elf im;
    char buf[9];
    init(&im);
    put_inline(&im, "go1.22.12", 64);
    CHECK_STR(version_of(&im, buf, sizeof buf), "");
    char big[10];
    CHECK_STR(version_of(&im, big, sizeof big), "go1.22.12");
}

/* No .go.buildinfo (esbuild): string headers in .noptrdata or .data that
 * point at a version; all of them must agree. */
static void build_version_scan(void)
{
    enum { DATA = 64, STR = 192, OTHER = 208 };
    struct fake_elf im;
    char buf[80];
    init(&im);
    fake_elf_section(&im, ".noptrdata", DATA, 64);
    memcpy(im.bytes + STR, "go1.26.1", 8);
    memcpy(im.bytes + OTHER, "go1.24.3", 8);
    fake_elf_put64(&im, DATA + 24, BASE + STR);
    fake_elf_put64(&im, DATA + 32, 8);
    CHECK_STR(version_of(&im, buf, sizeof buf), "go1.26.1");
    fake_elf_put64(&im, DATA + 40, BASE + STR);   /* the same version again */
    fake_elf_put64(&im, DATA + 48, 8);
    CHECK_STR(version_of(&im, buf, sizeof buf), "go1.26.1");
    fake_elf_put64(&im, DATA + 40, BASE + OTHER);  /* two versions: no guess */
    CHECK_STR(version_of(&im, buf, sizeof buf), "");
    fake_elf_put64(&im, DATA + 40, BASE + OTHER + 1); /* "o1.24.3" is no version */
    fake_elf_put64(&im, DATA + 48, 7);
    CHECK_STR(version_of(&im, buf, sizeof buf), "go1.26.1");
    memcpy(im.bytes + STR, "go1.x6.1", 8);   /* a digit must follow "go1." */
    CHECK_STR(version_of(&im, buf, sizeof buf), "");
    memcpy(im.bytes + STR, "go1.2\n.1", 8);  /* printable only */
    CHECK_STR(version_of(&im, buf, sizeof buf), "");
}

#define CHECK_RELEASE(v, mi, dev)                                                                  \
    do {                                                                                           \
        struct gr_go_release r_ = gr_go_release(v);                                                \
        CHECK_INT(r_.minor, mi);                                                                   \
        CHECK_INT(r_.devel, dev);                                                                  \
    } while (0)

static void go_release(void)
{
    CHECK_RELEASE("go1.22.12", 22, 0);
    CHECK_RELEASE("go1.9", 9, 0);
    CHECK_RELEASE("go1.25rc1", 25, 0);
    CHECK_RELEASE("go1.24.1 X:boringcrypto", 24, 0);
    CHECK_RELEASE("go1.1000", 1000, 0);
    CHECK_RELEASE("go1.1001", -1, 0);
    CHECK_RELEASE("go1.", -1, 0);
    CHECK_RELEASE("go2.0", -1, 0);
    CHECK_RELEASE("", -1, 0);
    /* development builds: the release they lead to, else newer than all */
    CHECK_RELEASE("devel go1.24-3d33437c45 Sun Aug 25 2024 +0000", 24, 1);
    CHECK_RELEASE("devel +abc Tue Jan 1 2019", GR_GO_DEVEL_MINOR, 1);
    CHECK_RELEASE("devel", -1, 0);
}

UNIT_CASES("go_version", UNIT_CASE(inline_version), UNIT_CASE(inline_flag_with_endianness_bit),
           UNIT_CASE(pointer_version), UNIT_CASE(malformed_blobs), UNIT_CASE(buffer_too_small),
           UNIT_CASE(build_version_scan), UNIT_CASE(go_release));
