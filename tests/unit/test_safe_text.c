/* test_safe_text.c: common/safe_text.c, the one test of what may reach a
 * terminal: controls (C0, DEL, C1) and the bidirectional formatting
 * controls become '?' with their neighbours kept, whole and broken UTF-8,
 * and the code points the JSON escapes print. */
#include "tests/unit/unit.h"
#include "common/safe_text.h"

#include <stdlib.h>
#include <string.h>

static void check_safe(const char *in, const char *want)
{
    char *s = strdup(in);
    CHECK(s != NULL);
    if (s)
        CHECK_STR(gr_text_make_safe(s), want);
    free(s);
}

static void controls_replaced(void)
{
    check_safe("a\tb\x7f" "c", "a?b?c");
    check_safe("x\xc2\x9b" "1m", "x?1m");      /* U+009B, the C1 CSI */
    check_safe("x\x9b" "1m", "x?1m");          /* a raw 0x9B */
    check_safe("\xc2\xa0\xc3\xa9", "\xc2\xa0\xc3\xa9"); /* U+00A0, e acute: printable */
}

/* Each bidi control alone and inside a name: U+202E would show
 * "main.txt\u202Egpj.exe" as "main.txtexe.jpg". */
static void bidi_controls_replaced(void)
{
    static const char *const bidi[] = {
        "\xd8\x9c",                                             /* U+061C ALM */
        "\xe2\x80\x8e", "\xe2\x80\x8f",                         /* U+200E LRM, U+200F RLM */
        "\xe2\x80\xaa", "\xe2\x80\xab", "\xe2\x80\xac", "\xe2\x80\xad", "\xe2\x80\xae", /* U+202A-E */
        "\xe2\x81\xa6", "\xe2\x81\xa7", "\xe2\x81\xa8", "\xe2\x81\xa9",                 /* U+2066-9 */
    };
    for (size_t i = 0; i < sizeof bidi / sizeof bidi[0]; i++) {
        char in[32];
        strcpy(in, "main.f");
        strcat(in, bidi[i]);
        strcat(in, "oo");
        check_safe(in, "main.f?oo");
        CHECK(gr_text_is_control((const unsigned char *)bidi[i], strlen(bidi[i])));
    }
    check_safe("main.txt\xe2\x80\xaegpj.exe", "main.txt?gpj.exe");
}

/* The code points next to the bidi controls are printable. */
static void neighbours_kept(void)
{
    static const char *const kept[] = {
        "\xd8\x9b", "\xd8\x9d",          /* U+061B, U+061D */
        "\xe2\x80\x8d", "\xe2\x80\x90",  /* U+200D ZWJ (emoji sequences), U+2010 */
        "\xe2\x80\xa9", "\xe2\x80\xaf",  /* U+2029, U+202F */
        "\xe2\x81\xa5", "\xe2\x81\xaa",  /* U+2065, U+206A */
    };
    for (size_t i = 0; i < sizeof kept / sizeof kept[0]; i++)
        check_safe(kept[i], kept[i]);
}

static void code_points(void)
{
    CHECK_U64(gr_utf8_code_point((const unsigned char *)"A", 1), 0x41);
    CHECK_U64(gr_utf8_code_point((const unsigned char *)"\xc2\x9b", 2), 0x9B);
    CHECK_U64(gr_utf8_code_point((const unsigned char *)"\xe2\x80\xae", 3), 0x202E);
    CHECK_U64(gr_utf8_code_point((const unsigned char *)"\xf0\x9f\x98\x80", 4), 0x1F600);
}

static void broken_utf8_replaced(void)
{
    check_safe("a\xe2\x80" "b", "a??b");      /* a cut sequence: each byte alone */
    check_safe("\xc0\xaf", "??");              /* overlong */
    check_safe("\xed\xa0\x80", "???");         /* a surrogate */
}

UNIT_CASES("safe_text",
           UNIT_CASE(controls_replaced),
           UNIT_CASE(bidi_controls_replaced),
           UNIT_CASE(neighbours_kept),
           UNIT_CASE(code_points),
           UNIT_CASE(broken_utf8_replaced));
