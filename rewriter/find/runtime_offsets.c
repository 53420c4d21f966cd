/* runtime_offsets.c: the table of verified rows (see runtime_offsets.h).
 * To add a release: build any program with it, read the member offsets of
 * runtime.g and runtime.m from its DWARF (scripts/go_layout.py BINARY
 * prints all four; `gorewrite --print-layout` prints them as DWARF, the
 * type descriptors and rt0_go state them), add a row, and run make check
 * (tests/rewriter/t_layout.sh compares the derivations with DWARF for every
 * toolchain at hand). A row is a cross-check, not the only source: every
 * program's own offsets are derived again and must agree with it
 * (offsets_decide.c). How each row was verified: docs/runtime-offsets.md. */
#include "rewriter/find/runtime_offsets.h"

#include <stddef.h>
#include <stdio.h>

/* The signal fields (have_sig) come from go_sigpanic.c's table and the
 * binary, not from here. */
#define ROW(mi, gm, hi, rc, tls) \
    {.minor = (mi), .g_m = (gm), .g_stack_hi = (hi), .g_racectx = (rc), .m_tls = (tls)}

static const struct gr_runtime_offsets rows[] = {
    /* minor  g.m   stack.hi racectx m.tls */
    ROW(15, 0x30, 0x08, 0x130, 0x88),
    ROW(16, 0x30, 0x08, 0x130, 0x88),
    ROW(17, 0x30, 0x08, 0x140, 0x88),
    ROW(18, 0x30, 0x08, 0x140, 0x88),
    ROW(19, 0x30, 0x08, 0x140, 0x88),
    ROW(20, 0x30, 0x08, 0x140, 0x88),
    ROW(21, 0x30, 0x08, 0x130, 0x88),
    ROW(22, 0x30, 0x08, 0x130, 0x88),
    ROW(23, 0x30, 0x08, 0x138, 0x88),
    ROW(24, 0x30, 0x08, 0x138, 0x88),
    ROW(25, 0x30, 0x08, 0x130, 0x80),
    ROW(26, 0x30, 0x08, 0x138, 0x80),
    ROW(27, 0x30, 0x08, 0x138, 0x80),
};

#define NROWS (sizeof rows / sizeof rows[0])

const char *gr_go_field_name(int field)
{
    static const char *names[GR_GO_NFIELDS] = {"g.m", "g.stack.hi", "g.racectx", "m.tls",
                                               "g.sig", "g.sigcode0", "g.sigcode1", "g.sigpc",
                                               "g.gopc", "g.startpc"};
    return field >= 0 && field < GR_GO_NFIELDS ? names[field] : "?";
}

void gr_go_found_set(struct gr_go_found *f, int field, uint32_t off)
{
    f->off[field] = off;
    f->have |= 1u << field;
}

struct gr_go_found gr_offsets_as_found(const struct gr_runtime_offsets *l)
{
    struct gr_go_found f = {.off = {l->g_m, l->g_stack_hi, l->g_racectx, l->m_tls, l->g_sig,
                                    l->g_sigcode0, l->g_sigcode1, l->g_sigpc, l->g_gopc,
                                    l->g_startpc},
                            .have = (1u << GR_GO_NCORE) - 1};
    if (l->have_sig)
        f.have |= GR_GO_SIG_FIELDS;
    if (l->have_site)
        f.have |= GR_GO_SITE_FIELDS;
    return f;
}

const struct gr_runtime_offsets *gr_offsets_row(int minor)
{
    for (size_t i = 0; i < NROWS; i++)
        if (rows[i].minor == minor)
            return &rows[i];
    return NULL;
}

int gr_offsets_newest(void)
{
    return rows[NROWS - 1].minor;
}

/* Runs of consecutive rows as ranges: "1.15-1.27". */
const char *gr_offsets_known(void)
{
    static char buf[256];
    size_t len = 0;
    for (size_t i = 0; i < NROWS && len < sizeof buf; i++) {
        size_t j = i;
        while (j + 1 < NROWS && rows[j + 1].minor == rows[j].minor + 1)
            j++;
        int n = j == i ? snprintf(buf + len, sizeof buf - len, "%s1.%d", i ? ", " : "",
                                  rows[i].minor)
                       : snprintf(buf + len, sizeof buf - len, "%s1.%d-1.%d", i ? ", " : "",
                                  rows[i].minor, rows[j].minor);
        len += n > 0 ? (size_t)n : 0;
        i = j;
    }
    return buf;
}
