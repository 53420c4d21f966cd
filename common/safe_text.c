/* safe_text.c: deciding which characters of untrusted text may reach a
 * terminal (safe_text.h), by the rule format/text_rule.h holds for the
 * stubs too. */
#include "common/safe_text.h"
#include "format/text_rule.h"

size_t gr_utf8_sequence_length(const unsigned char *p)
{
    return gs_utf8_sequence_length(p);
}

unsigned gr_utf8_code_point(const unsigned char *p, size_t len)
{
    return gs_utf8_code_point(p, len);
}

bool gr_text_is_control(const unsigned char *p, size_t len)
{
    return gs_code_point_is_control(gs_utf8_code_point(p, len));
}

size_t gr_text_unit(const unsigned char *p, bool *safe)
{
    int ok;
    size_t len = gs_text_unit(p, &ok);
    *safe = ok;
    return len;
}

char *gr_text_make_safe(char *s)
{
    unsigned char *in = (unsigned char *)s, *out = in;
    while (*in) {
        bool safe;
        size_t len = gr_text_unit(in, &safe);
        if (!safe) {
            *out++ = '?';
            in += len;
            continue;
        }
        while (len--)
            *out++ = *in++;
    }
    *out = '\0';
    return s;
}
