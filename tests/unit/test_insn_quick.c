/* test_insn_quick.c: rewriter/find/insn_quick.c, the sweeps' decoder,
 * against Zydis's minimal mode: the same status, length, branch class,
 * relative displacement, ret and int3 on encodings Go's compiler and
 * assembler emit (the table's) and on ones the table leaves to Zydis
 * (prefixes, VEX, system instructions, truncated bytes); then on every
 * instruction of this test program's own text. */
#include "rewriter/find/insn_quick.h"
#include "tests/unit/unit.h"

#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct enc {
    const char *hex;
    int table;      /* the table answers: no Zydis needed */
};

static const struct enc encs[] = {
    {"493b6610", 1}, {"764d", 1}, {"0f8612345678", 1}, {"55", 1}, {"4889e5", 1},
    {"4883ec10", 1}, {"4881ec00010000", 1}, {"6681f93412", 1}, {"664881f978563412", 1},
    {"48b88877665544332211", 1}, {"66b83412", 1}, {"b878563412", 1}, {"41b005", 1},
    {"488d0578563412", 1}, {"488d442408", 1}, {"488b042578563412", 1}, {"4c8b24c578563412", 1},
    {"4c8b642408", 1}, {"c3", 1}, {"cc", 1}, {"e8fbffffff", 1}, {"e900010000", 1}, {"ebfe", 1},
    {"ffd0", 1}, {"ffe0", 1}, {"41ffe3", 1}, {"ff24c578563412", 1}, {"ff5008", 1},
    {"0f1f440000", 1}, {"660f1f840000000000", 1}, {"660fefc0", 1}, {"f30f100578563412", 1},
    {"f20f1044240c", 1}, {"0f110424", 1}, {"660f3a0fc108", 1}, {"660f3800c1", 1}, {"0fb6c0", 1},
    {"0fafc1", 1}, {"0f94c0", 1}, {"c60001", 1}, {"48c70078563412", 1}, {"f6c101", 1},
    {"f7d8", 1}, {"48f7f1", 1}, {"69c078563412", 1}, {"6bc005", 1}, {"0fbae003", 1}, {"0fc8", 1},
    {"98", 1}, {"4899", 1}, {"90", 1}, {"4863c1", 1}, {"48ffc0", 1}, {"fe00", 1}, {"d1e0", 1},
    {"48c1e003", 1}, {"a801", 1}, {"a978563412", 1}, {"3c05", 1}, {"4839c8", 1}, {"6a08", 1},
    {"6878563412", 1}, {"f30fb8c1", 0}, {"f3480fbcc1", 1}, {"660fd60424", 1}, {"0f70c11b", 1},
    {"660f70c11b", 1}, {"660fc6c101", 1},
    /* left to Zydis */
    {"64488b0c25f8ffffff", 0}, {"f0480fb10a", 0}, {"f348ab", 0}, {"c5fd6f06", 0},
    {"62f1fe486f06", 0}, {"0f05", 0}, {"0f0b", 0}, {"f30f1efa", 0}, {"c20800", 0}, {"e305", 0},
    {"8fc0", 0}, {"f3c3", 0}, {"48c3", 0}, {"66e800000000", 0}, {"0f3800c1", 0}, {"c5f877", 0},
    {"8dc0", 0}, {"48", 0}, {"e80102", 0}, {"488b04", 0}, {"0f86123456", 0}, {"f2", 0},
};

static int plain(const ZydisDecodedInstruction *in)
{
    switch (in->meta.category) {
    case ZYDIS_CATEGORY_COND_BR: case ZYDIS_CATEGORY_UNCOND_BR: case ZYDIS_CATEGORY_CALL:
    case ZYDIS_CATEGORY_RET: case ZYDIS_CATEGORY_INTERRUPT: case ZYDIS_CATEGORY_SYSCALL:
    case ZYDIS_CATEGORY_SYSTEM:
        return 0;
    default:
        return in->mnemonic != ZYDIS_MNEMONIC_UD2 && in->mnemonic != ZYDIS_MNEMONIC_UD0 &&
               in->mnemonic != ZYDIS_MNEMONIC_UD1 && in->mnemonic != ZYDIS_MNEMONIC_INT3;
    }
}

/* The fields the sweeps read agree with Zydis's; 1 when they do. */
static int agrees(const ZydisDecoder *zy, const uint8_t *p, size_t n, const char *what)
{
    ZydisDecodedInstruction a, q;
    int za = ZYAN_SUCCESS(ZydisDecoderDecodeInstruction(zy, NULL, p, n, &a));
    int zq = ZYAN_SUCCESS(gr_insn_quick(zy, p, n, &q));
    unsigned before = unit_failures();
    if (!CHECK_INT(zq, za) || !za)
        return unit_failures() == before;
    CHECK_INT(q.length, a.length);
    CHECK_INT(plain(&q), plain(&a));
    if (!plain(&a))
        CHECK_INT(q.meta.category, a.meta.category);
    CHECK_INT(q.raw.imm[0].is_relative, a.raw.imm[0].is_relative);
    if (a.raw.imm[0].is_relative)
        CHECK_INT(q.raw.imm[0].value.s, a.raw.imm[0].value.s);
    CHECK_INT(q.mnemonic == ZYDIS_MNEMONIC_RET, a.mnemonic == ZYDIS_MNEMONIC_RET);
    CHECK_INT(q.mnemonic == ZYDIS_MNEMONIC_INT3, a.mnemonic == ZYDIS_MNEMONIC_INT3);
    if (unit_failures() != before)
        fprintf(stderr, "  at %s\n", what);
    return unit_failures() == before;
}

static void minimal(ZydisDecoder *zy)
{
    ZydisDecoderInit(zy, ZYDIS_MACHINE_MODE_LONG_64, ZYDIS_STACK_WIDTH_64);
    ZydisDecoderEnableMode(zy, ZYDIS_DECODER_MODE_MINIMAL, ZYAN_TRUE);
}

static size_t unhex(const char *hex, uint8_t *out)
{
    size_t n = 0;
    for (; hex[0] && hex[1]; hex += 2) {
        unsigned b;
        sscanf(hex, "%2x", &b);
        out[n++] = (uint8_t)b;
    }
    return n;
}

static void encodings(void)
{
    ZydisDecoder zy;
    minimal(&zy);
    for (size_t i = 0; i < sizeof encs / sizeof encs[0]; i++) {
        uint8_t b[16];
        size_t n = unhex(encs[i].hex, b);
        agrees(&zy, b, n, encs[i].hex);
        ZydisDecodedInstruction q;   /* without a decoder only the table can answer */
        if (!CHECK_INT(ZYAN_SUCCESS(gr_insn_quick(NULL, b, n, &q)), encs[i].table))
            fprintf(stderr, "  at %s\n", encs[i].hex);
    }
}

/* Every instruction of the executable sections of this program, swept
 * linearly as the sweeps do (a byte Zydis rejects is stepped over). */
static void own_text(void)
{
    FILE *f = fopen("/proc/self/exe", "rb");
    if (!CHECK(f != NULL))
        return;
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    rewind(f);
    uint8_t *b = malloc((size_t)size);
    CHECK(b && fread(b, 1, (size_t)size, f) == (size_t)size);
    fclose(f);
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)b;
    const Elf64_Shdr *sh = (const Elf64_Shdr *)(b + eh->e_shoff);
    ZydisDecoder zy;
    minimal(&zy);
    size_t insns = 0, bad = 0;
    for (unsigned i = 0; i < eh->e_shnum; i++) {
        if (sh[i].sh_type != SHT_PROGBITS || !(sh[i].sh_flags & SHF_EXECINSTR))
            continue;
        const uint8_t *c = b + sh[i].sh_offset;
        for (size_t off = 0; off < sh[i].sh_size && bad < 5;) {
            ZydisDecodedInstruction a;
            char what[64];
            snprintf(what, sizeof what, "section %u offset 0x%zx", i, off);
            bad += !agrees(&zy, c + off, sh[i].sh_size - off, what);
            insns++;
            off += ZYAN_SUCCESS(ZydisDecoderDecodeInstruction(&zy, NULL, c + off, sh[i].sh_size - off, &a))
                       ? a.length : 1;
        }
    }
    CHECK(insns > 1000);   /* this program: a few thousand */
    free(b);
}

UNIT_CASES("insn_quick", UNIT_CASE(encodings), UNIT_CASE(own_text));
